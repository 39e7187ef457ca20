"""Prefetch figures (issue 10, "every lead readable offline"). Prints figures and ratios;
asserts nothing.

    .venv/bin/python bench/bench_prefetch.py [--leads 10000] [--limit 3000] [--window 20]
                                             [--actions 6] [--db PATH]

A sandbox on loopback (its own process) holds `--leads` leads and allows `--limit`
requests per `--window` seconds (default 3000 per 20 s: 150 requests a
second, so the prefetch's half is 75 a second, below what one sandbox process serves to
two requests in flight, so the rate limit, not the machine, sets the pace).

1. A first sync (lead list, recommendations, directory), as a first run without prefetch
   would leave the cache: every lead listed, no detail. Then a wait for a fresh window.
2. The cockpit's engine is started as the cockpit starts it; its refresh job reads the list and runs the prefetch. Measured: time
   from start to every lead's detail cached, requests spent on details and notes, against
   the minimum the rate limit allows under the half-budget rule:
   - requests: 2 a lead (detail + notes) is the minimum;
   - time: with `B = limit // 2` requests of each window for the prefetch and `R` requests
     needed, the throughput bound is `R / B * window`, and since the last window's share
     is spent in a burst, `(ceil(R / B) - 1) * window` is a lower bound; both are printed
     with their ratios (goal: at most 1.1 x).
3. Meanwhile, the rep logs `--actions` activities spread over the prefetch (in bursts and
   in the waits for a window's reset); each is queued and the engine woken, as the
   cockpit does. Measured: time from queueing to delivered (goal: within 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from sandbox_process import Sandbox

from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

KEY = "bench-prefetch"
_LEAD_PATH = re.compile(r"^/v1/outreach/leads/\d+(/notes|/recommendations|/touchpoints)?$")


class Counting(httpx.AsyncBaseTransport):
    """Counts requests by kind: lead detail, notes, recommendations, touchpoints, other."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.counts: Counter[str] = Counter()
        self.status: Counter[int] = Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        match = _LEAD_PATH.match(request.url.path)
        kind = "other" if match is None else (match.group(1) or "/detail").lstrip("/")
        self.counts[f"{request.method} {kind}"] += 1
        response = await self.inner.handle_async_request(request)
        self.status[response.status_code] += 1
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


async def first_sync(store: Store, url: str) -> None:
    started = time.perf_counter()
    async with ServiceClient(url, KEY, max_rate_wait=None) as client:
        engine = SyncEngine(store, client)
        await engine.refresh_leads()
        # Until every lead's recommendations are in: a 429 (the client's count of the window
        # drifts when answers cross) ends one round of the queue, and the next resumes.
        while store.leads_needing_recommendations():
            await engine.refresh_recommendations()
        await engine.refresh_directory()
        reset_at = client.limiter.reset_at
    cached, total = store.detail_coverage()
    print(f"   first sync (list, recommendations, directory): {time.perf_counter() - started:.1f} s; "
          f"{total:,} leads, {cached:,} with their detail")
    if reset_at is not None and reset_at > time.time():
        await asyncio.sleep(reset_at - time.time() + 0.2)  # the measured part starts on a fresh window


async def rep_actions(store: Store, engine: SyncEngine, lead_ids: list[int], count: int, every: float,
                      latencies: list[float]) -> None:
    """Log `count` activities, one every `every` seconds (with jitter), each woken at once."""
    rng = random.Random(7)
    for n in range(count):
        await asyncio.sleep(every * (0.6 + 0.8 * rng.random()))
        lead = rng.choice(lead_ids)
        queued = time.perf_counter()
        op_id = store.enqueue("log_activity", {"lead_id": lead, "description": f"Bench call {n}: she wants a demo",
                                               "contact_id": None}, lead)
        engine.wake()
        while store.get_op(op_id).state != "done":
            if time.perf_counter() - queued > 60:
                print(f"   activity {n}: not delivered after 60 s (state {store.get_op(op_id).state})")
                break
            await asyncio.sleep(0.01)
        latencies.append(time.perf_counter() - queued)


async def prefetch_pass(store: Store, server: Sandbox, args: argparse.Namespace) -> None:
    url = server.url
    transport = Counting()
    lead_ids = [row.id for row in store.lead_page(limit=args.leads)]
    needed = len(store.leads_needing_detail())
    async with ServiceClient(url, KEY, transport=transport) as client:
        engine = SyncEngine(store, client)
        started = time.perf_counter()
        await engine.start()
        budget = args.limit // 2
        expected = 2 * needed / budget * args.window
        latencies: list[float] = []
        rep = asyncio.create_task(
            rep_actions(store, engine, lead_ids, args.actions, expected / (args.actions + 1), latencies)
        )
        done_at = None
        while done_at is None:
            await asyncio.sleep(0.5)
            server.check()
            cached, total = store.detail_coverage()
            if cached >= total:
                done_at = time.perf_counter() - started
        await rep
        await engine.stop()
    counts = transport.counts
    details, notes = counts["GET detail"], counts["GET notes"]
    print(f"   leads needing their detail at start: {needed:,}; cached at the end: {cached:,} of {total:,}")
    print(f"   requests by kind: {dict(sorted(counts.items()))}; statuses {dict(transport.status)}")
    minimum_requests = 2 * needed
    print(f"   prefetch requests (detail + notes): {details + notes:,} vs minimum {minimum_requests:,} "
          f"-> RATIO {(details + notes) / minimum_requests:.3f}")
    # Our own activities change their leads' lines: those leads are read again, as they should.
    throughput_bound = minimum_requests / budget * args.window
    window_bound = (math.ceil(minimum_requests / budget) - 1) * args.window
    print(f"   time to every lead's detail: {done_at:.1f} s")
    print(f"   minimum under the half-budget rule ({budget:,} requests per {args.window:g} s window): "
          f"throughput bound {throughput_bound:.1f} s -> RATIO {done_at / throughput_bound:.3f}")
    if window_bound:
        print(f"   lower bound, last window's share in one burst: {window_bound:.1f} s "
              f"-> RATIO {done_at / window_bound:.3f}")
    if latencies:
        print(f"   rep's activities during the prefetch: {len(latencies)}, queued to delivered: "
              f"median {statistics.median(latencies):.3f} s, worst {max(latencies):.3f} s (goal <= 2 s)")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--leads", type=int, default=10_000)
    parser.add_argument("--limit", type=int, default=3000, help="requests per window")
    parser.add_argument("--window", type=float, default=20.0, help="seconds")
    parser.add_argument("--actions", type=int, default=6, help="activities the rep logs during the prefetch")
    parser.add_argument("--db", type=Path, default=None, help="keep the seeded sandbox here (seeding takes a while)")
    args = parser.parse_args()
    print(f"Prefetch of {args.leads:,} leads; sandbox rate limit {args.limit:,} requests per {args.window:g} s")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "sandbox.sqlite3"
        seeding = time.perf_counter()
        options = ("--companies", str(max(200, args.leads + args.leads // 5)), "--leads", str(args.leads),
                   "--rate-limit", f"{args.limit}/{args.window:g}", "--job-seconds", "20")
        with Sandbox(db, KEY, *options, log=Path(tmp) / "sandbox.log") as server:
            print(f"   sandbox ready in {time.perf_counter() - seeding:.1f} s")
            store = Store(Path(tmp) / "cache.sqlite3")
            try:
                print("\n1. first sync")
                await first_sync(store, server.url)
                print("\n2-3. the cockpit's engine: refresh, prefetch, the rep's activities")
                await prefetch_pass(store, server, args)
            finally:
                store.close()


if __name__ == "__main__":
    asyncio.run(main())
