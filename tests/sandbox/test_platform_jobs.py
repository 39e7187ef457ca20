"""The generic job record: pending -> running -> completed over the clock, finisher once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from warmline_sandbox import jobs
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.db import Database, init_schema


@pytest.fixture
def db() -> Database:
    database = Database(":memory:")
    with database.read() as conn:
        init_schema(conn, jobs.SCHEMA, "CREATE TABLE IF NOT EXISTS effects (job_id INTEGER);")
    yield database
    database.close()


@pytest.fixture
def finisher_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def finish(conn: Any, job: dict[str, Any], now: datetime) -> dict[str, Any]:
        calls.append(job["id"])
        conn.execute("INSERT INTO effects (job_id) VALUES (?)", (job["id"],))
        if job["params"].get("fail"):
            raise jobs.JobFailed("could not finish")
        return {"done_at": now.isoformat()}

    monkeypatch.setitem(jobs._finishers, "deep_search", finish)
    return calls


def test_status_moves_with_the_clock_and_the_finisher_runs_once(db: Database, finisher_calls: list[int]) -> None:
    clock = ManualClock()
    with db.transaction() as conn:
        job = jobs.create_job(conn, "deep_search", "k", {"query": "x"}, now=clock.now(), seconds=10)
    assert (job["status"], job["progress"]) == ("pending", 0)
    seen = []
    for step in (0.5, 1.0, 4.0, 4.0, 0.5, 5.0):
        clock.advance(step)
        with db.transaction() as conn:
            observed = jobs.observe(conn, job["id"], clock)
        seen.append((observed["status"], observed["progress"]))
    assert seen == [("pending", 5), ("running", 15), ("running", 55), ("running", 95),
                    ("completed", 100), ("completed", 100)]
    assert finisher_calls == [job["id"]]
    with db.read() as conn:
        stored = jobs.get_job(conn, job["id"])
        assert stored["result"] == {"done_at": "2026-11-22T09:00:10+00:00"}
        assert stored["completed_at"] == "2026-11-22T09:00:10.000Z"


def test_a_failing_finisher_keeps_nothing_and_marks_the_job_failed(db: Database, finisher_calls: list[int]) -> None:
    clock = ManualClock()
    with db.transaction() as conn:
        job = jobs.create_job(conn, "deep_search", "k", {"fail": True}, now=clock.now(), seconds=1)
    clock.advance(2)
    with db.transaction() as conn:
        observed = jobs.observe(conn, job["id"], clock)
        assert conn.execute("SELECT COUNT(*) FROM effects").fetchone()[0] == 0
    assert (observed["status"], observed["error"], observed["result"]) == ("failed", "could not finish", None)


def test_finish_due_and_latest_job(db: Database, finisher_calls: list[int]) -> None:
    clock = ManualClock()
    with db.transaction() as conn:
        early = jobs.create_job(conn, "deep_search", "k", {}, now=clock.now(), seconds=1, subject_id=7)
        late = jobs.create_job(conn, "deep_search", "k", {}, now=clock.now(), seconds=100, subject_id=7)
    clock.advance(5)
    with db.transaction() as conn:
        assert jobs.finish_due(conn, clock, ["contact_search"]) == 0
        assert jobs.finish_due(conn, clock) == 1
        assert jobs.latest_job(conn, "deep_search", 7, clock)["id"] == late["id"]
        assert jobs.latest_job(conn, "deep_search", 8, clock) is None
    assert finisher_calls == [early["id"]]


def test_unknown_kinds_and_jobs(db: Database) -> None:
    with pytest.raises(ValueError):
        jobs.register_finisher("nope", lambda *_: None)
    with db.transaction() as conn:
        assert jobs.observe(conn, 12345, ManualClock()) is None
