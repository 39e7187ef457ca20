"""Follow-ups in the cockpit: the one set of keys, the snooze and add dialogs, and the calls.

Shared by every screen that lists follow-ups (the lead page, Today), so done, snooze and
add by hand are the same keys and the same words wherever the rep meets a follow-up:
`FOLLOW_UP_BINDINGS` (x done, z snooze a day, Z snooze: a day, a week or a day picked,
f add by hand). A screen spreads them into its `BINDINGS` (with `dataclasses.replace` to
hide them from its key bar if it likes: the ids stay, so a remap in the config's [keys]
moves the key on every screen) and implements the actions named there.

Follow-ups are kept on this computer only (`warmline.store.followups`): nothing is
queued for the service, so these calls change the follow-ups file at once and say so.

Light at import: Today is the first screen, so the actions (which load the HTTP stack
through `warmline.actions`) load inside the functions that change a follow-up.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection
from datetime import date, datetime, time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from warmline.store.database import CacheUnusable
from warmline.tui.safe import plain
from warmline.tui.screens.base import DialogScreen
from warmline.tui.widgets.key_bar import KeyBar
from warmline.work_days import DEFAULT_WORK_DAYS, snooze_day

if TYPE_CHECKING:
    from warmline.store.followups import FollowUp, FollowUps, Source
    from warmline.tui.context import Cockpit

SNOOZE_DAY = 1
SNOOZE_WEEK = 7

FOLLOW_UP_BINDINGS: list[Binding] = [
    Binding("x", "follow_up_done", "Follow-up done", id="followups.done"),
    Binding(
        "z", f"follow_up_snooze({SNOOZE_DAY})", "Snooze follow-up a day", id="followups.snooze_day"
    ),
    Binding(
        "Z",
        "follow_up_snooze_menu",
        "Snooze follow-up (a day, a week, a date)",
        id="followups.snooze",
    ),
    Binding("f", "add_follow_up", "Add a follow-up", id="followups.add"),
]
"""The follow-up keys of every screen that lists follow-ups. A screen implements
`action_follow_up_done`, `action_follow_up_snooze(days)`, `action_follow_up_snooze_menu`
and `action_add_follow_up` (usually with `mark_done`, `snooze`, `ask_snooze` and
`ask_new_follow_up` below)."""

LOCAL_ONLY = "kept on this computer only"
DAY_HINT = "friday, tomorrow at 10, in two weeks, 3 Dec or 2026-12-03"
SNOOZE_HINT = "monday 9am, tomorrow at 10, in 2 weeks, 3 Dec"
"""The snooze dialog's placeholder: short enough to show whole at 80 columns."""
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def rep_now(cockpit: Cockpit) -> datetime:
    """Now in the rep's zone, from the cockpit's clock (fixed in tests): what "tomorrow" is
    read against and what "today" is."""
    return cockpit.clock().astimezone(cockpit.zone)


def day_text(day: date, at: time | None = None, today: date | None = None) -> str:
    """ "Fri 27 Nov", "Fri 27 Nov 10:00", "Mon 4 Jan 2027" (the year when not this one's).

    The same words as `warmline.actions.followups.describe_due`, kept here so a screen
    can show a day without loading the actions."""
    text = f"{_DAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}"
    if today is not None and day.year != today.year:
        text += f" {day.year}"
    return text + (f" {at:%H:%M}" if at is not None else "")


def due_cell(follow_up: FollowUp, today: date) -> Text:
    """When a follow-up is due, as a list shows it: "today", "Fri 27 Nov", and an overdue one
    in the error colour ("overdue · Mon 23 Nov")."""
    day = follow_up.due_on
    at = f" {follow_up.at:%H:%M}" if follow_up.at is not None else ""
    if day < today:
        return Text(f"overdue · {day_text(day, None, today)}{at}", style="bold red")
    if day == today:
        return Text(f"today{at}", style="bold")
    return Text(day_text(day, follow_up.at, today))


