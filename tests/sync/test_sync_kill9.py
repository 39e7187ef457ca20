"""Kill -9 harness: a process flushing the outbox is SIGKILLed at random moments.

One sandbox server process (without idempotency support, so only our claim and
reconciliation can prevent duplicates) serves every cycle. Each cycle forks a flusher
(a real process, so SIGKILL cuts it anywhere: mid-request, mid-commit), queues more
actions from this process meanwhile, and kills the flusher after a random delay. At the
end one clean flush delivers the rest; every action must be on the server exactly once,
in order per lead, and the cache file must pass SQLite's integrity check.

The harness runs again (fewer cycles) with this machine's clock 180 s ahead of and behind
the server's (issue #11): reconciliation must learn the offset from the answers.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import time
from collections import defaultdict
from pathlib import Path

import pytest

from support.sync_helpers import KEY, SandboxProcess
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

CYCLES = 200
OPS_PER_CYCLE = 3
LEADS = range(1, 11)
SKEWED_CYCLES = 40
SEED = 20261122


class Skewed:
    """This machine's clock `skew` seconds off the server's (which uses the real one)."""

    def __init__(self, skew: float) -> None:
        self.skew = skew

    def __call__(self) -> float:
        return time.time() + self.skew


def _client(url: str, skew: float, timeout: float = 10.0) -> ServiceClient:
    clock = Skewed(skew)
    return ServiceClient(url, KEY, timeout=timeout, clock=clock, limiter=RateLimiter(clock=clock))


def _flush_forever(db_path: str, url: str, seed: int, skew: float) -> None:
    """The victim: recover, then flush in a loop until killed."""

    async def main() -> None:
        store = Store(db_path, clock=Skewed(skew))
        store.recover_after_crash()
        async with _client(url, skew, timeout=5.0) as client:
            engine = SyncEngine(store, client, concurrency=4, rng=random.Random(seed), clock=Skewed(skew))
            while True:
                await engine.flush(ignore_backoff=True)
                await asyncio.sleep(0.002)

    asyncio.run(main())


async def _prepare(db_path: Path, url: str, skew: float) -> None:
    store = Store(db_path, clock=Skewed(skew))
    async with _client(url, skew) as client:
        assert await SyncEngine(store, client, clock=Skewed(skew)).refresh_leads() == len(LEADS)
    store.close()


async def _drain(db_path: Path, url: str, skew: float) -> Store:
    store = Store(db_path, clock=Skewed(skew))
    store.recover_after_crash()
    async with _client(url, skew) as client:
        engine = SyncEngine(store, client, clock=Skewed(skew))
        for _ in range(50):
            await engine.flush(ignore_backoff=True)
            if store.outbox_counts().queued == 0:
                break
    return store


def _wait_for_progress(db_path: Path, done_before: int, cap: float = 20.0) -> None:
    """Until the victim has delivered something (or has nothing left to do): the kill must
    cut real work however slowly a loaded machine runs it, not an idle process."""
    store = Store(db_path)
    try:
        deadline = time.monotonic() + cap
        while time.monotonic() < deadline:
            done = store.scalar("SELECT count(*) FROM outbox WHERE state = 'done'")
            if done > done_before or store.outbox_counts().queued == 0:
                return
            time.sleep(0.002)
    finally:
        store.close()


def _done(db_path: Path) -> int:
    store = Store(db_path)
    try:
        return store.scalar("SELECT count(*) FROM outbox WHERE state = 'done'")
    finally:
        store.close()


def _queue(db_path: Path, rng: random.Random, number: int, expected: dict, skew: float) -> None:
    store = Store(db_path, clock=Skewed(skew))
    for index in range(number):
        lead = rng.choice(LEADS)
        if rng.random() < 0.5:
            text = f"k9 activity {number}-{index}-{rng.random():.6f}"
            store.enqueue("log_activity", {"lead_id": lead, "description": text, "contact_id": None}, lead)
            expected[("touchpoints", lead)].append(text)
        else:
            text = f"k9 note {number}-{index}-{rng.random():.6f}"
            store.enqueue("add_note", {"lead_id": lead, "content": text}, lead)
            expected[("notes", lead)].append(text)
    store.close()


@pytest.mark.e2e
def test_kill_minus_nine_loses_nothing_and_duplicates_nothing(tmp_path: Path) -> None:
    _harness(tmp_path, CYCLES, 0.0)


@pytest.mark.e2e
@pytest.mark.parametrize("skew", [180.0, -180.0], ids=["clock-ahead", "clock-behind"])
def test_kill_minus_nine_with_a_skewed_clock_loses_nothing_and_duplicates_nothing(tmp_path: Path, skew: float) -> None:
    _harness(tmp_path, SKEWED_CYCLES, skew)


def _harness(tmp_path: Path, cycles: int, skew: float) -> None:
    rng = random.Random(SEED)
    db_path = tmp_path / "cache.sqlite3"
    expected: dict[tuple[str, int], list[str]] = defaultdict(list)
    fork = multiprocessing.get_context("fork")
    with SandboxProcess(tmp_path / "sandbox.sqlite3", "--no-idempotency", leads=len(LEADS)) as server:
        asyncio.run(_prepare(db_path, server.url, skew))
        _queue(db_path, rng, 30, expected, skew)
        kills = 0
        for cycle in range(cycles):
            done_before = _done(db_path)
            victim = fork.Process(target=_flush_forever, args=(str(db_path), server.url, cycle, skew), daemon=True)
            victim.start()
            _queue(db_path, rng, OPS_PER_CYCLE, expected, skew)  # another writer while it flushes
            _wait_for_progress(db_path, done_before)
            time.sleep(rng.uniform(0.0, 0.04))  # then a random moment: mid-request, mid-commit...
            victim.kill()  # SIGKILL
            victim.join(10)
            kills += victim.exitcode == -9
        assert kills == cycles, f"only {kills} of {cycles} flushers died by SIGKILL"
        total = sum(len(v) for v in expected.values())
        before = Store(db_path)
        delivered_by_victims = before.scalar("SELECT count(*) FROM outbox WHERE state = 'done'")
        before.close()
        assert delivered_by_victims > total // 4  # the kills cut real work, not idle processes
        store = asyncio.run(_drain(db_path, server.url, skew))
        try:
            assert store.integrity_check() == "ok"
            # Some sends were applied but cut before their answer was recorded: adopted, not resent.
            assert store.scalar("SELECT count(*) FROM outbox WHERE json_extract(result, '$.reconciled')") > 0
            counts = store.outbox_counts()
            assert (counts.queued, counts.failed) == (0, 0)
            assert store.scalar("SELECT count(*) FROM outbox WHERE state = 'done'") == total
        finally:
            store.close()
        on_server: dict[tuple[str, int], list[str]] = defaultdict(list)
        for table, column, key in (("outreach_touchpoints", "description", "touchpoints"),
                                   ("outreach_notes", "content", "notes")):
            for lead, text in server.rows(table, column):
                if text.startswith("k9 "):
                    on_server[(key, lead)].append(text)
        # Exactly once, in the order queued, for every lead and kind.
        assert dict(on_server) == dict(expected)
