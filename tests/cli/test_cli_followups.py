"""`warmline followups` (list, done, snooze, add, delete), the follow-up `warmline log` and
`warmline note` keep from their text, and `warmline export followups` as CSV, JSON and ICS
(read back with the `icalendar` library, as a calendar would)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path

import icalendar
import pytest

from support.cli_sandbox import open_store, run
from warmline.exporting import FOLLOWUP_COLUMNS, ics_event
from warmline.store.followups import FollowUp, FollowUps

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 24, 9, 0, tzinfo=ZONE)  # a Tuesday morning in the rep's zone
TODAY = NOW.date()
HOSTILE_NAME = '=HYPERLINK("http://evil"),\x1b[2J Acme; \\ Ltd'


@pytest.fixture
def desk(offline: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache with two leads, no service, and the rep's clock at `NOW`."""
    monkeypatch.setattr("warmline.actions.followups.rep_now", lambda: NOW)
    with open_store(offline) as store:
        store.upsert_leads(
            [{"id": 1, "company_name": "Nordlys Freight"}, {"id": 2, "company_name": HOSTILE_NAME}]
        )
    return offline


def listed(*args: str) -> list[dict[str, object]]:
    result = run("followups", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_add_by_hand_with_a_date_or_words(desk: Path) -> None:
    result = run("followups", "add", "Nordlys", "friday", "Send the deck", "--json")
    assert result.exit_code == 0, result.output
    added = json.loads(result.stdout)
    assert (added["lead_id"], added["company"], added["due"], added["source"]) == (
        1,
        "Nordlys Freight",
        "2026-11-27",
        "manual",
    )
    result = run("followups", "add", "1", "2026-12-03", "Call back")
    assert result.exit_code == 0, result.output
    assert result.stdout == "Added: 2 · Thu 3 Dec · Nordlys Freight · Call back\n"
    assert [i["due"] for i in listed()] == ["2026-11-27", "2026-12-03"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["followups", "add", "1", "someday", "x"], "cannot read 'someday' as a day"),
        (["followups", "add", "1", "2026-11-01", "x"], "is in the past"),
        (["followups", "add", "1", "friday", "  "], "needs a text"),
        (["followups", "add", "99", "friday", "x"], "99"),
        (["followups", "done", "5"], "no follow-up 5"),
        (["followups", "snooze", "5", "--days", "1"], "no follow-up 5"),
        (["followups", "snooze", "1"], "--days N or --until DATE"),
        (
            ["followups", "snooze", "1", "--days", "1", "--until", "friday"],
            "--days N or --until DATE",
        ),
        (["followups", "snooze", "1", "--days", "0"], "1 to 366 days"),
        (["followups", "snooze", "1", "--until", "whenever"], "cannot read 'whenever'"),
        (["followups", "delete", "5"], "no follow-up 5"),
        (["followups", "--due", "soon"], "Invalid value for '--due'"),
        (["export", "leads", "--format", "ics"], "applies to followups only"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_changes_nothing(
    desk: Path, args: list[str], message: str
) -> None:
    assert run("followups", "add", "1", "friday", "Send the deck").exit_code == 0
    before = listed("--due", "all")
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert listed("--due", "all") == before


def test_done_and_snooze_change_what_each_filter_lists(
    desk: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for due, text in (("2026-11-24", "today"), ("tomorrow", "tomorrow"), ("2026-11-30", "monday")):
        assert run("followups", "add", "1", due, text).exit_code == 0
    assert [i["text"] for i in listed("--due", "today")] == ["today"]
    done = run("followups", "done", "1", "--json")
    assert done.exit_code == 0 and json.loads(done.stdout)["state"] == "done"
    assert (
        listed("--due", "today") == [] and [i["state"] for i in listed("--due", "all")][0] == "done"
    )
    snoozed = run("followups", "snooze", "2", "--days", "7", "--json")
    assert snoozed.exit_code == 0, snoozed.output
    item = json.loads(snoozed.stdout)
    assert (item["due"], item["promised"], item["snoozed_until"], item["state"]) == (
        "2026-12-02", "2026-11-25", "2026-12-02", "snoozed",
    )  # fmt: skip  (a week from the day it was due: never brought forward)
    assert (
        run("followups", "snooze", "3", "--until", "3 Dec").stdout
        == "Snoozed: 3 · Thu 3 Dec · Nordlys Freight · monday\n"
    )
    # A week after tomorrow the snoozed one is due; the one done stays done.
    monkeypatch.setattr("warmline.actions.followups.rep_now", lambda: NOW + timedelta(days=8))
    assert [i["id"] for i in listed("--due", "today")] == [2]
    assert [i["id"] for i in listed("--due", "due")] == [2]
    monkeypatch.setattr("warmline.actions.followups.rep_now", lambda: NOW + timedelta(days=10))
    assert [(i["id"], i["state"]) for i in listed("--due", "overdue")] == [
        (2, "overdue"),
        (3, "overdue"),
    ]
    assert [i["id"] for i in listed("--lead", "1", "--due", "all")] == [1, 2, 3]
    assert listed("--lead", "2") == []


def test_the_list_for_a_person_and_an_empty_one(desk: Path) -> None:
    empty = run("followups", "--due", "today")
    assert (
        empty.exit_code == 0 and empty.stdout == "" and "No follow-ups due today." in empty.stderr
    )
    assert run("followups", "add", "2", "tomorrow at 10", "Line one\n\x1b[31mred").exit_code == 0
    table = run("followups").stdout.splitlines()
    assert table[0].split() == ["ID", "DUE", "STATE", "LEAD", "COMPANY", "TEXT"]
    assert len(table) == 2 and "Wed 25 Nov 10:00" in table[1] and "\x1b" not in table[1]
    assert run("followups", "delete", "1").stdout == "Deleted follow-up 1.\n"
    assert listed("--due", "all") == []


def test_followups_survive_cache_reset(desk: Path) -> None:
    assert run("followups", "add", "1", "friday", "Pricing by Friday").exit_code == 0
    reset = run("cache", "reset", "--yes")
    assert reset.exit_code == 0, reset.output
    assert (desk / "followups.db").exists()
    assert [i["text"] for i in listed()] == ["Pricing by Friday"]


# --- export -----------------------------------------------------------------------------------


@pytest.fixture
def exported(desk: Path) -> Path:
    """Three follow-ups: one all-day, one timed on a hostile company, one done."""
    assert (
        run(
            "followups", "add", "1", "by Friday", "Pricing by Friday; ask about Q1, and the \\ fees"
        ).exit_code
        == 0
    )
    assert run("followups", "add", "2", "tomorrow at 10", "=1+2 call\n@SUM(A1) then").exit_code == 0
    assert run("followups", "add", "1", "2026-12-03", "done already").exit_code == 0
    assert run("followups", "done", "3").exit_code == 0
    return desk


def test_export_csv_guards_formulas_and_has_every_follow_up(exported: Path, tmp_path: Path) -> None:
    result = run("export", "followups", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == list(FOLLOWUP_COLUMNS)
    assert [r[0] for r in rows[1:]] == [
        "2",
        "1",
        "3",
    ]  # by day due; the done one too, with its state
    assert rows[3][FOLLOWUP_COLUMNS.index("state")] == "done"
    hostile = dict(zip(rows[0], rows[1], strict=True))
    assert hostile["company"].startswith("'=HYPERLINK") and "\x1b" not in hostile["company"]
    assert hostile["text"] == "'=1+2 call\n'@SUM(A1) then"
    assert (hostile["due"], hostile["at"]) == ("2026-11-25", "10:00")
    out = tmp_path / "followups.csv"
    assert run("export", "followups", "--output", str(out)).exit_code == 0
    assert out.read_text() == result.stdout


def test_export_json_keeps_the_text_as_it_is(exported: Path) -> None:
    result = run("export", "followups", "--format", "json")
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert [i["id"] for i in items] == [2, 1, 3]
    assert items[0]["company"] == HOSTILE_NAME and items[0]["text"] == "=1+2 call\n@SUM(A1) then"
    assert items == listed("--due", "all")


def test_export_ics_reads_back_in_a_calendar_library(exported: Path, tmp_path: Path) -> None:
    out = tmp_path / "followups.ics"
    result = run("export", "followups", "--format", "ics", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "Exported 2 follow-up(s)" in result.stderr  # the done one is not on a calendar
    raw = out.read_bytes()
    lines = raw.split(b"\r\n")
    assert lines[-1] == b"" and all(b"\n" not in line and b"\r" not in line for line in lines)
    assert all(len(line) <= 75 for line in lines)  # folded
    calendar = icalendar.Calendar.from_ical(raw)
    assert str(calendar["VERSION"]) == "2.0" and "Warmline" in str(calendar["PRODID"])
    second, first = calendar.walk("VEVENT")  # by day: the timed one (25 Nov) first
    assert first["DTSTART"].dt == date(2026, 11, 27) and first["DTEND"].dt == date(2026, 11, 28)
    assert str(first["DESCRIPTION"]).startswith(
        "Pricing by Friday; ask about Q1, and the \\ fees\n\n"
    )
    assert (
        str(first["SUMMARY"])
        == "Follow up: Nordlys Freight: Pricing by Friday; ask about Q1, and the \\ fees"
    )
    # Timed: 10:00 in the rep's zone (UTC+1) is 09:00 UTC.
    assert second["DTSTART"].dt == datetime(2026, 11, 25, 9, 0, tzinfo=UTC)
    assert second["DTEND"].dt - second["DTSTART"].dt == timedelta(minutes=30)
    assert "\x1b" not in str(second["SUMMARY"]) and "Acme; \\ Ltd" in str(second["SUMMARY"])
    assert str(second["DESCRIPTION"]).startswith("=1+2 call\n@SUM(A1) then\n\n")
    # Exported again after a snooze: the same UID, a higher SEQUENCE (the calendar updates it).
    assert run("followups", "snooze", "2", "--days", "2").exit_code == 0
    again = icalendar.Calendar.from_ical(
        run("export", "followups", "--format", "ics").stdout.encode()
    )
    moved = next(e for e in again.walk("VEVENT") if e["UID"] == second["UID"])
    assert moved["UID"] == second["UID"] and int(moved["SEQUENCE"]) > int(second["SEQUENCE"])
    assert moved["DTSTART"].dt == datetime(2026, 11, 27, 9, 0, tzinfo=UTC)  # 2 days after the 25th


def test_ics_folds_long_non_ascii_text_without_cutting_a_character() -> None:
    text = "Überweisung prüfen, Angebot schicken; " * 12 + "日本語のテキスト" * 10
    followup = FollowUp(id=4, lead_id=9, company="Bäckerei Müller", text=text, source="manual",
                        source_op_id=None, due=date(2026, 12, 1), at=time(14, 30),
                        created_at=datetime(2026, 11, 24, 8, 0, tzinfo=UTC))  # fmt: skip
    stamp = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    from warmline.exporting import write_ics

    out = io.StringIO()
    assert write_ics([followup], out, stamp, ZONE) == 1
    raw = out.getvalue().encode("utf-8")
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    [event] = icalendar.Calendar.from_ical(raw).walk("VEVENT")
    assert str(event["DESCRIPTION"]).startswith(text + "\n\n")
    assert event["DTSTART"].dt == datetime(2026, 12, 1, 13, 30, tzinfo=UTC)
    assert str(event["UID"]) == "warmline-followup-4-20261124T080000Z@warmline"
    assert (
        ics_event(followup, stamp, ZONE)[1] == "UID:warmline-followup-4-20261124T080000Z@warmline"
    )


def test_the_follow_ups_file_is_the_data_dirs(desk: Path) -> None:
    assert run("followups", "add", "1", "friday", "x").exit_code == 0
    with FollowUps(desk) as followups:
        assert [f.text for f in followups.list("all", today=TODAY)] == ["x"]
