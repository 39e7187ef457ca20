"""`[ui] work_days` (issue 23): how the rep writes them, how they are shown, and where a
snooze of "a day" lands."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from warmline.config import ConfigError, check_settings
from warmline.work_days import (
    describe_work_days,
    next_work_day,
    parse_work_days,
    snooze_day,
    snoozed_to,
)

FRIDAY = date(2026, 11, 27)


@pytest.mark.parametrize(
    ("text", "days", "shown"),
    [
        ("mon-fri", (0, 1, 2, 3, 4), "mon-fri"),
        ("Sun-Thu", (0, 1, 2, 3, 6), "sun-thu"),
        ("mon, tue, thu", (0, 1, 3), "mon,tue,thu"),
        ("fri-mon", (0, 4, 5, 6), "fri-mon"),
        ("mon-sun", (0, 1, 2, 3, 4, 5, 6), "mon-sun"),
        ("sat", (5,), "sat"),
    ],
)
def test_written_as_a_rep_says_them(text: str, days: tuple[int, ...], shown: str) -> None:
    assert parse_work_days(text) == days
    assert describe_work_days(days) == shown


@pytest.mark.parametrize("text", ["", ",", "funday", "mon-xyz", "monday-friday"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_work_days(text)


def test_a_day_is_the_next_working_day_a_week_a_week() -> None:
    assert next_work_day(FRIDAY) == date(2026, 11, 30)
    assert snooze_day(FRIDAY, 1) == date(2026, 11, 30)
    assert snooze_day(date(2026, 11, 24), 1) == date(2026, 11, 25)
    assert snooze_day(FRIDAY, 1, (6, 0, 1, 2, 3)) == date(2026, 11, 29)
    assert snooze_day(FRIDAY, 7) == date(2026, 12, 4)
    assert snooze_day(FRIDAY, 3) == date(2026, 11, 30)  # more than a day: calendar days


def test_a_snooze_never_lands_on_a_day_off() -> None:
    """On a Saturday, "a week" gave the next Saturday, a day nobody reads Today: it goes on
    to the next working day, as "a day" does on a Friday."""
    saturday = date(2026, 11, 28)
    assert snooze_day(saturday, 7) == date(2026, 12, 7)
    assert snooze_day(FRIDAY, 2) == date(2026, 11, 30)
    assert snooze_day(FRIDAY, 2, (6, 0, 1, 2, 3)) == date(2026, 11, 29)  # Sunday is a working day there
    assert snoozed_to(saturday, saturday, 7) == date(2026, 12, 7)


def test_a_snooze_counts_from_the_day_due_while_it_is_ahead() -> None:
    thursday = date(2026, 12, 3)
    assert snoozed_to(thursday, FRIDAY, 1) == date(2026, 12, 4)
    assert snoozed_to(thursday, FRIDAY, 7) == date(2026, 12, 10)
    assert snoozed_to(FRIDAY, FRIDAY, 1) == date(2026, 11, 30)  # due today: from today
    assert snoozed_to(date(2026, 11, 20), FRIDAY, 1) == date(2026, 11, 30)  # overdue: from today


def test_the_config_checks_and_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert check_settings({}, path).work_days == (0, 1, 2, 3, 4)
    assert check_settings({"ui": {"work_days": "sun-thu"}}, path).work_days == (0, 1, 2, 3, 6)
    for bad in ("mon-funday", 5, ["mon"], ""):
        with pytest.raises(ConfigError, match=r"\[ui\] work_days"):
            check_settings({"ui": {"work_days": bad}}, path)
