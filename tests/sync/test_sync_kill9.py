"""Kill -9 harness: a process flushing the outbox is SIGKILLed at random moments.

One sandbox server process (without idempotency support, so only our claim and
reconciliation can prevent duplicates) serves every cycle. Each cycle forks a flusher
(a real process, so SIGKILL cuts it anywhere: mid-request, mid-commit), queues more
actions from this process meanwhile, waits until the flusher has delivered something
(however slowly a loaded machine runs it), and kills it after a further random delay. At
the end one clean flush delivers the rest; every action must be on the server exactly once,
in order per lead, and the cache file must pass SQLite's integrity check.

Nothing here assumes a speed: the harness measures what each kill cut (sends the dead
flusher left in flight) and runs more cycles, up to a cap, until enough kills landed
mid-send and some send cut after the server applied it was adopted.

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
SKEWED_CYCLES = 40
MORE_CYCLES = 3  # at most this many times the cycles asked, while too few kills cut a send
MID_SEND_SHARE = 10  # kills that leave sends in flight: at least a tenth of the cycles asked
OPS_PER_CYCLE = 8
"""Actions queued beside each victim: enough that it is still sending when killed. With 3, a
fast loopback finished them within a few ms of the first delivery, so most kills found it
idle (4% mid-send, 500 cycles to reach the tenth asked, near the cap of 600); with 8, 89%."""
LEADS = range(1, 11)
SEED = 20261122
WAIT_CAP = 120.0  # seconds a flusher may take to deliver its first action: a hung one, not a slow one


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


def _wait_for_delivery(db_path: Path, done_before: int) -> bool:
    """Until the victim has delivered something (True) or has nothing left to send (False):
    the kill must cut a process at work, however slowly a loaded machine runs it."""
    store = Store(db_path)
    try:
        deadline = time.monotonic() + WAIT_CAP
        while time.monotonic() < deadline:
            if _count(store, "state = 'done'") > done_before:
                return True
            if store.outbox_counts().queued == 0:
                return False
            time.sleep(0.002)
    finally:
        store.close()
    pytest.fail(f"a flusher delivered nothing in {WAIT_CAP:.0f} s")


def _count(store: Store, where: str) -> int:
    return store.scalar(f"SELECT count(*) FROM outbox WHERE {where}")


def _measure(db_path: Path, where: str) -> int:
    store = Store(db_path)
    try:
        return _count(store, where)
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
@pytest.mark.timeout(1200)  # a bound for a hung harness: 200 cycles take about a minute quiet
def test_kill_minus_nine_loses_nothing_and_duplicates_nothing(tmp_path: Path) -> None:
    _harness(tmp_path, CYCLES, 0.0)


@pytest.mark.e2e
@pytest.mark.timeout(600)
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
        kills = at_work = mid_send = cycle = 0
        wanted = cycles // MID_SEND_SHARE
        # `cycles` kills at least; more while too few of them cut a send or none was adopted yet.
        while cycle < cycles or (
            cycle < MORE_CYCLES * cycles
            and (mid_send < wanted or _measure(db_path, "json_extract(result, '$.reconciled')") == 0)
        ):
            done_before = _measure(db_path, "state = 'done'")
            victim = fork.Process(target=_flush_forever, args=(str(db_path), server.url, cycle, skew), daemon=True)
            victim.start()
            _queue(db_path, rng, OPS_PER_CYCLE, expected, skew)  # another writer while it flushes
            at_work += _wait_for_delivery(db_path, done_before)
            time.sleep(rng.uniform(0.0, 0.04))  # then a random moment: mid-request, mid-commit...
            victim.kill()  # SIGKILL
            victim.join(10)
            kills += victim.exitcode == -9
            mid_send += _measure(db_path, "state = 'in_flight'") > 0  # its claims, cut
            cycle += 1
        assert kills == cycle, f"only {kills} of {cycle} flushers died by SIGKILL"
        # The kills cut real work, not idle processes: each victim had delivered something
        # (or had nothing left to send), and enough of them died with sends in flight.
        assert at_work > 0 and mid_send >= wanted, (
            f"{cycle} kills: {at_work} of the victims at work, {mid_send} mid-send")
        total = sum(len(v) for v in expected.values())
        store = asyncio.run(_drain(db_path, server.url, skew))
        try:
            assert store.integrity_check() == "ok"
            # Some sends were applied but cut before their answer was recorded: adopted, not resent.
            assert _count(store, "json_extract(result, '$.reconciled')") > 0
            counts = store.outbox_counts()
            assert (counts.queued, counts.failed) == (0, 0)
            assert _count(store, "state = 'done'") == total
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
