"""The engine in a running loop: APScheduler jobs, wake, status, offline and back, stop."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import AbstractContextManager as ContextManager
from pathlib import Path

import httpx
import pytest

from support.sync_helpers import KEY, make_sandbox
from support.waiting import until
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.store.sync_vocabulary import SyncStatus
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.engine import DIRECTORY_JOB, FLUSH_JOB, PREFETCH_JOB, REFRESH_JOB, TICK_JOB
from warmline.sync.status import StatusBoard
from warmline_sandbox.clock import SystemClock


class ControlledTransport(httpx.AsyncBaseTransport):
    """Real sandbox behind switches: `down` refuses connections, `refuse` the key (a POST
    as it leaves `hold`), `hold` stalls POSTs."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.down = False
        self.refuse = False
        self.hold = asyncio.Event()
        self.hold.set()
        self.posts = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        if request.method == "POST":
            self.posts += 1
            await self.hold.wait()
        if self.refuse:
            return httpx.Response(401, json={"success": False, "message": "Invalid or missing API key", "errors": None})
        return await self.inner.handle_async_request(request)


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[tuple[SyncEngine, Store, ControlledTransport]]:
    app = make_sandbox(tmp_path / "sandbox.sqlite3", SystemClock())
    transport = ControlledTransport(httpx.ASGITransport(app=app))
    store = Store(tmp_path / "cache.sqlite3")
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport) as client:
        engine = SyncEngine(store, client, flush_interval=3600, refresh_interval=3600, tick_interval=0.1,
                            stop_grace=0.2)
        engine.connection.backoff = Backoff(base=0.2, cap=0.5)
        yield engine, store, transport
        await engine.stop()
    store.close()
    app.state.db.close()


def note(store: Store, text: str, lead: int = 1) -> str:
    return store.enqueue("add_note", {"lead_id": lead, "content": text}, lead)


async def start_and_let_its_reads_end(engine: SyncEngine, store: Store) -> None:
    """Start the engine and wait until the reads it starts with are over: the lead list,
    the details, then the recommendations of leads with no card (read after the details),
    and the directory, whose last read is the field schemas. From then on only what the
    test makes the engine do talks to the service; a read still under way when the test
    takes the service down would set the engine offline while a flush has its op in
    hand."""
    schemas_read: list[bool] = []
    read_schemas = engine.refresher.field_schemas

    async def field_schemas() -> None:  # the directory's last read
        await read_schemas()
        schemas_read.append(True)

    engine.refresher.field_schemas = field_schemas  # type: ignore[method-assign]
    await engine.start()
    await until(lambda: store.lead_count() == 4)
    await until(lambda: store.detail_coverage() == (4, 4))
    await until(lambda: not store.leads_never_read_for_recommendations())
    await until(lambda: bool(schemas_read))


async def test_start_schedules_jobs_in_the_running_loop(live) -> None:
    engine, store, _ = live
    await engine.start()
    jobs = {job.id: job for job in engine.scheduler.get_jobs()}
    assert set(jobs) == {FLUSH_JOB, TICK_JOB, REFRESH_JOB, DIRECTORY_JOB, PREFETCH_JOB}
    for job in jobs.values():
        assert job.coalesce is True and job.max_instances == 1 and job.misfire_grace_time >= 60
    assert engine.scheduler._eventloop is asyncio.get_running_loop()
    await until(lambda: store.lead_count() == 4)  # the first refresh ran at start
    await until(lambda: store.detail_coverage() == (4, 4))  # the prefetch ran after it


async def test_wake_delivers_at_once_and_the_status_follows(live) -> None:
    engine, store, _ = live
    seen: list[SyncStatus] = []
    engine.on_status(seen.append)
    await engine.start()
    await until(lambda: store.lead_count() == 4)
    op_id = note(store, "Woken")
    engine.wake()
    await until(lambda: store.get_op(op_id).state == "done")
    await until(lambda: engine.status.current.last_sync_at is not None)
    assert any(s.syncing for s in seen) and seen[-1].online is True
    assert store.sync_status().online is True  # written for other processes too


