"""The service every web test's cockpits talk to: `warmline sandbox` on a loopback port,
and a cache already synced from it (so Today is full on the first frame)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.web_session import WebServer, service_env
from warmline.logfile import log_path

API_KEY = "web-tests-key-5f0c2b"


@dataclass(frozen=True)
class Service:
    base_url: str
    api_key: str
    data_dir: Path

    @property
    def env(self) -> dict[str, str]:
        return service_env(self.base_url, self.api_key, self.data_dir)


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    root = tmp_path_factory.mktemp("web-service")
    sandbox = subprocess.Popen(
        [sys.executable, "-m", "warmline", "sandbox", "--host", "127.0.0.1", "--port", "0",
         "--db", str(root / "sandbox.sqlite3"), "--companies", "300", "--leads", "8", "--seed", "5"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "WARMLINE_SANDBOX_API_KEY": API_KEY},
    )
    try:
        assert sandbox.stdout is not None
        line = sandbox.stdout.readline()
        assert line.startswith("Sandbox listening on "), line
        found = Service(line.removeprefix("Sandbox listening on ").strip(), API_KEY, root / "cache")
        subprocess.run([sys.executable, "-m", "warmline", "sync"], env=found.env, check=True,
                       capture_output=True, stdin=subprocess.DEVNULL)
        yield found
    finally:
        sandbox.terminate()
        sandbox.wait(timeout=30)


@pytest.fixture
def web_server(service: Service) -> Iterator[Callable[..., WebServer]]:
    """Start `warmline web ARGS` against the service; every server started is stopped."""
    started: list[WebServer] = []

    def start(*args: str) -> WebServer:
        started.append(WebServer(service.env, *args))
        return started[-1]

    yield start
    for server in started:
        # Printed for pytest to show with a failed test: what the server and its cockpits
        # said, and the end of the cockpits' log.
        print(server.report())
        print("the log's end:", *log_path().read_text(errors="replace").splitlines()[-60:]
              if log_path().exists() else ["(none)"], sep="\n")
        server.stop()
