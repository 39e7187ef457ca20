"""How a follow-up reads in the cockpit: its day ("Fri 27 Nov 10:00"), the day a rep typed,
a notice's one line; shared by the follow-up keys (`follow_up_actions`), their dialogs
(`follow_up_dialogs`) and every screen that lists follow-ups.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, time
from typing import TYPE_CHECKING

from rich.text import Text

from warmline.tui.safe import plain

if TYPE_CHECKING:
    from warmline.store.followups import FollowUp

SNOOZE_DAY = 1
SNOOZE_WEEK = 7

LOCAL_ONLY = "kept on this computer only"
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_text(day: date, at: time | None = None, today: date | None = None) -> str:
    """ "Fri 27 Nov", "Fri 27 Nov 10:00", "Mon 4 Jan 2027" (the year when not this one's).

    The same words as `warmline.actions.followups.describe_due`, kept here so a screen
    can show a day without loading the actions."""
    text = f"{_DAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}"
    if today is not None and day.year != today.year:
        text += f" {day.year}"
    return text + (f" {at:%H:%M}" if at is not None else "")


def lead_cell(follow_up: FollowUp, unlisted: Collection[int]) -> Text:
    """The lead a follow-up is about, as a list names it, with "(removed)" when the lead
    lists no longer show it (`warmline.store.today.unlisted_leads`): its page says why."""
    cell = plain(follow_up.company or f"lead {follow_up.lead_id}")
    if follow_up.lead_id in unlisted:
        cell.append(" (removed)", style="dim")
    return cell


def due_cell(follow_up: FollowUp, today: date) -> Text:
    """When a follow-up is due, as a list shows it: "today", "Fri 27 Nov", and an overdue one
    in the error colour ("overdue · Mon 23 Nov")."""
    return due_text(follow_up.due_on, follow_up.at, today)


def due_text(day: date, at: time | None, today: date, due: str = "") -> Text:
    """`due_cell`'s words for a day and time; `due` ("due ") goes before a day not past,
    where the column does not say what the day is (search's, beside notes' dates)."""
    clock = f" {at:%H:%M}" if at is not None else ""
    if day < today:
        return Text(f"overdue · {day_text(day, None, today)}{clock}", style="bold red")
    if day == today:
        return Text(f"{due}today{clock}", style="bold")
    return Text(due + day_text(day, at, today))


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


def one_line(text: str, width: int = 60) -> str:
    """`text` on one line of at most `width` cells, for a notice or a dialog's title."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"
