"""A rep's week with known counts, for the week in review's tests (core, CLI, cockpit).

The rep works in Berlin (CET, UTC+1 in November), Monday to Friday; the week is 2026-W47,
Monday 16 to Sunday 22 November. The cache is written the way a sync and the rep write
it: the service's leads, details, activities and notes through the store's writers, the
rep's decisions through the real actions (queued, so still in the outbox), follow-ups
through their own file. Times near midnight check that days are the rep's, not UTC's.

What the review of that week must say (`EXPECTED`), read at `NOW` (Monday 23, 09:00):
- activities by day: Mon 2 (email, like: the like at 00:30 Berlin is Sunday 23:30 UTC),
  Wed 1 (call, at 00:30 Berlin: Tuesday in UTC), Thu 1 (meeting), Fri 1 (email), Sat 1
  (logged by the rep, still pending); the activity of Monday 23 at 00:30 Berlin is
  outside (Sunday 22 in UTC);
- notes: Fri 1 (the service's), Sun 1 (the rep's, pending);
- leads touched 3 (Alpha, Beta, the hostile one); moved cold to warm 1 (Delta); reached
  target 1 (Alpha, 55 -> 70 over its target 60); went cold 2 (Gamma, warm and quiet 14
  days since 3 Nov 12:00 UTC, so cold on 17 Nov; the hostile one, set cold on Saturday);
- recommendations completed 1, dismissed 1 (a refused dismiss does not count);
- follow-ups made 3, done 1, overdue 1;
- deals opened 1 (Delta, 12,000 EUR), won 1 (Delta, 12,000 EUR), lost 1 (Epsilon, 5,000 USD);
- score movement: Alpha 45 -> 70, Beta 10 -> 26 (its 4 points of Monday 23 come after);
- pending: 7 ops unsent (activity, note, two status changes, deal, complete, dismiss), 1
  refused.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from support.store_data import FakeClock, lead_item
from warmline.actions.leads import (
    add_note,
    change_lead_status,
    complete_recommendation,
    dismiss_recommendation,
    log_activity,
    update_deal,
)
from warmline.store import Store
from warmline.store.followups import FollowUps

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 23, 9, 0, tzinfo=BERLIN)
WEEK = "2026-W47"
MONDAY = date(2026, 11, 16)
COLD_AFTER_DAYS = 14

ALPHA, BETA, GAMMA, DELTA, EPSILON, HOSTILE = 1, 2, 3, 4, 5, 6
HOSTILE_NAME = '=HYPERLINK("https://evil.example") <b>Zeta</b> [bold red]&[/] **Co** \x1b[31m|x|'

EXPECTED: dict[str, Any] = {
    "activities": 6,
    "by_day": [2, 0, 1, 1, 1, 1, 0],
    "notes": 2,
    "notes_by_day": [0, 0, 0, 0, 1, 0, 1],
    "touched": 3,
    "warmed": 1,
    "reached": 1,
    "went_cold": 2,
    "completed": 1,
    "dismissed": 1,
    "follow_ups": (3, 1, 1),
    "deals": (1, 1, 1),
    "scores": [(ALPHA, 45, 70), (BETA, 10, 26)],
    "unsent": 7,
    "failed": 1,
}


def _utc(day: int, hour: int, minute: int = 0, month: int = 11) -> str:
    return f"2026-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:00.000Z"


def _epoch(day: int, hour: int, minute: int = 0) -> float:
    return datetime(2026, 11, day, hour, minute, tzinfo=UTC).timestamp()


def _touch(touch_id: int, kind: str, points: int, at: str) -> dict[str, Any]:
    return {"id": touch_id, "description": f"{kind} {touch_id}", "detected_type": kind,
            "contact_id": None, "bonus_points": points, "created_at": at}  # fmt: skip


def _detail(lead_id: int, name: str, **fields: Any) -> dict[str, Any]:
    detail = lead_item(lead_id, name, **fields)
    detail.setdefault("touchpoints", [])
    detail.setdefault("notes", [])
    detail.setdefault("recommendations", [])
    return detail


def _rec(rec_id: int, lead_id: int) -> dict[str, Any]:
    return {"id": rec_id, "lead_id": lead_id, "action_type": "comment", "priority": "high",
            "status": "active", "created_at": _utc(10, 9), "engagement_reason": "posted"}  # fmt: skip


def seed_week(store: Store, clock: FakeClock, follow_ups: FollowUps) -> None:
    """Write the week (see the module's docstring) into an empty cache and follow-ups file.
    `clock` is the store's: the rep's actions are queued at the moments it is set to."""
    store.upsert_leads(
        [
            lead_item(ALPHA, "Alpha GmbH", lead_status="warm", warming_score=70, target_score=60),
            lead_item(BETA, "Beta AB", warming_score=30, target_score=80),
            lead_item(GAMMA, "Gamma Oy", lead_status="warm", warming_score=20, target_score=90,
                      last_activity_at=_utc(3, 12)),
            lead_item(DELTA, "Delta SA", warming_score=40, target_score=70),
            lead_item(EPSILON, "Epsilon Ltd", lead_status="warm", warming_score=50, target_score=70),
            lead_item(HOSTILE, HOSTILE_NAME, lead_status="warm", warming_score=5, target_score=50,
                      last_activity_at=_utc(20, 9)),
        ]
    )  # fmt: skip
    store.upsert_lead_detail(_detail(
        ALPHA, "Alpha GmbH", lead_status="warm", warming_score=70, target_score=60,
        touchpoints=[_touch(11, "call", 20, _utc(5, 10)), _touch(12, "email", 10, _utc(16, 7)),
                     _touch(13, "call", 15, _utc(17, 23, 30))],
        recommendations=[_rec(101, ALPHA), _rec(102, ALPHA), _rec(103, ALPHA)],
    ))  # fmt: skip
    store.upsert_lead_detail(_detail(
        BETA, "Beta AB", warming_score=30, target_score=80,
        touchpoints=[_touch(21, "like", 1, _utc(15, 23, 30)), _touch(22, "meeting", 10, _utc(19, 12)),
                     _touch(23, "email", 5, _utc(20, 9)), _touch(24, "call", 4, _utc(22, 23, 30))],
        notes=[{"id": 31, "content": "Budget in Q1", "created_at": _utc(20, 10)}],
    ))  # fmt: skip
    store.upsert_lead_detail(_detail(
        EPSILON, "Epsilon Ltd", lead_status="warm", warming_score=50, target_score=70,
        deal_value=5000, deal_currency="USD", closed_at=_utc(20, 10), closed_reason="budget",
    ))  # fmt: skip

    clock.now = _epoch(17, 9)  # Tuesday: Delta moves to warm
    change_lead_status(store, DELTA, "warm")
    clock.now = _epoch(18, 9)  # Wednesday: its deal gets a value; a recommendation done
    update_deal(store, DELTA, deal_value=12000, deal_currency="EUR")
    complete_recommendation(store, 101)
    clock.now = _epoch(19, 9)  # Thursday: one dismissed, one dismiss refused
    dismiss_recommendation(store, 102)
    refused = dismiss_recommendation(store, 103)
    store.mark_failed(refused, "Recommendation not found")
    store.upsert_lead_detail(_detail(  # the service's word: Delta's deal won on Thursday
        DELTA, "Delta SA", lead_status="warm", warming_score=40, target_score=70,
        deal_value=12000, deal_currency="EUR", won_at=_utc(19, 15),
    ))  # fmt: skip
    clock.now = _epoch(21, 16)  # Saturday: an activity logged offline, never sent
    log_activity(store, HOSTILE, "Called about the pilot")
    change_lead_status(store, HOSTILE, "cold")  # and set it cold: it went cold by the rep
    clock.now = _epoch(22, 18)  # Sunday: a note, never sent
    add_note(store, ALPHA, "Wants a demo")
    clock.now = _epoch(23, 8)

    _seed_follow_ups(follow_ups)


class SteppedClock:
    """The follow-ups file's clock, set by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 12, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _seed_follow_ups(follow_ups: FollowUps) -> None:
    clock = SteppedClock()
    follow_ups.clock = clock
    earlier = follow_ups.add(BETA, "Beta AB", "Send the deck", date(2026, 11, 19))  # made before the week
    clock.now = datetime(2026, 11, 16, 10, 0, tzinfo=UTC)
    follow_ups.add(ALPHA, "Alpha GmbH", "Call back", date(2026, 11, 18))  # never done: overdue
    clock.now = datetime(2026, 11, 18, 10, 0, tzinfo=UTC)
    follow_ups.add(ALPHA, "Alpha GmbH", "Pricing", date(2026, 11, 30), time(10, 0))
    clock.now = datetime(2026, 11, 19, 11, 0, tzinfo=UTC)
    follow_ups.done(earlier.id)
    clock.now = datetime(2026, 11, 22, 22, 0, tzinfo=UTC)  # Sunday 23:00 in Berlin
    follow_ups.add(BETA, "Beta AB", "Ask about Q1", date(2026, 11, 24))


def open_week(data_dir: Path) -> tuple[Store, FollowUps]:
    """A cache and a follow-ups file in `data_dir` holding the week."""
    clock = FakeClock(_epoch(12, 9))
    store = Store(data_dir / "cache.sqlite3", clock=clock)
    follow_ups = FollowUps(data_dir)
    seed_week(store, clock, follow_ups)
    return store, follow_ups