async def test_a_wake_during_a_flush_is_not_lost(live) -> None:
    engine, store, transport = live
    await engine.start()
    await until(lambda: store.lead_count() == 4)
    transport.hold.clear()
    first = note(store, "Slow one")
    engine.wake()
    await until(lambda: transport.posts == 1)
    second = note(store, "Queued while flushing", lead=2)
    engine.wake()  # the flush job is running: max_instances would drop a second run
    transport.hold.set()
    await until(lambda: store.get_op(second).state == "done")
    assert store.get_op(first).state == "done"


async def test_stop_marks_an_interrupted_send_ambiguous(live) -> None:
    engine, store, transport = live
    await engine.start()
    await until(lambda: store.lead_count() == 4)
    transport.hold.clear()
    op_id = note(store, "Never answered")
    engine.wake()
    await until(lambda: transport.posts == 1)
    await engine.stop()
    op = store.get_op(op_id)
    assert op.state == "ambiguous" and op.last_error == "interrupted while sending"
    assert store.outbox_counts().in_flight == 0
    transport.hold.set()


async def test_a_send_cut_by_stop_is_not_logged_as_a_broken_job(live, caplog) -> None:
    """Quitting while the service hangs cuts the jobs on purpose: the rep's log gets no
    "Error running job" traceback from APScheduler for each of them."""
    engine, store, transport = live
    await engine.start()
    await until(lambda: store.lead_count() == 4)
    transport.hold.clear()
    note(store, "Never answered")
    engine.wake()
    await until(lambda: transport.posts == 1)
    with caplog.at_level(logging.ERROR, logger="apscheduler"):
        await engine.stop()
        await asyncio.sleep(0)  # APScheduler's done callback was queued before stop's own
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []
    transport.hold.set()


async def test_offline_then_back_by_the_probe(live) -> None:
    engine, store, transport = live
    states: list[str] = []
    engine.on_status(lambda s: states.append(s.state(time.time())))
    await start_and_let_its_reads_end(engine, store)
    transport.down = True
    op_id = note(store, "Written on the train")
    engine.wake()
    await until(lambda: engine.connection.offline)
    assert store.get_op(op_id).state == "pending"
    # The engine writes its status to the store off the loop, just after it flips.
    await until(lambda: store.sync_status().online is False)
    transport.down = False
    await until(lambda: store.get_op(op_id).state == "done")
    assert "offline" in states and states[-1] in ("online", "syncing")


async def test_run_once_skips_backoff_and_polls_jobs(live) -> None:
    engine, store, _ = live
    op_id = note(store, "Was backing off")
    with store.write():
        store.mark_in_flight(op_id)
        store.mark_retry(op_id, time.time() + 600, "503")
    job_op = store.enqueue("start_deep_search", {"query": "software companies", "max_results": 2})
    report = await engine.run_once()
    assert report.reachable and report.flush.delivered == 2
    assert report.leads_refreshed == 4
    assert store.get_op(op_id).state == "done" and store.get_op(job_op).state == "done"
    assert report.polls.polled == 1  # the new job was polled in the same pass


async def test_a_refused_key_stops_sending_until_a_probe_passes(live) -> None:
    engine, store, transport = live
    await start_and_let_its_reads_end(engine, store)
    transport.refuse = True
    op_id = note(store, "Sent after the key is fixed")
    engine.wake()
    await until(lambda: engine.status.current.auth_failed)
    assert store.get_op(op_id).state == "pending" and store.get_state("auth_failed") is True
    transport.refuse = False  # e.g. the key was re-enabled on the service
    await until(lambda: store.get_op(op_id).state == "done")
    assert not engine.status.current.auth_failed


