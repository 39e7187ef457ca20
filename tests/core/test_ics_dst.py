"""Follow-up times across DST in the calendar export (issue 21, item 9), and the ICS text
and temporary-file rules the mutation audit found untested.

The export used the offset in force *now* (`datetime.now().astimezone().tzinfo`): a 10:00
follow-up after the March change, exported in February from Berlin, came out as 09:00Z
instead of 08:00Z. The table holds dates on both sides of each change in two zones, the
skipped and the repeated hour among them (read with the offset before the change, as
RFC 5545 reads a local time). The command is run with `TZ` naming the zone, so the figures
hold whatever day the suite runs.
"""

from __future__ import annotations

import io
import os
import time as _time
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from support.cli_sandbox import configure, run, serve
from warmline.exporting import ics_event, ics_start, ics_uid, write_file, write_ics
from warmline.store.followups import FollowUp, FollowUps

BERLIN = [  # (day, wall-clock time, UTC)
    (date(2026, 3, 28), time(10, 0), datetime(2026, 3, 28, 9, 0, tzinfo=UTC)),
    (date(2026, 3, 29), time(1, 30), datetime(2026, 3, 29, 0, 30, tzinfo=UTC)),  # before the change
    (date(2026, 3, 29), time(2, 30), datetime(2026, 3, 29, 1, 30, tzinfo=UTC)),  # skipped: offset before
    (date(2026, 3, 29), time(10, 0), datetime(2026, 3, 29, 8, 0, tzinfo=UTC)),
    (date(2026, 4, 2), time(10, 0), datetime(2026, 4, 2, 8, 0, tzinfo=UTC)),
    (date(2026, 10, 24), time(10, 0), datetime(2026, 10, 24, 8, 0, tzinfo=UTC)),
    (date(2026, 10, 25), time(2, 30), datetime(2026, 10, 25, 0, 30, tzinfo=UTC)),  # repeated: the first
    (date(2026, 10, 25), time(10, 0), datetime(2026, 10, 25, 9, 0, tzinfo=UTC)),
    (date(2026, 10, 27), time(10, 0), datetime(2026, 10, 27, 9, 0, tzinfo=UTC)),
]
NEW_YORK = [
    (date(2026, 3, 7), time(10, 0), datetime(2026, 3, 7, 15, 0, tzinfo=UTC)),
    (date(2026, 3, 8), time(2, 30), datetime(2026, 3, 8, 7, 30, tzinfo=UTC)),  # skipped: offset before
    (date(2026, 3, 8), time(10, 0), datetime(2026, 3, 8, 14, 0, tzinfo=UTC)),
    (date(2026, 3, 30), time(10, 0), datetime(2026, 3, 30, 14, 0, tzinfo=UTC)),
    (date(2026, 10, 26), time(10, 0), datetime(2026, 10, 26, 14, 0, tzinfo=UTC)),  # Berlin's change passed
    (date(2026, 10, 31), time(10, 0), datetime(2026, 10, 31, 14, 0, tzinfo=UTC)),
    (date(2026, 11, 1), time(1, 30), datetime(2026, 11, 1, 5, 30, tzinfo=UTC)),  # repeated: the first
    (date(2026, 11, 1), time(10, 0), datetime(2026, 11, 1, 15, 0, tzinfo=UTC)),
    (date(2026, 11, 3), time(10, 0), datetime(2026, 11, 3, 15, 0, tzinfo=UTC)),
]
TABLES = {"Europe/Berlin": BERLIN, "America/New_York": NEW_YORK}
CREATED = datetime(2026, 2, 10, 8, 0, tzinfo=UTC)


def followup(followup_id: int, day: date, at: time | None, text: str = "Call back") -> FollowUp:
    return FollowUp(id=followup_id, lead_id=1, company="Acme", text=text, source="manual", source_op_id=None,
                    due=day, at=at, created_at=CREATED)  # fmt: skip


