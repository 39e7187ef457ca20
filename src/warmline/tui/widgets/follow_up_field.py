"""The follow-up a form's text promises, shown live under the text, kept or dropped in one key.

The log-activity and note forms read their text with the follow-up parser as the rep
types (`warmline.followup_phrases.parse_follow_up`, ~30 us a line) and show what it
understood in the rep's zone: "Follow-up: Fri 27 Nov (by Friday)". `ctrl+f` (the form's
key) turns it off and on; the day field under it takes another day (the parser's words or
ISO 8601), which wins over the text's. Nothing read and nothing typed: a dim line says
there is no follow-up. The form asks `choice()` on send: the day to keep, or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Static

from warmline.followup_phrases import FollowUpGuess, parse_follow_up
from warmline.tui.safe import plain
from warmline.tui.screens.follow_up_words import day_text, read_day


@dataclass(frozen=True)
class FollowUpChoice:
    """The follow-up a form keeps: its day, time and the words it was read from (None when
    the rep typed an ISO date)."""

    due: date
    at: time | None
    phrase: str | None


class FollowUpField(Vertical):
    """The live follow-up line and the day field of a form."""

    DEFAULT_CSS = """
    FollowUpField { height: auto; }
    FollowUpField > Horizontal { height: 1; }
    FollowUpField Label { width: auto; color: $foreground-muted; }
    FollowUpField #follow-up-day { width: 1fr; height: 1; border: none; padding: 0 1; }
    FollowUpField #follow-up-day:focus { background: $boost; }
    """

    def __init__(self, now: Callable[[], datetime], *, id: str | None = None) -> None:
        """`now` is aware, in the rep's zone (the cockpit's clock)."""
        super().__init__(id=id)
        self._now = now
        self.enabled = True
        """ctrl+f turns it off: the text's day is then not kept."""
        self.read_from = ""
        """The text last read (the form's, as typed)."""
        self.guess: FollowUpGuess | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="follow-up-line")
        with Horizontal():
            yield Label("Another day: ")
            yield Input(
                placeholder="friday or 3 Dec (empty: as read)",
                id="follow-up-day",
            )

    def on_mount(self) -> None:
        self._show()

    def read(self, text: str) -> None:
        """Read the form's text again (on each change)."""
        self.read_from = text
        self.guess = parse_follow_up(text, self._now()) if text.strip() else None
        self._show()

    def toggle(self) -> None:
        self.enabled = not self.enabled
        self._show()

    @property
    def typed(self) -> str:
        return self.query_one("#follow-up-day", Input).value.strip()

    @on(Input.Changed, "#follow-up-day")
    def _typed(self) -> None:
        self._show()

    def choice(self) -> FollowUpChoice | None:
        """The follow-up to keep on send, or None (off, or nothing read or typed).

        Raises ValueError (the message to show) when the day typed cannot be read."""
        if not self.enabled:
            return None
        if self.typed:
            day, at, phrase = read_day(self.typed, self._now())
            return FollowUpChoice(day, at, phrase)
        if self.guess is None:
            return None
        return FollowUpChoice(self.guess.due, self.guess.at, self.guess.phrase)

    def _show(self) -> None:
        line = Text()
        now = self._now()
        try:
            typed = read_day(self.typed, now) if self.typed else None
        except ValueError as refused:
            line.append("Follow-up: ", style="bold")
            line.append_text(plain(str(refused), "bold red"))
            self.query_one("#follow-up-line", Static).update(line)
            return
        if typed is not None:
            day, at, phrase = typed
        elif self.guess is not None:
            day, at, phrase = self.guess.due, self.guess.at, self.guess.phrase
        else:
            line.append("No follow-up (a day in the text, or typed below, makes one)", style="dim")
            self.query_one("#follow-up-line", Static).update(line)
            return
        when = Text(day_text(day, at, now.date()))
        if phrase:
            when.append(" (")
            when.append_text(plain(phrase))
            when.append(")")
        if self.enabled:
            line.append("Follow-up: ", style="bold")
            line.append_text(when.copy())
            line.stylize("bold", 0, len(line))
            line.append(" · ctrl+f drops it", style="dim")
        else:
            line.append("Follow-up off: ", style="dim")
            when.stylize("dim")
            line.append_text(when)
            line.append(" · ctrl+f keeps it", style="dim")
        self.query_one("#follow-up-line", Static).update(line)
