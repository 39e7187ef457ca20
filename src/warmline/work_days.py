"""The rep's working days (`[ui] work_days`): a snoozed follow-up lands on one.

A follow-up snoozed a day on a Friday belongs on Monday, not on a Saturday nobody reads
Today (issue 23). The days are written as the rep says them, "mon-fri" or "sun-thu" or
"mon,tue,thu": weekday names of three letters, single or as a range, comma-separated.
Standard library only: the config, the actions and the cockpit all read it.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, timedelta

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_WORK_DAYS: tuple[int, ...] = (0, 1, 2, 3, 4)
"""Monday to Friday (`date.weekday()` numbers)."""
DEFAULT_WORK_DAYS_TEXT = "mon-fri"


def parse_work_days(text: str) -> tuple[int, ...]:
    """ "mon-fri" -> (0, 1, 2, 3, 4); "sun-thu" wraps past Sunday. Raises ValueError (the
    reason, for the config's message) on an unknown name or no day at all."""
    days: set[int] = set()
    for part in text.lower().replace(" ", "").split(","):
        if not part:
            continue
        first, _, last = part.partition("-")
        if first not in DAY_NAMES or (last and last not in DAY_NAMES):
            raise ValueError(f"{part!r} is not a day or a range of days such as mon-fri")
        start = DAY_NAMES.index(first)
        end = DAY_NAMES.index(last) if last else start
        days.update((start + k) % 7 for k in range((end - start) % 7 + 1))
    if not days:
        raise ValueError("names no day (write e.g. mon-fri)")
    return tuple(sorted(days))


def describe_work_days(days: Collection[int]) -> str:
    """(0, 1, 2, 3, 4) -> "mon-fri", (6, 0, 1, 2, 3) -> "sun-thu"; runs of three or more
    days as a range, a week that wraps past Sunday read from its first day."""
    ordered = sorted(set(days))
    if 0 < len(ordered) < 7:
        while (ordered[-1] + 1) % 7 == ordered[0] % 7:
            ordered = [ordered[-1] - 7, *ordered[:-1]]
    parts: list[str] = []
    index = 0
    while index < len(ordered):
        end = index
        while end + 1 < len(ordered) and ordered[end + 1] == ordered[end] + 1:
            end += 1
        if end - index >= 2:
            parts.append(f"{DAY_NAMES[ordered[index] % 7]}-{DAY_NAMES[ordered[end] % 7]}")
        else:
            parts += [DAY_NAMES[d % 7] for d in ordered[index : end + 1]]
        index = end + 1
    return ",".join(parts)


def next_work_day(today: date, work_days: Collection[int] = DEFAULT_WORK_DAYS) -> date:
    """The first working day after `today` ("a day" on a Friday: Monday); tomorrow when no
    day is a working day (a config that says none is refused before it gets here)."""
    for ahead in range(1, 8):
        day = today + timedelta(days=ahead)
        if day.weekday() in work_days:
            return day
    return today + timedelta(days=1)


def snooze_day(today: date, days: int, work_days: Collection[int] = DEFAULT_WORK_DAYS) -> date:
    """The day a snooze by `days` lands on: that many calendar days on ("a week" is the same
    weekday), or the next working day after it when that is a day off ("a day" on a Friday
    is Monday; "a week" on a Saturday, the Monday after next Saturday)."""
    day = today + timedelta(days=days)
    return day if day.weekday() in work_days else next_work_day(day, work_days)


def snoozed_to(due: date, today: date, days: int, work_days: Collection[int] = DEFAULT_WORK_DAYS) -> date:
    """Where a snooze by `days` moves a follow-up due on `due`: counted from that day while
    it is still ahead, else from today. A snooze puts a follow-up off, never brings it
    forward: in the agenda, "a day" on one due a week ahead gave Monday."""
    return snooze_day(max(due, today), days, work_days)


def first_work_day(work_days: Collection[int] = DEFAULT_WORK_DAYS) -> int:
    """The weekday the rep's week starts on: the work day after the longest run of days
    off (Monday for mon-fri, Sunday for sun-thu); Monday when every day is a work day."""
    days = set(work_days)
    if not days or len(days) == 7:
        return 0
    best, longest = min(days), -1
    for day in sorted(days):
        off = 0
        while (day - off - 1) % 7 not in days:
            off += 1
        if off > longest:
            best, longest = day, off
    return best
