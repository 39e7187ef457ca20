"""`Idempotency-Key` on mutating requests: a repeat replays the first answer.

The first answer to (API key, idempotency key) is stored with a hash of the request;
a repeat with the same request gets the stored answer back (header
`Idempotent-Replayed: true`) and does nothing; the same key with a different request is a
422. Answers that did not take effect (401, 429, 5xx) are not stored, so a retry runs.
Switched off by `--no-idempotency`, to test the cockpit's reconciliation without it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from starlette.types import ASGIApp, Receive, Scope, Send

from warmline_sandbox import limits as L
from warmline_sandbox.asgi_util import (
    CapturedResponse,
    capture,
    read_body,
    replay_receive,
    send_captured,
)
from warmline_sandbox.auth import bearer_token
from warmline_sandbox.clock import Clock
from warmline_sandbox.db import Database, iso
from warmline_sandbox.errors import ApiError, error_response

SCHEMA = """
CREATE TABLE IF NOT EXISTS idempotency_keys (
    api_key TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (api_key, idem_key)
);
"""

MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
_NOT_STORED = {401, 429}
_REPLAY_HEADER = (b"idempotent-replayed", b"true")
# Headers describing this one answer rather than the stored result.
_VOLATILE = {b"x-ratelimit-limit", b"x-ratelimit-remaining", b"x-ratelimit-reset", b"content-length", b"date", b"server"}


def request_hash(method: str, path: str, query: bytes, body: bytes) -> str:
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), query, body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


class KeyedLocks:
    """One asyncio lock per key while someone uses it, so concurrent repeats run one at a time."""

    def __init__(self) -> None:
        self._entries: dict[object, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def hold(self, key: object) -> AsyncIterator[None]:
        lock, users = self._entries.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._entries[key]


class IdempotencyMiddleware:
    def __init__(self, app: ASGIApp, db: Database, clock: Clock) -> None:
        self.app = app
        self.db = db
        self.clock = clock
        self._locks = KeyedLocks()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        idem_key = _header(scope, b"idempotency-key")
        api_key = bearer_token(_header(scope, b"authorization"))
        if scope["type"] != "http" or scope["method"] not in MUTATING or not idem_key or not api_key:
            await self.app(scope, receive, send)
            return
        if len(idem_key) > L.IDEMPOTENCY_KEY_MAX_CHARS:
            error = ApiError(400, "Idempotency-Key is too long", errors=[
                {"field": "Idempotency-Key", "message": f"at most {L.IDEMPOTENCY_KEY_MAX_CHARS} characters"}])
            await error_response(error)(scope, receive, send)
            return
        body, disconnected = await read_body(receive)
        if disconnected:
            return
        fingerprint = request_hash(scope["method"], scope["path"], scope.get("query_string", b""), body)
        async with self._locks.hold((api_key, idem_key)):
            stored = await anyio.to_thread.run_sync(self._load, api_key, idem_key)
            if stored is not None:
                await self._answer_repeat(stored, fingerprint, scope, receive, send)
                return
            response = await capture(self.app, scope, replay_receive(body, receive))
            if response.status < 500 and response.status not in _NOT_STORED:
                await anyio.to_thread.run_sync(self._store, api_key, idem_key, fingerprint, response)
        await send_captured(response, send)

    async def _answer_repeat(
        self, stored: tuple[str, CapturedResponse], fingerprint: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        stored_hash, response = stored
        if stored_hash != fingerprint:
            error = ApiError(422, "Idempotency-Key was already used with a different request", errors=[
                {"field": "Idempotency-Key", "message": "reused with a different request"}])
            await error_response(error)(scope, receive, send)
            return
        await send_captured(response, send, [_REPLAY_HEADER])

    def _load(self, api_key: str, idem_key: str) -> tuple[str, CapturedResponse] | None:
        with self.db.read() as conn:
            row = conn.execute(
                "SELECT request_hash, status, headers, body FROM idempotency_keys WHERE api_key = ? AND idem_key = ?",
                (api_key, idem_key),
            ).fetchone()
        if row is None:
            return None
        headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in json.loads(row["headers"])]
        headers.append((b"content-length", str(len(row["body"])).encode()))
        return row["request_hash"], CapturedResponse(status=row["status"], headers=headers, body=bytes(row["body"]))

    def _store(self, api_key: str, idem_key: str, fingerprint: str, response: CapturedResponse) -> None:
        headers = [
            [name.decode("latin-1"), value.decode("latin-1")]
            for name, value in response.headers
            if name.lower() not in _VOLATILE
        ]
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO idempotency_keys "
                "(api_key, idem_key, request_hash, status, headers, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (api_key, idem_key, fingerprint, response.status, json.dumps(headers), response.body,
                 iso(self.clock.now())),
            )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1").strip()
    return None
