"""A real store filled with deterministic server data (support.cockpit.fill), and snapshots
with text cursors that hold still."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, TextArea

import support.tui_wire_data as W
from support.cockpit import fill
from support.prospecting import fill_prospecting
from warmline.store import Store


@pytest.fixture
def snap_compare(snap_compare: Callable[..., bool], monkeypatch: pytest.MonkeyPatch) -> Callable[..., bool]:
    """pytest-textual-snapshot's, with text cursors that do not blink. The screenshot comes
    a few pauses after the last key; on a busy machine more than half a second can pass,
    and a blinking cursor was now and then caught hidden (test_search_with_results[80x24]
    in a clean-clone run). A cursor that never toggles stays shown, as on the snapshots."""
    monkeypatch.setattr(Input, "_toggle_cursor", _hold_still)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", _hold_still)
    return snap_compare


def _hold_still(widget: Any) -> None:
    """In place of a cursor's blink: it stays as it is."""


@pytest.fixture
def empty_store(tmp_path: Path) -> Iterator[Store]:
    store = Store(tmp_path / "cache.sqlite3", clock=lambda: W.NOW.timestamp())
    yield store
    store.close()


@pytest.fixture
def store(empty_store: Store) -> Store:
    fill(empty_store)
    return empty_store


@pytest.fixture
def prospect_store(store: Store) -> Store:
    """The store with saved companies, contacts, jobs and templates besides the leads."""
    fill_prospecting(store)
    return store