async def test_a_wake_during_a_refused_send_sends_nothing_more(live) -> None:
    """A wake while a pass is sending asks for another pass, but not once the key was
    refused: nothing is sent until a probe passes."""
    engine, store, transport = live
    await start_and_let_its_reads_end(engine, store)
    transport.hold.clear()
    op_id = note(store, "Refused on its way")
    engine.wake()
    await until(lambda: transport.posts == 1)  # the pass is sending it
    other = note(store, "Queued meanwhile", lead=2)
    engine.wake()
    transport.refuse = True
    transport.hold.set()
    await until(lambda: engine.status.current.auth_failed and not engine._flushing)
    assert transport.posts == 1
    assert store.get_op(op_id).state == "pending" and store.get_op(other).state == "pending"


async def test_an_action_queued_by_another_process_goes_without_a_wake(live, tmp_path: Path) -> None:
    engine, store, _ = live
    await engine.start()
    await until(lambda: store.lead_count() == 4)
    other = Store(tmp_path / "cache.sqlite3")  # e.g. `warmline note` while the cockpit runs
    op_id = note(other, "From the CLI")
    other.close()
    await until(lambda: store.get_op(op_id).state == "done")  # sent by the wake: the flush interval is an hour


async def test_synced_means_the_service_answered(live) -> None:
    """'synced 10 s ago' is the last exchange with the service, not the last pass: an idle
    flush or one that finds the service gone does not move it; a refresh does."""
    engine, store, transport = live
    await engine.flush()  # nothing to send
    assert store.sync_status().last_sync_at is None
    assert await engine.refresh_leads() is not None
    synced = store.sync_status().last_sync_at
    assert synced is not None
    transport.down = True
    note(store, "Written offline")
    assert (await engine.flush()).offline
    assert store.sync_status().last_sync_at == synced


class ArrivalAtLock:
    """Wraps the status board's lock to tell when `thread` comes to take it."""

    def __init__(self, lock: ContextManager[object], arrived: threading.Event) -> None:
        self.lock, self.arrived, self.thread = lock, arrived, None
        self.reached = False

    def __enter__(self) -> object:
        if threading.current_thread() is self.thread:
            self.reached = True
            self.arrived.set()
        return self.lock.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.lock.__exit__(*exc)


def test_a_status_change_made_while_another_is_written_is_kept(tmp_path: Path) -> None:
    """The engine changes the status on the loop (`Connection.lost`) while a worker thread
    writes another change (`update(syncing=True)` at a flush's start): neither may put back
    what the other changed, in memory or in the store."""
    store = Store(tmp_path / "cache.sqlite3")
    board = StatusBoard(store)
    board.update(online=True)
    first_writing, resume_first, second_arrived = threading.Event(), threading.Event(), threading.Event()
    write, count = store.write, store.outbox_counts

    def write_after_a_pause():  # the first change has read the status; it stops before writing
        if threading.current_thread() is first and not first_writing.is_set():
            first_writing.set()
            assert resume_first.wait(10)
        return write()

    def counts_seen():  # the second change got this far: nothing held it back
        if threading.current_thread() is second:
            second_arrived.set()
        return count()

    store.write, store.outbox_counts = write_after_a_pause, counts_seen  # type: ignore[method-assign]
    spy = ArrivalAtLock(board._changing, second_arrived)
    board._changing = spy  # type: ignore[assignment]
    first = threading.Thread(target=lambda: board.update(syncing=True))
    second = threading.Thread(target=lambda: board.update(online=False, last_error="connection refused"))
    spy.thread = second
    first.start()
    assert first_writing.wait(10)
    second.start()
    assert second_arrived.wait(10)
    if not spy.reached:  # not held back by the first change: let it finish before the first goes on
        second.join(10)
    resume_first.set()
    first.join(10)
    second.join(10)
    assert not first.is_alive() and not second.is_alive()
    for status in (board.current, store.sync_status()):
        assert status.online is False and status.syncing is True and status.last_error == "connection refused"
    store.close()
