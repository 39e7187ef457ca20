"""A real store filled with deterministic server data, and a cockpit on it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

import pytest
import tui_wire_data as W

from warmline.store import Store
from warmline.tui.app import WarmlineApp


def fill(store: Store, online: bool | None = True) -> None:
    """The cache as after a sync: every lead with its detail, notes and recommendations."""
    store.upsert_leads(W.lead_items())
    for index in range(len(W.COMPANIES)):
        store.upsert_lead_detail({**W.lead_detail(index), "notes": W.notes(index)})
        store.upsert_recommendations(100 + index, W.recommendations_response(index))
    if online is not None:
        store.set_state("online", online)
        store.set_state("last_sync_at", W.NOW.timestamp() - 10)


@pytest.fixture
def empty_store(tmp_path: Path) -> Iterator[Store]:
    store = Store(tmp_path / "cache.sqlite3", clock=lambda: W.NOW.timestamp())
    yield store
    store.close()


@pytest.fixture
def store(empty_store: Store) -> Store:
    fill(empty_store)
    return empty_store


class Opened:
    """Records the URLs the cockpit asked the browser to open."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def __call__(self, url: str) -> bool:
        self.urls.append(url)
        return True


def cockpit(store: Store | None, **options) -> WarmlineApp:
    """The real app with a fixed clock and zone, and no browser."""
    options.setdefault("opener", Opened())
    return WarmlineApp(store, clock=lambda: W.NOW, zone=UTC, **options)
