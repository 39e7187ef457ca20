"""The outbox state machine: FIFO per lead, outcomes, crash recovery, the rep's fixes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from warmline.store import AMBIGUOUS, DONE, FAILED, IN_FLIGHT, PENDING, OpStateError, Store


@pytest.fixture
def two_leads(store: Store, lead_item) -> Store:
    store.upsert_leads([lead_item(1), lead_item(2)])
    return store


def note(store: Store, lead_id: int, text: str) -> str:
    return store.enqueue("add_note", {"lead_id": lead_id, "content": text}, lead_id=lead_id)


def ids(ops) -> list[str]:
    return [op.op_id for op in ops]


def test_only_the_oldest_queued_op_of_each_lead_is_due(two_leads: Store) -> None:
    a1, a2 = note(two_leads, 1, "a1"), note(two_leads, 1, "a2")
    b1 = note(two_leads, 2, "b1")
    assert ids(two_leads.due_ops()) == [a1, b1]
    assert two_leads.mark_in_flight(a1)
    # In flight still holds the lead's queue.
    assert ids(two_leads.due_ops()) == [b1]
    assert two_leads.mark_done(a1, {"note": {"id": 1, "content": "a1", "created_at": "2026-11-17T00:00:00.000Z"}})
    assert ids(two_leads.due_ops()) == [a2, b1]


def test_a_failed_op_does_not_block_the_ops_behind_it(two_leads: Store) -> None:
    a1, a2 = note(two_leads, 1, "a1"), note(two_leads, 1, "a2")
    two_leads.mark_in_flight(a1)
    assert two_leads.mark_failed(a1, "Outreach lead not found")
    assert ids(two_leads.due_ops()) == [a2]
    failed = two_leads.get_op(a1)
    assert (failed.state, failed.last_error) == (FAILED, "Outreach lead not found")
    assert two_leads.outbox_counts().failed == 1


def test_ops_without_a_lead_are_independent(store: Store) -> None:
    first = store.enqueue("start_deep_search", {"query": "dental clinics", "max_results": 20})
    second = store.enqueue("start_deep_search", {"query": "logistics saas", "max_results": 5})
    store.mark_in_flight(first)
    assert ids(store.due_ops()) == [second]


def test_backoff_and_retry_after(two_leads: Store, clock) -> None:
    a1 = note(two_leads, 1, "a1")
    two_leads.mark_in_flight(a1)
    assert two_leads.mark_retry(a1, clock.now + 30, "HTTP 503", not_before=clock.now + 10)
    op = two_leads.get_op(a1)
    assert (op.state, op.attempts, op.last_error) == (PENDING, 1, "HTTP 503")
    assert two_leads.due_ops() == []
    assert two_leads.next_due_at() == clock.now + 30
    # The rep asked (sync --once): backoff skipped, Retry-After still honoured.
    assert two_leads.due_ops(ignore_backoff=True) == []
    clock.advance(10)
    assert ids(two_leads.due_ops(ignore_backoff=True)) == [a1]
    assert two_leads.due_ops() == []
    clock.advance(20)
    assert ids(two_leads.due_ops()) == [a1]


def test_first_sent_at_is_kept_across_attempts(two_leads: Store, clock) -> None:
    a1 = note(two_leads, 1, "a1")
    two_leads.mark_in_flight(a1)
    first = two_leads.get_op(a1).first_sent_at
    two_leads.mark_ambiguous(a1)
    clock.advance(60)
    assert two_leads.mark_in_flight(a1)
    op = two_leads.get_op(a1)
    assert (op.first_sent_at, op.attempts) == (first, 2)


def test_a_released_claim_is_as_it_was_before_it_was_claimed(two_leads: Store, clock) -> None:
    a1 = note(two_leads, 1, "a1")
    two_leads.mark_in_flight(a1)
    two_leads.mark_ambiguous(a1, error="timed out")
    before = two_leads.get_op(a1)
    [claimed] = two_leads.claim_due(clock() + 1)
    assert two_leads.get_op(a1).attempts == 2
    clock.advance(5)
    assert two_leads.release_claim(claimed, "offline")
    after = two_leads.get_op(a1)
    assert (after.state, after.attempts, after.first_sent_at) == (before.state, before.attempts, before.first_sent_at)
    assert (after.next_attempt_at, after.last_error, after.claimed_by) == (clock(), "offline", None)
    assert not two_leads.release_claim(claimed)  # only an op still in flight is released

    b1 = note(two_leads, 2, "b1")
    [fresh] = [op for op in two_leads.claim_due(clock()) if op.op_id == b1]
    two_leads.release_claim(fresh)
    assert two_leads.get_op(b1).undoable  # never sent: still the rep's to take back


def test_an_op_cannot_be_claimed_twice(two_leads: Store) -> None:
    a1 = note(two_leads, 1, "a1")
    assert two_leads.mark_in_flight(a1)
    assert not two_leads.mark_in_flight(a1)


def test_done_is_final(two_leads: Store) -> None:
    a1 = note(two_leads, 1, "a1")
    two_leads.mark_in_flight(a1)
    assert two_leads.mark_done(a1, {})
    assert not two_leads.mark_done(a1, {})
    assert not two_leads.mark_retry(a1, 0)
    assert two_leads.get_op(a1).state == DONE
    assert two_leads.outbox_rows() == []


def _claim_in_subprocess(db_path, op_id: str, stay: bool) -> subprocess.Popen:
    code = (
        "import sys; from warmline.store import Store\n"
        f"s = Store({str(db_path)!r}); assert s.mark_in_flight({op_id!r})\n"
        "print('claimed', flush=True)\n"
        + ("sys.stdin.read()\n" if stay else "")
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "claimed"
    return proc


def test_recover_after_crash_marks_ops_of_dead_senders_ambiguous(two_leads: Store, db_path) -> None:
    a1, b1 = note(two_leads, 1, "a1"), note(two_leads, 2, "b1")
    live = _claim_in_subprocess(db_path, a1, stay=True)
    dead = _claim_in_subprocess(db_path, b1, stay=False)
    dead.wait()
    try:
        assert two_leads.get_op(b1).state == IN_FLIGHT
        # a1 belongs to a sender that is still running; b1's sender is gone.
        assert two_leads.recover_after_crash() == 1
        assert two_leads.get_op(b1).state == AMBIGUOUS
        assert two_leads.get_op(a1).state == IN_FLIGHT
        assert ids(two_leads.due_ops()) == [b1]
    finally:
        live.communicate("")
    assert two_leads.recover_after_crash() == 1
    assert two_leads.get_op(a1).state == AMBIGUOUS


def test_recover_takes_over_ops_of_an_earlier_store_in_this_process(store: Store, lead_item, db_path, clock) -> None:
    store.upsert_leads([lead_item(1)])
    a1 = note(store, 1, "a1")
    store.mark_in_flight(a1)
    store.close()  # the old Store "crashed"; this process is its successor
    successor = Store(db_path, clock=clock)
    assert successor.recover_after_crash() == 1
    assert successor.get_op(a1).state == AMBIGUOUS
    successor.close()


def test_retry_brings_a_failed_op_back_now(two_leads: Store, clock) -> None:
    a1 = note(two_leads, 1, "a1")
    two_leads.mark_in_flight(a1)
    two_leads.mark_failed(a1, "nope")
    clock.advance(100)
    assert two_leads.retry(a1)
    op = two_leads.get_op(a1)
    assert (op.state, op.next_attempt_at) == (PENDING, clock.now)
    assert ids(two_leads.due_ops()) == [a1]
    two_leads.mark_in_flight(a1)
    two_leads.mark_failed(a1, "nope")
    assert two_leads.retry_all() == 1


def test_undo_only_before_sending(two_leads: Store) -> None:
    a1, a2 = note(two_leads, 1, "a1"), note(two_leads, 1, "a2")
    two_leads.mark_in_flight(a1)
    with pytest.raises(OpStateError):
        two_leads.undo(a1)
    two_leads.mark_retry(a1, 0, "HTTP 503")
    with pytest.raises(OpStateError):
        two_leads.undo(a1)  # sent once already: pending, but not undoable
    two_leads.undo(a2)
    assert two_leads.get_op(a2) is None


def test_discard_refuses_in_flight_ops(two_leads: Store) -> None:
    a1 = note(two_leads, 1, "a1")
    two_leads.mark_in_flight(a1)
    with pytest.raises(OpStateError):
        two_leads.discard(a1)
    two_leads.mark_failed(a1, "Outreach lead not found")
    assert two_leads.discard(a1).op_id == a1
    assert two_leads.outbox_rows() == []


def test_editing_a_sent_op_gives_it_a_new_idempotency_key(two_leads: Store) -> None:
    a1 = note(two_leads, 1, "typo")
    with two_leads.write() as conn:
        assert two_leads.edit_in(conn, a1, {"lead_id": 1, "content": "fixed"}) == a1
    two_leads.mark_in_flight(a1)
    two_leads.mark_failed(a1, "content: too long")
    with two_leads.write() as conn:
        new_id = two_leads.edit_in(conn, a1, {"lead_id": 1, "content": "fixed again"})
    assert new_id != a1
    op = two_leads.get_op(new_id)
    assert (op.state, op.attempts, op.payload["content"], op.last_error) == (PENDING, 0, "fixed again", None)
    notes = two_leads.lead_detail(1).notes
    assert [(n.content, n.op_id) for n in notes] == [("fixed again", new_id)]


def test_find_op_by_prefix(two_leads: Store) -> None:
    a1 = note(two_leads, 1, "a1")
    assert two_leads.find_op(a1[:8]).op_id == a1
    with pytest.raises(OpStateError):
        two_leads.find_op("zzzz")


def test_outbox_rows_and_counts(two_leads: Store) -> None:
    a1, b1 = note(two_leads, 1, "a1"), note(two_leads, 2, "b1")
    c1 = note(two_leads, 2, "b2")
    two_leads.mark_in_flight(a1)
    two_leads.mark_in_flight(b1)
    two_leads.mark_ambiguous(b1)
    counts = two_leads.outbox_counts()
    assert (counts.pending, counts.in_flight, counts.ambiguous, counts.failed, counts.queued) == (1, 1, 1, 0, 3)
    assert ids(two_leads.outbox_rows()) == [a1, b1, c1]
    assert ids(two_leads.outbox_rows(lead_id=2)) == [b1, c1]
    status = two_leads.sync_status()
    assert (status.queued, status.failed, status.online) == (3, 0, None)


def test_unknown_kinds_are_refused(store: Store) -> None:
    with pytest.raises(Exception, match="unknown op kind"):
        store.enqueue("launch_rocket", {})


def test_purge_done(two_leads: Store, clock) -> None:
    a1 = note(two_leads, 1, "a1")
    two_leads.mark_in_flight(a1)
    two_leads.mark_done(a1, {})
    clock.advance(3600)
    assert two_leads.purge_done(clock.now - 60) == 1
    assert two_leads.get_op(a1) is None


def test_claim_due_claims_a_batch_and_reports_prior_states(two_leads: Store) -> None:
    a1, a2, b1 = note(two_leads, 1, "a1"), note(two_leads, 1, "a2"), note(two_leads, 2, "b1")
    two_leads.mark_in_flight(b1)
    two_leads.mark_ambiguous(b1)
    claimed = two_leads.claim_due()
    assert [(op.op_id, op.state) for op in claimed] == [(a1, PENDING), (b1, AMBIGUOUS)]
    assert {two_leads.get_op(o).state for o in (a1, b1)} == {IN_FLIGHT}
    assert two_leads.claim_due() == []
    results = [(a1, {"note": {"id": 1, "content": "a1"}}), (b1, {"note": {"id": 2, "content": "b1"}}), (a1, {})]
    assert two_leads.mark_done_many(results) == 2
    assert [op.op_id for op in two_leads.claim_due()] == [a2]
    assert [n.id for n in two_leads.lead_detail(2).notes] == [2]
