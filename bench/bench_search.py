"""Search everywhere at 10,000 leads, 500,000 activities and 100,000 notes (issue 24).
Prints figures; asserts nothing.

    .venv/bin/python bench/bench_search.py [--leads 10000] [--activities 500000] [--notes 100000]

1. Builds a cache as the version before search wrote it (every migration before
   `_search_indexes`), in one transaction of `executemany`: leads (a fifth with a deal),
   their activities and notes as sentences of a sales vocabulary, 20,000 recommendations,
   2,000 companies and 5,000 contacts; and 2,000 follow-ups in their own file.
2. Opens it with `Store`: the migration builds every word index. Its time is printed.
3. Types realistic queries one keystroke at a time and times what the search screen runs
   for each (`search_everything`, every kind, 20 hits each): median and p95 over every
   keystroke of every query, and the slowest; twice (right after the migration, then
   again with the pages in memory, as after a few searches).
4. The write cost of the triggers: `actions.log_activity` (validate, apply locally, queue,
   one transaction) timed with the activity index's triggers and without them (dropped
   on the same cache, then made again), in alternating rounds; the difference of the
   medians is what a queued activity pays.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from warmline.actions.leads import log_activity
from warmline.store import Store
from warmline.store.database import Database
from warmline.store.followups import FollowUps
from warmline.store.schema import MIGRATIONS, migrate
from warmline.store.search import search_everything

WORDS = [
    "call",
    "email",
    "meeting",
    "demo",
    "pricing",
    "proposal",
    "contract",
    "renewal",
    "budget",
    "approved",
    "security",
    "review",
    "soc",
    "audit",
    "compliance",
    "procurement",
    "legal",
    "cfo",
    "cto",
    "ceo",
    "vp",
    "head",
    "of",
    "sales",
    "marketing",
    "operations",
    "finance",
    "it",
    "team",
    "follow",
    "up",
    "next",
    "week",
    "friday",
    "monday",
    "quarter",
    "q1",
    "q2",
    "q3",
    "q4",
    "pilot",
    "trial",
    "integration",
    "api",
    "onboarding",
    "training",
    "support",
    "invoice",
    "discount",
    "license",
    "seats",
    "expansion",
    "hiring",
    "office",
    "launch",
    "funding",
    "round",
    "partner",
    "reseller",
    "competitor",
    "switch",
    "migration",
    "timeline",
    "decision",
    "stakeholder",
    "champion",
    "blocker",
    "risk",
    "concern",
    "question",
    "answer",
    "sent",
    "deck",
    "case",
    "study",
    "reference",
    "customer",
    "visit",
    "conference",
    "webinar",
    "linkedin",
    "post",
    "comment",
    "liked",
    "shared",
    "article",
    "newsletter",
    "event",
    "booth",
    "dinner",
    "lunch",
    "coffee",
    "intro",
    "warm",
    "cold",
    "referral",
    "inbound",
    "outbound",
    "voicemail",
    "left",
    "message",
    "callback",
    "scheduled",
    "rescheduled",
    "cancelled",
    "confirmed",
    "agenda",
    "notes",
    "summary",
    "action",
    "items",
    "owner",
    "deadline",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "gdansk",
    "münchen",
    "zürich",
    "malmö",
]
NAMES = [
    "Kestrel",
    "Northwind",
    "Fjord",
    "Dental",
    "Lumen",
    "Orbit",
    "Granite",
    "Harbor",
    "Quartz",
    "Sable",
    "Nordlys",
    "Baltic",
    "Aurora",
    "Cobalt",
    "Delta",
    "Ember",
    "Falcon",
    "Glacier",
    "Helix",
    "Iris",
    "Juniper",
    "Krypton",
    "Lynx",
    "Meridian",
    "Nimbus",
    "Onyx",
    "Pioneer",
]
SUFFIXES = (
    "Analytics",
    "Logistics",
    "Freight AB",
    "GmbH",
    "Health Oy",
    "Payments",
    "Builders",
    "Foods",
    "Robotics",
)
QUERIES = (
    "cfo soc",
    "pricing proposal",
    "kestrel",
    '"security review"',
    "budget appr",
    "procurement",
    "kind:note renewal",
    "zürich",
    "follow up friday",
    "champion blocker",
    "gdansk office",
    "won deal",
)


def sentence(rng: random.Random, low: int = 6, high: int = 16) -> str:
    return " ".join(rng.choices(WORDS, k=rng.randint(low, high))).capitalize()


def company_name(rng: random.Random, n: int) -> str:
    return f"{rng.choice(NAMES)} {rng.choice(SUFFIXES)} {n}"


def stamp(rng: random.Random) -> str:
    return f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}T{rng.randint(8, 18):02d}:00:00.000Z"


def build(path: Path, leads: int, activities: int, notes: int) -> None:
    """The cache as the version before search wrote it, filled in one transaction."""
    rng = random.Random(24)
    before = next(i for i, m in enumerate(MIGRATIONS) if m.__name__ == "_search_indexes")
    db = Database(path)
    migrate(db.conn, MIGRATIONS[:before])
    conn = db.conn
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO leads (id, company_id, company_name, name_lower, lead_status, warming_score, target_score,"
        " deal_value, deal_currency, won_at, closed_at, closed_reason, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            (i, i, name, name.lower(), rng.choice(("cold", "warm")), rng.randint(0, 100), 60,
             *((rng.randint(5, 500) * 1000, rng.choice(("EUR", "USD", "SEK")),
                stamp(rng) if rng.random() < 0.3 else None, None, None) if rng.random() < 0.2 else (None,) * 5),
             "2026-01-01T09:00:00.000Z")
            for i in range(1, leads + 1)
            for name in [company_name(rng, i)]
        ),
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO lead_snapshots (id, raw) VALUES (?, '{}')", ((i,) for i in range(1, leads + 1))
    )
    conn.executemany(
        "INSERT INTO touchpoints (id, lead_id, description, detected_type, bonus_points, created_at)"
        " VALUES (?,?,?,?,?,?)",
        ((n, rng.randint(1, leads), sentence(rng), "call", rng.randint(1, 12), stamp(rng)) for n in range(1, activities + 1)),
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO notes (id, lead_id, content, created_at) VALUES (?,?,?,?)",
        ((n, rng.randint(1, leads), sentence(rng, 8, 40), stamp(rng)) for n in range(1, notes + 1)),
    )
    conn.executemany(
        "INSERT INTO recommendations (id, lead_id, engagement_reason, suggested_comment, status, created_at)"
        " VALUES (?,?,?,?,'active',?)",
        ((n, rng.randint(1, leads), sentence(rng, 4, 10), sentence(rng, 8, 20), stamp(rng)) for n in range(1, 20_001)),
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO companies (id, name, name_lower, search_text, domain, industry, country) VALUES (?,?,?,?,?,?,?)",
        (
            (n, name, name.lower(), name.lower(), f"{name.split()[0].lower()}{n}.example",
             rng.choice(("Software", "Logistics", "Healthcare")), rng.choice(("Sweden", "Germany", "Poland")))
            for n in range(1, 2_001)
            for name in [company_name(rng, n)]
        ),
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO contacts (id, company_id, first_name, last_name, name_lower, search_text, email, title)"
        " VALUES (?,?,?,?,?,?,?,?)",
        (
            (n, rng.randint(1, 2000), first, last, f"{first} {last}".lower(), "", f"{first.lower()}@x{n}.example",
             rng.choice(("CFO", "Head of Procurement", "VP Sales", "CTO", "IT Security Lead")))
            for n in range(1, 5_001)
            for first, last in [(rng.choice(("Dana", "Ingrid", "Lars", "Mia")), rng.choice(("Berg", "Ruiz", "Nowak")))]
        ),
    )  # fmt: skip
    conn.execute("COMMIT")
    db.close()
    with FollowUps(path.parent) as followups, followups.conn as kept:  # one transaction
        kept.executemany(
            "INSERT INTO followups (lead_id, company, text, source, due, created_at, updated_at)"
            " VALUES (?, ?, ?, 'manual', '2026-12-01', '2026-11-01T09:00:00+00:00', '2026-11-01T09:00:00+00:00')",
            (
                (rng.randint(1, leads), company_name(rng, n), sentence(rng, 4, 10))
                for n in range(2_000)
            ),
        )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def keystrokes(store: Store, followups: FollowUps) -> list[tuple[float, float, str]]:
    """Milliseconds per keystroke of every query, typed one character at a time: the
    wall-clock time, the CPU time of this process (what the query costs, whatever else
    the machine runs), and the text searched."""
    times = []
    search_everything(store, followups, "warm up")
    for query in QUERIES:
        for end in range(1, len(query) + 1):
            wall, cpu = time.perf_counter(), time.process_time()
            search_everything(store, followups, query[:end])
            times.append(
                (
                    (time.perf_counter() - wall) * 1000,
                    (time.process_time() - cpu) * 1000,
                    query[:end],
                )
            )
    return times


def write_cost(store: Store, count: int) -> float:
    """Median milliseconds of one `log_activity`."""
    times = []
    for n in range(count):
        started = time.perf_counter()
        log_activity(store, 1 + n % 100, f"Called about the pricing proposal, attempt {n}")
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def insert_cost(store: Store, count: int = 2_000) -> float:
    """Microseconds per touchpoint row inserted in one transaction (no commit's fsync in
    it): what the triggers add to the write itself."""
    rng = random.Random(7)
    rows = [(1 + n % 100, sentence(rng), stamp(rng)) for n in range(count)]
    with store.write() as conn:
        started = time.perf_counter()
        conn.executemany(
            "INSERT INTO touchpoints (lead_id, description, created_at) VALUES (?, ?, ?)", rows
        )
        return (time.perf_counter() - started) * 1e6 / count


def write_costs(store: Store, count: int, rounds: int = 4) -> tuple[float, float]:
    """Median `log_activity` time with the activity index's triggers and without them,
    in alternating rounds (the disk's pace drifts while a bench runs)."""
    triggers = [
        str(row[0])
        for row in store.conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'search_activities_%'"
        )
    ]
    with_index, without, rows_with, rows_without = [], [], [], []
    for _ in range(rounds):
        with_index.append(write_cost(store, count))
        rows_with.append(insert_cost(store))
        for trigger in ("insert", "update", "delete"):
            store.conn.execute(f"DROP TRIGGER search_activities_{trigger}")
        without.append(write_cost(store, count))
        rows_without.append(insert_cost(store))
        for sql in triggers:
            store.conn.execute(sql)
    print(f"one touchpoint row inserted: {statistics.median(rows_with):.1f} µs with the word index,"
          f" {statistics.median(rows_without):.1f} µs without")  # fmt: skip
    return statistics.median(with_index), statistics.median(without)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=10_000)
    parser.add_argument("--activities", type=int, default=500_000)
    parser.add_argument("--notes", type=int, default=100_000)
    parser.add_argument("--writes", type=int, default=500)
    parser.add_argument(
        "--keep", type=Path, default=None, help="build in this (empty) directory and keep it"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = (args.keep or Path(tmp)) / "cache.sqlite3"
        path.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        build(path, args.leads, args.activities, args.notes)
        print(f"built {args.leads} leads, {args.activities} activities, {args.notes} notes in "
              f"{time.perf_counter() - started:.1f} s ({path.stat().st_size / 2**20:.0f} MiB)")  # fmt: skip
        started = time.perf_counter()
        store = Store(path)
        print(f"migration (every word index built): {time.perf_counter() - started:.1f} s "
              f"({path.stat().st_size / 2**20:.0f} MiB after)")  # fmt: skip
        followups = FollowUps(path.parent)
        for run in ("first pass (pages read from disk)", "second pass (pages cached)"):
            typed = keystrokes(store, followups)
            wall, cpu = [t[0] for t in typed], [t[1] for t in typed]
            print(f"keystroke to results, {run}, {len(typed)} keystrokes of {len(QUERIES)} queries:\n"
                  f"  wall median {statistics.median(wall):.1f} ms, p95 {percentile(wall, 0.95):.1f} ms;"
                  f" CPU median {statistics.median(cpu):.1f} ms, p95 {percentile(cpu, 0.95):.1f} ms")  # fmt: skip
            slowest = sorted(typed, reverse=True)[:4]
            print(
                "  slowest (wall): " + ", ".join(f"{text!r} {ms:.1f} ms" for ms, _, text in slowest)
            )
        with_index, without = write_costs(store, args.writes)
        print(f"log_activity: {with_index:.3f} ms with the word index, {without:.3f} ms without: "
              f"{with_index - without:+.3f} ms per queued activity")  # fmt: skip
        followups.close()
        store.close()


if __name__ == "__main__":
    main()
