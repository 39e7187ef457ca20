"""Sync now (issue 23, item 4): one full pass on demand, never two at once, and the pass
that starts at once when the service comes back, not on the 5-minute refresh timer."""

from __future__ import annotations

import asyncio

from support.sync_helpers import RESET, FakeClock, FaultyTransport
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.engine import PassReport


def count_calls(engine: SyncEngine) -> dict[str, int]:
    """How often the pass's three parts ran: wrapped, still doing their work."""
    calls = {"refresh": 0, "flush": 0, "jobs": 0}
    refresh, flush, poll = engine.refresh_leads, engine.flush, engine.poll_jobs

    async def counted_refresh() -> int | None:
        calls["refresh"] += 1
        return await refresh()

    async def counted_flush(*, ignore_backoff: bool = False) -> object:
        calls["flush"] += 1
        return await flush(ignore_backoff=ignore_backoff)

    async def counted_poll(*, force: bool = False) -> object:
        calls["jobs"] += 1
        return await poll(force=force)

    engine.refresh_leads = counted_refresh  # type: ignore[method-assign]
    engine.flush = counted_flush  # type: ignore[method-assign,assignment]
    engine.poll_jobs = counted_poll  # type: ignore[method-assign,assignment]
    return calls


async def test_sync_now_refreshes_flushes_and_polls_once(engine: SyncEngine, store: Store) -> None:
    op_id = store.enqueue("add_note", {"lead_id": 1, "content": "Sent by sync now"}, 1)
    calls = count_calls(engine)
    report = await engine.sync_now()
    assert isinstance(report, PassReport) and report.reachable
    assert calls == {"refresh": 1, "flush": 1, "jobs": 1}
    assert store.get_op(op_id).state == "done"
    assert not store.sync_status().syncing  # "syncing" ends with the pass


async def test_sync_now_pressed_twice_runs_one_pass(engine: SyncEngine, store: Store) -> None:
    calls = count_calls(engine)
    seen: list[bool] = []
    engine.on_status(lambda status: seen.append(status.syncing))
    first = asyncio.ensure_future(engine.sync_now())
    await asyncio.sleep(0)  # the first pass has begun
    second = await engine.sync_now()
    assert second is None  # not another pass
    assert isinstance(await first, PassReport)
    assert calls == {"refresh": 1, "flush": 1, "jobs": 1}
    assert seen[0] is True and seen[-1] is False  # "syncing" from its start to its end
    assert seen.count(False) == 1  # not ended by the flush inside the pass


async def test_sync_now_says_which_step_it_is_on(engine: SyncEngine, store: Store) -> None:
    """A pass on a slow service took ten seconds of a bare "syncing…": each step is now
    named in the status while it runs (and stored, for any process's status line), and
    the name goes with the pass."""
    store.enqueue("add_note", {"lead_id": 1, "content": "Sent by sync now"}, 1)
    engine.status.update(online=None)  # not sure of the service: the pass checks it first
    steps: list[str | None] = []
    engine.on_status(lambda status: steps.append(status.step) if status.step != (steps or [None])[-1] else None)
    await engine.sync_now()
    assert steps == [
        "checking the service", "sending queued actions", "reading leads", "reading recommendations",
        "reading companies and contacts", "checking jobs",
        "reading lead details",  # an engine with no scheduler (a command) reads them in the pass
        None,
    ]
    assert store.sync_status().step is None


async def test_sync_now_offline_says_so_and_sends_nothing(
    engine: SyncEngine, store: Store, transport: FaultyTransport
) -> None:
    op_id = store.enqueue("add_note", {"lead_id": 1, "content": "Still queued"}, 1)
    engine.connection.lost("connection refused")
    transport.fail_next(RESET)
    report = await engine.sync_now()
    assert report is not None and not report.reachable and report.offline_error
    assert store.get_op(op_id).state == "pending"
    assert store.sync_status().online is False and not store.sync_status().syncing


async def test_coming_back_online_starts_a_pass_at_once(
    engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock
) -> None:
    """A cold start while the service is down: the refresh at start is held back, and the
    next is 5 minutes away. When the tick's probe finds the service back, the pass starts
    at once: the lead list is read on that tick, not on the timer."""
    engine.connection.lost("connection refused")  # as a cache left offline by the last run
    store.upsert_leads([])  # nothing read yet
    calls = count_calls(engine)
    await engine._refresh_job()  # the scheduled refresh at start: held back
    assert calls["refresh"] == 0
    clock.advance(60)  # past the probe's backoff
    await engine._tick_job()  # the probe passes
    await asyncio.wait_for(asyncio.gather(*engine._running), 10)
    assert calls == {"refresh": 1, "flush": 1, "jobs": 1}
    assert store.sync_status().online is True


async def test_the_first_contact_at_start_starts_no_extra_pass(engine: SyncEngine, store: Store) -> None:
    """Before any answer (a new cache) the scheduled reads at start are not held back, so
    the first probe's success is no return from offline: no second pass."""
    engine.status.update(online=None)
    calls = count_calls(engine)
    await engine._tick_job()
    await asyncio.gather(*engine._running)
    assert calls["refresh"] == 0
