"""A real store filled with deterministic server data (support.cockpit.fill)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import support.tui_wire_data as W
from support.cockpit import fill
from warmline.store import Store


@pytest.fixture
def empty_store(tmp_path: Path) -> Iterator[Store]:
    store = Store(tmp_path / "cache.sqlite3", clock=lambda: W.NOW.timestamp())
    yield store
    store.close()


@pytest.fixture
def store(empty_store: Store) -> Store:
    fill(empty_store)
    return empty_store
