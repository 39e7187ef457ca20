"""A disk that refuses writes, for tests: SQLite's own errors without filling a disk.

`RefusingWrites` wraps a store's connection and raises `sqlite3.OperationalError` with
SQLite's words ("database or disk is full", "attempt to write a readonly database", "disk
I/O error") from every statement that changes data, as SQLite does on a full disk, a
read-only file and a failing one. Reads, and what changes nothing (a BEGIN IMMEDIATE and
COMMIT with no write between, `CREATE ... IF NOT EXISTS` of what exists), go through, as
they do on a real full disk.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from typing import Any

import pytest

from warmline.store import Store, database

FULL = "database or disk is full"
READ_ONLY = "attempt to write a readonly database"
IO_ERROR = "disk I/O error"
DAMAGED = "database disk image is malformed"

_WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b", re.IGNORECASE)
# What changes nothing on an up-to-date cache (a migration's check), or only the temp store.
_NO_WRITE = re.compile(r"^\s*CREATE\s+(TEMP\b|TEMPORARY\b|.*\bIF\s+NOT\s+EXISTS\b)|^\s*DELETE\s+FROM\s+temp\.",
                       re.IGNORECASE)


class RefusingWrites:
    """A connection whose data-changing statements raise `OperationalError(message)`."""

    def __init__(self, conn: sqlite3.Connection, message: str = FULL) -> None:
        self._conn = conn
        self.message = message
        self.refused: list[str] = []

    def _check(self, sql: str) -> None:
        if _WRITES.match(sql) and not _NO_WRITE.match(sql):
            self.refused.append(sql)
            raise sqlite3.OperationalError(self.message)

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        self._check(sql)
        return self._conn.execute(sql, params)

    def executemany(self, sql: str, params: Iterable[Any]) -> sqlite3.Cursor:
        self._check(sql)
        return self._conn.executemany(sql, params)

    def executescript(self, sql: str) -> sqlite3.Cursor:
        self._check(sql)
        return self._conn.executescript(sql)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def refuse_writes(store: Store, message: str = FULL) -> RefusingWrites:
    """From now on, `store`'s writes fail with `message` (its bulk writer rebuilt on it)."""
    wrapped = RefusingWrites(store.conn, message)
    store.conn = wrapped  # type: ignore[assignment]
    store._db = None
    return wrapped


def refuse_writes_everywhere(monkeypatch: pytest.MonkeyPatch, message: str = FULL) -> None:
    """Every store opened from now on (a command's own) refuses writes with `message`."""
    real = database.connect

    def connect(path: Any) -> Any:
        return RefusingWrites(real(path), message)

    monkeypatch.setattr(database, "connect", connect)
