"""Issue 11, item 5: a service that answers a byte at a time is unresponsive, not slow.

Each request has a total deadline and a `run_once` pass a budget; the tests shorten both
(the server drips a byte every 0.2 s, so httpx's per-read timeout never fires) and check
the outcome: offline for reads, ambiguous (reconciled later) for a mutation that may have
arrived. The test's own wait is only capped, never measured."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.hostile_server import Drip, HostileServer, json_reply
from warmline import actions
from warmline.api import ServiceClient
from warmline.api import client as api_client
from warmline.api.errors import OfflineError, UnresponsiveReadError, UnresponsiveSendError
from warmline.cli import main
from warmline.commands import delivery
from warmline.exit_codes import EXIT_OFFLINE
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline

KEY = "hostile-key"
CAP = 60.0  # the most any of these may take before the test itself gives up
DRIP = Drip(every=0.2, length=1_000_000)



async def test_a_dripping_read_ends_at_its_deadline_as_offline(hostile: HostileServer) -> None:
    hostile.on("*", DRIP)
    async with ServiceClient(hostile.url, KEY, deadline=0.5) as client:
        with pytest.raises(UnresponsiveReadError) as info:
            await asyncio.wait_for(client.list_leads(), CAP)
    assert isinstance(info.value, OfflineError) and info.value.retryable
    assert str(info.value) == f"The service at {hostile.url} did not answer GET /v1/outreach/leads within 0.5 s"


async def test_a_dripping_mutation_is_ambiguous_not_lost(hostile: HostileServer) -> None:
    hostile.on("*", DRIP)
    async with ServiceClient(hostile.url, KEY, deadline=0.5) as client:
        with pytest.raises(UnresponsiveSendError) as info:
            await asyncio.wait_for(client.add_note(1, "hello", idempotency_key="op-1"), CAP)
    assert info.value.is_ambiguous and not info.value.retryable
    assert "may or may not have been applied" in str(info.value)


async def test_a_probe_timeout_bounds_the_whole_probe(hostile: HostileServer) -> None:
    hostile.on("/v1/health", DRIP)
    async with ServiceClient(hostile.url, KEY) as client:
        with pytest.raises(UnresponsiveReadError) as info:
            await asyncio.wait_for(client.health(timeout=0.25), CAP)
    assert info.value.deadline == 0.5


async def test_a_send_cut_by_its_deadline_is_ambiguous_and_the_pass_stops_offline(
    hostile: HostileServer, store: Store
) -> None:
    hostile.on("/v1/outreach/leads/1/notes", DRIP)
    first = actions.add_note(store, 1, "one")
    second = actions.log_activity(store, 1, "Called Dana")
    engine = SyncEngine(store, ServiceClient(hostile.url, KEY, deadline=0.5), blocking=run_inline, concurrency=1)
    report = await asyncio.wait_for(engine.flush(), CAP)
    await engine.client.aclose()
    assert report.offline and "within 0.5 s" in (report.offline_error or "")
    assert store.get_op(first).state == "ambiguous"  # reconciled before any resend
    assert store.get_op(second).state == "pending"  # never sent: the pass stopped
    assert engine.status.current.online is False
    assert len(hostile.requests) == 1


async def test_a_pass_ends_within_its_budget_however_the_service_stalls(
    hostile: HostileServer, store: Store
) -> None:
    # The health probe answers; the lead list drips, within its (long) request deadline.
    hostile.on("/v1/health", json_reply({"status": "ok"}))
    hostile.on("/v1/outreach/leads", DRIP)
    engine = SyncEngine(store, ServiceClient(hostile.url, KEY, deadline=30), blocking=run_inline, pass_budget=0.5)
    report = await asyncio.wait_for(engine.run_once(), CAP)
    await engine.client.aclose()
    assert report.offline_error == "The service did not finish answering within the pass's 0.5 s budget"
    assert engine.status.current.online is False


@pytest.fixture
def cli_env(hostile: HostileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WARMLINE_BASE_URL", hostile.url)
    monkeypatch.setenv("WARMLINE_API_KEY", KEY)
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "absent.toml"))
    return tmp_path / "data" / "cache.sqlite3"


def test_sync_once_against_a_dripping_service_ends_offline(
    hostile: HostileServer, cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hostile.on("*", DRIP)
    monkeypatch.setattr(api_client, "REQUEST_DEADLINE", 1.0)
    result = CliRunner().invoke(main, ["sync", "--once"])
    assert result.exit_code == EXIT_OFFLINE, result.output
    assert "did not answer GET /v1/health within 1 s" in result.output
    assert "Traceback" not in result.output


def test_log_against_a_dripping_service_queues_and_returns(
    hostile: HostileServer, cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hostile.on("*", DRIP)
    cli_env.parent.mkdir(parents=True, exist_ok=True)
    store = Store(cli_env)
    store.upsert_leads([{"id": 1, "company_name": "Acme"}])
    store.close()
    monkeypatch.setattr(delivery, "QUICK_TIMEOUT", 0.5)  # the quick send's deadline is twice that
    result = CliRunner().invoke(main, ["log", "1", "Called Dana", "--wait"])  # the send in the foreground
    assert result.exit_code == 0, result.output
    assert "Queued activity on" in result.output and "Delivered" not in result.output
    store = Store(cli_env)
    [op] = store.outbox_rows(("ambiguous", "pending"))
    store.close()
    assert op.state == "ambiguous"  # it may have arrived: reconciled, never sent twice
