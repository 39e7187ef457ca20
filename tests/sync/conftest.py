"""Fixtures of the sync tests: a sandbox in-process on a fake clock, behind a transport
that injects faults on demand, and a store and engine on the same clock."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from support.sync_helpers import KEY, FakeClock, FaultyTransport, make_sandbox
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def sandbox(tmp_path: Path, clock: FakeClock) -> Iterator[FastAPI]:
    app = make_sandbox(tmp_path / "sandbox.sqlite3", clock)
    yield app
    app.state.db.close()


@pytest.fixture
def transport(sandbox: FastAPI) -> FaultyTransport:
    return FaultyTransport(httpx.ASGITransport(app=sandbox))


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[Store]:
    store = Store(tmp_path / "cache.sqlite3", clock=clock)
    yield store
    store.close()


@pytest.fixture
async def client(transport: FaultyTransport, clock: FakeClock) -> AsyncIterator[ServiceClient]:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=clock) as client:
        yield client


@pytest.fixture
async def engine(store: Store, client: ServiceClient, clock: FakeClock) -> SyncEngine:
    rng = random.Random(1)
    engine = SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)
    assert await engine.refresh_leads() is not None
    return engine
