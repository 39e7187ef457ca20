"""The `hostile` fixture: a fresh hostile server (hostile_server.py) per test, on loopback.

Tests in this directory import the reply kinds by module name, as the sync tests import
sync_helpers: `from hostile_server import Drip, json_reply, ...`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hostile_server import HostileServer


@pytest.fixture
def hostile() -> Iterator[HostileServer]:
    server = HostileServer().start()
    yield server
    server.stop()
