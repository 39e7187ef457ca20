"""Every table of the command line shows a time in the rep's zone, as `warmline today` and
the cockpit do: `warmline leads`, `lead`, `jobs` and `outbox` printed the cache's UTC text,
so one activity read 23:30 in `leads` and 00:30 the next day in `today` (the rep in Berlin).
`--json` keeps the service's UTC."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from support.store_data import detail_item
from warmline.cli import main
from warmline.commands.common import shown_time
from warmline.store import Store
from warmline.zone import named_zone

LATE = "2026-11-17T23:30:00.000Z"  # 00:30 on 18 Nov in Berlin (UTC+1 in November)


@pytest.fixture
def berlin(offline: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    store = Store(offline / "cache.sqlite3")
    detail = detail_item(1, lead_status="warm", company_name="Nordlicht Logistik", last_activity_at=LATE)
    detail.update(deal_value=24000, deal_currency="EUR", won_at=LATE)
    detail["touchpoints"][0]["created_at"] = LATE
    detail["notes"] = [{"id": 77, "content": "Late call notes", "created_at": LATE}]
    store.upsert_lead_detail(detail)
    store.record_job("deep_search", "ds-1", {"status": "completed", "created_at": LATE, "query": "x"})
    store.close()
    return offline


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_the_lead_list_shows_the_last_activity_in_the_reps_zone(berlin: Path) -> None:
    assert "2026-11-18 00:30" in run("leads").output
    assert json.loads(run("leads", "--json").output)[0]["last_activity_at"] == LATE


def test_a_leads_page_shows_its_activity_notes_and_deal_in_the_reps_zone(berlin: Path) -> None:
    out = run("lead", "1", "--no-refresh").output
    activity = next(line for line in out.splitlines() if "Met at fair" in line)
    assert activity.strip().startswith("2026-11-18 00:30"), out
    note_line = next(line for line in out.splitlines() if "Late call notes" in line)
    assert note_line.strip().startswith("2026-11-18 00:30"), out
    assert "won 2026-11-18" in out
    assert "23:30" not in out and "2026-11-17" not in out


def test_the_jobs_table_shows_when_a_job_started_in_the_reps_zone(berlin: Path) -> None:
    assert "2026-11-18 00:30" in run("jobs").output


def test_one_helper_reads_every_stored_form() -> None:
    zone = named_zone("Europe/Berlin")
    assert shown_time(LATE, zone) == "2026-11-18 00:30"
    assert shown_time(1794958200.0, zone, seconds=True) == "2026-11-18 00:30:00"
    assert shown_time(LATE, zone, day=True) == "2026-11-18"
    assert shown_time("not a time", zone) == "not a time"
    assert shown_time(None, zone) == ""
