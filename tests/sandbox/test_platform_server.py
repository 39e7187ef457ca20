"""Serving over a real loopback port: the CLI in a subprocess, persistence, the thread server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from warmline_sandbox.server import start_in_thread
from warmline_sandbox.settings import SandboxSettings

pytestmark = pytest.mark.e2e

SMALL = ["--companies", "300", "--leads", "3", "--seed", "3"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Sandbox:
    """`warmline sandbox` in a subprocess; the first two stdout lines give the URL and key."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "warmline", "sandbox", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        assert self.process.stdout is not None
        self.first_line = self.process.stdout.readline().strip()
        self.second_line = self.process.stdout.readline().strip()
        self.url = self.first_line.removeprefix("Sandbox listening on ")
        self.key = self.second_line.removeprefix("API key: ")

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {self.key}"}, timeout=10)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def run_sandbox():
    started: list[Sandbox] = []

    def start(*args: str) -> Sandbox:
        started.append(Sandbox(*args))
        return started[-1]

    yield start
    for sandbox in started:
        sandbox.stop()


def test_cli_prints_url_and_key_first_and_serves(run_sandbox, tmp_path: Path) -> None:
    port = free_port()
    sandbox = run_sandbox("--port", str(port), "--db", str(tmp_path / "s.db"), "--api-key", "demo", *SMALL)
    assert sandbox.first_line == f"Sandbox listening on http://127.0.0.1:{port}"
    assert sandbox.second_line == "API key: demo"
    with sandbox.client() as client:
        health = client.get("/v1/health")
        assert health.status_code == 200 and health.json()["authenticated"] is True
        assert client.get("/v1/outreach/leads").json()["pagination"]["total"] == 3
        assert client.get("/openapi.json").json()["info"]["title"].startswith("Sales Intelligence Service")
        assert client.get("/docs").status_code == 200


def test_a_restart_on_the_same_db_keeps_the_data(run_sandbox, tmp_path: Path) -> None:
    db = str(tmp_path / "kept.db")
    first = run_sandbox("--port", "0", "--db", db, *SMALL)
    assert first.key.startswith("sk_sandbox_"), "a key is generated when none is given"
    with first.client() as client:
        created = client.post("/v1/companies", json={"name": "Survivor Inc"}).json()["data"]
        total = client.get("/v1/companies").json()["pagination"]["total"]
    first.stop()
    second = run_sandbox("--port", "0", "--db", db, "--api-key", "later", "--seed", "99")
    with second.client() as client:
        assert client.get(f"/v1/companies/{created['id']}").json()["data"]["name"] == "Survivor Inc"
        assert client.get("/v1/companies").json()["pagination"]["total"] == total, "not seeded twice"
    old_key = httpx.get(f"{second.url}/v1/health", headers={"Authorization": f"Bearer {first.key}"})
    assert old_key.json()["authenticated"] is True, "keys registered earlier stay valid"


def test_bad_options_are_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "warmline", "sandbox", "--faults", "explode=1", "--db", str(tmp_path / "x.db")],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 2 and "unknown fault" in result.stderr


def test_drop_under_uvicorn_closes_without_an_answer(tmp_path: Path) -> None:
    from warmline_sandbox.settings import FaultSpec

    settings = SandboxSettings(db_path=tmp_path / "t.db", api_keys=["k"], companies=200, leads=2, port=0,
                               faults=FaultSpec(drop=1.0))
    server = start_in_thread(settings)
    try:
        headers = {"Authorization": "Bearer k"}
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.post(f"{server.url}/v1/companies", json={"name": "Committed"}, headers=headers, timeout=5)
        found = httpx.get(f"{server.url}/v1/health", headers=headers, timeout=5)
        assert found.status_code == 200
    finally:
        server.stop()
    from warmline_sandbox.db import Database

    db = Database(settings.db_path)
    with db.read() as conn:
        assert conn.execute("SELECT COUNT(*) FROM companies WHERE name = 'Committed'").fetchone()[0] == 1
    db.close()


def test_the_listening_socket_says_tcp_so_answers_are_not_delayed() -> None:
    from warmline_sandbox.server import bind

    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP, "asyncio only sets TCP_NODELAY for sockets marked TCP"
    finally:
        sock.close()
