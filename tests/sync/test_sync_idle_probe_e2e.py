"""A real server on a loopback port is killed while an engine idles (nothing queued, the
periodic reads an hour away): the idle probe alone turns the status offline.

The 45 s bound itself is proved on a fake clock (`test_sync_idle_probe.py`); here the
test only waits for the condition, with a cap generous enough for a loaded machine.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from support.sync_helpers import KEY, SandboxProcess
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

CAP = 90.0


async def until(check, cap: float) -> None:
    deadline = time.monotonic() + cap
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


@pytest.mark.e2e
async def test_an_idle_engine_notices_the_server_was_killed(tmp_path: Path) -> None:
    store = Store(tmp_path / "cache.sqlite3")
    try:
        with SandboxProcess(tmp_path / "sandbox.sqlite3", leads=4) as server:
            async with ServiceClient(server.url, KEY) as client:
                engine = SyncEngine(store, client, refresh_interval=3600, directory_interval=3600, stop_grace=0.5)
                await engine.start()
                try:
                    await until(lambda: store.lead_count() == 4 and engine.status.current.online is True, CAP)
                    # The start's reads are over (the client has heard nothing for 2 s):
                    # from now on, only the probe talks to the server.
                    await until(lambda: client.quiet_for > 2, CAP)
                    server.proc.kill()
                    server.proc.wait()
                    assert engine.status.current.online is True  # nothing has asked yet
                    await until(lambda: engine.status.current.online is False, CAP)
                    # Written to the store (for other processes) just after it flips.
                    await until(lambda: store.sync_status().online is False, CAP)
                    assert "Could not reach the service" in (engine.status.current.last_error or "")
                finally:
                    await engine.stop()
    finally:
        store.close()

