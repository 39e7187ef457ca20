"""What a rep typed into a text form and left with escape, back when the form opens again.

An activity or a note half-written was lost with one escape, pressed by mistake or to look
something up on the lead's page first. The text is kept per form and lead for as long as
the cockpit runs, and the form opens with it; sending it, or emptying it, drops it. It is
kept in memory only: a form's text is not yet an action (nothing is queued, so nothing of
the rep's work with the service is at stake), and a cockpit that quits forgets it.
"""

from __future__ import annotations

from dataclasses import dataclass

LIMIT = 50
"""Drafts kept at most; the oldest goes first (a rep has a few open, not hundreds)."""

DraftKey = tuple[str, int]
"""The form and the record it is about: ("activity", lead id), ("note", lead id)."""


class Drafts:
    """The texts left in forms, by `DraftKey`."""

    def __init__(self) -> None:
        self._texts: dict[DraftKey, str] = {}

    def text(self, key: DraftKey) -> str:
        return self._texts.get(key, "")

    def keep(self, key: DraftKey, text: str) -> None:
        """Keep `text` for the form's next opening; blank text drops what was kept."""
        self._texts.pop(key, None)  # re-inserted last: the newest
        if text.strip():
            self._texts[key] = text
            while len(self._texts) > LIMIT:
                del self._texts[next(iter(self._texts))]

    def slot(self, form: str, record_id: int) -> Draft:
        return Draft(self, (form, record_id))


@dataclass(frozen=True)
class Draft:
    """One form's place in `Drafts`, handed to the form (`TextDialog`)."""

    drafts: Drafts
    key: DraftKey

    @property
    def text(self) -> str:
        return self.drafts.text(self.key)

    def keep(self, text: str) -> None:
        self.drafts.keep(self.key, text)
