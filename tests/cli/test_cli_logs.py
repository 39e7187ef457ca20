"""The log file from the command line and the cockpit: `warmline logs` finds it, a sync
writes what it sent and got (never the key), `--debug` / WARMLINE_LOG=debug add detail, a
log directory that cannot be written costs one warning, and nothing of it reaches the
cockpit's screen."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import warmline.cockpit
from support.cli_sandbox import KEY, open_store, run
from support.waiting import until
from warmline import logfile
from warmline.store import Store
from warmline.tui.app import WarmlineApp


@pytest.fixture
def log_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """WARMLINE_LOG_DIR of the test's own; the `warmline` loggers restored afterwards."""
    path = tmp_path / "logs"
    monkeypatch.setenv(logfile.ENV_LOG_DIR, str(path))
    monkeypatch.delenv(logfile.ENV_LOG, raising=False)
    logger = logging.getLogger(logfile.LOGGER)
    saved = (list(logger.handlers), logger.level)
    yield path
    for owner in (logger, *(logging.getLogger(name) for name in logfile.THIRD_PARTY)):
        for handler in list(owner.handlers):
            if isinstance(handler, logfile.LogFile):
                owner.removeHandler(handler)
                handler.close()
    logger.handlers[:], logger.level = saved


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_logs_prints_the_path_and_the_last_lines(log_dir: Path) -> None:
    path = log_dir / "warmline.log"
    assert run("logs", "--path").stdout == f"{path}\n"
    empty = run("logs")
    assert (
        empty.exit_code == 0
        and empty.stdout == f"{path}\n"
        and "Nothing logged yet." in empty.stderr
    )
    path.write_text(
        "".join(f"line {n}\n" for n in range(1, 31)) + "evil \x1b]52;c;aGk=\x07 line\n",
        encoding="utf-8",
    )
    result = run("logs", "--tail", "3")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        str(path),
        "line 29",
        "line 30",
        "evil  line",
    ]  # no terminal control
    assert len(run("logs").stdout.splitlines()) == 1 + 20
    assert run("logs", "--path", "--tail", "5").stdout == f"{path}\n"


def test_a_sync_writes_each_request_and_op_and_never_the_key(online: Path, log_dir: Path) -> None:
    assert run("sync", "--once").exit_code == 0
    lead = json.loads(run("leads", "--json").stdout)[0]["id"]
    assert run("note", str(lead), "Wants a demo").exit_code == 0  # queued (and maybe sent)
    result = run("sync", "--once")
    assert result.exit_code == 0, result.output
    store = open_store(online)
    try:
        [op] = store.outbox_rows(("done",))
    finally:
        store.close()
    text = read(log_dir / "warmline.log")
    assert re.search(r"INFO warmline\.api: GET /v1/outreach/leads -> 200 in \d+ ms", text)
    assert re.search(
        rf"POST /v1/outreach/leads/{lead}/notes -> 201 in \d+ ms, \d+ bytes \(op {op.op_id}\)", text
    )
    assert f"op {op.op_id} add_note lead {lead} (attempt 1) delivered" in text
    assert KEY not in text and "Wants a demo" not in text and "DEBUG" not in text
    assert "warmline.api" not in result.output  # the file, not the terminal


@pytest.mark.parametrize("how", ["--debug", "WARMLINE_LOG"])
def test_debug_adds_headers_and_bodies_but_not_the_key(
    online: Path, log_dir: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    if how == "--debug":
        result = run("--debug", "sync", "--once")
    else:
        monkeypatch.setenv(logfile.ENV_LOG, "debug")
        result = run("sync", "--once")
    assert result.exit_code == 0, result.output
    text = read(log_dir / "warmline.log")
    assert re.search(r"DEBUG warmline\.api: request GET /v1/outreach/leads\S* headers \{", text)
    assert re.search(r"DEBUG warmline\.api: answer 200 headers \{.*\} body '\{", text)
    assert KEY not in text
    assert "DEBUG" not in result.output


def test_a_bad_log_level_is_one_warning(log_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(logfile.ENV_LOG, "loud")
    result = run("logs", "--path")
    assert result.exit_code == 0
    assert (
        result.stderr
        == "Warning: WARMLINE_LOG='loud' is not one of debug, info, warning; logging at info\n"
    )


def test_a_log_dir_that_cannot_be_written_is_one_warning_and_the_command_works(
    online: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, log_dir: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(logfile.ENV_LOG_DIR, str(blocker / "logs"))
    result = run("sync", "--once")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        f"Warning: cannot write the log file {blocker}/logs/warmline.log (Not a directory); nothing is logged"
    ]
    assert "Refreshed" in result.stdout


def test_the_cockpit_logs_to_the_file_only(
    online: Path, log_dir: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """`warmline --debug` opens the cockpit: the command line's stderr handler is gone while
    it runs (whatever the engine logs goes to the file, at the debug level asked for), and
    nothing is printed, to the real stderr or through Textual's capture of it."""
    printed: list[str] = []
    path = log_dir / "warmline.log"

    def pilot_cockpit(store: Store, **options: Any) -> None:
        async def drive() -> None:
            app = WarmlineApp(store, **options)
            app._print = lambda text, stderr=False: printed.append(text)  # type: ignore[method-assign]
            async with app.run_test(size=(120, 40)) as pilot:
                await until(
                    lambda: "GET /v1/outreach/leads -> 200" in read(path),
                    pilot=pilot,
                    what="a request logged",
                )
                logging.getLogger("warmline.sync").warning("a warning while the cockpit runs")
                logging.getLogger("apscheduler.scheduler").warning("a scheduler warning")
                await pilot.pause()
                assert app.sync is not None

        asyncio.run(drive())

    monkeypatch.setattr(warmline.cockpit, "run_cockpit", pilot_cockpit)
    # A driver chosen (the pilot's): the command line's stdin is no terminal (warmline.terminal).
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.headless_driver:HeadlessDriver")
    try:
        result = run("--debug")
    finally:
        gc.enable()
        gc.unfreeze()
    assert result.exit_code == 0, result.output
    text = read(path)
    assert "WARNING warmline.sync: a warning while the cockpit runs" in text
    assert "WARNING apscheduler.scheduler: a scheduler warning" in text
    assert "DEBUG warmline.api: request GET" in text  # --debug carried into the cockpit
    assert KEY not in text
    assert printed == []
    out, err = capfd.readouterr()
    assert "warning" not in (out + err + result.output).lower()
