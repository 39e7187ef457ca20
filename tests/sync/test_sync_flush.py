"""The flush: exactly once, in order per lead, backoff, Retry-After, failures set aside."""

from __future__ import annotations

from support.sync_helpers import (
    DROP_AFTER,
    DROP_BEFORE,
    RATE_LIMITED,
    RESET,
    RETRY_AFTER,
    SERVER_ERROR,
    UNAVAILABLE,
    FakeClock,
    FaultyTransport,
    server_rows,
)
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline

LEAD = 1


def log(store: Store, text: str, lead: int = LEAD) -> str:
    return store.enqueue("log_activity", {"lead_id": lead, "description": text, "contact_id": None}, lead,
                         {"guessed_type": "other"})


def note(store: Store, text: str, lead: int = LEAD) -> str:
    return store.enqueue("add_note", {"lead_id": lead, "content": text}, lead)


async def test_delivers_in_order_with_the_op_id_as_idempotency_key(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport
) -> None:
    ops = [log(store, "Called Dana about pricing"), note(store, "Wants a demo"), log(store, "Emailed the deck")]
    other = log(store, "Met at the fair", lead=2)

    report = await engine.flush()

    assert report.delivered == 4
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD)[-2:] == [
        "Called Dana about pricing", "Emailed the deck"]
    assert server_rows(sandbox, "outreach_notes", "content", LEAD)[-1] == "Wants a demo"
    keys = [key for method, _path, key, _fault in transport.log if method == "POST"]
    assert sorted(keys) == sorted([*ops, other])
    detail = store.lead_detail(LEAD)
    mine = [t for t in detail.touchpoints if t.description == "Called Dana about pricing"]
    assert len(mine) == 1 and mine[0].id is not None  # the server's record replaced the pending one
    assert mine[0].detected_type == "call"
    assert store.outbox_counts().queued == 0


async def test_unavailable_backs_off_with_full_jitter(engine: SyncEngine, store: Store, clock: FakeClock,
                                                      transport: FaultyTransport) -> None:
    op_id = log(store, "Called about the renewal")
    transport.fail_next(UNAVAILABLE)

    report = await engine.flush()

    op = store.get_op(op_id)
    assert report.retrying == 1 and op.state == "pending" and op.attempts == 1
    assert clock() <= op.next_attempt_at <= clock() + 2.0  # first ceiling: the 2 s base
    assert "503" in op.last_error or "unavailable" in op.last_error.lower()
    assert (await engine.flush()).attempted == 0  # not due yet
    clock.advance(2.0)
    assert (await engine.flush()).delivered == 1


async def test_retry_after_is_a_floor_even_when_the_rep_asks(engine: SyncEngine, store: Store, clock: FakeClock,
                                                             transport: FaultyTransport, sandbox) -> None:
    op_id = log(store, "Left a voicemail")
    transport.fail_next(RATE_LIMITED)
    await engine.flush()
    op = store.get_op(op_id)
    assert op.not_before == clock() + RETRY_AFTER
    assert engine.status.current.rate_limited_until == clock() + RETRY_AFTER

    sends_before = len(transport.log)
    clock.advance(RETRY_AFTER - 1)
    assert (await engine.flush(ignore_backoff=True)).attempted == 0
    assert len(transport.log) == sends_before
    clock.advance(1)
    assert (await engine.flush(ignore_backoff=True)).delivered == 1
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD).count("Left a voicemail") == 1


async def test_a_permanent_failure_is_set_aside_and_does_not_block_the_lead(
    engine: SyncEngine, store: Store, sandbox
) -> None:
    # A deal on a cold lead: the service refuses it for good (the cache thought it warm).
    refused = store.enqueue("update_deal", {"lead_id": LEAD, "deal_value": 1000.0}, LEAD)
    after = note(store, "Follow up next week")

    report = await engine.flush()

    assert report.failed == 1 and report.delivered == 1
    failed = store.get_op(refused)
    assert failed.state == "failed"
    assert failed.last_error == "Deal tracking is only available for warm leads"
    assert store.get_op(after).state == "done"
    assert "Follow up next week" in server_rows(sandbox, "outreach_notes", "content", LEAD)


async def test_answer_lost_after_apply_is_adopted_not_resent(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport, clock: FakeClock
) -> None:
    first = log(store, "Called Dana")
    second = note(store, "She is the champion")
    transport.only_mutations = True
    transport.fail_next(DROP_AFTER)

    report = await engine.flush()
    assert report.ambiguous == 1
    assert store.get_op(first).state == "ambiguous"
    assert store.get_op(second).state == "pending"  # the lead's order holds

    clock.advance(10)
    report = await engine.flush()
    assert report.reconciled == 1 and report.delivered == 1
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD).count("Called Dana") == 1
    posts = [e for e in transport.sent("POST", "/touchpoints")]
    assert len(posts) == 1  # adopted, never resent
    assert store.get_op(first).result["touchpoint"]["description"] == "Called Dana"


