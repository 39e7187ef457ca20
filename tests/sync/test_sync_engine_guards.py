"""The guards of the engine and of a flush pass, each able to fail (issue 21, "Tests that
catch a broken core": mutants of `sync/engine.py` and `sync/flush.py` that no test saw).

- The flush job sends nothing while offline or after the key was refused; the tick polls
  no job then; start-up recovers what a killed sender left in flight.
- A pass with more ops than send slots (and so ops claimed ahead): a 429 stops it without
  sleeping through the wait, and going offline puts every claimed-but-unsent op back.
"""

from __future__ import annotations

import random

import pytest

from support.sync_helpers import RATE_LIMITED, RESET, FakeClock, FaultyTransport, server_rows
from warmline import actions
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline.sync.flush import LOOKAHEAD

LEADS = (1, 2, 3, 4)


def _posts(transport: FaultyTransport) -> int:
    return sum(1 for method, _path, _key, _fault in transport.log if method == "POST")


def _narrow(store: Store, client: ServiceClient, clock: FakeClock, concurrency: int = 1) -> SyncEngine:
    """An engine with fewer send slots than the ops a test queues."""
    rng = random.Random(3)
    return SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline,
                      concurrency=concurrency)


def _one_note_per_lead(store: Store) -> list[str]:
    return [actions.add_note(store, lead, f"Note for lead {lead}") for lead in LEADS]


# --- the engine ---------------------------------------------------------------------------


def _offline(engine: SyncEngine) -> None:
    engine.connection.lost("could not reach the service")


def _key_refused(engine: SyncEngine) -> None:
    engine.connection.refused_key("Invalid API key")


HELD_BACK = pytest.mark.parametrize("hold_back", [_offline, _key_refused], ids=["offline", "key-refused"])


@HELD_BACK
async def test_the_flush_job_sends_nothing_while_held_back(
    engine: SyncEngine, store: Store, transport: FaultyTransport, hold_back
) -> None:
    op_id = actions.add_note(store, 1, "Queued while held back")
    hold_back(engine)
    sent_before = _posts(transport)

    await engine._flush_job()

    assert _posts(transport) == sent_before
    assert store.get_op(op_id).state == "pending"


async def test_the_tick_polls_no_job_after_the_key_was_refused(
    engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock
) -> None:
    actions.start_deep_search(store, "dental clinics in Lyon")
    assert (await engine.flush()).delivered == 1
    clock.advance(60)  # its poll is due
    _key_refused(engine)
    engine.connection.next_probe_at = clock() + 600  # and the probe is not
    requests_before = len(transport.log)

    await engine._tick_job()

    assert len(transport.log) == requests_before


async def test_start_up_recovers_ops_a_killed_sender_left_in_flight(
    engine: SyncEngine, store: Store, client: ServiceClient, sandbox
) -> None:
    op_id = actions.add_note(store, 1, "Sent just before the kill")
    assert store.mark_in_flight(op_id)
    await client.add_note(1, "Sent just before the kill", idempotency_key=op_id)
    store.conn.execute("UPDATE outbox SET claimed_by = '999999999:killed' WHERE op_id = ?", (op_id,))

    await engine.start()
    try:
        assert store.get_op(op_id).state == "ambiguous"  # before any scheduled job has run
    finally:
        await engine.stop()


# --- a pass with more ops than send slots ---------------------------------------------------


async def test_a_429_stops_the_pass_without_sleeping_through_the_wait(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    ops = _one_note_per_lead(store)
    narrow = _narrow(store, client, clock)
    transport.only_mutations = True
    transport.fail_next(RATE_LIMITED)
    started = clock()

    report = await narrow.flusher.flush(ignore_backoff=True)

    assert (report.retrying, report.delivered) == (1, 0)
    assert _posts(transport) == 1
    assert clock() == started  # no wait slept through
    assert store.outbox_counts().in_flight == 0
    assert [store.get_op(op_id).attempts for op_id in ops] == [1, 0, 0, 0]


async def test_going_offline_puts_every_op_claimed_ahead_back_unsent(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    ops = _one_note_per_lead(store)
    assert len(ops) <= LOOKAHEAD  # one slot: the other notes are claimed ahead, not sent
    narrow = _narrow(store, client, clock)
    transport.only_mutations = True
    transport.fail_next(RESET)

    report = await narrow.flusher.flush()

    assert report.offline
    assert _posts(transport) == 1
    assert store.outbox_counts().in_flight == 0
    for op_id in ops:
        op = store.get_op(op_id)
        assert (op.state, op.attempts, op.undoable) == ("pending", 0, True)


async def test_twelve_ops_through_two_slots_arrive_once_each_in_order(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock, sandbox
) -> None:
    expected = {lead: [f"Lead {lead}, note {index}" for index in range(3)] for lead in LEADS}
    for index in range(3):
        for lead in LEADS:
            actions.add_note(store, lead, expected[lead][index])

    report = await _narrow(store, client, clock, concurrency=2).flush()

    assert report.delivered == 12
    assert store.outbox_counts().queued == 0
    for lead, notes in expected.items():
        assert [text for text in server_rows(sandbox, "outreach_notes", "content", lead) if text.startswith("Lead ")] == notes
