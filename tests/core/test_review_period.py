"""The days a review covers: ISO weeks read as the rep's week (starting on their first
work day), the current week, ranges, and one clear message for what cannot be read."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

import pytest

from warmline.review.period import (
    MAX_DAYS,
    Period,
    PeriodError,
    day_range,
    parse_day,
    parse_week,
    week_starting,
)
from warmline.work_days import first_work_day, parse_work_days

MON_FRI = parse_work_days("mon-fri")
SUN_THU = parse_work_days("sun-thu")


@pytest.mark.parametrize(
    ("days", "first"),
    [("mon-fri", 0), ("sun-thu", 6), ("tue-sat", 1), ("mon,tue,thu", 0), ("thu,sun", 3), ("mon-sun", 0), ("sat", 5)],
)
def test_the_first_work_day_follows_the_longest_time_off(days: str, first: int) -> None:
    assert first_work_day(parse_work_days(days)) == first


def test_a_week_is_named_as_iso_names_it_and_starts_on_the_first_work_day() -> None:
    assert parse_week("2026-W48", MON_FRI) == Period(date(2026, 11, 23), date(2026, 11, 29), "2026-W48")
    assert parse_week("2026w48", SUN_THU) == Period(date(2026, 11, 22), date(2026, 11, 28), "2026-W48")
    assert parse_week("2026-W01", MON_FRI).first == date(2025, 12, 29)
    assert parse_week("2026-W53", MON_FRI).first == date(2026, 12, 28)  # 2026 has 53 weeks


@pytest.mark.parametrize("work_days", [MON_FRI, SUN_THU, parse_work_days("thu-mon")])
def test_the_week_holding_a_day_reads_back_by_its_name(work_days: tuple[int, ...]) -> None:
    for day in (date(2026, 11, 27), date(2027, 1, 1), date(2026, 3, 29)):
        week = week_starting(day, work_days)
        assert week.first <= day <= week.last and week.first.weekday() == first_work_day(work_days)
        assert week.week is not None and parse_week(week.week, work_days) == week


def test_weeks_move_by_seven_days_and_ranges_by_their_length() -> None:
    week = parse_week("2026-W48")
    assert week.shifted(-1) == parse_week("2026-W47") and week.shifted(6) == parse_week("2027-W01")
    span = day_range(date(2026, 11, 2), date(2026, 11, 15))
    assert span.shifted(1) == day_range(date(2026, 11, 16), date(2026, 11, 29))
    assert span.label == "2026-11-02 to 2026-11-15" and span.length == 14


def test_bounds_are_midnights_in_the_zone_across_a_dst_change() -> None:
    start, end = parse_week("2026-W13").bounds(ZoneInfo("Europe/Berlin"))  # 23 to 29 March
    assert (start.hour, end.hour) == (0, 0)
    assert end.timestamp() - start.timestamp() == 7 * 86400 - 3600


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (lambda: parse_week("2026-48"), "'2026-48' is not a week: write it as 2026-W48"),
        (lambda: parse_week("2026-W54"), "'2026-W54' is not a week: 2026 has no week 54"),
        (lambda: parse_day("2026-13-01", "first day"), "the first day '2026-13-01' is not a date"),
        (lambda: day_range(date(2026, 11, 5), date(2026, 11, 4)), "the range ends (2026-11-04) before it starts"),
        (lambda: day_range(date(2025, 1, 1), date(2026, 11, 4)), f"at most {MAX_DAYS} days"),
    ],
)
def test_what_cannot_be_read_says_why_in_one_line(read, message: str) -> None:
    with pytest.raises(PeriodError) as raised:
        read()
    assert message in str(raised.value) and "\n" not in str(raised.value)
