"""The undo window: a decision held by the cockpit is sent by no path before it ends.

On a fake clock: every way an op can leave (a flush, a flush that skips backoff, `sync
--once`, the engine's tick, another process's store and engine) finds nothing to send at
4.9 s; at 5 s it goes. An undo inside the window leaves nothing on the wire; quitting
sends what is held at once.
"""

from __future__ import annotations

import random

import pytest

from support.sync_helpers import FakeClock, FaultyTransport
from warmline import actions
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.sync.flush import ALREADY_DISMISSED

WARM = 2  # the seeded warm lead: its cards 9 and 10 are on the same post
HOLD = 5.0


async def _cached_queue(engine: SyncEngine) -> None:
    assert await engine.refresh_recommendations() is not None


def _complete_posts(transport: FaultyTransport) -> list[str]:
    return [path for method, path, _key, _fault in transport.sent("POST") if path.endswith("/complete")]


async def test_a_held_op_is_sent_by_no_path_before_its_window_ends(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    await _cached_queue(engine)
    op_id = actions.complete_recommendation(store, 12, hold_seconds=HOLD)
    clock.advance(HOLD - 0.1)

    assert (await engine.flush()).attempted == 0
    assert (await engine.flush(ignore_backoff=True)).attempted == 0
    await engine._tick_job()
    assert (await engine.run_once()).flush.attempted == 0
    assert await engine.send_held([], grace=1.0) is None  # releasing nothing sends nothing
    other = Store(store.path, clock=clock)  # another process: `warmline sync` in a terminal
    try:
        assert other.claim_due(ignore_backoff=True) == []
        other_engine = SyncEngine(other, client, clock=clock, rng=random.Random(2), blocking=run_inline)
        assert (await other_engine.flush(ignore_backoff=True)).attempted == 0
    finally:
        other.close()
    assert _complete_posts(transport) == []
    assert store.get_op(op_id).state == "pending"

    clock.advance(0.1)
    assert (await engine.flush()).delivered == 1
    assert _complete_posts(transport) == [f"/v1/outreach/leads/{WARM}/recommendations/12/complete"]


async def test_a_held_op_holds_back_its_lead_later_ops_to_keep_their_order(
    engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock
) -> None:
    await _cached_queue(engine)
    held = actions.dismiss_recommendation(store, 11, hold_seconds=HOLD)
    later = actions.add_note(store, WARM, "Asked for the pricing sheet")
    clock.advance(1)
    assert (await engine.flush()).attempted == 0
    clock.advance(HOLD)
    assert (await engine.flush()).delivered == 2
    assert store.get_op(held).seq < store.get_op(later).seq


async def test_undo_inside_the_window_leaves_nothing_on_the_wire(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    await _cached_queue(engine)
    op_id = actions.complete_recommendation(store, 12, hold_seconds=HOLD)
    clock.advance(4.5)
    actions.undo(store, op_id)
    clock.advance(60)
    await engine.run_once()
    assert _complete_posts(transport) == []
    assert 12 in [rec.id for rec in (await client.get_recommendations(WARM)).recommendations]
    assert 12 in [rec.id for rec in store.active_recommendations()]


async def test_quitting_sends_the_held_ops_at_once(
    engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock
) -> None:
    await _cached_queue(engine)
    op_ids = [
        actions.complete_recommendation(store, 12, hold_seconds=HOLD),
        *actions.remove_leads(store, [3], hold_seconds=HOLD),
    ]
    report = await engine.send_held(op_ids, grace=3.0)
    assert report is not None and report.delivered == 2
    assert {store.get_op(op_id).state for op_id in op_ids} == {"done"}
    assert len(_complete_posts(transport)) == 1


async def test_ops_queued_without_a_hold_go_at_once(
    engine: SyncEngine, store: Store, transport: FaultyTransport
) -> None:
    """The command line queues with no hold: `warmline log` delivers before it exits."""
    await _cached_queue(engine)
    actions.complete_recommendation(store, 12)
    assert (await engine.flush()).delivered == 1


async def test_completing_a_card_takes_its_siblings_on_the_same_post_at_once(
    engine: SyncEngine, store: Store, client: ServiceClient
) -> None:
    await _cached_queue(engine)
    start = (await client.get_recommendations(WARM)).progress
    before = {rec.id for rec in store.active_recommendations()}
    assert {9, 10} <= before
    actions.complete_recommendation(store, 10)
    assert {rec.id for rec in store.active_recommendations()} == before - {9, 10}
    with pytest.raises(actions.InputError, match="already dismissed"):
        actions.dismiss_recommendation(store, 9)  # the sibling cannot be acted on any more
    report = await engine.flush()
    assert (report.delivered, report.failed) == (1, 0)
    await _cached_queue(engine)
    assert {rec.id for rec in store.active_recommendations()} == before - {9, 10}
    progress = (await client.get_recommendations(WARM)).progress
    assert (progress.completed, progress.dismissed) == (start.completed + 1, start.dismissed + 1)


async def test_a_decision_on_a_card_the_service_already_dismissed_is_resolved_not_failed(
    engine: SyncEngine, store: Store, client: ServiceClient
) -> None:
    await _cached_queue(engine)
    await client.complete_recommendation(WARM, 10)  # another client: the service dismisses 9
    completed = actions.complete_recommendation(store, 9)  # this cache does not know yet
    dismissed = actions.dismiss_recommendation(store, 11)
    await client.dismiss_recommendation(WARM, 11)

    report = await engine.flush()

    assert (report.resolved, report.failed) == (2, 0)
    for op_id in (completed, dismissed):
        op = store.get_op(op_id)
        assert op.state == "done" and op.result["resolved"] == ALREADY_DISMISSED
    assert store.outbox_counts().failed == 0
    statuses = {row["id"]: row["status"] for row in store.rows("SELECT id, status FROM recommendations")}
    assert (statuses[9], statuses[11]) == ("dismissed", "dismissed")
