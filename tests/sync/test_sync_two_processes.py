"""Two processes writing one cache at once: the CLI (`warmline log` / `note`, each queueing
and then delivering) and a flush-and-refresh loop in another process. No "database is
locked", no lost row, and every action on the server exactly once."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.sync_helpers import KEY, SandboxProcess
from warmline.api import ServiceClient
from warmline.cli import main
from warmline.store import Store
from warmline.sync import SyncEngine

INVOCATIONS = 40


def _flush_loop(db_path: str, url: str) -> None:
    async def run() -> None:
        store = Store(db_path)
        async with ServiceClient(url, KEY) as client:
            engine = SyncEngine(store, client, rng=random.Random(2))
            while True:
                await engine.flush(ignore_backoff=True)
                await engine.refresh_leads()

    asyncio.run(run())


@pytest.mark.e2e
def test_cli_and_flush_loop_write_the_same_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    with SandboxProcess(tmp_path / "sandbox.sqlite3", "--no-idempotency", leads=5) as server:
        for name, value in {"WARMLINE_DATA_DIR": str(data), "WARMLINE_BASE_URL": server.url,
                            "WARMLINE_API_KEY": KEY, "WARMLINE_CONFIG": str(tmp_path / "none.toml")}.items():
            monkeypatch.setenv(name, value)
        runner = CliRunner()
        first = runner.invoke(main, ["sync", "--once"])
        assert first.exit_code == 0, first.output
        db_path = data / "cache.sqlite3"
        loop = multiprocessing.get_context("fork").Process(target=_flush_loop, args=(str(db_path), server.url))
        loop.start()
        texts = []
        try:
            for index in range(INVOCATIONS):
                lead = str(index % 5 + 1)
                text = f"two-proc {index}"
                texts.append((int(lead), text))
                # --wait: the command sends too, so two senders compete for the same ops.
                command = ["log", lead, text, "--wait"] if index % 2 else ["note", lead, text, "--wait"]
                result = runner.invoke(main, command)
                assert result.exit_code == 0, result.output
                assert "locked" not in result.output.lower()
        finally:
            loop.kill()
            loop.join(10)
        assert loop.exitcode == -9  # it was still running, never crashed on a lock
        final = runner.invoke(main, ["sync", "--once"])
        assert final.exit_code == 0, final.output
        store = Store(db_path)
        try:
            assert store.integrity_check() == "ok"
            ops = store.outbox_rows(("pending", "in_flight", "ambiguous", "failed", "done"))
            mine = [op for op in ops if (op.payload.get("description") or op.payload.get("content") or "").startswith("two-proc")]
            assert len(mine) == INVOCATIONS  # no lost row
            assert {op.state for op in mine} == {"done"}
        finally:
            store.close()
        on_server = [
            text for table, column in (("outreach_touchpoints", "description"), ("outreach_notes", "content"))
            for _lead, text in server.rows(table, column) if text.startswith("two-proc")
        ]
    assert sorted(on_server) == sorted(text for _, text in texts)