def read_day(typed: str, now: datetime) -> tuple[date, time | None, str | None]:
    """A day the rep typed (the parser's phrases or ISO 8601), today or later.

    Raises ValueError with the message to show."""
    from warmline.actions.followups import read_due  # deferred: first frame (loads the actions)
    from warmline.api.errors import InputError  # deferred: first frame

    try:
        day, at, phrase = read_due(typed, now)
    except InputError as refused:
        raise ValueError(str(refused)) from None
    if day < now.date():
        raise ValueError(f"{day_text(day, None, now.date())} is in the past")
    return day, at, phrase


def _follow_ups(cockpit: Cockpit) -> FollowUps:
    if cockpit.followups is None:
        raise ValueError("follow-ups need a cache file on disk; this cockpit has none")
    return cockpit.followups


def _change(cockpit: Cockpit, change: Callable[[FollowUps], FollowUp]) -> FollowUp | None:
    """Run one change of the follow-ups file; a refusal or an unusable file is a warning."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import FollowUpNotFound
    from warmline.api.errors import InputError  # deferred: first frame

    try:
        return change(_follow_ups(cockpit))
    except (InputError, FollowUpNotFound, CacheUnusable, sqlite3.Error, ValueError) as problem:
        cockpit.notify_plain(f"Follow-up not changed: {problem}", severity="warning")
        return None


def mark_done(cockpit: Cockpit, follow_up: FollowUp) -> bool:
    """Mark `follow_up` done and say so; False when it could not be."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import done_follow_up

    changed = _change(cockpit, lambda followups: done_follow_up(followups, follow_up.id))
    if changed is not None:
        cockpit.notify_plain(f"Follow-up done: {_cut(follow_up.text)}")
    return changed is not None


def snooze(cockpit: Cockpit, follow_up: FollowUp, until: date, at: time | None = None) -> bool:
    """Make `follow_up` due on `until` (at `at`, when the rep typed a time; else at the time
    it had) and say so; False when it could not be."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import snooze_follow_up

    today = rep_now(cockpit).date()
    changed = _change(
        cockpit,
        lambda followups: snooze_follow_up(
            followups, follow_up.id, until=until, at=at, today=today
        ),
    )
    if changed is not None:
        cockpit.notify_plain(
            f"Follow-up snoozed to {day_text(until, changed.at, today)}: {_cut(follow_up.text)}"
        )
    return changed is not None


def snooze_days(cockpit: Cockpit, follow_up: FollowUp, days: int) -> bool:
    """Snooze `follow_up` by `days` (the `z` key: a day, which is the next of the rep's
    `[ui] work_days`: on a Friday, Monday)."""
    today = rep_now(cockpit).date()
    return snooze(cockpit, follow_up, snooze_day(today, days, cockpit.config.work_days))


def ask_snooze(cockpit: Cockpit, follow_up: FollowUp, snoozed: Callable[[], None]) -> None:
    """The snooze dialog (a day, a week, a day picked); `snoozed` runs once it is moved."""

    def picked(until: tuple[date, time | None] | None) -> None:
        if until is not None and snooze(cockpit, follow_up, *until):
            snoozed()

    dialog = SnoozeDialog(follow_up.text, rep_now(cockpit), cockpit.config.work_days)
    cockpit.push_screen(dialog, picked)


class FollowUpActions:
    """The actions behind `FOLLOW_UP_BINDINGS`, for a screen that lists follow-ups (the lead
    page, Today). The screen says which follow-up is under the cursor and which lead `f`
    adds one to; done and snooze change the follow-ups file at once (nothing is queued)
    and the screen reads its page again, as the cache's version it watches does not move."""

    if TYPE_CHECKING:

        @property
        def cockpit(self) -> Cockpit: ...

        def reload(self) -> None: ...

    def _follow_up(self) -> FollowUp | None:
        """The follow-up under the cursor, if any."""
        raise NotImplementedError

    def _follow_up_lead(self) -> tuple[int, str] | None:
        """The lead (id, company name) a follow-up added by hand is for, if any."""
        raise NotImplementedError

    def action_follow_up_done(self) -> None:
        follow_up = self._follow_up()
        if follow_up is not None and mark_done(self.cockpit, follow_up):
            self.reload()

    def action_follow_up_snooze(self, days: int) -> None:
        follow_up = self._follow_up()
        if follow_up is not None and snooze_days(self.cockpit, follow_up, days):
            self.reload()

    def action_follow_up_snooze_menu(self) -> None:
        follow_up = self._follow_up()
        if follow_up is not None:
            ask_snooze(self.cockpit, follow_up, self.reload)

    def action_add_follow_up(self) -> None:
        lead = self._follow_up_lead()
        if lead is not None:
            ask_new_follow_up(self.cockpit, lead[0], lead[1], self.reload)


