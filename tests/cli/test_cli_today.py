"""`warmline today [--json]`: the Today read model for a morning script, from a seeded cache
and follow-ups file at a fixed moment (the rep in Berlin, 08:55 on 18 Nov 2026)."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from support.store_data import detail_item, lead_item, rec_item
from warmline.cli import main
from warmline.commands.common import JOB_FIELDS
from warmline.commands.leads import LEAD_FIELDS
from warmline.store import Store
from warmline.store.followups import FollowUps

BERLIN = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 18, 8, 55, tzinfo=BERLIN)
SECTIONS = {
    "finished_jobs",
    "ready_leads",
    "going_cold",
    "follow_ups",
    "recommendations",
    "failed_ops",
}
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


@pytest.fixture
def desk(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("warmline.commands.today._rep_now", lambda: NOW)
    return data_dir


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def seed(data_dir: Path) -> None:
    """A morning: a deep search finished overnight, a lead reached its target yesterday,
    one warm lead quiet for a month, a follow-up due today and one overdue, three
    recommendations, one failed action."""
    store = Store(data_dir / "cache.sqlite3", clock=lambda: NOW.timestamp() - 3600)
    store.mark_cockpit_seen(datetime(2026, 11, 17, 18, 0, tzinfo=BERLIN).timestamp())
    ready: dict[str, Any] = detail_item(1, lead_status="warm", company_name="Nordlicht Logistik")
    ready.update(
        warming_score=52, target_score=50, last_activity_at="2026-11-17T15:00:00.000Z",
        touchpoints=[{"id": 9001, "description": "Call with Dana", "detected_type": "call",
                      "contact_id": None, "bonus_points": 10, "created_at": "2026-11-17T15:00:00.000Z"}],
        recommendations=[rec_item(11, 1, "high", "2026-11-17T10:00:00.000Z"),
                         {**rec_item(12, 1, "low", "2026-11-17T10:00:00.000Z"), "target_url": "https://x.example/2"}],
    )  # fmt: skip
    store.upsert_lead_detail(ready)
    store.upsert_leads(
        [
            lead_item(2, "Fjord Freight", lead_status="warm", warming_score=30,
                      last_activity_at="2026-10-18T09:00:00.000Z"),
            lead_item(3, "Alpen Dental", warming_score=12, last_activity_at="2026-11-10T09:00:00.000Z"),
        ]
    )  # fmt: skip
    store.upsert_recommendations(
        3, {"recommendations": [rec_item(31, 3, "medium", "2026-11-17T10:00:00.000Z")]}
    )
    store.record_job(
        "deep_search", "ds-1",
        {"status": "completed", "query": "dental clinics in Bavaria", "completed_at": "2026-11-18T02:10:00Z",
         "companies": [{"id": 700 + n, "name": f"Praxis {n}"} for n in range(20)]},
    )  # fmt: skip
    store.record_job(
        "deep_search", "ds-old", {"status": "completed", "completed_at": "2026-11-16T10:00:00Z"}
    )
    failed = store.enqueue("add_note", {"lead_id": 3, "content": "Budget approved"}, lead_id=3)
    store.mark_failed(failed, "Outreach lead not found")
    store.close()
    with FollowUps(data_dir) as follow_ups:
        follow_ups.add(
            1,
            "Nordlicht Logistik",
            "wants pricing by Friday",
            date(2026, 11, 18),
            source="activity",
        )
        follow_ups.add(2, "Fjord Freight", "send the case study", date(2026, 11, 16))
        follow_ups.add(2, "Fjord Freight", "check in after the fair", date(2026, 11, 25))


def blocks(text: str) -> dict[str, list[str]]:
    """The text's sections: heading -> its lines."""
    found: dict[str, list[str]] = {}
    for block in text.strip("\n").split("\n\n"):
        heading, *lines = block.splitlines()
        found[heading] = lines
    return found


def test_today_prints_each_section_as_an_aligned_table(desk: Path) -> None:
    seed(desk)
    result = run("today")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    sections = blocks(result.stdout)
    assert list(sections) == [
        "Jobs finished since 2026-11-17 18:00",
        "Ready for outreach (reached the target score since yesterday)",
        "Going cold (warm, no activity in 14 days)",
        "Follow-ups due today and overdue",
        "Next 7 days: 1 follow-up (`warmline followups --due week`)",
        "Recommendations waiting",
        "Failed actions (`warmline outbox` to retry or discard)",
    ]
    jobs, ready, cold, due, week, recs, failed = sections.values()
    assert jobs[0].split() == ["KEY", "KIND", "STATUS", "FINISHED", "RESULT"]
    assert jobs[1].split()[1:7] == [
        "Deep",
        "search",  # the kind in words, as the cockpit's job monitor names it
        "completed",
        "2026-11-18",
        "03:10",
        "20",
    ]  # Berlin time
    assert len(jobs) == 2  # the one of the 16th was seen
    assert ready[1].split() == ["1", "52", "50", "2026-11-17", "16:00", "Nordlicht", "Logistik"]
    assert cold[1].split() == ["2", "30", "2026-10-18", "10:00", "30", "d", "Fjord", "Freight"]
    assert [line.split()[2] for line in due[1:]] == ["overdue", "today"]
    assert "send the case study" in due[1] and "wants pricing by Friday" in due[2]
    assert week == ["DAY             FOLLOW-UPS", "Wed 2026-11-25  1"]  # the fair, in 7 days
    assert recs == ["TOTAL  HIGH  MEDIUM  LOW  OTHER", "3      1     1       1    0"]
    assert failed[1].split()[1:3] == ["add_note", "3"] and failed[1].endswith(
        "Outreach lead not found"
    )
    # Aligned: each column starts where its title does.
    for table in (jobs, ready, cold, due, failed):
        starts = [m.start() for m in re.finditer(r"(?<=  )\S", table[0])]
        for line in table[1:]:
            assert all(line[start - 1] == " " and line[start] != " " for start in starts), (
                table[0],
                line,
            )


