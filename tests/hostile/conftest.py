"""The `hostile` fixture: a fresh hostile server (support/hostile_server.py) per test, on
loopback. Tests import the reply kinds from the package: `from support.hostile_server import
Drip, json_reply, ...`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.hostile_server import HostileServer
from warmline.store import Store


@pytest.fixture
def hostile() -> Iterator[HostileServer]:
    server = HostileServer().start()
    yield server
    server.stop()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A cache that knows one lead, Acme (id 1), so actions on it can be queued."""
    store = Store(tmp_path / "cache.sqlite3")
    store.upsert_leads([{"id": 1, "company_name": "Acme"}])
    yield store
    store.close()