def ask_new_follow_up(
    cockpit: Cockpit, lead_id: int, company: str, added: Callable[[], None]
) -> None:
    """The dialog that adds a follow-up by hand on a lead; `added` runs once it is kept."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import add_follow_up

    def submit(due: date, at: time | None, text: str) -> str | None:
        today = rep_now(cockpit).date()
        try:
            kept = add_follow_up(
                _follow_ups(cockpit), lead_id, company, text, due, at, source="manual", today=today
            )
        except (CacheUnusable, sqlite3.Error) as problem:
            return f"not kept: {problem}"
        except ValueError as refused:  # InputError is a ValueError
            return str(refused)
        cockpit.notify_plain(
            f"Follow-up added for {day_text(kept.due, kept.at, today)} ({LOCAL_ONLY})."
        )
        added()
        return None

    cockpit.push_screen(AddFollowUpDialog(company, rep_now(cockpit), submit))


def keep_follow_up(
    cockpit: Cockpit,
    lead_id: int,
    company: str,
    text: str,
    kept: tuple[date, time | None, str | None],
    source: Source,
    op_id: str | None,
) -> FollowUp | None:
    """Store the follow-up a form kept (`kept`: its day, time and the words read) for the
    activity or note just queued as `op_id`, and say so. The activity is queued already:
    a follow-up that cannot be kept is a warning, never a lost activity. A note longer
    than a follow-up's text may be (up to 10,000 characters against 5,000) is kept cut."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import MAX_TEXT, add_follow_up

    due, at, phrase = kept
    today = rep_now(cockpit).date()
    try:
        made = add_follow_up(
            _follow_ups(cockpit), lead_id, company, text[:MAX_TEXT], due, at,
            source=source, op_id=op_id, phrase=phrase, today=today,
        )  # fmt: skip
    except (CacheUnusable, sqlite3.Error, ValueError) as problem:  # InputError is a ValueError
        cockpit.notify_plain(
            f"Saved, but the follow-up was not kept: {problem}", severity="warning"
        )
        return None
    cockpit.notify_plain(f"Follow-up kept for {day_text(made.due, made.at, today)} ({LOCAL_ONLY}).")
    return made


def _cut(text: str, width: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


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
        self, text: str, now: datetime, work_days: Collection[int] = DEFAULT_WORK_DAYS
    ) -> None:
        super().__init__()
        self._text = text
        self._now = now
        self._work_days = work_days

    @property
    def today(self) -> date:
        return self._now.date()

    def compose(self) -> ComposeResult:
        today = self.today
        with Vertical():
            yield Static(Text("Snooze: ") + plain(_cut(self._text)), classes="dialog-title")
            choices = Text()
            choices.append("1", style="bold")
            choices.append(f"  a day ({day_text(self._day(SNOOZE_DAY), None, today)})\n")
            choices.append("2", style="bold")
            choices.append(f"  a week ({day_text(self._day(SNOOZE_WEEK), None, today)})\n")
            choices.append("3", style="bold")
            choices.append("  pick a date:")
            yield Static(choices)
            yield Input(placeholder=SNOOZE_HINT, id="snooze-day")
            yield Static(Text("-", style="dim"), id="snooze-read", classes="dialog-hint")
            yield Static("", classes="dialog-error", id="snooze-error")
            yield Static(
                Text("1 · 2 · 3 then enter · escape leaves it as it is"), classes="dialog-hint"
            )
        yield KeyBar()

    def _day(self, days: int) -> date:
        return snooze_day(self.today, days, self._work_days)

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
                Text(f"enter or ctrl+s keep · escape cancel · {LOCAL_ONLY}"), classes="dialog-hint"
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
