"""1,000 queued appends over 50 leads against a sandbox that drops 30% of its answers after
applying the request and fails 20% before, and ignores Idempotency-Key: every append ends
on the server exactly once, in the order queued per lead. Again (200 appends) with this
machine's clock 180 s ahead of and behind the server's (issue #11)."""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from pathlib import Path

import pytest

from support.sync_helpers import KEY, SandboxProcess
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff

LEADS = 50
APPENDS = 1000
SKEWED_APPENDS = 200
DEADLINE = 180.0


class Skewed:
    """This machine's clock `skew` seconds off the server's (which uses the real one)."""

    def __init__(self, skew: float) -> None:
        self.skew = skew

    def __call__(self) -> float:
        return time.time() + self.skew


async def _refresh(engine: SyncEngine) -> None:
    for _ in range(100):  # the faults hit reads too
        if await engine.refresh_leads() == LEADS:
            return
    raise AssertionError("could not read the lead list through the faults")


async def _deliver_all(
    store: Store, url: str, expected: dict[tuple[str, int], list[str]], appends: int = APPENDS, skew: float = 0.0
) -> dict:
    rng = random.Random(11)
    clock = Skewed(skew)
    async with ServiceClient(url, KEY, timeout=10.0, clock=clock, limiter=RateLimiter(clock=clock)) as client:
        engine = SyncEngine(store, client, concurrency=4, rng=rng, backoff=Backoff(base=0.01, cap=0.2, rng=rng),
                            clock=clock)
        await _refresh(engine)
        for index in range(appends):
            lead = index % LEADS + 1
            if index % 2:
                text = f"f1k note {index}"
                store.enqueue("add_note", {"lead_id": lead, "content": text}, lead)
                expected[("notes", lead)].append(text)
            else:
                text = f"f1k activity {index}"
                store.enqueue("log_activity", {"lead_id": lead, "description": text, "contact_id": None}, lead)
                expected[("touchpoints", lead)].append(text)
        started = time.monotonic()
        totals: dict[str, int] = defaultdict(int)
        while store.outbox_counts().queued and time.monotonic() - started < DEADLINE:
            report = await engine.flush(ignore_backoff=True)
            for name in ("delivered", "reconciled", "retrying", "ambiguous", "failed"):
                totals[name] += getattr(report, name)
        return dict(totals)


def _appends_on_server(server: SandboxProcess) -> dict[tuple[str, int], list[str]]:
    """The harness's activities and notes as the server has them, by kind and lead, in order."""
    on_server: dict[tuple[str, int], list[str]] = defaultdict(list)
    for table, column, key in (("outreach_touchpoints", "description", "touchpoints"),
                               ("outreach_notes", "content", "notes")):
        for lead, text in server.rows(table, column):
            if text.startswith("f1k "):
                on_server[(key, lead)].append(text)
    return on_server


@pytest.mark.e2e
def test_thousand_appends_through_drops_and_errors_without_idempotency(tmp_path: Path) -> None:
    expected: dict[tuple[str, int], list[str]] = defaultdict(list)
    faults = ("--faults", "drop=0.3,error=0.2", "--no-idempotency")
    with SandboxProcess(tmp_path / "sandbox.sqlite3", *faults, leads=LEADS) as server:
        store = Store(tmp_path / "cache.sqlite3")
        try:
            totals = asyncio.run(_deliver_all(store, server.url, expected))
            counts = store.outbox_counts()
            assert (counts.queued, counts.failed) == (0, 0), (counts, totals)
        finally:
            store.close()
        # The faults really happened, and reconciliation really had to adopt answers.
        assert totals["delivered"] + totals["reconciled"] == APPENDS
        assert totals["reconciled"] > 50 and totals["retrying"] > 50 and totals["ambiguous"] > 50, totals
        on_server = _appends_on_server(server)
    assert sum(len(v) for v in on_server.values()) == APPENDS
    assert dict(on_server) == dict(expected)  # each once, in order per lead


@pytest.mark.e2e
@pytest.mark.parametrize("skew", [180.0, -180.0], ids=["clock-ahead", "clock-behind"])
def test_appends_through_drops_with_a_skewed_clock(tmp_path: Path, skew: float) -> None:
    expected: dict[tuple[str, int], list[str]] = defaultdict(list)
    faults = ("--faults", "drop=0.3,error=0.2", "--no-idempotency")
    with SandboxProcess(tmp_path / "sandbox.sqlite3", *faults, leads=LEADS) as server:
        store = Store(tmp_path / "cache.sqlite3", clock=Skewed(skew))
        try:
            totals = asyncio.run(_deliver_all(store, server.url, expected, SKEWED_APPENDS, skew))
            counts = store.outbox_counts()
            assert (counts.queued, counts.failed) == (0, 0), (counts, totals)
        finally:
            store.close()
        assert totals["reconciled"] > 10, totals  # answers were lost and adopted
        on_server = _appends_on_server(server)
    assert sum(len(v) for v in on_server.values()) == SKEWED_APPENDS
    assert dict(on_server) == dict(expected)
