"""The log file records what a sync pass sent and got: each request with its status and op
id, each op settled and why, never the API key; debug level adds headers and bodies."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from support.sync_helpers import KEY, UNAVAILABLE, FaultyTransport
from warmline import logfile
from warmline.store import Store
from warmline.sync import SyncEngine

LEAD = 1


@pytest.fixture
def log_dir(tmp_path: Path) -> Iterator[Path]:
    """A log directory of the test's own; the `warmline` loggers as they were afterwards."""
    logger = logging.getLogger(logfile.LOGGER)
    saved = (list(logger.handlers), logger.level)
    yield tmp_path / "logs"
    for owner in (logger, *(logging.getLogger(name) for name in logfile.THIRD_PARTY)):
        for handler in list(owner.handlers):
            if isinstance(handler, logfile.LogFile):
                owner.removeHandler(handler)
                handler.close()
    logger.handlers[:], logger.level = saved


def configure(log_dir: Path, **env: str) -> Path:
    assert logfile.configure(terminal=False, env={logfile.ENV_LOG_DIR: str(log_dir), **env}) == []
    return log_dir / logfile.LOG_FILE


def queue_three(store: Store) -> tuple[str, str, str]:
    """An activity retried after a 503 (sent first), a deal the service refuses for good
    (lead 1 is cold), a note delivered."""
    retried = store.enqueue(
        "log_activity",
        {"lead_id": 3, "description": "Called Dana", "contact_id": None},
        3,
        {"guessed_type": "other"},
    )
    refused = store.enqueue("update_deal", {"lead_id": LEAD, "deal_value": 1000.0}, LEAD)
    note = store.enqueue("add_note", {"lead_id": 2, "content": "Wants a demo"}, 2)
    return note, refused, retried


def line_with(text: str, *parts: str) -> str:
    [line] = [line for line in text.splitlines() if all(part in line for part in parts)]
    return line


async def test_a_pass_writes_each_request_and_op_with_its_id_and_status_and_never_the_key(
    engine: SyncEngine, store: Store, transport: FaultyTransport, log_dir: Path
) -> None:
    path = configure(log_dir)
    note, refused, retried = queue_three(store)
    transport.fail_next(UNAVAILABLE)  # the first send

    report = await engine.flush()

    text = path.read_text(encoding="utf-8")
    assert report.delivered + report.failed + report.retrying == 3
    state = {op: store.get_op(op).state for op in (note, refused, retried)}
    assert state == {retried: "pending", refused: "failed", note: "done"}
    # Each request: method, path, status, time, and the op it carries.
    assert re.search(
        rf"INFO warmline\.api: POST /v1/outreach/leads/2/notes -> 201 in \d+ ms, \d+ bytes \(op {note}\)",
        text,
    )
    assert line_with(text, "warmline.api", f"(op {refused})", "-> 4")
    # Each op settled: what became of it, and why it failed.
    assert line_with(text, f"op {note} add_note lead 2 (attempt 1) delivered")
    failure = line_with(text, f"op {refused} update_deal lead 1", "failed")
    assert failure.endswith(": " + store.get_op(refused).last_error)
    assert line_with(text, "warmline.api", f"(op {retried})", "-> 503 in")
    assert line_with(text, f"op {retried} log_activity lead 3 (attempt 1) retry in", "(HTTP 503)")
    # Never the key; at info level no body and no header.
    assert KEY not in text
    assert "Wants a demo" not in text and "headers" not in text
    # One line per record: a UTC time, the process, the level, the logger.
    assert all(
        re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \d+ (INFO|DEBUG|WARNING) warmline", line)
        for line in text.splitlines()
    )


async def test_debug_adds_headers_and_bodies_cut_short_and_still_not_the_key(
    engine: SyncEngine, store: Store, log_dir: Path
) -> None:
    path = configure(log_dir, WARMLINE_LOG="debug")
    long_note = "Wants a demo " + "x" * 5000
    store.enqueue("add_note", {"lead_id": LEAD, "content": long_note}, LEAD)

    assert (await engine.flush()).delivered == 1

    text = path.read_text(encoding="utf-8")
    request = line_with(text, "DEBUG warmline.api: request POST /v1/outreach/leads/1/notes headers")
    assert "'idempotency-key'" in request and "authorization" not in request.lower()
    assert "Wants a demo xxx" in request and long_note not in text  # the body, cut short
    assert re.search(r"\.\.\. \(\d+ bytes\)", request)
    assert line_with(text, "DEBUG warmline.api: answer 201 headers")
    assert KEY not in text


async def test_warning_level_leaves_out_the_request_lines(
    engine: SyncEngine, store: Store, log_dir: Path
) -> None:
    path = configure(log_dir, WARMLINE_LOG="warning")
    store.enqueue("add_note", {"lead_id": LEAD, "content": "Wants a demo"}, LEAD)

    assert (await engine.flush()).delivered == 1

    assert not path.exists() or "warmline.api" not in path.read_text(encoding="utf-8")


def test_a_hidden_key_is_masked_wherever_a_line_quotes_it(log_dir: Path) -> None:
    path = configure(log_dir)
    logfile.hide("s3cret-key-123")
    logging.getLogger("warmline.sync").info(
        "the service said: bad key s3cret-key-123 at https://user:pw@host/ \x1b[31mred\x1b[0m\nnext line"
    )
    [line] = path.read_text(encoding="utf-8").splitlines()
    assert "s3cret-key-123" not in line and "********" in line
    assert "user:pw" not in line and "https://***@host/" in line
    assert "\x1b" not in line and line.endswith("red next line")


async def test_a_run_skipped_while_the_last_one_runs_is_not_logged_but_a_job_that_raised_is(
    log_dir: Path,
) -> None:
    """With `max_instances=1`, a run due while the last one still runs is skipped by design;
    APScheduler warns of each (one a second for the tick while a request hangs). The real
    scheduler, made to find the job due again while it runs: no line for that (the filter
    `warmline.sync.engine` puts on APScheduler's logger), and a job that raises is still
    in the log."""
    path = configure(log_dir)
    started, release = asyncio.Event(), asyncio.Event()

    async def hangs() -> None:
        started.set()
        await release.wait()

    async def raises() -> None:
        raise RuntimeError("a job that broke")

    scheduler = AsyncIOScheduler(job_defaults={"coalesce": True, "max_instances": 1})
    scheduler.start()
    try:
        job = scheduler.add_job(hangs, "interval", seconds=3600, next_run_time=datetime.now(UTC))
        await asyncio.wait_for(started.wait(), 30)
        for _ in range(3):  # due again, three times, while it still runs
            job.modify(next_run_time=datetime.now(UTC))
            scheduler.wakeup()
            await asyncio.sleep(0)
        scheduler.add_job(raises, "date", run_date=datetime.now(UTC))
        for _ in range(200):
            if "a job that broke" in (path.read_text() if path.exists() else ""):
                break
            await asyncio.sleep(0.05)
    finally:
        release.set()
        scheduler.shutdown(wait=False)
    text = path.read_text()
    assert "a job that broke" in text
    assert "maximum number of running instances" not in text