@pytest.fixture
def rep_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`TZ` is set per test (monkeypatch restores it); the C library is told after each."""
    yield
    monkeypatch.undo()
    _time.tzset()


def live_in(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("TZ", name)
    _time.tzset()


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_date_gets_its_own_offset(name: str) -> None:
    zone = ZoneInfo(name)
    for day, at, utc in TABLES[name]:
        assert ics_start(day, at, zone) == utc, (name, day, at)
        event = ics_event(followup(1, day, at), CREATED, zone)
        assert f"DTSTART:{utc:%Y%m%dT%H%M%SZ}" in event
        assert f"DTEND:{utc + timedelta(minutes=30):%Y%m%dT%H%M%SZ}" in event


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_export_command_reads_the_reps_zone_not_todays_offset(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rep_in: None
) -> None:
    """Through `warmline export followups --format ics`, as the rep runs it."""
    data = tmp_path / "data"
    data.mkdir()
    configure(monkeypatch, data)
    serve(monkeypatch, None)
    live_in(monkeypatch, name)
    table = TABLES[name]
    with FollowUps(data) as followups:
        for day, at, _utc in table:
            followups.add(1, "Acme", f"{day} {at}", day, at)
    result = run("export", "followups", "--format", "ics")
    assert result.exit_code == 0, result.output
    events = icalendar.Calendar.from_ical(result.stdout.encode()).walk("VEVENT")
    starts = {str(e["DESCRIPTION"]).split("\n")[0]: e["DTSTART"].dt for e in events}
    assert starts == {f"{day} {at}": utc for day, at, utc in table}
    assert all(name.replace("/", ".") in str(e["UID"]) for e in events)


def test_the_uid_changes_when_the_zone_moves_the_time() -> None:
    """A calendar keeps an event whose UID and SEQUENCE it has seen: an event once exported
    with a fixed offset (an hour off after the change) or in another zone gets a new UID;
    an all-day one, which no zone moves, keeps its own."""
    timed, all_day = followup(7, date(2026, 4, 2), time(10, 0)), followup(8, date(2026, 4, 2), None)
    fixed = timezone(timedelta(hours=1))
    uids = {ics_uid(timed, zone) for zone in (fixed, ZoneInfo("Europe/Berlin"), ZoneInfo("America/New_York"))}
    assert len(uids) == 3
    assert ics_uid(timed, fixed) == "warmline-followup-7-20260210T080000Z@warmline"
    assert ics_uid(timed, ZoneInfo("Europe/Berlin")) == "warmline-followup-7-20260210T080000Z-Europe.Berlin@warmline"
    assert {ics_uid(all_day, zone) for zone in (fixed, ZoneInfo("Europe/Berlin"))} == {
        "warmline-followup-8-20260210T080000Z@warmline"
    }


def test_ics_text_escapes_semicolons_commas_and_backslashes() -> None:
    """A calendar library reads an unescaped `;` leniently, so this reads the raw lines."""
    out = io.StringIO()
    write_ics([followup(3, date(2026, 4, 2), None, "Price; terms, and a \\ path")], out, CREATED, UTC)
    lines = out.getvalue().replace("\r\n ", "").split("\r\n")
    summary = next(line for line in lines if line.startswith("SUMMARY:"))
    description = next(line for line in lines if line.startswith("DESCRIPTION:"))
    assert summary == "SUMMARY:Follow up: Acme: Price\\; terms\\, and a \\\\ path"
    assert description.startswith("DESCRIPTION:Price\\; terms\\, and a \\\\ path\\n\\n")


def test_a_failed_export_leaves_neither_its_file_nor_a_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "followups.ics"
    target.write_text("the old export")

    def fails(out: io.TextIOBase) -> int:
        out.write("half an export")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_file(target, fails)  # type: ignore[arg-type]
    assert sorted(os.listdir(tmp_path)) == ["followups.ics"]
    assert target.read_text() == "the old export"
