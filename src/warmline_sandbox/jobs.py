"""One job record for every asynchronous thing the service does.

A job is `pending` for the first tenth of its duration, then `running` with a progress,
and once due it becomes `completed`: at the FIRST observation after it is due, the
finisher registered for its kind runs once, inside the observer's transaction, and
produces the job's effects (saved companies, custom fields, monitoring pages, ...) and
its stored result. A finisher raising `JobFailed` ends the job as `failed` instead.
Time comes from the app's clock, so tests move jobs along with a `ManualClock`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from warmline_sandbox.clock import Clock
from warmline_sandbox.db import dumps, iso, loads, parse_iso

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    api_key TEXT,
    subject_id INTEGER,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at TEXT NOT NULL,
    due_at TEXT NOT NULL,
    completed_at TEXT,
    params TEXT NOT NULL DEFAULT '{}',
    result TEXT,
    error TEXT
);
CREATE INDEX IF NOT EXISTS jobs_kind_subject ON jobs (kind, subject_id);
CREATE INDEX IF NOT EXISTS jobs_open ON jobs (status, due_at);
"""

KINDS = (
    "deep_search",
    "company_research",
    "contact_search",
    "research_run",
    "signal_scan",
    "recommendation_generation",
)

PENDING_SHARE = 0.1
"""The share of a job's duration during which it still reports `pending`."""

Finisher = Callable[[sqlite3.Connection, dict[str, Any], datetime], Any]
"""`fn(conn, job, now) -> result`: makes the job's effects; the result is stored as JSON."""

_finishers: dict[str, Finisher] = {}


class JobFailed(Exception):
    """Raised by a finisher: the job ends `failed` with this message, and nothing it did is kept."""


def register_finisher(kind: str, fn: Finisher) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown job kind {kind!r}")
    _finishers[kind] = fn


def create_job(
    conn: sqlite3.Connection,
    kind: str,
    api_key: str | None,
    params: dict[str, Any],
    *,
    now: datetime,
    seconds: float,
    subject_id: int | None = None,
) -> dict[str, Any]:
    """Store a new pending job that is due `seconds` after `now`."""
    if kind not in KINDS:
        raise ValueError(f"unknown job kind {kind!r}")
    cursor = conn.execute(
        "INSERT INTO jobs (kind, api_key, subject_id, status, created_at, due_at, params) "
        "VALUES (?, ?, ?, 'pending', ?, ?, ?)",
        (kind, api_key, subject_id, iso(now), iso(now + timedelta(seconds=max(0.0, seconds))), dumps(params)),
    )
    job = get_job(conn, int(cursor.lastrowid or 0))
    assert job is not None
    return _with_progress(job, now)


def get_job(conn: sqlite3.Connection, job_id: int, kind: str | None = None) -> dict[str, Any] | None:
    """The stored job (status as stored: `pending` until finished), params/result decoded."""
    row = conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
    if row is None or (kind is not None and row["kind"] != kind):
        return None
    job = dict(row)
    job["params"] = loads(job["params"], {})
    job["result"] = loads(job["result"])
    return job


def observe(conn: sqlite3.Connection, job_id: int, clock: Clock, kind: str | None = None) -> dict[str, Any] | None:
    """The job as of now: finishes it (once) if due; adds `status` and `progress`.

    Call inside a write transaction: finishing writes the job's effects.
    """
    job = get_job(conn, job_id, kind)
    if job is None:
        return None
    now = clock.now()
    if job["status"] == "pending" and parse_iso(job["due_at"]) <= now:
        job = _finish(conn, job, now)
    return _with_progress(job, now)


def finish_due(conn: sqlite3.Connection, clock: Clock, kinds: Iterable[str] | None = None) -> int:
    """Finish every due job (of the given kinds), so reads of related data are coherent."""
    now = clock.now()
    wanted = list(kinds) if kinds is not None else list(KINDS)
    marks = ",".join("?" for _ in wanted)
    ids = [
        row["id"]
        for row in conn.execute(
            f"SELECT id FROM jobs WHERE status = 'pending' AND due_at <= ? AND kind IN ({marks}) ORDER BY id",
            (iso(now), *wanted),
        )
    ]
    for job_id in ids:
        observe(conn, job_id, clock)
    return len(ids)


def latest_job(conn: sqlite3.Connection, kind: str, subject_id: int, clock: Clock) -> dict[str, Any] | None:
    """The newest job of a kind about one subject (a lead, a company), observed now."""
    row = conn.execute(
        "SELECT id FROM jobs WHERE kind = ? AND subject_id = ? ORDER BY id DESC LIMIT 1",
        (kind, subject_id),
    ).fetchone()
    return observe(conn, row["id"], clock) if row else None


def _finish(conn: sqlite3.Connection, job: dict[str, Any], now: datetime) -> dict[str, Any]:
    finisher = _finishers.get(job["kind"])
    conn.execute("SAVEPOINT finish_job")
    try:
        if finisher is None:
            raise JobFailed(f"no finisher registered for {job['kind']} jobs")
        result = finisher(conn, job, now)
    except JobFailed as exc:
        conn.execute("ROLLBACK TO finish_job")
        conn.execute("RELEASE finish_job")
        conn.execute(
            "UPDATE jobs SET status = 'failed', completed_at = ?, error = ? WHERE id = ?",
            (iso(now), str(exc), job["id"]),
        )
    else:
        conn.execute(
            "UPDATE jobs SET status = 'completed', completed_at = ?, result = ? WHERE id = ?",
            (iso(now), dumps(result), job["id"]),
        )
        conn.execute("RELEASE finish_job")
    finished = get_job(conn, job["id"])
    assert finished is not None
    return finished


def _with_progress(job: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Derive the reported status and a 0-100 progress from the clock."""
    if job["status"] in ("completed", "failed"):
        return {**job, "progress": 100}
    created, due = parse_iso(job["created_at"]), parse_iso(job["due_at"])
    total = (due - created).total_seconds()
    elapsed = (now - created).total_seconds()
    share = 1.0 if total <= 0 else min(max(elapsed / total, 0.0), 0.99)
    status = "pending" if share < PENDING_SHARE else "running"
    return {**job, "status": status, "progress": int(share * 100)}
