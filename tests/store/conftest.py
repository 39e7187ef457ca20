"""Fixtures for the store tests: a file-backed store on a fake clock, and wire-shaped data
(support.store_data)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import store_data
from support.store_data import FakeClock
from warmline.store import Store


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "cache.sqlite3"


@pytest.fixture
def store(db_path: Path, clock: FakeClock) -> Store:
    opened = Store(db_path, clock=clock)
    yield opened
    opened.close()


@pytest.fixture
def lead_item():
    return store_data.lead_item


@pytest.fixture
def detail_item():
    return store_data.detail_item


@pytest.fixture
def rec_item():
    return store_data.rec_item
