"""An auth failure is shown only while the last answer was a 401/403 (issue 23, item 3).

Any later outcome replaces it: the service gone (offline), a good answer (online), an
answer with an error (failing); after a restart too, since the status is kept in the
cache; and whichever process (the cockpit's engine, `warmline sync --send`) wrote it.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from support.sync_helpers import KEY, FakeClock
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.store.sync_vocabulary import SyncState
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline.sync.status import StatusBoard

REFUSED = "refused"
DOWN = "down"
BROKEN = "broken"


class Service(httpx.AsyncBaseTransport):
    """The sandbox behind a switch: up, refusing the key (401), down, or answering 500."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.mode = "up"

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.mode == DOWN:
            raise httpx.ConnectError("connection refused", request=request)
        if self.mode in (REFUSED, BROKEN):
            status, message = (401, "Invalid API key") if self.mode == REFUSED else (500, "Internal server error")
            body = json.dumps({"success": False, "message": message, "errors": None}).encode()
            return httpx.Response(status, headers={"Content-Type": "application/json"}, content=body)
        return await self.inner.handle_async_request(request)


@pytest.fixture
def service(sandbox: FastAPI) -> Service:
    return Service(httpx.ASGITransport(app=sandbox))


@pytest.fixture
async def started(service: Service, clock: FakeClock) -> AsyncIterator[ServiceClient]:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=service, limiter=limiter, clock=clock) as client:
        yield client


def engine_on(store: Store, client: ServiceClient, clock: FakeClock) -> SyncEngine:
    """An engine as the cockpit (or a restarted one) builds it; nothing scheduled."""
    rng = random.Random(1)
    return SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)


def shown(store: Store, clock: FakeClock) -> SyncState:
    """The word the status line reads from the cache (any process's)."""
    return store.sync_status().state(clock())


async def refused(engine: SyncEngine, service: Service, store: Store, clock: FakeClock) -> None:
    service.mode = REFUSED
    assert not await engine.connection.probe()
    assert shown(store, clock) == SyncState.AUTH_FAILED


async def test_a_refused_key_then_connection_refused_shows_offline(
    store: Store, started: ServiceClient, service: Service, clock: FakeClock
) -> None:
    engine = engine_on(store, started, clock)
    await refused(engine, service, store, clock)
    service.mode = DOWN
    assert not await engine.connection.probe()
    assert engine.status.current.state(clock()) == SyncState.OFFLINE
    assert shown(store, clock) == SyncState.OFFLINE


async def test_a_refused_key_then_a_flush_that_finds_the_service_gone_shows_offline(
    store: Store, started: ServiceClient, service: Service, clock: FakeClock
) -> None:
    engine = engine_on(store, started, clock)
    await refused(engine, service, store, clock)
    service.mode = DOWN
    store.enqueue("add_note", {"lead_id": 1, "content": "Sent later"}, 1)
    report = await engine.flush()
    assert report.offline
    assert shown(store, clock) == SyncState.OFFLINE


async def test_a_refused_key_restart_and_the_service_down_shows_offline(
    store: Store, started: ServiceClient, service: Service, clock: FakeClock
) -> None:
    await refused(engine_on(store, started, clock), service, store, clock)
    service.mode = DOWN
    restarted = engine_on(store, started, clock)  # the status comes back from the cache
    assert restarted.status.current.auth_failed
    await restarted._tick_job()  # the first tick probes: unsure after a refusal
    assert shown(store, clock) == SyncState.OFFLINE


async def test_a_refused_key_then_a_good_answer_shows_online(
    store: Store, started: ServiceClient, service: Service, clock: FakeClock
) -> None:
    engine = engine_on(store, started, clock)
    await refused(engine, service, store, clock)
    service.mode = "up"
    assert await engine.connection.probe()
    assert shown(store, clock) == SyncState.ONLINE


async def test_a_refused_key_then_an_error_answer_shows_failing(
    store: Store, started: ServiceClient, service: Service, clock: FakeClock
) -> None:
    engine = engine_on(store, started, clock)
    await refused(engine, service, store, clock)
    service.mode = BROKEN
    assert await engine.refresh_leads() is None
    assert shown(store, clock) == SyncState.FAILING


async def test_a_refusal_written_by_another_process_ends_with_our_next_answer(
    store: Store, started: ServiceClient, clock: FakeClock, tmp_path: Path
) -> None:
    """`warmline sync --send` got a 401 and wrote it; the cockpit's engine, which thought
    itself online, then hears from the service: the cache must stop saying "key refused"."""
    engine = engine_on(store, started, clock)
    assert await engine.connection.probe()
    other = Store(tmp_path / "cache.sqlite3", clock=clock)
    try:
        StatusBoard(other, clock).update(online=True, auth_failed=True, last_error="HTTP 401: Invalid API key")
    finally:
        other.close()
    assert shown(store, clock) == SyncState.AUTH_FAILED
    assert await engine.refresh_leads() is not None
    assert shown(store, clock) == SyncState.ONLINE


async def test_a_refusal_of_another_key_is_forgotten_at_start(
    store: Store, started: ServiceClient, clock: FakeClock
) -> None:
    """The rep set a new key (`warmline key set`) after a refusal: the refusal was of the
    old key, so the restarted engine does not show it."""
    store.set_state("rate_limit_service", "the old key's service")
    store.set_state("auth_failed", True)
    engine_on(store, started, clock)
    assert shown(store, clock) != SyncState.AUTH_FAILED
