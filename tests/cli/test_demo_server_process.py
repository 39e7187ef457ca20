"""`warmline demo`'s reference server as a child process: what it writes never stops it,
and a start that fails or hangs ends with one clear line (`warmline.commands.demo`)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import httpx
import pytest

from warmline.commands import demo
from warmline.commands.common import CommandError
from warmline.commands.demo import running_sandbox


def malformed_request(url: str) -> None:
    """One request uvicorn cannot parse: it logs a warning line on the server's stderr."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(b"GARBAGE \x00\x01 nonsense\r\n\r\n")
        conn.recv(100)


def test_what_the_server_writes_never_fills_a_pipe_and_stops_it(tmp_path: Path) -> None:
    """Each malformed request makes uvicorn write a line. The demo once kept the server's
    stderr as a pipe it never read: after ~1,300 such lines (64 KB) the server blocked on
    its next write and the cockpit said "offline" until it was closed."""
    with running_sandbox(tmp_path / "sandbox.sqlite3", companies=100, leads=2, seed=5, job_seconds=1.0) as (url, key):
        for _ in range(2_000):
            malformed_request(url)
        answer = httpx.get(f"{url}/v1/companies", headers={"Authorization": f"Bearer {key}"}, timeout=10)
        assert answer.status_code == 200
    # what it wrote is kept beside its database, for whoever looks into a problem
    assert "Invalid HTTP request" in (tmp_path / "sandbox.log").read_text()


def test_a_server_that_dies_at_start_gives_one_line_with_its_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dying = [sys.executable, "-c", "import sys; sys.stderr.write('seeding failed: disk full\\n'); sys.exit(3)"]
    monkeypatch.setattr(demo, "sandbox_command", lambda *args, **kwargs: dying)
    with (
        pytest.raises(CommandError) as caught,
        running_sandbox(tmp_path / "sandbox.sqlite3", companies=100, leads=2, seed=5, job_seconds=1.0),
    ):
        pass
    assert str(caught.value) == "The reference server did not start: seeding failed: disk full"


def test_a_server_that_never_says_where_it_listens_is_given_up_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    silent = [sys.executable, "-c", "import time; time.sleep(600)"]
    monkeypatch.setattr(demo, "sandbox_command", lambda *args, **kwargs: silent)
    monkeypatch.setattr(demo, "start_timeout", lambda companies: 0.5)
    with (
        pytest.raises(CommandError) as caught,
        running_sandbox(tmp_path / "sandbox.sqlite3", companies=100, leads=2, seed=5, job_seconds=1.0),
    ):
        pass
    assert str(caught.value) == "The reference server did not start within 0.5 s; stopped it."


def test_the_wait_for_a_start_grows_with_the_companies_it_seeds() -> None:
    assert demo.start_timeout(50_000) < demo.start_timeout(2_000_000) <= 600


def test_a_log_that_cannot_be_written_does_not_stop_the_start(tmp_path: Path) -> None:
    (tmp_path / "sandbox.log").mkdir()  # not a file: it cannot be opened for writing
    with running_sandbox(tmp_path / "sandbox.sqlite3", companies=100, leads=2, seed=5, job_seconds=1.0) as (url, key):
        answer = httpx.get(f"{url}/v1/companies", headers={"Authorization": f"Bearer {key}"}, timeout=10)
        assert answer.status_code == 200


def test_the_log_keeps_no_key_and_stops_growing_at_its_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo, "LOG_LIMIT", 2_000)
    with running_sandbox(tmp_path / "sandbox.sqlite3", companies=100, leads=2, seed=5, job_seconds=1.0) as (url, key):
        for _ in range(200):
            malformed_request(url)
    kept = (tmp_path / "sandbox.log").read_text()
    assert key not in kept and "Sandbox listening on" in kept
    assert kept.endswith("(more output dropped)\n") and len(kept) < 2_200
