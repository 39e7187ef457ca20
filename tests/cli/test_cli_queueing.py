"""`warmline log` and `warmline note` (warmline.commands.queueing): they queue, hand the send
to a detached `warmline sync --send`, and return; `--wait` sends in the foreground; `--json`
gives the op id and its state. The suite sets WARMLINE_NO_DETACH (tests/conftest.py); the
tests of the background sender here take it away."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.cli_sandbox import open_store, run
from support.waiting import until
from warmline.commands import delivery, queueing
from warmline.config import load_config
from warmline.dispatch import QUEUE_COMMANDS
from warmline_sandbox.server import start_in_thread
from warmline_sandbox.settings import SandboxSettings


@pytest.fixture
def synced(online: Path) -> Path:
    result = run("sync")
    assert result.exit_code == 0, result.output
    return online


def test_the_console_script_sends_exactly_log_and_note_to_the_light_path() -> None:
    """The names are written once (`warmline.dispatch`); the queue path's commands take theirs from it."""
    assert QUEUE_COMMANDS == ("log", "note")
    assert [command.name for command in queueing.COMMANDS] == list(QUEUE_COMMANDS)


def test_log_queues_and_says_the_next_sync_sends_it_when_detaching_is_off(synced: Path) -> None:
    result = run("log", "1", "Called Dana")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("Queued activity on ")
    assert "it will be sent by the next sync (WARMLINE_NO_DETACH is set)" in result.stdout
    with open_store(synced) as store:
        assert [op.state for op in store.outbox_rows()] == ["pending"]


