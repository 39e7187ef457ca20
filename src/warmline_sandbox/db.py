"""The sandbox's one SQLite database.

FastAPI runs sync endpoints in a thread pool, so the server shares ONE connection guarded
by a re-entrant lock: every unit of work holds the lock for its whole duration, which
makes each request's reads and writes atomic with respect to the others. A sandbox does
not need more concurrency than that, and it keeps `:memory:` databases usable in tests.

Each feature module declares its tables as a `SCHEMA` string of
`CREATE TABLE IF NOT EXISTS ...` statements; `init_schema` runs them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

MAX_INT = 2**63 - 1
"""SQLite's largest integer: bigger Python ints overflow on binding."""


def iso(dt: datetime) -> str:
    """`2026-11-22T10:24:11.123Z`: the spec's timestamp shape."""
    dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def dumps(value: Any) -> str:
    """JSON for a TEXT column (compact, stable key order so stored values compare)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def loads(text: str | None, default: Any = None) -> Any:
    return default if text is None else json.loads(text)


class Database:
    """One lock-guarded SQLite connection (WAL, synchronous=NORMAL)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable across a crash of the server process in WAL mode (only an OS
            # crash can lose the last commits), and halves the cost of each write.
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA busy_timeout=5000")
            self._conn.execute("PRAGMA foreign_keys=ON")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE); nested calls join the outer one."""
        with self._lock:
            if self._conn.in_transaction:
                yield self._conn
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection for reads only (still under the lock, so never half a write)."""
        with self._lock:
            yield self._conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def init_schema(conn: sqlite3.Connection, *schemas: str) -> None:
    """Create every table the feature modules declare (idempotent).

    Call it outside a transaction: `executescript` commits whatever is open.
    """
    for schema in schemas:
        conn.executescript(schema)
