"""Shared fixtures of the sandbox tests: a small seeded server, in-process, on a manual clock."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from support.sandbox_client import TEST_KEY, make_client
from support.sandbox_seed import create_app
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.settings import SandboxSettings


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def settings(tmp_path: Path) -> SandboxSettings:
    return SandboxSettings(
        db_path=tmp_path / "sandbox.sqlite3",
        api_keys=[TEST_KEY],
        seed=7,
        companies=2000,
        leads=20,
        job_seconds=10.0,
    )


@pytest.fixture
def app(settings: SandboxSettings, clock: ManualClock) -> Iterator[FastAPI]:
    app = create_app(settings, clock=clock)
    yield app
    app.state.db.close()


@pytest.fixture
def app_factory(settings: SandboxSettings, clock: ManualClock) -> Iterator[Callable[..., FastAPI]]:
    """`app_factory(**overrides)`: an app whose settings differ from `settings` (closed after the test)."""
    made: list[FastAPI] = []

    def make(**overrides: object) -> FastAPI:
        made.append(create_app(dataclasses.replace(settings, **overrides), clock=clock))
        return made[-1]

    yield make
    for app in made:
        app.state.db.close()


@pytest.fixture
def client_factory() -> Callable[..., httpx.AsyncClient]:
    """`client_factory(app, key=...)`: for tests that need a second app or another key."""
    return make_client


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(app) as client:
        yield client


@pytest.fixture
async def anon_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(app, key=None) as client:
        yield client