@pytest.mark.parametrize(("command", "kind"), [("log", "log_activity"), ("note", "add_note")])
def test_json_gives_the_op_id_and_its_state(synced: Path, command: str, kind: str) -> None:
    result = run(command, "2", "Budget approved", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # stdout is the JSON alone; the words went to stderr
    assert "Queued" in result.stderr
    assert data["state"] == "queued" and data["sending"] == "next_sync"
    [op] = data["ops"]
    assert op["op_id"] == data["op_id"] and op["kind"] == kind and op["lead_id"] == 2
    assert op["outbox_state"] == "pending" and op["attempts"] == 0
    with open_store(synced) as store:
        assert store.get_op(data["op_id"]) is not None


def test_wait_sends_before_returning_and_json_says_sent(synced: Path) -> None:
    result = run("log", "1", "Called Dana, she wants a demo", "--wait", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["state"] == "sent" and data["sending"] is None
    assert data["ops"][0]["result"]["touchpoint"]["description"].startswith("Called Dana")
    assert "Delivered. Detected: Call" in result.stderr


def test_wait_offline_says_offline_and_keeps_it_queued(offline: Path) -> None:
    with open_store(offline) as store:
        store.upsert_leads([{"id": 7, "company_name": "Acme"}])
    result = run("note", "7", "Remember the NDA", "--wait", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["state"] == "queued"
    assert "offline now" in result.stderr


def test_no_key_starts_no_sender_and_says_so(synced: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARMLINE_NO_DETACH")
    monkeypatch.delenv("WARMLINE_API_KEY")
    result = run("log", "1", "Called", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["sending"] == "next_sync" and "no API key" in result.stderr


def test_a_wait_the_service_asked_for_starts_no_sender(
    synced: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WARMLINE_NO_DETACH")
    with open_store(synced) as store:
        store.set_state("rate_limited_until", 4_000_000_000.0)
    result = run("note", "1", "Later", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["sending"] == "next_sync"
    assert "asked us to wait until" in result.stderr


def test_bad_input_stores_nothing(synced: Path) -> None:
    assert run("log", "1", "").exit_code == 2
    assert run("note", "1", "x" * 10_001, "--json").exit_code == 2
    assert run("log", "nobody at all", "Called").exit_code == 2
    with open_store(synced) as store:
        assert store.outbox_rows() == []


def test_sync_send_delivers_what_is_due_and_nothing_else(synced: Path) -> None:
    run("log", "1", "Called from the train")
    result = run("sync", "--send")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Sent 1 action(s); 0 failed")
    assert "Refreshed" not in result.stdout  # no refresh, no polls: the send only
    with open_store(synced) as store:
        assert store.outbox_counts().queued == 0


def test_sync_send_offline_exits_four_and_keeps_the_op(offline: Path) -> None:
    with open_store(offline) as store:
        store.upsert_leads([{"id": 7, "company_name": "Acme"}])
    run("log", "7", "Called")
    result = run("sync", "--send")
    assert result.exit_code == 4 and "Offline" in result.stderr
    with open_store(offline) as store:
        assert [op.state for op in store.outbox_rows()] == ["pending"]


def test_one_sender_at_a_time_per_cache(synced: Path) -> None:
    """A sender that finds the lock held sends nothing (the holder looks again once it
    lets go); once the lock is free, the next one sends."""
    run("note", "1", "Only once")
    config = load_config()
    with delivery.sender_lock(config) as held:
        assert held and delivery.sender_running(config)  # another open file of it is another sender
        blocked = run("sync", "--send")
        assert blocked.exit_code == 0 and blocked.stdout.startswith("Sent 0 action(s)")
    with open_store(synced) as store:
        assert store.outbox_counts().queued == 1
    assert run("sync", "--send").stdout.startswith("Sent 1 action(s)")


# --- the detached sender, for real -------------------------------------------------------------


@pytest.fixture
def silent_service() -> Iterator[socket.socket]:
    """A port that takes connections and never answers until the test does."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield listener
    listener.close()


def child_pids() -> set[int]:
    """Every child of this process (zombies included), from /proc."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        found |= {int(pid) for pid in (task / "children").read_text().split()}
    return found


def stat_fields(pid: int) -> list[str]:
    """/proc/PID/stat after the command name: state, ppid, pgrp, session, tty_nr, ..."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def gone(pid: int) -> bool:
    try:
        return stat_fields(pid)[0] in ("Z", "X")  # a zombie of whoever reaps orphans is gone to us
    except FileNotFoundError:
        return True


async def accept_request(listener: socket.socket) -> socket.socket:
    """The sender's connection, once its request has arrived."""
    listener.settimeout(0.05)
    held: list[socket.socket] = []

    def arrived() -> bool:
        if not held:
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                return False
            held[0].settimeout(0.05)
        try:
            return bool(held[0].recv(65536, socket.MSG_PEEK))
        except TimeoutError:
            return False

    await until(arrived, what="the background sender's request")
    return held[0]


def sender_of(data_dir: Path) -> int:
    """The pid that claimed the one queued op (the outbox records the claimant)."""
    with open_store(data_dir) as store:
        claimed = store.scalar("SELECT claimed_by FROM outbox WHERE state = 'in_flight'")
    assert isinstance(claimed, str), claimed
    return int(claimed.split(":", 1)[0])


def answer_and_wait_for_the_end(conn: socket.socket) -> None:
    conn.sendall(
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    conn.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_the_command_returns_while_a_detached_sender_delivers(
    tmp_path: Path, silent_service: socket.socket
) -> None:
    """The real console script: it returns (both pipes at their end) while the sender it
    started is still waiting for the service; the sender is in a session of its own with no
    terminal, writes to the null device, and is not our child."""
    data = tmp_path / "data"
    data.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "WARMLINE_NO_DETACH"}
    env.update(
        WARMLINE_DATA_DIR=str(data),
        WARMLINE_API_KEY="k",
        WARMLINE_CONFIG=str(tmp_path / "none.toml"),
        WARMLINE_BASE_URL=f"http://127.0.0.1:{silent_service.getsockname()[1]}",
    )
    with open_store(data) as store:
        store.upsert_leads([{"id": 5, "company_name": "Acme"}])
    done = subprocess.run(
        [sys.executable, "-m", "warmline", "log", "5", "Called"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Queued activity on Acme (op " + done.stdout.split("(op ")[1][:8] + ").",
        "Sending in the background; `warmline outbox` shows it until it is delivered.",
    ]
    assert done.stderr == ""
    conn = await accept_request(silent_service)
    assert conn.recv(65536).startswith(b"POST /v1/outreach/leads/5/touchpoints")
    pid = sender_of(data)  # alive, waiting for our answer, after the command returned
    state, ppid, _pgrp, session, tty = stat_fields(pid)[:5]
    # A session of its own (made by the middle process, which it is not: it can never
    # take a controlling terminal), and no terminal now.
    assert state not in ("Z", "X") and int(session) not in (os.getsid(0), pid) and tty == "0"
    assert int(ppid) != os.getpid() and pid not in child_pids()
    assert {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in (0, 1, 2)} == {os.devnull}
    answer_and_wait_for_the_end(conn)
    await until(lambda: gone(pid), what="the sender's exit")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_a_caller_that_lives_on_keeps_no_child_or_zombie(
    tmp_path: Path, silent_service: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`warmline.cli.main` called in this process: the middle process of the double fork is
    reaped before the command returns, and the sender is not our child."""
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.delenv("WARMLINE_NO_DETACH")
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(data))
    monkeypatch.setenv("WARMLINE_API_KEY", "k")
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("WARMLINE_BASE_URL", f"http://127.0.0.1:{silent_service.getsockname()[1]}")
    with open_store(data) as store:
        store.upsert_leads([{"id": 5, "company_name": "Acme"}])
    before = child_pids()
    result = run("note", "5", "Remember the NDA", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["sending"] == "background"
    assert child_pids() <= before
    conn = await accept_request(silent_service)
    pid = sender_of(data)
    assert pid not in child_pids() and int(stat_fields(pid)[3]) != os.getsid(0)
    answer_and_wait_for_the_end(conn)
    await until(lambda: gone(pid), what="the sender's exit")
    assert child_pids() <= before


def test_wait_on_the_console_script_path_logs_the_send(tmp_path: Path) -> None:
    """`warmline log --wait` skips the group that configures the log file (the console
    script's light path), so the command configures it before sending."""
    settings = SandboxSettings(
        db_path=tmp_path / "sandbox.sqlite3", api_keys=["k"], seed=3, companies=20, leads=2, port=0
    )
    server = start_in_thread(settings)
    try:
        data = tmp_path / "data"
        data.mkdir()
        env = {
            **os.environ,
            "WARMLINE_DATA_DIR": str(data),
            "WARMLINE_API_KEY": "k",
            "WARMLINE_CONFIG": str(tmp_path / "none.toml"),
            "WARMLINE_BASE_URL": server.url,
            "WARMLINE_LOG_DIR": str(tmp_path / "log"),
        }
        with open_store(data) as store:
            store.upsert_leads([{"id": 1, "company_name": "Acme"}])
        done = subprocess.run(
            [sys.executable, "-m", "warmline", "log", "1", "Called Dana", "--wait"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert "Delivered." in done.stdout
    [op_id] = re.findall(r"\(op ([0-9a-f]{8})\)", done.stdout)
    logged = (tmp_path / "log" / "warmline.log").read_text(encoding="utf-8")
    assert re.search(rf"POST /v1/outreach/leads/1/touchpoints -> 201 .*\(op {op_id}", logged), (
        logged
    )
