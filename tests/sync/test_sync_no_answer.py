"""A send that gets no answer is no sign of the service: not "online again", not "synced".

Found in tmux with `warmline demo` and the sandbox stopped (SIGSTOP): an activity logged
on the lead went out, its POST timed out waiting for the answer, and the log said "online
again" while the status line said "synced 10 s ago", though nothing had come back. The
op itself was right (kept as "may have been applied", checked before any resend); the
status was not. Only an answer tells that the service is there, and only a settled op
(delivered, found applied, refused) is a sync.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from support.sync_helpers import KEY, FakeClock
from warmline.api import RateLimiter, ServiceClient
from warmline.api.errors import UnresponsiveSendError
from warmline.store import Store
from warmline.store.sync_vocabulary import SyncState
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline.sync.flush import FlushReport

UP = "up"
MUTE = "mute"  # reads the request, never answers (a stopped or hung service)
CUT = "cut"  # reads the request, then the connection closes with no answer
BUSY = "busy"  # answers 503 with a JSON body: refused before acting, to retry


class Service(httpx.AsyncBaseTransport):
    """The sandbox behind a switch; counts the requests it was sent."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.mode = UP
        self.sent: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(f"{request.method} {request.url.path}")
        if self.mode == MUTE:
            raise httpx.ReadTimeout("timed out", request=request)
        if self.mode == CUT:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)
        if self.mode == BUSY:
            body = json.dumps({"success": False, "message": "Service unavailable", "errors": None}).encode()
            return httpx.Response(503, headers={"Content-Type": "application/json"}, content=body)
        return await self.inner.handle_async_request(request)


@pytest.fixture
def service(sandbox: FastAPI) -> Service:
    return Service(httpx.ASGITransport(app=sandbox))


@pytest.fixture
async def engine(service: Service, store: Store, clock: FakeClock) -> AsyncIterator[SyncEngine]:
    """An engine that has synced once (the lead list read), at the clock's start."""
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=service, limiter=limiter, clock=clock) as client:
        rng = random.Random(1)
        built = SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)
        assert await built.refresh_leads() is not None
        assert built.status.current.last_sync_at == clock()
        yield built


async def flush_a_note(
    engine: SyncEngine, service: Service, store: Store, clock: FakeClock, mode: str
) -> tuple[str, FlushReport, float]:
    """A minute after the engine's sync, with the service in `mode`: a note queued and one
    flush. The op's id, the flush's report, and when the engine had synced."""
    synced = clock()
    clock.advance(60)
    service.mode = mode
    op_id = store.enqueue("add_note", {"lead_id": 1, "content": "Called Dana"}, 1)
    return op_id, await engine.flush(), synced


async def test_a_send_with_no_answer_in_time_is_offline_and_no_sync(
    engine: SyncEngine, service: Service, store: Store, clock: FakeClock
) -> None:
    op_id, report, synced = await flush_a_note(engine, service, store, clock, MUTE)
    assert service.sent[-1] == "POST /v1/outreach/leads/1/notes"
    assert store.get_op(op_id).state == "ambiguous"  # checked before any resend
    assert report.offline and "may or may not have been applied" in (report.offline_error or "")
    assert engine.status.current.online is False
    assert engine.status.current.last_sync_at == synced
    assert store.sync_status().state(clock()) == SyncState.OFFLINE


async def test_a_post_that_times_out_reading_is_an_unresponsive_send(service: Service, clock: FakeClock) -> None:
    """The read timeout of a mutation, like its total deadline, leaves it unknown and the
    service counted offline (the exactly-once rule holds: it is reconciled first)."""
    service.mode = MUTE
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=service, limiter=limiter, clock=clock) as client:
        with pytest.raises(UnresponsiveSendError) as info:
            await client.add_note(1, "hello", idempotency_key="op-1")
    assert info.value.is_ambiguous and not info.value.retryable


async def test_a_connection_cut_after_the_send_is_no_sync(
    engine: SyncEngine, service: Service, store: Store, clock: FakeClock
) -> None:
    op_id, report, synced = await flush_a_note(engine, service, store, clock, CUT)
    assert store.get_op(op_id).state == "ambiguous"
    assert report.ambiguous == 1 and not report.answered
    assert engine.status.current.last_sync_at == synced


async def test_an_error_answer_is_the_service_up_but_no_sync(
    engine: SyncEngine, service: Service, store: Store, clock: FakeClock
) -> None:
    """A 503 is an answer (the service is there) but nothing was settled with it: "synced"
    keeps its time, as a failed read keeps it."""
    engine.connection.lost("the wifi went")
    op_id, report, synced = await flush_a_note(engine, service, store, clock, BUSY)
    op = store.get_op(op_id)
    assert op.state == "pending" and op.attempts == 1  # sent again later
    assert report.answered == 1 and report.settled == 0
    assert engine.status.current.online is True
    assert engine.status.current.last_sync_at == synced


async def test_a_delivered_op_is_a_sync(engine: SyncEngine, service: Service, store: Store, clock: FakeClock) -> None:
    op_id, report, _ = await flush_a_note(engine, service, store, clock, UP)
    assert store.get_op(op_id).state == "done"
    assert report.settled == 1
    assert engine.status.current.last_sync_at == clock()
