"""Helpers shared by the sync tests: a fake clock, a fault-injecting transport, the sandbox."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections import deque
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from warmline_sandbox.settings import SandboxSettings

from .sandbox_seed import create_app

KEY = "sync-test-key"
START = 1_795_000_000.0

OK = "ok"
RATE_LIMITED = "429"
UNAVAILABLE = "503"
SERVER_ERROR = "500"
DROP_BEFORE = "drop_before"  # the connection dies before the server sees the request
DROP_AFTER = "drop_after"  # the server applies the request, then the answer is lost
RESET = "reset"  # the connection cannot be made at all
FAULTS = (OK, RATE_LIMITED, UNAVAILABLE, SERVER_ERROR, DROP_BEFORE, DROP_AFTER, RESET)
RETRY_AFTER = 30


class FakeClock:
    """Epoch seconds for the store and the client; `now()` for the sandbox; `sleep` advances."""

    def __init__(self, start: float = START) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.t, UTC)

    def advance(self, seconds: float) -> None:
        self.t += seconds

    async def sleep(self, seconds: float) -> None:
        self.t += max(0.0, seconds)


class FaultyTransport(httpx.AsyncBaseTransport):
    """Wraps a transport; each request takes the next planned fault (none: it goes through).

    `only_mutations` keeps reads (GET) fault-free, for tests about one send.
    """

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.plan: deque[str] = deque()
        self.only_mutations = False
        self.log: list[tuple[str, str, str | None, str]] = []  # method, path, idempotency key, fault

    def fail_next(self, *faults: str) -> None:
        self.plan.extend(faults)

    def sent(self, method: str | None = None, path_part: str = "") -> list[tuple[str, str, str | None, str]]:
        """Requests that reached the server (faults that stop them before it excluded)."""
        return [
            entry for entry in self.log
            if entry[3] not in (RESET, DROP_BEFORE, RATE_LIMITED, UNAVAILABLE)
            and (method is None or entry[0] == method) and path_part in entry[1]
        ]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        fault = OK
        if self.plan and not (self.only_mutations and request.method == "GET"):
            fault = self.plan.popleft()
        self.log.append((request.method, request.url.path, request.headers.get("Idempotency-Key"), fault))
        if fault == RESET:
            raise httpx.ConnectError("connection refused", request=request)
        if fault == DROP_BEFORE:
            raise httpx.WriteError("connection reset while sending", request=request)
        if fault == RATE_LIMITED:
            return _error(429, "Rate limit exceeded", {"Retry-After": str(RETRY_AFTER)})
        if fault == UNAVAILABLE:
            return _error(503, "Service temporarily unavailable")
        if fault == SERVER_ERROR:
            response = await self.inner.handle_async_request(request)
            await response.aread()
            return _error(500, "Internal server error")
        response = await self.inner.handle_async_request(request)
        if fault == DROP_AFTER:
            await response.aread()
            raise httpx.RemoteProtocolError("server disconnected without a response", request=request)
        return response


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> httpx.Response:
    body = json.dumps({"success": False, "message": message, "errors": None}).encode()
    return httpx.Response(status, headers={"Content-Type": "application/json", **(headers or {})}, content=body)


def make_sandbox(path: Path, clock: Any, *, leads: int = 4, idempotency: bool = False) -> FastAPI:
    """A small seeded sandbox WITHOUT idempotency support by default: exactly-once must come
    from our claim and reconciliation, not from the server deduplicating."""
    settings = SandboxSettings(
        db_path=path,
        api_keys=[KEY],
        seed=3,
        companies=30,
        leads=leads,
        job_seconds=10.0,
        rate_limit=(1_000_000, 60.0),
        idempotency=idempotency,
    )
    return create_app(settings, clock=clock)


def server_rows(app: FastAPI, table: str, column: str, lead_id: int) -> list[str]:
    """A lead's touchpoint descriptions or note contents on the server, in creation order."""
    with app.state.db.read() as conn:
        rows = conn.execute(f"SELECT {column} FROM {table} WHERE lead_id = ? ORDER BY id", (lead_id,)).fetchall()
    return [r[0] for r in rows]


class SandboxProcess:
    """`warmline sandbox` in a subprocess on a free loopback port (for kill and fault tests)."""

    def __init__(self, db: Path, *extra: str, leads: int = 10, key: str = KEY) -> None:
        self.db = db
        self.key = key
        args = [
            sys.executable, "-m", "warmline", "sandbox", "--port", "0", "--api-key", key,
            "--db", str(db), "--companies", "60", "--leads", str(leads), "--seed", "5",
            "--rate-limit", "1000000/60", "--job-seconds", "1", *extra,
        ]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"sandbox did not start: {line!r} {self.proc.stderr.read() if self.proc.stderr else ''}")
        self.url = line.strip().rsplit(" ", 1)[-1]

    def __enter__(self) -> SandboxProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def rows(self, table: str, column: str) -> list[tuple[int, str]]:
        """(lead id, text) of every row of a table, in creation order, read beside the server."""
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        try:
            return conn.execute(f"SELECT lead_id, {column} FROM {table} ORDER BY id").fetchall()
        finally:
            conn.close()
