"""Today's read model at 10,000 cached leads with their activities (issue 15). Prints
figures; asserts nothing.

    .venv/bin/python bench/bench_today.py [--leads 10000] [--activities 20] [--repeat 30] [--cache PATH]

Builds a throw-away cache: every lead with its detail (`--activities` touchpoints each,
2 recommendations), half of them warm, scores around their targets; 50 finished jobs and
5 failed ops. Then times `today_page` (one read of every section) against what the lead
list reads for its first paint (`lead_page` of 200 rows and `lead_count`), each the
median of `--repeat` runs after one warm-up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

from warmline.store import Store
from warmline.store.clock import iso
from warmline.store.today import today_page

NOW = datetime(2026, 11, 18, 8, 55, tzinfo=timezone(timedelta(hours=1)))


def build(store: Store, count: int, activities: int) -> None:
    rng = random.Random(15)
    now = NOW.timestamp()
    for lead_id in range(1, count + 1):
        touchpoints = []
        for n in range(activities):
            at = now - rng.uniform(0, 120 * 86400)
            touchpoints.append(
                {"id": lead_id * 1000 + n, "description": f"activity {n}", "detected_type": "call",
                 "contact_id": None, "bonus_points": rng.randint(1, 12), "created_at": iso(at)}
            )  # fmt: skip
        target = rng.randint(30, 90)
        store.upsert_lead_detail(
            {
                "id": lead_id,
                "company_id": lead_id,
                "company_name": f"Company {lead_id}",
                "lead_status": rng.choice(("cold", "warm")),
                "warming_score": max(0, min(100, target + rng.randint(-20, 10))),
                "target_score": target,
                "activity_count": activities,
                "recommendation_count": 2,
                "monitoring_active": False,
                "last_activity_at": max((t["created_at"] for t in touchpoints), default=None),
                "created_at": "2026-01-01T09:00:00.000Z",
                "touchpoints": touchpoints,
                "recommendations": [
                    {
                        "id": lead_id * 10 + n,
                        "lead_id": lead_id,
                        "action_type": "comment",
                        "target_url": f"https://example.com/{lead_id}/{n}",
                        "priority": rng.choice(("high", "medium", "low")),
                        "status": "active",
                        "created_at": iso(now - 86400),
                    }
                    for n in range(2)
                ],  # fmt: skip
            }
        )
    for n in range(50):
        store.record_job("deep_search", f"job-{n}", {"status": "completed", "companies": [],
                         "completed_at": iso(now - rng.uniform(0, 3 * 86400))})  # fmt: skip
    for n in range(5):
        op = store.enqueue("add_note", {"lead_id": n + 1, "content": "note"}, lead_id=n + 1)
        store.mark_failed(op, "Outreach lead not found")


def median_ms(
    call: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    call()
    samples = []
    for _ in range(repeat):
        start = clock()
        call()
        samples.append((clock() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--leads", type=int, default=10_000)
    parser.add_argument("--activities", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument(
        "--cache", type=Path, help="build the cache here and keep it; reused when it exists"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.cache or Path(tmp) / "cache.sqlite3"
        built = path.exists()
        store = Store(path, clock=NOW.timestamp)
        if not built:
            started = time.perf_counter()
            build(store, args.leads, args.activities)
            print(
                f"built {args.leads} leads x {args.activities} activities in {time.perf_counter() - started:.1f} s"
            )
        page = today_page(store, NOW)
        print(
            f"today: {len(page.finished_jobs)} jobs, {len(page.ready_leads)} ready, "
            f"{len(page.going_cold)} of {page.going_cold_total} going cold, "
            f"{page.recommendations.total} recommendations, {len(page.failed_ops)} failed ops"
        )
        today = median_ms(lambda: today_page(store, NOW), args.repeat)
        leads = median_ms(
            lambda: (store.lead_page(sort="score", limit=200), store.lead_count()), args.repeat
        )
        cpu = median_ms(lambda: today_page(store, NOW), args.repeat, time.process_time)
        print(
            f"today_page: {today:.1f} ms median ({cpu:.1f} ms CPU); lead list first page + count: {leads:.1f} ms"
        )
        store.close()


if __name__ == "__main__":
    main()
