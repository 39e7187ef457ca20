"""What a hostile service costs the client (issue 11, items 1, 5 and 7; issue 21, items 3
and 4). Prints figures; asserts nothing.

    .venv/bin/python bench/bench_hostile.py [--cap 90] [--case NAME ...] [--appends 30]

Each case runs in its own child process against the hostile test server
(tests/support/hostile_server.py) on loopback, so its peak memory (`ru_maxrss`) is its own:

- retry-after: a 429 with `Retry-After: 99999999999`: how long the client then holds.
- reset-5000: a 200 with `X-RateLimit-Remaining: 0` and a reset in year 5000.
- reset-1e400: a 200 with `X-RateLimit-Reset: 1e400`.
- drip: the lead list answered with headers, then one byte every 2 s; the client's
  defaults; the case gives up after `--cap` seconds.
- huge: a single 480 MB (valid JSON) lead list; huge-chunked: the same without a
  Content-Length (the client cannot refuse it before reading).
- deep: a JSON answer nested 100,000 deep.
- pages: the lead-list refresh against a list claiming 10^6 pages of 200 leads.

The outbox cases run `warmline sandbox --no-idempotency` in a process of its own and
deliver `--appends` activities over 5 leads (answers lost, so only reconciliation keeps
them single), then count them on the server:
- clock+2d / clock-2d: this client's clock (store, client, engine) two days ahead of or
  behind the service's, faults `drop=0.3,error=0.2`;
- gateway: faults `gateway=0.3`: a third of the requests (reads too) applied, then
  answered by a proxy's 504 page.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.hostile_server import Drip, HostileServer, Huge, endless_pages, json_reply, nested_json  # noqa: E402
from support.sync_helpers import KEY, SandboxProcess  # noqa: E402
from warmline.api import RateLimiter, ServiceClient  # noqa: E402
from warmline.store import Store  # noqa: E402
from warmline.sync import SyncEngine  # noqa: E402
from warmline.sync.backoff import Backoff  # noqa: E402
from warmline.sync.blocking import run_inline  # noqa: E402
from warmline.sync.refresh import Refresher  # noqa: E402

DAY = 86_400.0
OUTBOX_CASES = {  # name: (this client's clock minus the service's, the sandbox's faults)
    "clock+2d": (2 * DAY, "drop=0.3,error=0.2"),
    "clock-2d": (-2 * DAY, "drop=0.3,error=0.2"),
    "gateway": (0.0, "gateway=0.3"),
}
CASES = ("retry-after", "reset-5000", "reset-1e400", "drip", "huge", "huge-chunked", "deep", "pages", *OUTBOX_CASES)
YEAR = 365.25 * 86400
LEADS = "/v1/outreach/leads"
OUTBOX_LEADS = 5


def _lead(n: int) -> dict[str, Any]:
    return {"id": n + 1, "company_id": n + 1, "company_name": f"Company {n + 1}", "lead_status": "cold"}


def _outcome(exc: BaseException | None) -> str:
    if exc is None:
        return "answered"
    line = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {line[:90]}"


async def _case(name: str, server: HostileServer, cap: float) -> dict[str, Any]:
    result: dict[str, Any] = {}
    if name in ("retry-after", "reset-5000", "reset-1e400"):
        headers = {
            "retry-after": {"Retry-After": "99999999999"},
            "reset-5000": {"X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "95617584000"},
            "reset-1e400": {"X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1e400"},
        }[name]
        status = 429 if name == "retry-after" else 200
        server.on(LEADS, json_reply({"data": [], "pagination": {"page": 1, "total_pages": 1}}, status, headers))
    elif name == "drip":
        server.on(LEADS, Drip(every=2.0, length=10_000_000))
    elif name in ("huge", "huge-chunked"):
        server.on(LEADS, Huge(size=480 * 1024 * 1024, item=json.dumps(_lead(0)).encode(), chunked=name == "huge-chunked"))
    elif name == "deep":
        server.on(LEADS, nested_json(100_000))
    elif name == "pages":
        server.on(LEADS, endless_pages(_lead, total_pages=1_000_000))
    started = time.monotonic()
    error: BaseException | None = None
    async with ServiceClient(server.url, "bench-key") as client:
        try:
            if name == "pages":
                with tempfile.TemporaryDirectory() as tmp:
                    store = Store(Path(tmp) / "cache.sqlite3")
                    try:
                        await asyncio.wait_for(Refresher(store, client, blocking=run_inline).leads(), cap)
                        result["cached leads"] = store.scalar("SELECT count(*) FROM leads")
                    finally:
                        store.close()
            else:
                await asyncio.wait_for(client.list_leads(None, 1, 200), cap)
        except TimeoutError:
            result["gave up"] = f"still waiting after the {cap:.0f} s cap"
        except BaseException as exc:  # noqa: BLE001 - the point is to see what escapes
            error = exc
        result["seconds"] = round(time.monotonic() - started, 1)
        result["outcome"] = _outcome(error) if "gave up" not in result else result["gave up"]
        state = client.limiter.state()
        if state.blocked_until is not None or client.limiter.delay() > 0:
            wait = client.limiter.delay()
            result["client holds for"] = f"{wait:.0f} s ({wait / YEAR:,.0f} years)" if wait > YEAR else f"{wait:.0f} s"
    result["requests"] = len(server.requests)
    result["peak RSS MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return result


class _Skewed:
    """This process's clock `skew` seconds off the service's (as `faketime` would make it)."""

    def __init__(self, skew: float) -> None:
        self.skew = skew

    def __call__(self) -> float:
        return time.time() + self.skew


async def _deliver(url: str, store: Store, clock: _Skewed, appends: int, cap: float) -> dict[str, Any]:
    """Queue `appends` activities over the leads and flush until none is queued (or `cap`)."""
    rng = random.Random(21)
    totals: Counter[str] = Counter()
    async with ServiceClient(url, KEY, timeout=10.0, clock=clock, limiter=RateLimiter(clock=clock)) as client:
        engine = SyncEngine(store, client, concurrency=4, rng=rng, backoff=Backoff(base=0.01, cap=0.2, rng=rng),
                            clock=clock, blocking=run_inline)
        started = time.monotonic()
        while await engine.refresh_leads() != OUTBOX_LEADS and time.monotonic() - started < cap:
            pass  # the faults hit the lead list too
        for index in range(appends):
            lead = index % OUTBOX_LEADS + 1
            store.enqueue("log_activity", {"lead_id": lead, "description": f"hostile {index}", "contact_id": None}, lead)
        while store.outbox_counts().queued and time.monotonic() - started < cap:
            report = await engine.flush(ignore_backoff=True)
            totals.update({name: getattr(report, name) for name in ("delivered", "reconciled", "ambiguous", "retrying")})
        return {
            **{name: totals[name] for name in ("delivered", "reconciled", "ambiguous", "retrying")},
            "left queued": store.outbox_counts().queued,
            "seconds": round(time.monotonic() - started, 1),
            "server clock": client.server_clock.distrust() or "trusted",
        }


def _outbox_case(name: str, appends: int, cap: float) -> dict[str, Any]:
    """Appends through the sandbox's faults without idempotency: duplicates on the server."""
    skew, faults = OUTBOX_CASES[name]
    with tempfile.TemporaryDirectory() as tmp, SandboxProcess(
        Path(tmp) / "sandbox.sqlite3", "--faults", faults, "--no-idempotency", leads=OUTBOX_LEADS
    ) as server:
        clock = _Skewed(skew)
        store = Store(Path(tmp) / "cache.sqlite3", clock=clock)
        try:
            result = asyncio.run(_deliver(server.url, store, clock, appends, cap))
        finally:
            store.close()
        texts = [text for _, text in server.rows("outreach_touchpoints", "description") if text.startswith("hostile ")]
    counts = Counter(texts)
    return {
        "activities": appends,
        "on the server": len(texts),
        "duplicates": sum(n - 1 for n in counts.values()),
        "missing": appends - len(counts),
        **result,
    }


def _child(name: str, cap: float, appends: int) -> None:
    if name in OUTBOX_CASES:
        print(json.dumps(_outbox_case(name, appends, cap)))
        return
    server = HostileServer(lifetime=cap + 60).start()
    try:
        print(json.dumps(asyncio.run(_case(name, server, cap))))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cap", type=float, default=90.0, help="seconds a case may take")
    parser.add_argument("--case", action="append", choices=CASES)
    parser.add_argument("--appends", type=int, default=30, help="activities of the outbox cases")
    parser.add_argument("--child", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.cap, args.appends)
        return
    for name in args.case or CASES:
        done = subprocess.run([sys.executable, __file__, "--child", name, "--cap", str(args.cap),
                               "--appends", str(args.appends)], capture_output=True, text=True, timeout=args.cap + 120)
        lines = done.stdout.strip().splitlines()
        figures = json.loads(lines[-1]) if lines else {"crashed": done.stderr.strip().splitlines()[-1:]}
        print(f"{name:12} " + "; ".join(f"{key}: {value}" for key, value in figures.items()), flush=True)


if __name__ == "__main__":
    main()
