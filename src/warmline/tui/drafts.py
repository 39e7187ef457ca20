"""What a rep typed into a text form and did not send, back when the form opens again.

An activity or a note half-written was lost with one escape, pressed by mistake or to look
something up on the lead's page first, and then with a quit (ctrl+q with the form open, or
after escape). The text is kept per form and lead, and the form opens with it; sending it,
or emptying it, drops it. It is kept in `drafts.json` in the data dir (0600, as the cache),
so it outlives the cockpit: a form's text is not yet an action (nothing is queued), but it
is the rep's work. Without a data dir (an in-memory cache) it lives in memory.

The file is ours but read as untrusted, like the cache: entries of another shape are
skipped, texts are made safe for the terminal, and a file that cannot be read is renamed
`drafts.json.unreadable` (nothing lost) with one line in the log. A write that fails (a
full disk) keeps the texts in memory and says so in the log once.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

from warmline.config import write_private
from warmline.textsafe import terminal_text

log = logging.getLogger("warmline.tui")

FILE_NAME = "drafts.json"

LIMIT = 50
"""Drafts kept at most; the oldest goes first (a rep has a few open, not hundreds)."""

MAX_FILE_BYTES = 1024 * 1024
"""A larger drafts file is not ours to read whole (50 texts of a form's 5,000 characters
are ~250 KB with JSON's escapes at worst): it is set aside as unreadable."""

DraftKey = tuple[str, int]
"""The form and the record it is about: ("activity", lead id), ("note", lead id)."""


class Drafts:
    """The texts left in forms, by `DraftKey`, kept in `path` when given."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._texts: dict[DraftKey, str] = {}
        self._write_failed = False
        self._refresh()

    def text(self, key: DraftKey) -> str:
        self._refresh()
        return self._texts.get(key, "")

    def keep(self, key: DraftKey, text: str) -> None:
        """Keep `text` for the form's next opening; blank text drops what was kept.

        The file is read again first, and only this form's text changed in it: a second
        cockpit (another terminal, a browser session) may have kept texts meanwhile."""
        self._refresh()
        before = self._texts.get(key)
        self._texts.pop(key, None)  # re-inserted last: the newest
        if text.strip():
            self._texts[key] = text
            while len(self._texts) > LIMIT:
                del self._texts[next(iter(self._texts))]
        if self._texts.get(key) != before:
            self._save()

    def slot(self, form: str, record_id: int) -> Draft:
        return Draft(self, (form, record_id))

    def _refresh(self) -> None:
        """The file's texts, as another cockpit may have changed them: a form opens with
        what was kept there, and closing it changes that, not what this process read at
        its start. (After a failed write, memory holds texts the file lacks: it is kept.)"""
        if self.path is None or self._write_failed:
            return
        on_disk = _read(self.path)
        if on_disk is None:
            self.path = None  # never write over what could not be read
        else:
            self._texts = on_disk

    def _save(self) -> None:
        if self.path is None:
            return
        rows = [[form, record_id, text] for (form, record_id), text in self._texts.items()]
        try:
            write_private(self.path, json.dumps(rows, ensure_ascii=False))
        except OSError as exc:
            if not self._write_failed:
                log.warning("unsent form texts are kept in memory only: %s could not be written (%s)",
                            self.path, exc.strerror or exc)
            self._write_failed = True
        else:
            self._write_failed = False


def _read(path: Path) -> dict[DraftKey, str] | None:
    """The texts in `path`, oldest first; none when it is missing. An unreadable file is
    renamed aside; None when it could not be read or renamed, so that it is not written
    over (the texts then live in memory)."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("unsent form texts not read, and new ones kept in memory only: %s (%s)",
                    path, exc.strerror or exc)
        return None
    try:
        if len(raw) > MAX_FILE_BYTES:
            raise ValueError(f"over {MAX_FILE_BYTES // 1024} KB")
        rows = json.loads(raw.decode("utf-8"))
        if not isinstance(rows, list):
            raise ValueError("not a list")
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return {} if _set_aside(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__) else None
    texts: dict[DraftKey, str] = {}
    for row in rows:
        if (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                and type(row[1]) is int and isinstance(row[2], str) and row[2].strip()):
            key = (terminal_text(row[0]), row[1])
            texts.pop(key, None)
            texts[key] = terminal_text(row[2])
    while len(texts) > LIMIT:
        del texts[next(iter(texts))]
    return texts


def _set_aside(path: Path, why: str) -> bool:
    aside = path.with_name(f"{path.name}.unreadable")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.unreadable-{number}")
    try:
        path.rename(aside)
    except OSError as exc:
        log.warning("unsent form texts not read, and new ones kept in memory only: %s is unreadable (%s)"
                    " and could not be renamed (%s)", path, why, exc.strerror or exc)
        return False
    log.warning("unsent form texts not read: %s is unreadable (%s); kept as %s", path, why, aside.name)
    return True


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
