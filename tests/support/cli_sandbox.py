"""The `warmline` command run in-process against the sandbox app, itself in-process behind
`httpx.ASGITransport` (for the command tests in tests/cli).

How the service is plugged in: the headless commands build their client with
`warmline.api.ServiceClient(config.base_url, config.api_key, ...)`, imported when the
command runs. `serve(monkeypatch, app)` replaces that class by a subclass that talks to
`app` in-process (or, with `app=None`, to nothing: every connection is refused, which is
how "offline" looks to the client). No socket is opened.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result
from fastapi import FastAPI

import warmline.api
from warmline.api import ServiceClient
from warmline.cli import main
from warmline.store import Store
from warmline_sandbox.app import create_app
from warmline_sandbox.settings import DEFAULT_QUOTAS, SandboxSettings

KEY = "prospect-cli-key"
BASE_URL = "http://127.0.0.1:9"


class Refused(httpx.AsyncBaseTransport):
    """A network where the service cannot be reached."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)


def sandbox_settings(tmp_path: Path, **quotas: int) -> SandboxSettings:
    """A small sandbox whose jobs finish in a fraction of a second."""
    return SandboxSettings(
        db_path=tmp_path / "sandbox.sqlite3",
        api_keys=[KEY],
        seed=11,
        companies=300,
        leads=3,
        job_seconds=0.2,
        quotas={**DEFAULT_QUOTAS, **quotas},
    )


def make_sandbox(tmp_path: Path, **quotas: int) -> FastAPI:
    return create_app(sandbox_settings(tmp_path, **quotas))


def serve(monkeypatch: pytest.MonkeyPatch, app: FastAPI | None) -> None:
    """Point every client the commands build at `app` (None: offline)."""

    class InProcessClient(ServiceClient):
        def __init__(self, base_url: str, api_key: Any = None, **kwargs: Any) -> None:
            transport = httpx.ASGITransport(app=app) if app is not None else Refused()
            super().__init__(base_url, api_key, transport=transport, **kwargs)

    monkeypatch.setattr(warmline.api, "ServiceClient", InProcessClient)


def configure(monkeypatch: pytest.MonkeyPatch, data_dir: Path, key: str | None = KEY) -> None:
    """The environment of a rep's shell: service URL, key, and a private cache dir."""
    monkeypatch.setenv("WARMLINE_BASE_URL", BASE_URL)
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("WARMLINE_CONFIG", str(data_dir / "absent-config.toml"))
    if key is None:
        monkeypatch.delenv("WARMLINE_API_KEY", raising=False)
    else:
        monkeypatch.setenv("WARMLINE_API_KEY", key)


def fast_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Job polls every 20-40 ms instead of the spec's 5-10 s (tests only)."""
    monkeypatch.setattr("warmline.sync.jobs.POLL_MIN", 0.02)
    monkeypatch.setattr("warmline.sync.jobs.POLL_MAX", 0.04)


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def open_store(data_dir: Path) -> Store:
    return Store(data_dir / "cache.sqlite3")


def with_quotas(settings: SandboxSettings, **quotas: int) -> SandboxSettings:
    return dataclasses.replace(settings, quotas={**settings.quotas, **quotas})
