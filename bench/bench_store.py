"""Lead-list query speed at 100,000 cached leads (issue 4: median under 5 ms for every
sort and filter). Prints figures; asserts nothing.

    .venv/bin/python bench/bench_store.py [--leads 100000] [--repeat 30]

Builds a throw-away cache of realistic company names (Faker, fixed seed), then times
`Store.lead_page` (200 rows) for every sort x status x filter at offset 0, and at deep
offsets without a filter; and `lead_count` for the same filters, which the list shows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from faker import Faker

from warmline.store import Store

TARGET_MS = 5.0
SORTS = ("score", "gap", "activity")
STATUSES = (None, "cold", "warm")


def build(store: Store, count: int) -> list[str]:
    fake = Faker()
    Faker.seed(4)
    rng = random.Random(4)
    names = [fake.company() for _ in range(count)]
    batch = []
    for lead_id, name in enumerate(names, start=1):
        last = None if rng.random() < 0.1 else f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00.000Z"
        batch.append(
            {
                "id": lead_id,
                "company_id": lead_id,
                "company_name": name,
                "lead_status": rng.choice(("cold", "warm")),
                "warming_score": rng.randint(0, 100),
                "target_score": rng.randint(1, 100),
                "activity_count": rng.randint(0, 40),
                "recommendation_count": rng.randint(0, 5),
                "monitoring_active": rng.random() < 0.5,
                "last_activity_at": last,
            }
        )
        if len(batch) == 5000:
            store.upsert_leads(batch)
            batch = []
    if batch:
        store.upsert_leads(batch)
    return names


def median_ms(call, repeat: int) -> float:
    call()  # warm the page cache once
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def page_ms(store: Store, repeat: int, **query: object) -> list[float]:
    """Median time of one lead_page query, for each sort."""
    return [median_ms(lambda sort=sort: store.lead_page(sort=sort, **query), repeat) for sort in SORTS]


def filters(names: list[str]) -> list[tuple[str, str]]:
    """Filters a rep would type: prefixes of 1-2 letters, common and rare substrings, none."""
    rare = names[len(names) // 3].split()[0].lower()
    return [
        ("none", ""),
        ("1-letter prefix", "s"),
        ("2-letter prefix", "wi"),
        ("common substring", "son"),
        ("rare substring", rare[:6]),
        ("whole name", names[len(names) // 2].lower()),
        ("no match", "qzxv"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.sqlite3")
        started = time.perf_counter()
        names = build(store, args.leads)
        print(f"built {args.leads:,} leads in {time.perf_counter() - started:.1f} s")
        worst = 0.0
        print(f"\nlead_page, 200 rows, median of {args.repeat} (target < {TARGET_MS} ms)")
        print(f"{'filter':<18} {'text':<22} {'status':<6} " + " ".join(f"{s:>9}" for s in SORTS) + "  matches")
        for label, text in filters(names):
            for status in STATUSES:
                figures = page_ms(store, args.repeat, status=status, text=text)
                worst = max(worst, *figures)
                count = store.lead_count(status, text)
                print(f"{label:<18} {text[:22]!r:<22} {status or 'all':<6} "
                      + " ".join(f"{f:>7.2f}ms" for f in figures) + f"  {count:>7,}")
        print("\ndeep offsets, no filter")
        for status in STATUSES:
            total = store.lead_count(status)
            for offset in (total // 4, total // 2, total - 200):
                figures = page_ms(store, args.repeat, status=status, offset=offset)
                worst = max(worst, *figures)
                print(f"{status or 'all':<6} offset {offset:>7,} " + " ".join(f"{f:>7.2f}ms" for f in figures))
        print("\nlead_count (uncached: each filter counted fresh)")
        for label, text in filters(names):
            def fresh(text: str = text) -> int:
                store._counts.clear()
                return store.lead_count("cold", text)

            print(f"{label:<18} cold {median_ms(fresh, args.repeat):>7.2f}ms")
        print(f"\nslowest lead_page median: {worst:.2f} ms (target {TARGET_MS} ms, ratio {worst / TARGET_MS:.2f})")
        store.close()


if __name__ == "__main__":
    main()
