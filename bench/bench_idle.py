"""Idle traffic of the sync engine (issue 10, "Honest connection state"): requests a minute
while the cockpit idles online, by kind. Prints figures; asserts nothing.

    .venv/bin/python bench/bench_idle.py [--minutes 30] [--leads 60] [--companies 50000]

The engine runs against the sandbox in-process (the demo's data: 60 leads, 50,000
companies), both on one simulated clock: the jobs that `SyncEngine.start()` schedules
(whatever they are, with their own intervals) are run as APScheduler would run them, so
30 minutes of idling take seconds. Nothing is queued and no job runs: every request is
the engine's own (the start's reads, the periodic refreshes, the idle probe).
Goal: at most 4 requests a minute once the start's reads are done.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import httpx

from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline_sandbox.app import create_app
from warmline_sandbox.settings import SandboxSettings

KEY = "bench-key"
GOAL = 4.0
KINDS = (
    ("probe", r"^/v1/health$"),
    ("lead list", r"^/v1/outreach/leads$"),
    ("lead recommendations", r"^/v1/outreach/leads/\d+/recommendations$"),
    ("lead notes", r"^/v1/outreach/leads/\d+/notes$"),
    ("lead detail", r"^/v1/outreach/leads/\d+$"),
    ("directory", r"^/v1/(companies|contacts|research|templates)"),
)


class SimClock:
    """Epoch seconds for the store, client and engine; `now()` for the sandbox."""

    def __init__(self) -> None:
        self.t = 1_795_000_000.0

    def __call__(self) -> float:
        return self.t

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.t, UTC)

    async def sleep(self, seconds: float) -> None:
        self.t += max(0.0, seconds)


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport, clock: SimClock) -> None:
        self.inner = inner
        self.clock = clock
        self.log: list[tuple[float, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.log.append((self.clock(), request.url.path))
        return await self.inner.handle_async_request(request)


def kind_of(path: str) -> str:
    return next((kind for kind, pattern in KINDS if re.search(pattern, path)), f"other ({path})")


async def idle(clock: SimClock, transport: Counting, store: Store, seconds: float) -> tuple[dict[str, float], bool]:
    """Run the engine's scheduled jobs for `seconds` of simulated time; returns their
    intervals and whether the status was online at the end."""
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=clock) as client:
        rng = random.Random(5)
        engine = SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)
        await engine.start()
        assert engine.scheduler is not None
        engine.scheduler.pause()  # the jobs run below, on the simulated clock
        jobs = [(job.id, job.func, job.trigger.interval.total_seconds()) for job in engine.scheduler.get_jobs()]
        next_at = {job_id: clock() for job_id, _, _ in jobs}
        end = clock() + seconds
        while clock() < end:
            for job_id, func, interval in jobs:
                if clock() >= next_at[job_id]:
                    await func()
                    while next_at[job_id] <= clock():  # a run that took long: coalesced
                        next_at[job_id] += interval
            clock.t = max(clock(), min(next_at.values()))
        online = engine.status.current.online
        await engine.stop()
    return {job_id: interval for job_id, _, interval in jobs}, online is True


def report(log: list[tuple[float, str]], started: float, minutes: int, settle: float) -> None:
    def per_minute(since: float, until: float) -> tuple[Counter[str], list[int], float]:
        kinds: Counter[str] = Counter()
        buckets = [0] * max(1, round((until - since) / 60))
        for at, path in log:
            if since <= at < until:
                kinds[kind_of(path)] += 1
                buckets[min(len(buckets) - 1, int((at - since) // 60))] += 1
        return kinds, buckets, (until - since) / 60

    end = started + minutes * 60
    for title, since in (("whole run, the start included", started), (f"idle, after the first {settle / 60:.0f} min", started + settle)):
        kinds, buckets, span = per_minute(since, end)
        total = sum(kinds.values())
        print(f"\n{title}: {span:.0f} min, {total} requests, {total / span:.2f} a minute"
              f" (busiest minute {max(buckets)}, goal <= {GOAL:.0f} a minute once idle)")
        for kind, count in kinds.most_common():
            print(f"  {kind:<24} {count:>6}  {count / span:6.2f} / min")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--leads", type=int, default=60)
    parser.add_argument("--companies", type=int, default=50_000)
    args = parser.parse_args()
    clock = SimClock()
    with tempfile.TemporaryDirectory() as tmp:
        settings = SandboxSettings(
            db_path=Path(tmp) / "sandbox.sqlite3", api_keys=[KEY], seed=42, companies=args.companies,
            leads=args.leads, job_seconds=20.0,
        )
        app = create_app(settings, clock=clock)
        transport = Counting(httpx.ASGITransport(app=app), clock)
        store = Store(Path(tmp) / "cache.sqlite3", clock=clock)
        started = clock()
        try:
            intervals, online = asyncio.run(idle(clock, transport, store, args.minutes * 60))
        finally:
            store.close()
            app.state.db.close()
    print(f"idle engine, {args.minutes} simulated minutes, {args.leads} leads, {args.companies} companies")
    print("jobs (interval, s): " + ", ".join(f"{k} {v:g}" for k, v in intervals.items()))
    print(f"online at the end: {online}")
    report(transport.log, started, args.minutes, settle=intervals.get("refresh", 300.0))


if __name__ == "__main__":
    main()
