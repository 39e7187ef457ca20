"""The SQLite connection Warmline configures, and its transactions.

Why each setting:
- WAL lets the cockpit read while the flush loop (or `warmline sync` in another process)
  writes; `synchronous=FULL` makes a committed action survive a power cut or kill -9.
- Every write runs in `BEGIN IMMEDIATE`: the write lock is taken at the start, so two
  writers queue on `busy_timeout` instead of failing half-way with "database is locked"
  (which a deferred transaction upgrading to a writer can do without waiting).
- Python's own transaction handling is off (`isolation_level=None`); we issue BEGIN and
  COMMIT ourselves, and sqlite-utils nests its work in savepoints inside ours.
- One connection per `Database`, shared by threads (Textual workers, the asyncio loop)
  behind a re-entrant lock, because an sqlite3 connection must not be used concurrently.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from warmline.store.clock import Clock, system_clock

BUSY_TIMEOUT_MS = 5000
# Beyond busy_timeout, BEGIN IMMEDIATE is retried this many times: a burst of writers from
# several processes must slow an action down, never lose it.
BEGIN_RETRIES = 6


class StoreError(Exception):
    """A misuse of the store (for example writing inside a read transaction)."""


def connect(path: Path | str) -> sqlite3.Connection:
    """Open the database file with Warmline's pragmas; creates parent directories."""
    target = str(path)
    if target != ":memory:":
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(
        target,
        timeout=BUSY_TIMEOUT_MS / 1000,
        isolation_level=None,
        check_same_thread=False,
    )
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


class Database:
    """A configured connection with `write()` and `read()` transactions.

    The feature mixins of `warmline.store.Store` build on this class; they use `self.conn`
    (raw sqlite3) for queries and `self.db` (sqlite-utils) for bulk upserts.
    """

    def __init__(self, path: Path | str, clock: Clock = system_clock) -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        self.clock = clock
        self.conn = connect(path)
        self._db: Any = None
        self._lock = threading.RLock()
        self._txn: str | None = None
        self._writes = 0

    @property
    def db(self) -> Any:
        """sqlite-utils on our connection, for bulk upserts; imported on first use because
        it costs more start-up time than everything else the cockpit needs to paint."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn, recursive_triggers=False, execute_plugins=False)
        return self._db

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One `BEGIN IMMEDIATE` transaction; nested calls join the outer one."""
        with self._lock:
            if self._txn == "write":
                yield self.conn
                return
            if self._txn == "read":
                raise StoreError("cannot write inside a read transaction")
            self._begin_immediate()
            self._txn = "write"
            try:
                yield self.conn
                self.conn.execute("COMMIT")
            except BaseException:
                # Also when COMMIT itself fails: never leave a transaction open behind us.
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            else:
                self._writes += 1
            finally:
                self._txn = None

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot across several SELECTs; nested calls join the outer one."""
        with self._lock:
            if self._txn is not None:
                yield self.conn
                return
            self.conn.execute("BEGIN")
            self._txn = "read"
            try:
                yield self.conn
            finally:
                self._txn = None
                if self.conn.in_transaction:
                    self.conn.execute("COMMIT")

    def _begin_immediate(self) -> None:
        for attempt in range(BEGIN_RETRIES + 1):
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if attempt == BEGIN_RETRIES:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        """Run a SELECT and return its rows as dicts."""
        with self._lock:
            cursor = self.conn.execute(sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def row(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> dict[str, Any] | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def scalar(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        with self._lock:
            found = self.conn.execute(sql, params).fetchone()
            return found[0] if found else None

    def data_version(self) -> tuple[int, int]:
        """Changes by this connection and by any other: a cache key for derived figures."""
        with self._lock:
            other = self.conn.execute("PRAGMA data_version").fetchone()[0]
            return other, self._writes

    def pragma(self, name: str) -> Any:
        with self._lock:
            return self.conn.execute(f"PRAGMA {name}").fetchone()[0]

    def integrity_check(self) -> str:
        """`ok` when the file is intact (run by the kill -9 harness)."""
        return str(self.pragma("integrity_check"))
