"""The follow-ups' own file (`warmline.store.followups`): its schema and migrations, that it
outlives `warmline cache reset`, and the day filters the Today screen and the CLI read."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

import pytest

from warmline.store import CacheUnusable, Store
from warmline.store.followups import (
    AGENDA_GROUPS,
    FOLLOWUPS_FILE,
    MIGRATIONS,
    DueFilter,
    FollowUp,
    FollowUps,
    agenda_group,
    due_range,
)
from warmline.store.reset import move_cache_aside

TODAY = date(2026, 11, 24)  # a Tuesday
NOW = datetime(2026, 11, 24, 8, 30, tzinfo=UTC)


@pytest.fixture
def followups(tmp_path: Path) -> Iterator[FollowUps]:
    opened = FollowUps(tmp_path, clock=lambda: NOW)
    yield opened
    opened.close()


def add(
    followups: FollowUps,
    due: date,
    text: str = "Send pricing",
    lead_id: int = 1,
    at: time | None = None,
) -> FollowUp:
    return followups.add(lead_id, f"Company {lead_id}", text, due, at, source="activity",
                         source_op_id=f"op-{text}", phrase="by Friday")  # fmt: skip


def test_building_one_opens_nothing_and_the_first_use_makes_the_file_at_the_latest_version(
    tmp_path: Path,
) -> None:
    followups = FollowUps(tmp_path / "data")
    assert not (tmp_path / "data").exists()  # the cockpit can hold one from start-up for free
    assert followups.list("all", today=TODAY) == []
    assert followups.path == tmp_path / "data" / FOLLOWUPS_FILE
    assert followups.version() == len(MIGRATIONS) == 2
    assert (followups.path.stat().st_mode & 0o777) == 0o600  # private, as the cache is
    followups.close()


def test_a_row_reads_back_whole(followups: FollowUps) -> None:
    made = followups.add(7, "Nordlys Freight", "Demo, said tomorrow at 10", TODAY + timedelta(days=1),
                         time(10, 0), source="note", source_op_id="abc123", phrase="tomorrow at 10")  # fmt: skip
    assert made == followups.get(made.id)
    assert (made.lead_id, made.company, made.source, made.source_op_id) == (
        7,
        "Nordlys Freight",
        "note",
        "abc123",
    )
    assert (made.due, made.at, made.phrase) == (date(2026, 11, 25), time(10, 0), "tomorrow at 10")
    assert made.created_at == NOW and made.done_at is None and made.revision == 0
    assert followups.get(made.id + 1) is None


def test_reopening_migrates_nothing_again_and_keeps_the_rows(tmp_path: Path) -> None:
    with FollowUps(tmp_path) as first:
        add(first, TODAY)
    conn = sqlite3.connect(tmp_path / FOLLOWUPS_FILE)
    assert conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == len(MIGRATIONS)
    conn.close()
    with FollowUps(tmp_path) as again:
        assert [f.text for f in again.list("all", today=TODAY)] == ["Send pricing"]
        assert again.version() == len(MIGRATIONS)


def test_an_upgrade_applies_the_new_migrations_in_order_and_keeps_the_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FollowUps(tmp_path) as old:
        add(old, TODAY)

    def later(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE followups ADD COLUMN colour TEXT NOT NULL DEFAULT 'red'")

    monkeypatch.setattr("warmline.store.followups.MIGRATIONS", [*MIGRATIONS, later])
    with FollowUps(tmp_path) as upgraded:
        assert upgraded.version() == len(MIGRATIONS) + 1
        assert [f.text for f in upgraded.list("all", today=TODAY)] == ["Send pricing"]
        assert upgraded.conn.execute("SELECT colour FROM followups").fetchone()[0] == "red"


def test_a_file_from_a_newer_warmline_is_refused_naming_it_and_left_alone(tmp_path: Path) -> None:
    with FollowUps(tmp_path) as made:
        add(made, TODAY)
    conn = sqlite3.connect(tmp_path / FOLLOWUPS_FILE)
    conn.execute("INSERT INTO schema_version VALUES (99, 'later')")
    conn.commit()
    conn.close()
    before = (tmp_path / FOLLOWUPS_FILE).read_bytes()
    newer = FollowUps(tmp_path)
    with pytest.raises(CacheUnusable) as refused:
        newer.list("all", today=TODAY)
    assert str(refused.value).startswith(
        f"the follow-ups file {tmp_path / FOLLOWUPS_FILE} was written by a newer"
    )
    assert (tmp_path / FOLLOWUPS_FILE).read_bytes() == before


def test_a_damaged_file_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / FOLLOWUPS_FILE).write_bytes(b"not a database at all" * 100)
    with pytest.raises(CacheUnusable, match="the follow-ups file .*followups.db cannot be opened"):
        FollowUps(tmp_path).list("all", today=TODAY)


def test_follow_ups_outlive_the_cache_moved_aside_and_the_lead_gone(tmp_path: Path) -> None:
    cache = Store(tmp_path / "cache.sqlite3")
    cache.upsert_leads([{"id": 1, "company_name": "Acme"}])
    cache.close()
    with FollowUps(tmp_path) as followups:
        followups.add(1, "Acme", "Send pricing", TODAY, source="manual")
    moved = move_cache_aside(tmp_path / "cache.sqlite3")
    assert all(FOLLOWUPS_FILE not in str(source) for source, _ in moved.moves)
    fresh = Store(tmp_path / "cache.sqlite3")  # the next start: a new, empty cache
    assert fresh.lead_count() == 0
    fresh.close()
    with FollowUps(tmp_path) as followups:
        [kept] = followups.list("today", today=TODAY)
    assert (kept.lead_id, kept.company, kept.text) == (
        1,
        "Acme",
        "Send pricing",
    )  # reads without the lead


def test_the_day_filters_meet_at_today(followups: FollowUps) -> None:
    yesterday = add(followups, TODAY - timedelta(days=1), "yesterday")
    today = add(followups, TODAY, "today")
    today_timed = add(followups, TODAY, "today at 9", at=time(9, 0))
    tomorrow = add(followups, TODAY + timedelta(days=1), "tomorrow")
    done = add(followups, TODAY - timedelta(days=3), "done long ago")
    followups.done(done.id)

    def ids(due: str, day: date = TODAY) -> list[int]:
        return [f.id for f in followups.list(due, today=day)]  # type: ignore[arg-type]

    assert ids("overdue") == [yesterday.id]
    assert ids("today") == [today.id, today_timed.id]  # all-day before timed, on the same day
    assert ids("due") == [yesterday.id, today.id, today_timed.id]
    assert ids("open") == [yesterday.id, today.id, today_timed.id, tomorrow.id]
    assert ids("all") == [done.id, yesterday.id, today.id, today_timed.id, tomorrow.id]
    # A day later, today's are overdue and tomorrow's is today's.
    assert ids("overdue", TODAY + timedelta(days=1)) == [yesterday.id, today.id, today_timed.id]
    assert ids("today", TODAY + timedelta(days=1)) == [tomorrow.id]
    assert [f.state(TODAY) for f in followups.list("all", today=TODAY)] == [
        "done", "overdue", "today", "today", "upcoming",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="due must be one of"):
        followups.list("soon", today=TODAY)  # type: ignore[arg-type]


def test_the_lead_filter(followups: FollowUps) -> None:
    add(followups, TODAY, lead_id=1)
    mine = add(followups, TODAY, "theirs", lead_id=2)
    assert [f.id for f in followups.list("open", 2, today=TODAY)] == [mine.id]


def test_a_snooze_moves_the_day_it_is_due_and_keeps_the_promised_one(followups: FollowUps) -> None:
    made = add(followups, TODAY - timedelta(days=2))
    snoozed = followups.snooze(made.id, TODAY + timedelta(days=7))
    assert snoozed is not None
    assert (snoozed.due, snoozed.due_on, snoozed.snoozed_until) == (
        TODAY - timedelta(days=2), TODAY + timedelta(days=7), TODAY + timedelta(days=7),
    )  # fmt: skip
    assert snoozed.state(TODAY) == "snoozed" and snoozed.revision == 1
    assert followups.list("overdue", today=TODAY) == []
    assert [f.id for f in followups.list("today", today=TODAY + timedelta(days=7))] == [made.id]
    assert followups.snooze(made.id + 1, TODAY) is None


def test_done_is_kept_once_and_reopen_undoes_it(followups: FollowUps) -> None:
    made = add(followups, TODAY)
    first = followups.done(made.id)
    assert first is not None and first.done_at == NOW and first.state(TODAY) == "done"
    again = followups.done(made.id)
    assert again is not None and again.revision == first.revision == 1  # no change the second time
    assert followups.list("due", today=TODAY) == []
    reopened = followups.reopen(made.id)
    assert reopened is not None and reopened.done_at is None
    assert followups.done(made.id + 1) is None


def test_update_changes_the_day_time_and_text_and_drops_a_snooze(followups: FollowUps) -> None:
    made = add(followups, TODAY, at=time(9, 0))
    followups.snooze(made.id, TODAY + timedelta(days=1))
    changed = followups.update(made.id, due=TODAY + timedelta(days=3), text="Call back")
    assert changed is not None
    assert (changed.due, changed.snoozed_until, changed.text, changed.at) == (
        TODAY + timedelta(days=3), None, "Call back", time(9, 0),
    )  # fmt: skip
    cleared = followups.update(made.id, clear_at=True)
    assert cleared is not None and cleared.at is None
    assert followups.update(made.id + 1, text="x") is None


def test_delete(followups: FollowUps) -> None:
    made = add(followups, TODAY)
    assert followups.delete(made.id) is True
    assert followups.get(made.id) is None
    assert followups.delete(made.id) is False


def test_data_version_changes_with_a_write_here_or_by_another_connection(tmp_path: Path) -> None:
    with FollowUps(tmp_path) as cockpit, FollowUps(tmp_path) as command_line:
        before = cockpit.data_version()
        assert cockpit.data_version() == before  # reading changes nothing
        add(command_line, TODAY)  # `warmline followups add` in another process
        after_other = cockpit.data_version()
        assert after_other != before
        add(cockpit, TODAY)
        assert cockpit.data_version() != after_other


def test_the_agenda_groups_days_as_a_rep_plans_them() -> None:
    """On Tuesday 24 Nov: this week runs to Sunday 29, next week is 30 Nov to 6 Dec."""
    expected = {
        date(2026, 11, 23): "Overdue",
        TODAY: "Today",
        date(2026, 11, 25): "Tomorrow",
        date(2026, 11, 26): "This week",
        date(2026, 11, 29): "This week",
        date(2026, 11, 30): "Next week",
        date(2026, 12, 6): "Next week",
        date(2026, 12, 7): "Later",
    }
    assert {day: agenda_group(day, TODAY) for day in expected} == expected
    saturday = date(2026, 11, 28)  # Sunday is tomorrow: this week has nothing left
    assert [agenda_group(saturday + timedelta(days=n), saturday) for n in range(3)] == [
        "Today", "Tomorrow", "Next week",
    ]  # fmt: skip
    assert AGENDA_GROUPS[0] == "Overdue" and AGENDA_GROUPS[-1] == "Later"


def test_week_next_week_and_a_range_of_days(followups: FollowUps) -> None:
    for offset in (-1, 0, 1, 5, 7, 8, 12, 13):
        add(followups, TODAY + timedelta(days=offset), f"in {offset}")
    done = add(followups, TODAY + timedelta(days=2), "done one")
    followups.done(done.id)

    def texts(due: DueFilter = "open", **days: date) -> list[str]:
        return [item.text for item in followups.list(due, today=TODAY, **days)]

    assert texts("week") == ["in 1", "in 5", "in 7"]  # after today, at most 7 days on
    assert texts("next-week") == ["in 7", "in 8", "in 12"]  # Mon 30 Nov to Sun 6 Dec
    assert texts(start=TODAY + timedelta(days=5), end=TODAY + timedelta(days=8)) == ["in 5", "in 7", "in 8"]
    assert texts(end=TODAY) == ["in -1", "in 0"]
    assert texts("all", start=TODAY + timedelta(days=2), end=TODAY + timedelta(days=2)) == ["done one"]
    assert texts("week", start=TODAY + timedelta(days=6)) == ["in 7"]  # both narrow
    assert followups.open_by_day(TODAY + timedelta(days=1), TODAY + timedelta(days=7)) == [
        (TODAY + timedelta(days=1), 1), (TODAY + timedelta(days=5), 1), (TODAY + timedelta(days=7), 1),
    ]  # fmt: skip
    assert due_range("open", TODAY) == (None, None)
