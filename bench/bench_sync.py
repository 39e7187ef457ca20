"""Sync engine figures (issue 4, "Performance"). Prints figures and ratios; asserts nothing.

    .venv/bin/python bench/bench_sync.py [--ops 1000] [--leads 50] [--jobs 100] [--skip-store]

1. Flush throughput: 1,000 queued touchpoints over 50 leads delivered by the sync engine
   to a sandbox on loopback, against a bare httpx loop sending the same 1,000 requests
   with the same concurrency, in the same run (target: flush <= 1.25 x bare).
2. Job polling: 100 running deep searches watched by the engine's scheduler; requests per
   job per 5 s (target <= 1) and how long after a job is due its completion is noticed
   (target <= 10 s).
3. The lead-page query at 100,000 cached leads, from bench/bench_store.py (target: median
   under 5 ms for every sort and filter).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

import httpx
from sandbox_process import Sandbox

from warmline.api import ServiceClient
from warmline.store import Store
from warmline.store.clock import epoch_of
from warmline.sync import SyncEngine

KEY = "bench-key"
HERE = Path(__file__).resolve().parent


def sandbox(tmp: Path, leads: int, job_seconds: float) -> Sandbox:
    options = ("--companies", "200", "--leads", str(leads), "--rate-limit", "10000000/60",
               "--job-seconds", str(job_seconds))
    return Sandbox(tmp / "sandbox.sqlite3", KEY, *options)


# --- 1. flush vs a bare loop -------------------------------------------------------------------


async def bare_loop(url: str, requests: list[tuple[int, str]], concurrency: int) -> float:
    """The same POSTs, `concurrency` at a time, with nothing around them."""
    queue: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
    for item in requests:
        queue.put_nowait(item)
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {KEY}"}) as http:

        async def worker() -> None:
            while not queue.empty():
                lead, text = queue.get_nowait()
                response = await http.post(
                    f"/v1/outreach/leads/{lead}/touchpoints",
                    json={"description": text},
                    headers={"Idempotency-Key": uuid.uuid4().hex},
                )
                response.raise_for_status()

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - started


async def engine_flush(store: Store, url: str, requests: list[tuple[int, str]], concurrency: int) -> float:
    for lead, text in requests:
        store.enqueue("log_activity", {"lead_id": lead, "description": text, "contact_id": None}, lead)
    async with ServiceClient(url, KEY) as client:
        engine = SyncEngine(store, client, concurrency=concurrency)
        started = time.perf_counter()
        while store.outbox_counts().queued:
            await engine.flush()
        elapsed = time.perf_counter() - started
    return elapsed


async def bench_flush(ops: int, leads: int, concurrency: int, rounds: int) -> None:
    print(f"\n1. flush {ops:,} queued touchpoints over {leads} leads, concurrency {concurrency}")
    with tempfile.TemporaryDirectory() as tmp, sandbox(Path(tmp), leads, 20) as server:
        store = Store(Path(tmp) / "cache.sqlite3")
        async with ServiceClient(server.url, KEY) as client:
            await SyncEngine(store, client).refresh_leads()
        lead_ids = [row.id for row in store.lead_page(limit=leads)]
        bare_times, flush_times = [], []
        for round_no in range(rounds):
            batch = [(lead_ids[i % len(lead_ids)], f"bench r{round_no} call {i}") for i in range(ops)]
            bare_times.append(await bare_loop(server.url, [(lead, t + " bare") for lead, t in batch], concurrency))
            flush_times.append(await engine_flush(store, server.url, batch, concurrency))
            print(f"   round {round_no + 1}: bare loop {bare_times[-1]:.2f} s, engine flush {flush_times[-1]:.2f} s "
                  f"(ratio {flush_times[-1] / bare_times[-1]:.2f})")
        store.close()
    best_bare, best_flush = min(bare_times), min(flush_times)
    print(f"   best: bare {best_bare:.2f} s ({ops / best_bare:,.0f} req/s), flush {best_flush:.2f} s "
          f"({ops / best_flush:,.0f} ops/s)")
    print(f"   RATIO flush / bare = {best_flush / best_bare:.2f} (target <= 1.25)")


# --- 2. job polling ------------------------------------------------------------------------------


class CountingTransport(httpx.AsyncBaseTransport):
    """Counts polls per job path, with their times."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.polls: dict[str, list[float]] = defaultdict(list)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and "/deep-search/" in request.url.path:
            self.polls[request.url.path].append(time.monotonic())
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def max_in_window(times: list[float], window: float) -> int:
    best, start = 0, 0
    for end in range(len(times)):
        while times[end] - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


async def bench_jobs(jobs: int, job_seconds: float) -> None:
    print(f"\n2. polling {jobs} running deep searches (each takes {job_seconds:.0f} s on the sandbox)")
    with tempfile.TemporaryDirectory() as tmp, sandbox(Path(tmp), 5, job_seconds) as server:
        store = Store(Path(tmp) / "cache.sqlite3")
        transport = CountingTransport()
        async with ServiceClient(server.url, KEY, transport=transport) as client:
            engine = SyncEngine(store, client, flush_interval=3600, refresh_interval=3600)
            for i in range(jobs):
                store.enqueue("start_deep_search", {"query": f"software companies {i}", "max_results": 1})
            await engine.flush()
            started = time.monotonic()
            await engine.start()
            deadline = started + job_seconds + 30
            while time.monotonic() < deadline and store.jobs(active_only=True):
                await asyncio.sleep(0.5)
            await engine.stop()
            watched = time.monotonic() - started
        rows = store.jobs(limit=jobs * 2)
        store.close()
    done = [j for j in rows if j.status == "completed"]
    lags = []
    for job in done:
        created, completed = epoch_of(job.created_at), epoch_of(job.completed_at)
        if created is not None and completed is not None:
            lags.append(completed - created - job_seconds)
    polls = transport.polls
    per_job_window = max((max_in_window(t, 5.0) for t in polls.values()), default=0)
    total = sum(len(t) for t in polls.values())
    rate = total / max(1, len(polls)) / (watched / 5.0)
    print(f"   {len(done)} of {jobs} completed; watched {watched:.1f} s; {total} polls")
    print(f"   requests per job per 5 s: average {rate:.2f}, worst 5 s window {per_job_window} (target <= 1)")
    if lags:
        print(f"   completion noticed after it was due: median {statistics.median(lags):.1f} s, "
              f"worst {max(lags):.1f} s (target <= 10 s)")


# --- 3. the lead page ----------------------------------------------------------------------------


def bench_store(leads: int) -> None:
    print(f"\n3. lead page at {leads:,} cached leads (bench/bench_store.py)")
    out = subprocess.run(
        [sys.executable, str(HERE / "bench_store.py"), "--leads", str(leads), "--repeat", "15"],
        capture_output=True, text=True, check=False,
    )
    lines = [line for line in out.stdout.splitlines() if line.strip()]
    summary = [line for line in lines if line.startswith(("built", "slowest"))]
    for line in summary or lines[-3:] or [out.stderr.strip()[-300:]]:
        print(f"   {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=1000)
    parser.add_argument("--leads", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=100)
    parser.add_argument("--job-seconds", type=float, default=12.0)
    parser.add_argument("--store-leads", type=int, default=100_000)
    parser.add_argument("--skip-store", action="store_true", help="Skip the lead-page figure.")
    args = parser.parse_args()
    asyncio.run(bench_flush(args.ops, args.leads, args.concurrency, args.rounds))
    asyncio.run(bench_jobs(args.jobs, args.job_seconds))
    if not args.skip_store:
        bench_store(args.store_leads)


if __name__ == "__main__":
    main()
