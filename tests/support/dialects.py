"""A sandbox speaking some dialects, and a store, client and engine against it, in-process
(tests/dialects)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from support.sync_helpers import KEY, FakeClock
from warmline.api import RateLimiter, ServiceClient
from warmline.api.request_fields import RequestFields
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline_sandbox.app import create_app
from warmline_sandbox.dialects import parse_dialects
from warmline_sandbox.settings import SandboxSettings


@dataclass
class World:
    dialect: str
    app: FastAPI
    clock: FakeClock
    store: Store
    client: ServiceClient
    engine: SyncEngine

    def server(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self.app.state.db.read() as conn:
            return list(conn.execute(sql, params).fetchall())

    def one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        rows = self.server(sql, params)
        return rows[0][0] if rows else None

    async def deliver(self) -> None:
        """Send everything queued, as passes would, until nothing is due."""
        for _ in range(8):
            await self.engine.flush(ignore_backoff=True)
            status = self.store.sync_status()
            if status.queued == 0:
                return
            self.clock.advance(30)
        raise AssertionError(f"{self.store.sync_status().queued} op(s) still queued: {self.ops()}")

    def ops(self) -> list[tuple[str, str, str | None]]:
        return [(op.kind, op.state, op.error) for op in self.store.outbox_rows()]

    async def until_done(self, job_kind: str) -> Any:
        for _ in range(12):
            self.clock.advance(11)
            await self.engine.poll_jobs(force=True)
            jobs = [job for job in self.store.jobs() if job.kind == job_kind]
            if jobs and not jobs[0].active:
                return jobs[0]
        raise AssertionError(f"the {job_kind} never ended: {[(j.kind, j.status) for j in self.store.jobs()]}")


@asynccontextmanager
async def make_world(
    tmp_path: Path, dialects: str, fields: RequestFields | None = None, *, db: str = "sandbox.sqlite3"
) -> AsyncIterator[World]:
    """A fresh seeded sandbox serving `dialects` (a `--dialect` list), with our side wired to it."""
    clock = FakeClock()
    settings = SandboxSettings(
        db_path=tmp_path / db,
        api_keys=[KEY],
        seed=3,
        companies=40,
        leads=6,
        job_seconds=10.0,
        rate_limit=(1_000_000, 60.0),
        dialects=parse_dialects(dialects),
    )
    app = create_app(settings, clock=clock)
    store = Store(tmp_path / f"cache-{db}", clock=clock)
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    transport = httpx.ASGITransport(app=app)
    try:
        async with ServiceClient(
            "http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=clock, request_fields=fields
        ) as client:
            engine = SyncEngine(store, client, clock=clock, blocking=run_inline)
            yield World(dialects, app, clock, store, client, engine)
    finally:
        store.close()
        app.state.db.close()
