"""The Today read model (warmline.store.today): each section from a seeded cache, and its
boundaries: the target reached yesterday vs last week (in the rep's zone), the
cold_after_days edge, the jobs since the cockpit was last closed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from support.store_data import FakeClock, detail_item, lead_item, rec_item
from warmline.store import Store
from warmline.store.clock import iso
from warmline.store.database import Database
from warmline.store.followups import FollowUps
from warmline.store.schema import MIGRATIONS, migrate
from warmline.store.today import (
    RecommendationCounts,
    lead_names,
    reached_from_start,
    reached_target_at,
    today_page,
)

BERLIN = timezone(timedelta(hours=1))
LOS_ANGELES = timezone(timedelta(hours=-8))
# The fake clock's START, 2026-11-18 11:06:40 UTC: 12:06 in Berlin, 03:06 in Los Angeles.


def now_in(clock: FakeClock, zone: timezone = BERLIN) -> datetime:
    return datetime.fromtimestamp(clock.now, zone)


def seed_lead(
    store: Store,
    lead_id: int,
    *,
    score: int,
    target: int | None = 50,
    activities: list[tuple[str, int]] = (),  # type: ignore[assignment]
    status: str = "warm",
    last_activity_at: str | None = None,
    created_at: str = "2026-11-01T09:00:00.000Z",
) -> None:
    """A lead with its detail: `activities` as (created_at, points), any order."""
    detail: dict[str, Any] = detail_item(lead_id, lead_status=status)
    touchpoints = [
        {"id": 50_000 + 100 * lead_id + n, "description": f"activity {n}", "detected_type": "call",
         "contact_id": None, "bonus_points": points, "created_at": at}
        for n, (at, points) in enumerate(activities)
    ]  # fmt: skip
    newest = max((at for at, _ in activities), default=None)
    detail.update(
        warming_score=score,
        target_score=target,
        touchpoints=touchpoints,
        recommendations=[],
        last_activity_at=last_activity_at if last_activity_at is not None else newest,
        created_at=created_at,
    )
    store.upsert_lead_detail(detail)


def ids(leads: tuple[Any, ...]) -> list[int]:
    return [item.lead.id for item in leads]


# --- ready for outreach --------------------------------------------------------------------


def test_the_crossing_is_the_activity_that_took_the_score_to_the_target() -> None:
    # 40 -> 52 (crosses 50) -> 55
    assert reached_target_at(55, 50, [("t3", 3), ("t2", 12)]) == "t2"
    # Dipped below and came back: the last crossing counts (60 -> 45 -> 58).
    assert reached_target_at(58, 50, [("t3", 13), ("t2", -15), ("t1", 20)]) == "t3"
    # Exactly at the target after an activity: reached then.
    assert reached_target_at(50, 50, [("t1", 10)]) == "t1"
    # Already there before every cached activity: not known.
    assert reached_target_at(90, 50, [("t1", 5)]) is None
    assert reached_target_at(60, 50, []) is None


def test_ready_leads_are_those_that_reached_the_target_since_the_start_of_yesterday(
    store: Store, clock: FakeClock
) -> None:
    # Berlin: now 2026-11-18 12:06 (+01:00); yesterday starts 2026-11-16T23:00:00Z.
    seed_lead(
        store, 1, score=55, activities=[("2026-11-17T09:00:00.000Z", 10)]
    )  # 45 -> 55 yesterday
    seed_lead(store, 2, score=55, activities=[("2026-11-11T09:00:00.000Z", 10)])  # last week
    seed_lead(store, 3, score=52, activities=[("2026-11-18T08:00:00.000Z", 4)])  # this morning
    seed_lead(store, 4, score=45, activities=[("2026-11-18T08:00:00.000Z", 10)])  # below target
    seed_lead(store, 5, score=70, activities=[("2026-11-17T09:00:00.000Z", 5)])  # there before
    seed_lead(
        store, 6, score=55, activities=[("2026-11-16T23:00:00.000Z", 10)]
    )  # the first instant
    seed_lead(store, 7, score=55, activities=[("2026-11-16T22:59:59.999Z", 10)])  # a moment before
    page = today_page(store, now_in(clock))
    assert ids(page.ready_leads) == [3, 1, 6]  # most recently reached first
    first = page.ready_leads[1]
    assert first.reached_at == datetime(2026, 11, 17, 10, 0, tzinfo=BERLIN)
    assert first.lead.ready and first.lead.company_name == "Company 1"
    assert first.last_activity_at == first.reached_at


def test_yesterday_is_a_day_of_the_reps_zone(store: Store, clock: FakeClock) -> None:
    # 05:00 UTC on the 17th is yesterday in Berlin (06:00), but the 16th in Los Angeles (21:00).
    seed_lead(store, 1, score=55, activities=[("2026-11-17T05:00:00.000Z", 10)])
    assert ids(today_page(store, now_in(clock, BERLIN)).ready_leads) == [1]
    assert ids(today_page(store, now_in(clock, LOS_ANGELES)).ready_leads) == []


def test_a_lead_without_a_target_is_ready_at_100(store: Store, clock: FakeClock) -> None:
    seed_lead(
        store,
        1,
        score=100,
        target=None,
        activities=[("2026-11-10T08:00:00.000Z", 60), ("2026-11-18T08:00:00.000Z", 45)],
    )
    seed_lead(store, 2, score=99, target=None, activities=[("2026-11-18T08:00:00.000Z", 5)])
    assert ids(today_page(store, now_in(clock)).ready_leads) == [1]


def test_at_the_cap_the_score_is_rebuilt_from_the_start() -> None:
    # 0 -> 75 (crosses 70) -> 100 (held at the cap): reached at the first.
    assert reached_from_start(70, [("t1", 75), ("t2", 40)]) == "t1"
    # 0 -> 40 -> 100 with a +120 meeting: reached at the meeting.
    assert reached_from_start(70, [("t1", 40), ("t2", 120)]) == "t2"
    assert reached_from_start(70, [("t1", 40)]) is None


def test_a_lead_at_the_cap_for_weeks_is_not_news_again(store: Store, clock: FakeClock) -> None:
    # Walking back from 100 would put lead 1's crossing yesterday (100 - 40 = 60 < 70), but
    # its score was capped: it reached 70 on 1 Nov.
    seed_lead(
        store,
        1,
        score=100,
        target=70,
        activities=[("2026-11-01T09:00:00.000Z", 75), ("2026-11-17T09:00:00.000Z", 40)],
    )
    # Lead 2 went from 40 to the cap with yesterday's meeting.
    seed_lead(
        store,
        2,
        score=100,
        target=70,
        activities=[("2026-11-01T09:00:00.000Z", 40), ("2026-11-17T09:00:00.000Z", 120)],
    )
    page = today_page(store, now_in(clock))
    assert ids(page.ready_leads) == [2]
    assert page.ready_leads[0].reached_at == datetime(2026, 11, 17, 10, 0, tzinfo=BERLIN)


# --- going cold ----------------------------------------------------------------------------


def test_warm_leads_with_no_activity_in_cold_after_days_are_going_cold(
    store: Store, clock: FakeClock
) -> None:
    now = now_in(clock)
    cutoff = now - timedelta(days=14)
    seed_lead(
        store, 1, score=20, activities=[(iso(cutoff.timestamp() - 1), 5)]
    )  # a second past the edge
    seed_lead(
        store, 2, score=20, activities=[(iso(cutoff.timestamp()), 5)]
    )  # exactly 14 days: not yet
    seed_lead(store, 3, score=20, activities=[("2026-09-01T09:00:00.000Z", 5)])  # long quiet
    seed_lead(
        store, 4, score=20, status="cold", activities=[("2026-09-01T09:00:00.000Z", 5)]
    )  # cold lead
    seed_lead(
        store, 5, score=20, activities=[], created_at="2026-10-01T09:00:00.000Z"
    )  # never active, old
    seed_lead(
        store, 6, score=20, activities=[], created_at="2026-11-17T09:00:00.000Z"
    )  # never active, new
    page = today_page(store, now)
    assert ids(page.going_cold) == [3, 5, 1]  # quietest first; never active: since made
    assert page.going_cold_total == 3
    assert page.going_cold[0].last_activity_at == datetime(2026, 9, 1, 10, 0, tzinfo=BERLIN)
    assert page.going_cold[0].quiet_days(now) == 78
    assert ids(today_page(store, now, cold_after_days=7).going_cold) == [3, 5, 1, 2]


def test_a_warm_lead_never_active_counts_from_its_creation(store: Store, clock: FakeClock) -> None:
    store.upsert_leads(
        [
            lead_item(1, lead_status="warm", created_at="2026-10-01T09:00:00.000Z"),
            lead_item(2, lead_status="warm", created_at="2026-11-17T09:00:00.000Z"),
        ]
    )
    page = today_page(store, now_in(clock))
    assert ids(page.going_cold) == [1]
    assert (
        page.going_cold[0].last_activity_at is None
        and page.going_cold[0].quiet_days(now_in(clock)) is None
    )


def test_an_activity_the_list_line_does_not_know_yet_keeps_a_lead_warm(
    store: Store, clock: FakeClock
) -> None:
    # The list's last activity is old, but the lead's detail holds a newer touchpoint.
    seed_lead(
        store,
        1,
        score=20,
        activities=[("2026-11-17T09:00:00.000Z", 5)],
        last_activity_at="2026-09-01T09:00:00.000Z",
    )
    assert today_page(store, now_in(clock)).going_cold == ()


def test_an_activity_queued_offline_keeps_a_lead_off_the_list(
    store: Store, clock: FakeClock
) -> None:
    seed_lead(store, 1, score=20, activities=[("2026-09-01T09:00:00.000Z", 5)])
    assert ids(today_page(store, now_in(clock)).going_cold) == [1]
    store.set_state("online", False)
    store.enqueue(
        "log_activity", {"lead_id": 1, "description": "Called Dana", "contact_id": None}, lead_id=1
    )
    assert today_page(store, now_in(clock)).going_cold == ()


def test_going_cold_lists_the_quietest_and_counts_them_all(store: Store, clock: FakeClock) -> None:
    store.upsert_leads(
        [
            lead_item(
                n,
                lead_status="warm",
                last_activity_at=f"2026-0{1 + n // 28}-{1 + n % 28:02d}T09:00:00.000Z",
            )
            for n in range(1, 151)
        ]
    )
    page = today_page(store, now_in(clock))
    assert page.going_cold_total == 150
    assert len(page.going_cold) == 100
    assert page.going_cold[0].lead.id == 1 and page.going_cold[-1].lead.id == 100


def last_touched(store: Store, lead_id: int) -> str | None:
    found = store.conn.execute(
        "SELECT last_touched_at FROM leads WHERE id = ?", (lead_id,)
    ).fetchone()
    return None if found[0] is None else str(found[0])


def test_a_touchpoint_written_later_moves_the_leads_last_activity(
    store: Store, clock: FakeClock
) -> None:
    # The cache keeps a lead's last activity in one column (`leads.last_touched_at`) as
    # touchpoints are written, rather than Today reading every quiet lead's activities.
    seed_lead(store, 1, score=20, activities=[("2026-09-01T09:00:00.000Z", 5)])
    assert ids(today_page(store, now_in(clock)).going_cold) == [1]
    assert last_touched(store, 1) == "2026-09-01T09:00:00.000Z"
    # A later refresh of the detail brings a newer activity; the list line still says September.
    seed_lead(
        store,
        1,
        score=20,
        activities=[("2026-09-01T09:00:00.000Z", 5), ("2026-11-16T09:00:00.000Z", 5)],
        last_activity_at="2026-09-01T09:00:00.000Z",
    )
    assert last_touched(store, 1) == "2026-11-16T09:00:00.000Z"
    assert today_page(store, now_in(clock)).going_cold == ()
    # An older activity written after it does not move it back.
    seed_lead(
        store,
        1,
        score=20,
        activities=[("2026-08-01T09:00:00.000Z", 5)],
        last_activity_at="2026-09-01T09:00:00.000Z",
    )
    assert last_touched(store, 1) == "2026-11-16T09:00:00.000Z"


def test_an_undone_activity_puts_the_lead_back_on_going_cold(
    store: Store, clock: FakeClock
) -> None:
    seed_lead(store, 1, score=20, activities=[("2026-09-01T09:00:00.000Z", 5)])
    store.set_state("online", False)
    op_id = store.enqueue(
        "log_activity", {"lead_id": 1, "description": "Called Dana", "contact_id": None}, lead_id=1
    )
    assert today_page(store, now_in(clock)).going_cold == ()
    store.undo(op_id)
    page = today_page(store, now_in(clock))
    assert ids(page.going_cold) == [1]
    assert page.going_cold[0].last_activity_at == datetime(2026, 9, 1, 10, 0, tzinfo=BERLIN)


# --- finished jobs and the seen-time -----------------------------------------------------


def record(store: Store, remote_id: str, status: str, completed_at: str | None) -> None:
    answer: dict[str, Any] = {"status": status, "query": remote_id, "companies": []}
    if completed_at is not None:
        answer["completed_at"] = completed_at
    store.record_job("deep_search", remote_id, answer)


def test_jobs_finished_since_the_cockpit_was_last_closed(store: Store, clock: FakeClock) -> None:
    store.mark_cockpit_seen(datetime(2026, 11, 17, 18, 0, tzinfo=UTC).timestamp())
    record(store, "before", "completed", "2026-11-17T17:59:59.000Z")
    record(store, "after", "completed", "2026-11-17T18:00:01.000Z")
    record(store, "failed", "failed", "2026-11-18T02:00:00.000Z")
    record(store, "cancelled", "cancelled", "2026-11-18T02:00:00.000Z")
    record(store, "running", "running", None)
    page = today_page(store, now_in(clock))
    assert [job.remote_id for job in page.finished_jobs] == ["failed", "after"]
    assert page.since == datetime(2026, 11, 17, 19, 0, tzinfo=BERLIN)
    assert store.cockpit_last_seen() == datetime(2026, 11, 17, 18, 0, tzinfo=UTC).timestamp()


def test_without_a_seen_time_jobs_finished_since_the_start_of_yesterday(
    store: Store, clock: FakeClock
) -> None:
    assert store.cockpit_last_seen() is None
    record(store, "yesterday", "completed", "2026-11-16T23:00:01.000Z")
    record(store, "last week", "completed", "2026-11-10T10:00:00.000Z")
    page = today_page(store, now_in(clock))
    assert [job.remote_id for job in page.finished_jobs] == ["yesterday"]
    assert page.since is None


def test_the_seen_time_is_read_before_it_moves(db_path: Path, clock: FakeClock) -> None:
    first = Store(db_path, clock=clock)
    first.mark_cockpit_seen(clock.now - 3600)
    record(first, "overnight", "completed", iso(clock.now - 60))
    page = today_page(first, now_in(clock))  # the start's Today
    first.mark_cockpit_seen(clock.now)  # the quit
    first.close()
    assert [job.remote_id for job in page.finished_jobs] == ["overnight"]
    again = Store(db_path, clock=clock)
    assert today_page(again, now_in(clock)).finished_jobs == ()
    again.close()


# --- recommendations, failed ops, follow-ups, empty ---------------------------------------


def test_recommendations_are_counted_by_priority_as_the_queue_has_them(
    store: Store, clock: FakeClock
) -> None:
    store.upsert_leads(
        [lead_item(1, lead_status="warm", last_activity_at="2026-11-18T08:00:00.000Z")]
    )
    cards = [(11, "high"), (12, "High"), (13, "medium"), (14, "low"), (15, "urgent"), (16, "high")]
    recs = [
        {
            **rec_item(rec_id, 1, priority, "2026-11-17T10:00:00.000Z"),
            "target_url": f"https://example.com/{rec_id}",
        }
        for rec_id, priority in cards
    ]
    recs[-1]["status"] = "completed"
    store.upsert_recommendations(1, {"recommendations": recs})
    store.enqueue("complete_recommendation", {"lead_id": 1, "recommendation_id": 13}, lead_id=1)
    counts = today_page(store, now_in(clock)).recommendations
    assert counts == RecommendationCounts(high=2, medium=0, low=1, other=1)
    assert counts.total == 4 == len(store.active_recommendations())


def test_failed_ops_need_the_rep(store: Store, clock: FakeClock) -> None:
    store.upsert_leads([lead_item(1)])
    failed = store.enqueue("add_note", {"lead_id": 1, "content": "hello"}, lead_id=1)
    store.enqueue("add_note", {"lead_id": 1, "content": "still pending"}, lead_id=1)
    store.mark_failed(failed, "Outreach lead not found")
    page = today_page(store, now_in(clock))
    assert [(op.op_id, op.last_error) for op in page.failed_ops] == [
        (failed, "Outreach lead not found")
    ]


def test_the_leads_of_failed_ops_are_named_in_one_read(store: Store) -> None:
    store.upsert_leads([lead_item(1, "Acme"), lead_item(2, "Globex")])
    assert lead_names(store, [2, 1, 2, 999]) == {1: "Acme", 2: "Globex"}  # 999: not cached
    assert lead_names(store, []) == {}


def test_follow_ups_due_today_and_overdue_oldest_first(
    store: Store, clock: FakeClock, tmp_path: Path
) -> None:
    with FollowUps(tmp_path / "desk") as follow_ups:
        today = date(2026, 11, 18)
        follow_ups.add(1, "Acme", "send pricing", today)
        follow_ups.add(1, "Acme", "overdue", today - timedelta(days=3))
        follow_ups.add(1, "Acme", "next week", today + timedelta(days=7))
        done = follow_ups.add(1, "Acme", "done already", today - timedelta(days=1))
        follow_ups.done(done.id)
        page = today_page(store, now_in(clock), follow_ups=follow_ups)
        assert [item.text for item in page.follow_ups] == ["overdue", "send pricing"]
        tomorrow = today_page(store, now_in(clock) + timedelta(days=1), follow_ups=follow_ups)
        assert [item.text for item in tomorrow.follow_ups] == ["overdue", "send pricing"]
        assert [item.state(tomorrow.today.date()) for item in tomorrow.follow_ups] == [
            "overdue",
            "overdue",
        ]
        assert today_page(store, now_in(clock), follow_ups=None).follow_ups == ()


def test_an_empty_day_says_so(store: Store, clock: FakeClock) -> None:
    page = today_page(store, now_in(clock))
    assert page.is_empty
    assert page.today == datetime(2026, 11, 18, tzinfo=BERLIN)
    store.upsert_leads([lead_item(1, lead_status="warm", created_at="2026-10-01T09:00:00.000Z")])
    assert not today_page(store, now_in(clock)).is_empty


@pytest.mark.parametrize("naive", [True, False])
def test_now_may_be_naive_local_time(store: Store, clock: FakeClock, naive: bool) -> None:
    now = datetime.fromtimestamp(clock.now)
    page = today_page(store, now if naive else now.astimezone())
    assert page.today.tzinfo is not None and page.today.date() == now.date()


def test_a_cache_of_the_version_before_gets_the_indexes_today_reads(
    db_path: Path, clock: FakeClock
) -> None:
    old = Database(db_path)
    migrate(old.conn, MIGRATIONS[:3])
    old.close()
    store = Store(db_path, clock=clock)
    assert store.schema_version == len(MIGRATIONS)
    quiet = "SELECT count(*) FROM leads WHERE hidden = 0 AND lead_status = 'warm' AND quiet_since < '2026'"
    plan = " ".join(str(row[-1]) for row in store.conn.execute(f"EXPLAIN QUERY PLAN {quiet}"))
    assert "SEARCH leads USING INDEX leads_quiet" in plan, plan  # going cold: a range of it
    plans = {
        "touchpoints_created": "SELECT t.lead_id FROM touchpoints t CROSS JOIN leads l ON l.id = t.lead_id"
        " WHERE t.created_at >= '2026' AND t.id IS NOT NULL AND l.gap <= 0",
        "recommendations_priority": "SELECT r.priority, count(*) FROM recommendations r"
        " WHERE r.status = 'active' AND r.local_status IS NULL GROUP BY r.priority",
    }
    for index, sql in plans.items():
        plan = " ".join(str(row[-1]) for row in store.conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        assert f"COVERING INDEX {index}" in plan, plan
    store.close()


def test_a_cache_of_the_version_before_gets_its_leads_last_activity_filled(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Written by the version before the column: the list line's time for one lead, a newer
    # touchpoint's for another, the creation for a lead with neither.
    monkeypatch.setattr("warmline.store.MIGRATIONS", MIGRATIONS[:4])
    before = Store(db_path, clock=clock)
    assert before.schema_version == 4
    seed_lead(before, 1, score=20, activities=[("2026-09-01T09:00:00.000Z", 5)])
    seed_lead(
        before,
        2,
        score=20,
        activities=[("2026-11-16T09:00:00.000Z", 5)],
        last_activity_at="2026-09-01T09:00:00.000Z",
    )
    seed_lead(before, 3, score=20, created_at="2026-08-01T09:00:00.000Z")
    before.close()
    monkeypatch.undo()
    store = Store(db_path, clock=clock)
    assert store.schema_version == len(MIGRATIONS)
    assert [last_touched(store, n) for n in (1, 2, 3)] == [
        "2026-09-01T09:00:00.000Z",
        "2026-11-16T09:00:00.000Z",
        None,
    ]
    page = today_page(store, now_in(clock))
    assert ids(page.going_cold) == [3, 1] and page.going_cold_total == 2
    store.close()
