"""What `warmline demo` reads from its own server's database: the id of the deep search the
seed finished before the first start (`seed.seed_finished_deep_search`).

Imports nothing of the server (no FastAPI): the demo's process, which runs the cockpit,
reads it after the server in its child process has seeded the file. The service itself has
no list of jobs, so this is how the demo's cache learns of a job "started elsewhere".
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

DEEP_SEARCH_META = "demo_deep_search_job"
"""The `sandbox_meta` key holding that job's id."""


def demo_deep_search_job(conn: sqlite3.Connection) -> int | None:
    """The id of the seed's finished deep search; None before seeding, or in a database
    seeded before there was one."""
    try:
        row = conn.execute(
            "SELECT value FROM sandbox_meta WHERE key = ?", (DEEP_SEARCH_META,)
        ).fetchone()
    except sqlite3.Error:
        return None
    return int(row[0]) if row is not None and str(row[0]).isdigit() else None


def read_demo_deep_search_job(db_path: Path) -> int | None:
    """`demo_deep_search_job` of the database file `db_path`, opened read-only."""
    try:
        conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        return demo_deep_search_job(conn)
    finally:
        conn.close()