def test_a_follow_up_on_a_removed_lead_says_so(desk: Path) -> None:
    """As on the cockpit's Today: the lead lists no longer show the lead (here the last
    lead list did not have it), and its follow-up names it "(removed)"."""
    seed(desk)
    with FollowUps(desk) as follow_ups:
        follow_ups.add(99, "Gone GmbH", "call about the renewal", date(2026, 11, 18))
    result = run("today")
    assert result.exit_code == 0, result.output
    due = blocks(result.stdout)["Follow-ups due today and overdue"]
    (gone,) = [line for line in due if "Gone GmbH" in line]
    assert "Gone GmbH (removed)" in gone
    assert not any("(removed)" in line for line in due if "Gone GmbH" not in line)


def test_an_empty_day_says_so_on_stderr(desk: Path) -> None:
    result = run("today")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr == "Nothing for today.\n"


def test_json_is_one_object_with_the_six_sections_and_iso_dates(desk: Path) -> None:
    seed(desk)
    result = run("today", "--json")
    assert result.exit_code == 0, result.output
    page = json.loads(result.stdout)
    assert set(page) >= SECTIONS
    assert page["today"] == "2026-11-18" and page["since"] == "2026-11-17T17:00:00.000Z"
    assert page["cold_after_days"] == 14 and page["going_cold_total"] == 1
    assert [job["remote_id"] for job in page["finished_jobs"]] == ["ds-1"]
    assert set(page["finished_jobs"][0]) >= set(JOB_FIELDS)
    assert page["finished_jobs"][0]["kind"] == "deep_search"  # raw, for scripts; words in the table
    (ready,) = page["ready_leads"]
    assert set(ready) == {*LEAD_FIELDS, "reached_at", "last_activity_at"}
    assert ready["id"] == 1 and ready["reached_at"] == "2026-11-17T15:00:00.000Z"
    assert [lead["id"] for lead in page["going_cold"]] == [2]
    assert [(f["text"], f["due"], f["state"]) for f in page["follow_ups"]] == [
        ("send the case study", "2026-11-16", "overdue"),
        ("wants pricing by Friday", "2026-11-18", "today"),
    ]
    assert page["next_7_days"] == {"total": 1, "days": [{"day": "2026-11-25", "count": 1}]}
    assert page["recommendations"] == {"total": 3, "high": 1, "medium": 1, "low": 1, "other": 0}
    assert [(op["kind"], op["state"], op["last_error"]) for op in page["failed_ops"]] == [
        ("add_note", "failed", "Outreach lead not found")
    ]
    stamps = [page["since"], ready["reached_at"], ready["last_activity_at"], page["going_cold"][0]["last_activity_at"],
              page["finished_jobs"][0]["completed_at"], page["failed_ops"][0]["created_at"]]  # fmt: skip
    assert all(ISO_UTC.match(stamp) for stamp in stamps), stamps
    assert all(datetime.fromisoformat(f["due"]) for f in page["follow_ups"])


def test_an_empty_day_in_json_has_every_section_empty(desk: Path) -> None:
    page = json.loads(run("today", "--json").stdout)
    assert page["since"] is None
    assert all(page[name] == [] for name in SECTIONS - {"recommendations"})
    assert page["recommendations"]["total"] == 0
    assert page["next_7_days"] == {"total": 0, "days": []}


def test_cold_after_days_comes_from_the_config(desk: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed(desk)
    config = desk / "config.toml"
    config.write_text("[ui]\ncold_after_days = 45\n", encoding="utf-8")
    monkeypatch.setenv("WARMLINE_CONFIG", str(config))
    page = json.loads(run("today", "--json").stdout)
    assert (page["cold_after_days"], page["going_cold"]) == (45, [])
    assert "Going cold" not in run("today").stdout


def test_a_long_cold_list_says_how_many_more(desk: Path) -> None:
    store = Store(desk / "cache.sqlite3")
    store.upsert_leads(
        [
            lead_item(
                n, lead_status="warm", last_activity_at=f"2026-09-{1 + n % 28:02d}T09:00:00.000Z"
            )
            for n in range(1, 131)
        ]
    )
    store.close()
    sections = blocks(run("today").stdout)
    cold = sections["Going cold (warm, no activity in 14 days)"]
    assert len(cold) == 1 + 100 + 1 and cold[-1] == "and 30 more: `warmline leads --status warm`"


def test_an_unusable_follow_ups_file_is_named(desk: Path) -> None:
    seed(desk)
    (desk / "followups.db").write_bytes(b"not a database, not at all" * 100)
    result = run("today")
    assert result.exit_code == 5
    assert "followups.db" in result.stderr and "cache.sqlite3" not in result.stderr
    assert "Traceback" not in result.output
