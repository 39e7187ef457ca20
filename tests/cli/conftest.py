"""Fixtures of the command tests that run against the in-process sandbox (support.cli_sandbox):
the sandbox app, a configured data dir, and the two worlds a command meets (online, offline).
A module may define its own `sandbox` or `data_dir`; pytest then uses that one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from support.cli_sandbox import configure, fast_polls, make_sandbox, serve


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[FastAPI]:
    app = make_sandbox(tmp_path)
    yield app
    app.state.db.close()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    configure(monkeypatch, path)
    fast_polls(monkeypatch)
    return path


@pytest.fixture
def online(sandbox: FastAPI, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    serve(monkeypatch, sandbox)
    return data_dir


@pytest.fixture
def offline(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    serve(monkeypatch, None)
    return data_dir
