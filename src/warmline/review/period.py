"""The days a review covers: a week starting on the rep's first work day, or any range.

A week is named as ISO 8601 names it (`2026-W48`). The rep's week starts on their first
work day (`[ui] work_days`, `warmline.work_days.first_work_day`): a Monday-to-Friday rep's
2026-W48 is Monday 23 to Sunday 29 November, a Sunday-to-Thursday rep's starts the Sunday
before (22 to 28), so each rep's week is the seven days that overlap the ISO week most.
A range is two days, both included (`--from 2026-11-02 --to 2026-11-15`).

Standard library only: the cockpit's Today asks whether today starts a week.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from warmline.work_days import DEFAULT_WORK_DAYS, first_work_day

MAX_DAYS = 366
"""The longest range a review covers (a year, and the leap day)."""

_WEEK = re.compile(r"(?P<year>[0-9]{4})-?W(?P<week>[0-9]{1,2})", re.IGNORECASE)


class PeriodError(ValueError):
    """A week or a day that cannot be read, or a range that is not one: its message is
    the one line the command line prints."""


@dataclass(frozen=True)
class Period:
    """The days of a review, `first` to `last` included; `week` is set for a week."""

    first: date
    last: date
    week: str | None = None

    @property
    def label(self) -> str:
        """ "2026-W48" for a week, "2026-11-02 to 2026-11-15" for a range."""
        return self.week or f"{self.first.isoformat()} to {self.last.isoformat()}"

    @property
    def length(self) -> int:
        return (self.last - self.first).days + 1

    def days(self) -> list[date]:
        return [self.first + timedelta(days=k) for k in range(self.length)]

    def bounds(self, zone: tzinfo) -> tuple[datetime, datetime]:
        """The first moment of the first day and of the day after the last, in `zone`: each
        midnight made in the zone, so a DST change inside the range is honoured."""
        after = self.last + timedelta(days=1)
        return (
            datetime(self.first.year, self.first.month, self.first.day, tzinfo=zone),
            datetime(after.year, after.month, after.day, tzinfo=zone),
        )

    def shifted(self, steps: int, work_days: tuple[int, ...] = DEFAULT_WORK_DAYS) -> Period:
        """The period `steps` lengths later (earlier when negative): the next or the
        previous week, or the range of the same length beside this one."""
        if self.week is not None:
            return week_starting(self.first + timedelta(days=7 * steps), work_days)
        delta = timedelta(days=self.length * steps)
        return Period(self.first + delta, self.last + delta)


def _offset(work_days: tuple[int, ...]) -> int:
    """Days from the ISO week's Monday to the rep's week's first day, -3 to 3."""
    return (first_work_day(work_days) + 3) % 7 - 3


def week_starting(day: date, work_days: tuple[int, ...] = DEFAULT_WORK_DAYS) -> Period:
    """The rep's week that holds `day`."""
    start = day - timedelta(days=(day.weekday() - first_work_day(work_days)) % 7)
    year, week, _ = (start - timedelta(days=_offset(work_days))).isocalendar()
    return Period(start, start + timedelta(days=6), f"{year}-W{week:02d}")


def parse_week(text: str, work_days: tuple[int, ...] = DEFAULT_WORK_DAYS) -> Period:
    """ "2026-W48" (or "2026w48") as the rep's week. Raises `PeriodError`."""
    found = _WEEK.fullmatch(text.strip())
    if found is None:
        raise PeriodError(f"{text!r} is not a week: write it as 2026-W48")
    try:
        monday = date.fromisocalendar(int(found["year"]), int(found["week"]), 1)
    except ValueError:
        raise PeriodError(
            f"{text!r} is not a week: {found['year']} has no week {int(found['week'])}"
        ) from None
    return week_starting(monday + timedelta(days=_offset(work_days)), work_days)


def parse_day(text: str, what: str = "day") -> date:
    """An ISO 8601 date ("2026-11-02"). Raises `PeriodError` naming `what`."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise PeriodError(f"the {what} {text!r} is not a date: write it as 2026-11-02") from None


def day_range(first: date, last: date) -> Period:
    """The days from `first` to `last`, both included. Raises `PeriodError` when `last` is
    before `first` or the range is longer than `MAX_DAYS`."""
    if last < first:
        raise PeriodError(
            f"the range ends ({last.isoformat()}) before it starts ({first.isoformat()})"
        )
    if (last - first).days + 1 > MAX_DAYS:
        raise PeriodError(f"a range covers at most {MAX_DAYS} days")
    return Period(first, last)
