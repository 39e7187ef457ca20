"""Issue 23 on the command line, on Friday 27 Nov: a time typed with a day is kept by
`followups add`, `followups snooze --until` and `log`, and reaches the ICS export; a snooze
of a day (`--days 1`) goes to the next working day of `[ui] work_days`."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import icalendar
import pytest

from support.cli_sandbox import open_store, run

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 27, 9, 0, tzinfo=ZONE)  # a Friday morning in the rep's zone


@pytest.fixture
def desk(offline: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("warmline.actions.followups.rep_now", lambda: NOW)
    with open_store(offline) as store:
        store.upsert_leads([{"id": 1, "company_name": "Nordlys Freight"}])
    return offline


def ran(*args: str) -> dict[str, object]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    answer: dict[str, object] = json.loads(result.stdout)
    return answer


def test_add_and_snooze_keep_the_time_typed(desk: Path) -> None:
    added = ran("followups", "add", "1", "tomorrow at 10", "Demo")
    assert (added["due"], added["at"]) == ("2026-11-28", "10:00")
    snoozed = ran("followups", "snooze", "1", "--until", "next monday 9am")
    assert (snoozed["due"], snoozed["at"]) == ("2026-11-30", "09:00")
    # A snooze that names no time keeps the one it had.
    snoozed = ran("followups", "snooze", "1", "--until", "3 Dec")
    assert (snoozed["due"], snoozed["at"]) == ("2026-12-03", "09:00")


def test_log_reads_a_bare_weekday_after_a_verb_with_its_time(desk: Path) -> None:
    result = run("log", "1", "Good chat, call back Friday 10am")
    assert result.exit_code == 0, result.output
    assert "Follow-up: Fri 4 Dec 10:00 (call back Friday 10am)" in result.stderr


def test_a_day_on_a_friday_is_monday_unless_the_config_works_saturdays(
    desk: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for number in (1, 2, 3):  # each due today, a Friday
        ran("followups", "add", "1", "2026-11-27", f"Send the deck {number}")
    assert ran("followups", "snooze", "1", "--days", "1")["due"] == "2026-11-30"
    assert ran("followups", "snooze", "2", "--days", "7")["due"] == "2026-12-04"
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nwork_days = "mon-sat"\n', encoding="utf-8")
    monkeypatch.setenv("WARMLINE_CONFIG", str(config))
    assert ran("followups", "snooze", "3", "--days", "1")["due"] == "2026-11-28"
    shown = run("config", "show")
    assert shown.exit_code == 0, shown.output
    assert "ui.work_days" in shown.stdout and "mon-sat  (config file)" in shown.stdout


def test_a_bad_work_days_setting_is_named(
    desk: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nwork_days = "mon-funday"\n', encoding="utf-8")
    monkeypatch.setenv("WARMLINE_CONFIG", str(config))
    result = run("followups", "snooze", "1", "--days", "1")
    assert result.exit_code != 0
    assert "[ui] work_days" in result.output and "mon-funday" in result.output


def test_the_snoozed_time_reaches_the_calendar(desk: Path) -> None:
    ran("followups", "add", "1", "friday", "Pricing")  # on a Friday: next Friday
    ran("followups", "snooze", "1", "--until", "tomorrow at 14:30")
    exported = run("export", "followups", "--format", "ics")
    assert exported.exit_code == 0, exported.output
    [event] = icalendar.Calendar.from_ical(exported.stdout.encode()).walk("VEVENT")
    assert event["DTSTART"].dt == datetime(2026, 11, 28, 13, 30, tzinfo=UTC)
    assert ran("followups", "add", "1", "2026-12-03", "All day")["at"] is None
    again = icalendar.Calendar.from_ical(
        run("export", "followups", "--format", "ics").stdout.encode()
    )
    assert sorted(str(e["DTSTART"].dt) for e in again.walk("VEVENT")) == [
        str(datetime(2026, 11, 28, 13, 30, tzinfo=UTC)),
        str(date(2026, 12, 3)),
    ]
