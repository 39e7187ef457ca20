"""The follow-up dialogs: snooze (a day, a week, a day typed) and add one by hand.

Opened by the keys of `warmline.tui.screens.follow_up_actions`; each reads a typed day live
under its field, as the activity form does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import date, datetime, time

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from warmline.tui.bindings import key_for
from warmline.tui.safe import plain
from warmline.tui.screens.dialog_screen import DialogScreen
from warmline.tui.screens.follow_up_words import (
    LOCAL_ONLY,
    SNOOZE_DAY,
    SNOOZE_WEEK,
    day_text,
    one_line,
    read_day,
)
from warmline.tui.widgets.key_bar import KeyBar
from warmline.work_days import DEFAULT_WORK_DAYS, snoozed_to

DAY_HINT = "friday, tomorrow at 10, in two weeks, 3 Dec or 2026-12-03"
SNOOZE_HINT = "monday 9am, tomorrow at 10, in 2 weeks, 3 Dec"
"""The snooze dialog's placeholder: short enough to show whole at 80 columns."""


class SnoozeDialog(DialogScreen[tuple[date, time | None] | None]):
    """When a follow-up is due instead: `1` a day (the next working day), `2` a week, `3`
    type a day (the parser's words or ISO 8601, read live under the field as the log form
    reads its text; enter keeps it); escape leaves it as it was. Dismisses with the new
    day and the time typed with it (None: the follow-up keeps its own), or None."""

    DEFAULT_CSS = """
    SnoozeDialog > Vertical { max-width: 70; }
    """

    AUTO_FOCUS = ""  # no auto focus: 1 and 2 are choices, not typing; 3 goes to the day field

    BINDINGS = [
        Binding("1", f"pick({SNOOZE_DAY})", "A day", id="snooze.day"),
        Binding("2", f"pick({SNOOZE_WEEK})", "A week", id="snooze.week"),
        Binding("3", "type_day", "Pick a date", id="snooze.date"),
        Binding("escape", "cancel", "Cancel", priority=True, id="snooze.cancel"),
    ]

    def __init__(
        self, text: str, now: datetime, work_days: Collection[int] = DEFAULT_WORK_DAYS, *, due: date | None = None
    ) -> None:
        """`due`: the day the follow-up is due now; a day or a week count from it while it
        is still ahead (`snoozed_to`), else from today."""
        super().__init__()
        self._text = text
        self._now = now
        self._work_days = work_days
        self._due = due or now.date()

    @property
    def today(self) -> date:
        return self._now.date()

    def compose(self) -> ComposeResult:
        today = self.today
        with Vertical():
            yield Static(Text("Snooze: ") + plain(one_line(self._text)), classes="dialog-title")
            day, week, pick, cancel = (key_for(self.app, self, f"snooze.{name}") for name in ("day", "week", "date", "cancel"))
            choices = Text()
            choices.append(day, style="bold")
            choices.append(f"  a day ({day_text(self._day(SNOOZE_DAY), None, today)})\n")
            choices.append(week, style="bold")
            choices.append(f"  a week ({day_text(self._day(SNOOZE_WEEK), None, today)})\n")
            choices.append(pick, style="bold")
            choices.append("  pick a date:")
            yield Static(choices)
            yield Input(placeholder=SNOOZE_HINT, id="snooze-day")
            yield Static(Text("-", style="dim"), id="snooze-read", classes="dialog-hint")
            yield Static("", classes="dialog-error", id="snooze-error")
            yield Static(
                Text(f"{day} · {week} · {pick} then enter · {cancel} leaves it as it is"), classes="dialog-hint"
            )
        yield KeyBar()

    def _day(self, days: int) -> date:
        return snoozed_to(self._due, self.today, days, self._work_days)

    def action_pick(self, days: int) -> None:
        self.dismiss((self._day(days), None))

    def action_type_day(self) -> None:
        self.query_one("#snooze-day", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Changed, "#snooze-day")
    def _changed(self, event: Input.Changed) -> None:
        self.query_one("#snooze-error", Static).update("")
        self.query_one("#snooze-read", Static).update(read_line(event.value, self._now))

    @on(Input.Submitted, "#snooze-day")
    def _typed(self, event: Input.Submitted) -> None:
        try:
            day, at, _ = read_day(event.value, self._now)
        except ValueError as problem:
            self.query_one("#snooze-error", Static).update(plain(str(problem)))
            return
        self.dismiss((day, at))


def read_line(typed: str, now: datetime) -> Text:
    """What a typed day means, for the line under a day field: "due Mon 30 Nov 09:00",
    "not a day yet", or a dim "-" while it is empty."""
    line = Text()
    if not typed.strip():
        line.append("-", style="dim")
        return line
    try:
        day, at, _ = read_day(typed, now)
    except ValueError:
        line.append("not a day yet", style="dim")
    else:
        line.append(f"due {day_text(day, at, now.date())}", style="bold")
    return line


class AddFollowUpDialog(DialogScreen[bool]):
    """A follow-up added by hand on a lead: the day (the parser's words or ISO 8601, read
    live) and what to do. Enter in the last field or ctrl+s keeps it; escape cancels.

    `submit(due, at, text)` stores it and returns an error to show, or None when kept."""

    DEFAULT_CSS = """
    AddFollowUpDialog > Vertical { max-width: 80; }
    """

    BINDINGS = [
        Binding("ctrl+s", "send", "Keep", priority=True, id="add_follow_up.send"),
        Binding("escape", "cancel", "Cancel", priority=True, id="add_follow_up.cancel"),
    ]

    def __init__(
        self,
        company: str,
        now: datetime,
        submit: Callable[[date, time | None, str], str | None],
    ) -> None:
        super().__init__()
        self._company = company
        self._now = now
        self._submit = submit

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Follow-up on ") + plain(self._company), classes="dialog-title")
            yield Label("When")
            yield Input(placeholder=DAY_HINT, id="follow-up-due")
            yield Static(Text("-", style="dim"), id="follow-up-read", classes="dialog-hint")
            yield Label("What to do")
            yield Input(placeholder="send the pricing", id="follow-up-text")
            yield Static("", classes="dialog-error", id="follow-up-error")
            yield Static(
                Text(f"enter or {key_for(self.app, self, 'add_follow_up.send')} keep"
                     f" · {key_for(self.app, self, 'add_follow_up.cancel')} cancel · {LOCAL_ONLY}"),
                classes="dialog-hint",
            )
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#follow-up-due", Input).focus()

    @on(Input.Changed, "#follow-up-due")
    def _due_changed(self, event: Input.Changed) -> None:
        self.query_one("#follow-up-read", Static).update(read_line(event.value, self._now))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "follow-up-due":
            self.query_one("#follow-up-text", Input).focus()
        else:
            self.action_send()

    def action_send(self) -> None:
        error = self._send()
        if error:
            self.query_one("#follow-up-error", Static).update(plain(error))
        else:
            self.dismiss(True)

    def _send(self) -> str | None:
        typed = self.query_one("#follow-up-due", Input).value
        if not typed.strip():
            return f"when is it due? e.g. {DAY_HINT}"
        try:
            day, at, _ = read_day(typed, self._now)
        except ValueError as problem:
            return str(problem)
        return self._submit(day, at, self.query_one("#follow-up-text", Input).value)

    def action_cancel(self) -> None:
        self.dismiss(False)