async def test_lost_before_apply_is_resent_once(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport, clock: FakeClock
) -> None:
    op_id = note(store, "Prefers email")
    transport.only_mutations = True
    transport.fail_next(DROP_BEFORE)
    assert (await engine.flush()).ambiguous == 1
    clock.advance(10)
    assert (await engine.flush()).delivered == 1
    assert server_rows(sandbox, "outreach_notes", "content", LEAD).count("Prefers email") == 1
    assert store.get_op(op_id).state == "done"


async def test_same_text_twice_is_two_records(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport, clock: FakeClock
) -> None:
    """Reconciliation must not let the second op adopt the first op's record: the first is
    applied (answer lost, adopted), the second never arrives, so only a resend makes it."""
    first = log(store, "Liked their post")
    second = log(store, "Liked their post")
    transport.only_mutations = True
    transport.fail_next(DROP_AFTER, DROP_BEFORE)
    for _ in range(4):
        await engine.flush(ignore_backoff=True)
    assert store.outbox_counts().queued == 0
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD).count("Liked their post") == 2
    ids = {store.get_op(op).result["touchpoint"]["id"] for op in (first, second)}
    assert len(ids) == 2


async def test_a_set_value_already_on_the_server_is_not_sent_again(
    engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock
) -> None:
    op_id = store.enqueue("set_target_score", {"lead_id": LEAD, "target_score": 42}, LEAD)
    transport.only_mutations = True
    transport.fail_next(SERVER_ERROR)  # applied, then a 500: ambiguous
    assert (await engine.flush()).ambiguous == 1
    clock.advance(10)
    assert (await engine.flush()).reconciled == 1
    assert len(transport.sent("PATCH", "/target-score")) == 1
    assert store.get_op(op_id).state == "done"
    assert store.get_lead(LEAD).target_score == 42


async def test_an_op_left_in_flight_by_a_crash_is_reconciled(
    engine: SyncEngine, store: Store, sandbox, client, transport: FaultyTransport
) -> None:
    op_id = log(store, "Sent the proposal")
    # A previous process claimed and sent it, then died before recording the answer.
    assert store.mark_in_flight(op_id)
    await client.log_touchpoint(LEAD, "Sent the proposal", idempotency_key=op_id)
    store.conn.execute("UPDATE outbox SET claimed_by = '999999999:dead' WHERE op_id = ?", (op_id,))

    report = await engine.run_once()

    assert report.flush.reconciled == 1
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD).count("Sent the proposal") == 1


async def test_offline_keeps_the_op_and_goes_offline(
    engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock
) -> None:
    op_id = log(store, "Called from the train")
    transport.fail_next(RESET)
    report = await engine.flush()
    op = store.get_op(op_id)
    assert report.offline and op.state == "pending" and op.next_attempt_at <= clock()
    # It never reached the service: not an attempt, so the rep can still undo it.
    assert (op.attempts, op.first_sent_at, op.undoable) == (0, None, True)
    assert engine.connection.offline
    assert store.sync_status().online is False
    # Back online: the probe succeeds and the op goes at once.
    clock.advance(engine.connection.next_probe_at - clock())
    assert await engine.connection.probe()
    assert (await engine.flush()).delivered == 1


async def test_a_refused_key_halts_the_pass_without_failing_ops(
    engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock
) -> None:
    first, second = log(store, "Called"), note(store, "Note", lead=2)
    async with ServiceClient("http://127.0.0.1", "wrong-key", transport=transport, clock=clock) as client:
        refused = SyncEngine(store, client, clock=clock, blocking=run_inline)
        report = await refused.flush()
        assert report.auth_error == "Invalid or missing API key"
        assert {store.get_op(first).state, store.get_op(second).state} == {"pending"}
        assert refused.status.current.state(clock()) == "auth_failed"
        assert store.get_state("auth_failed") is True
        pass_report = await refused.run_once()
        assert pass_report.auth_error and not pass_report.reachable


async def test_a_started_job_is_recorded_for_polling(
    engine: SyncEngine, store: Store, clock: FakeClock
) -> None:
    op_id = store.enqueue("start_deep_search", {"query": "software companies", "max_results": 5})
    assert [j.status for j in store.jobs()] == ["queued"]
    await engine.flush()
    job = store.jobs()[0]
    assert job.remote_id is not None and job.active and job.op_id == op_id
    clock.advance(11)
    report = await engine.poll_jobs()
    assert report.completed == 1
    job = store.jobs()[0]
    assert job.status == "completed" and not job.active
    assert store.company_count() == 5  # the found companies came into the cache
