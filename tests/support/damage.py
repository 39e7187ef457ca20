"""Damaging a cache file on purpose: one page overwritten, met only by what reads it."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def overwrite_page(db: Path, page: int) -> None:
    """Overwrite one page (1-based) with junk: a damage met only by queries that read it."""
    size = sqlite3.connect(db).execute("PRAGMA page_size").fetchone()[0]
    raw = bytearray(db.read_bytes())
    raw[(page - 1) * size : page * size] = bytes(range(256)) * (size // 256)
    db.write_bytes(bytes(raw))


def root_page(db: Path, table: str) -> int:
    """The first page of `table` (or an index) in the file."""
    conn = sqlite3.connect(db)
    try:
        return int(
            conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[
                0
            ]
        )
    finally:
        conn.close()
