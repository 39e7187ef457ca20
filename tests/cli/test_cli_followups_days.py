"""`warmline followups --due week|next-week` and `--from/--to`: the agenda's days for a
script, the same days the cockpit's Today ("Next 7 days") and agenda ("Next week") show."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from support.cli_sandbox import open_store, run

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 24, 9, 0, tzinfo=ZONE)  # a Tuesday morning in the rep's zone


@pytest.fixture
def desk(offline: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache with one lead, the rep's clock at `NOW`, and follow-ups from yesterday to
    two weeks on."""
    monkeypatch.setattr("warmline.actions.followups.rep_now", lambda: NOW)
    with open_store(offline) as store:
        store.upsert_leads([{"id": 1, "company_name": "Nordlys Freight"}])
    for day in ("2026-11-24", "2026-11-25", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-06", "2026-12-07"):
        assert run("followups", "add", "1", day, f"on {day}").exit_code == 0
    return offline


def days(*args: str) -> list[str]:
    result = run("followups", *args, "--json")
    assert result.exit_code == 0, result.output
    return [str(item["due"]) for item in json.loads(result.stdout)]


def test_week_is_the_seven_days_after_today_and_next_week_monday_to_sunday(desk: Path) -> None:
    assert days("--due", "week") == ["2026-11-25", "2026-11-29", "2026-11-30", "2026-12-01"]
    assert days("--due", "next-week") == ["2026-11-30", "2026-12-01", "2026-12-06"]


def test_from_and_to_narrow_any_filter_both_days_included(desk: Path) -> None:
    assert days("--from", "2026-11-29", "--to", "2026-12-01") == ["2026-11-29", "2026-11-30", "2026-12-01"]
    assert days("--from", "2026-12-06") == ["2026-12-06", "2026-12-07"]
    assert days("--due", "next-week", "--to", "2026-11-30") == ["2026-11-30"]


def test_a_bad_range_is_bad_input_and_an_empty_one_says_what_was_asked(desk: Path) -> None:
    backwards = run("followups", "--from", "2026-12-02", "--to", "2026-12-01")
    assert backwards.exit_code == 2 and "--from 2026-12-02 is after --to 2026-12-01" in backwards.output
    assert run("followups", "--from", "friday").exit_code == 2  # scripts write ISO 8601
    empty = run("followups", "--from", "2027-01-01", "--to", "2027-01-31")
    assert empty.exit_code == 0 and empty.stdout == ""
    assert "No follow-ups (open, from 2027-01-01, to 2027-01-31)." in empty.stderr
