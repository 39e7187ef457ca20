"""Follow-ups a rep makes: read from an activity's or note's text, added by hand, done,
snoozed. Shared by the command line (`warmline log`, `note`, `followups`) and the cockpit's
forms, so "by Friday" makes the same follow-up wherever it is typed.

Follow-ups are local (`warmline.store.followups`): nothing is queued for the service, which
has no such object. Checks come first and raise `InputError` naming the field, as the
other actions do; nothing is stored on bad input. Light: the standard library, the parser
and the store's sqlite3 file, so `warmline log` stays fast.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, time, timedelta

from warmline.api.errors import InputError
from warmline.followup_phrases import FollowUpGuess, parse_follow_up
from warmline.store.followups import FollowUp, FollowUps, Source
from warmline.work_days import DEFAULT_WORK_DAYS, snoozed_to
from warmline.zone import rep_now as zone_now

MAX_TEXT = 5000
"""A follow-up's text at most (an activity's own limit, so its whole text fits)."""
MAX_SNOOZE_DAYS = 366
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")  # English whatever the locale
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MAX_AHEAD = timedelta(days=3 * 366)
"""A day further ahead than this is refused (the parser's own horizon)."""


class FollowUpNotFound(LookupError):
    """No follow-up has that id (done ones included)."""

    def __init__(self, followup_id: int) -> None:
        super().__init__(f"no follow-up {followup_id}")
        self.followup_id = followup_id


def rep_now() -> datetime:
    """Now, aware, in the rep's zone (the machine's, with its DST rules: `warmline.zone`):
    what "tomorrow" is read against."""
    return zone_now()


def _check_text(text: str) -> str:
    stripped = text.strip()
    if not stripped:
        raise InputError("text", "a follow-up needs a text")
    if len(stripped) > MAX_TEXT:
        raise InputError(
            "text", f"a follow-up's text is at most {MAX_TEXT} characters (got {len(stripped)})"
        )
    return stripped


def _check_day(due: date, today: date, field: str = "due") -> None:
    if due < today:
        raise InputError(field, f"{due.isoformat()} is in the past (today is {today.isoformat()})")
    if due - today > MAX_AHEAD:
        raise InputError(field, f"{due.isoformat()} is more than three years ahead")


def _check_lead(lead_id: int) -> None:
    if isinstance(lead_id, bool) or not isinstance(lead_id, int) or lead_id <= 0:
        raise InputError("lead_id", f"a lead id is a positive whole number (got {lead_id!r})")


def add_follow_up(
    followups: FollowUps,
    lead_id: int,
    company: str,
    text: str,
    due: date,
    at: time | None = None,
    *,
    source: Source = "manual",
    op_id: str | None = None,
    phrase: str | None = None,
    today: date | None = None,
) -> FollowUp:
    """A follow-up on `lead_id` due on `due` (at `at`), by hand or kept from a form's guess.

    `today` is the rep's today (default: the machine's); a day before it, or more than three
    years after, is refused.
    """
    _check_lead(lead_id)
    kept = _check_text(text)
    _check_day(due, today or rep_now().date())
    return followups.add(
        lead_id, company, kept, due, at, source=source, source_op_id=op_id, phrase=phrase
    )


def follow_up_from_text(
    followups: FollowUps,
    lead_id: int,
    company: str,
    text: str,
    source: Source,
    op_id: str | None,
    now: datetime,
) -> FollowUp | None:
    """The follow-up an activity's or note's `text` promises, stored, or None when the text
    names no time the parser is sure of (then nothing is stored: no follow-up beats a
    wrong one). `now` is aware, in the rep's zone; `op_id` the queued action the text
    belongs to. The follow-up's text is the whole activity or note."""
    guess = parse_follow_up(text, now)
    if guess is None:
        return None
    return follow_up_from_guess(followups, lead_id, company, text, guess, source, op_id, now.date())


def follow_up_from_guess(
    followups: FollowUps,
    lead_id: int,
    company: str,
    text: str,
    guess: FollowUpGuess,
    source: Source,
    op_id: str | None,
    today: date,
) -> FollowUp:
    """Store the parser's `guess` as the rep kept it (the cockpit's form shows the guess,
    the rep keeps, edits or drops it, then calls this or `add_follow_up`)."""
    return add_follow_up(
        followups, lead_id, company, text, guess.due, guess.at,
        source=source, op_id=op_id, phrase=guess.phrase, today=today,
    )  # fmt: skip


def read_due(value: str, now: datetime) -> tuple[date, time | None, str | None]:
    """A day typed by the rep (`warmline followups add LEAD DUE TEXT`): an ISO 8601 date
    ("2026-12-03"), or words the parser reads ("friday", "by Friday", "tomorrow at 10",
    "in two weeks", "3 Dec"), wholly: "Friday-ish" is refused, not read as Friday.
    Returns the day, the time, and the words read (None for an ISO date).
    Raises InputError when it cannot be read."""
    typed = value.strip()
    try:
        return date.fromisoformat(typed), None, None
    except ValueError:
        pass
    for prefix in ("", "by "):
        candidate = prefix + typed
        guess = parse_follow_up(candidate, now)
        if guess is not None and guess.span == (0, len(candidate)):
            return guess.due, guess.at, typed
    raise InputError(
        "due",
        f"cannot read {typed!r} as a day: give a date (2026-12-03) or words such as "
        "'friday', 'tomorrow at 10', 'in two weeks', '3 Dec'",
    )


def done_follow_up(followups: FollowUps, followup_id: int) -> FollowUp:
    """Mark it done (done again is no change)."""
    found = followups.done(followup_id)
    if found is None:
        raise FollowUpNotFound(followup_id)
    return found


def snooze_follow_up(
    followups: FollowUps,
    followup_id: int,
    *,
    days: int | None = None,
    until: date | None = None,
    at: time | None = None,
    today: date | None = None,
    work_days: Collection[int] = DEFAULT_WORK_DAYS,
) -> FollowUp:
    """Make it due `days` days later (1 day, 1 week) or on `until` (a day picked, today or
    later). Exactly one of the two. `days` count from the day it is due while that is still
    ahead, else from `today` (`snoozed_to`: a snooze never brings it forward). "A day"
    (`days=1`) is the next of the rep's `work_days` (`[ui] work_days`: on a Friday,
    Monday); more days are calendar days, so "a week" is the same weekday. `at` is the
    time the rep typed with the day ("tomorrow at 10"); without one the follow-up keeps
    the time it had."""
    if (days is None) == (until is None):
        raise InputError("snooze", "snooze by a number of days or until a date, one of the two")
    day = today or rep_now().date()
    found = followups.get(followup_id)
    if found is None:
        raise FollowUpNotFound(followup_id)
    if days is not None:
        if isinstance(days, bool) or not 1 <= days <= MAX_SNOOZE_DAYS:
            raise InputError("days", f"snooze by 1 to {MAX_SNOOZE_DAYS} days (got {days})")
        until = snoozed_to(found.due_on, day, days, work_days)
    assert until is not None
    _check_day(until, day, "until")
    if at is not None:
        followups.update(followup_id, at=at)
    snoozed = followups.snooze(followup_id, until)
    assert snoozed is not None
    return snoozed


def delete_follow_up(followups: FollowUps, followup_id: int) -> None:
    """Remove it for good."""
    if not followups.delete(followup_id):
        raise FollowUpNotFound(followup_id)


def describe_due(day: date, at: time | None = None, today: date | None = None) -> str:
    """A day as a rep reads it: "Fri 27 Nov", "Fri 27 Nov 10:00", the year added when it
    is not this year's ("Mon 4 Jan 2027")."""
    this_year = (today or rep_now().date()).year
    text = f"{_DAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}" + (f" {day.year}" if day.year != this_year else "")
    return text + (f" {at:%H:%M}" if at is not None else "")


def describe_follow_up(followup: FollowUp, today: date | None = None) -> str:
    """What `warmline log` says of the follow-up it made: "Fri 27 Nov (by Friday)"."""
    when = describe_due(followup.due_on, followup.at, today)
    return f"{when} ({followup.phrase})" if followup.phrase else when
