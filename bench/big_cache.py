"""A big cache for the benchmarks of issue 24 (the week in review, search): 10,000 leads
with 500,000 activities and 100,000 notes over a year, seeded in seconds.

    from big_cache import build_big_cache
    build_big_cache(path, now=NOW)            # the sizes of issue 24
    build_big_cache(path, now=NOW, leads=1000, activities=50_000, notes=10_000)

The cache is made by `Store` (so it has every migration and trigger), then filled with
`executemany` straight into its tables, as a sync would leave them: every lead with its
snapshot, activities and notes with their server ids, half the leads warm, some deals won
or lost; and an outbox as a rep's year leaves it (status changes, recommendations done
and dismissed, deal values; most delivered, a few still pending). Deterministic for a
`seed`. The triggers that keep `last_touched_at` (and the name index) run as rows go in,
as they do in use.
"""

from __future__ import annotations

import json
import random
import sqlite3
import uuid
from datetime import datetime
from pathlib import Path

from warmline.store import Store
from warmline.store.clock import iso

TYPES = ("call", "email", "meeting", "professional_network_message", "comment", "like", "follow", "share")
WORDS = ["pricing", "budget", "demo", "contract", "renewal", "pilot", "security", "review", "onboarding", "CFO", "CTO", "SOC2", "integration", "timeline", "procurement", "legal", "champion", "roadmap", "expansion", "hiring", "board", "quarter", "signed", "proposal"]
DAY = 86400.0


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def build_big_cache(
    path: Path,
    *,
    now: datetime,
    leads: int = 10_000,
    activities: int = 500_000,
    notes: int = 100_000,
    days: int = 365,
    ops: int = 5_000,
    pending: int = 50,
    seed: int = 24,
) -> None:
    """Fill a new cache at `path` (it must not exist) with `leads` leads, `activities`
    activities and `notes` notes spread over the `days` days before `now`, and `ops` ops
    in the outbox (`pending` of them not yet delivered)."""
    rng = random.Random(seed)
    Store(path).close()  # the schema, every migration and trigger
    end = now.timestamp()
    start = end - days * DAY
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=OFF")
        with conn:
            _leads(conn, rng, leads, start, end)
            _touchpoints(conn, rng, leads, activities, start, end)
            _notes(conn, rng, leads, notes, start, end)
            _outbox(conn, rng, leads, ops, pending, start, end)
        conn.execute("ANALYZE")
    finally:
        conn.close()


def _leads(conn: sqlite3.Connection, rng: random.Random, count: int, start: float, end: float) -> None:
    rows, snapshots = [], []
    for lead_id in range(1, count + 1):
        name = f"{rng.choice(('Nord', 'Alp', 'Fjord', 'Kestrel', 'Lumen', 'Orbit'))}{lead_id} {rng.choice(('AB', 'GmbH', 'Oy', 'Ltd'))}"
        target = rng.randint(40, 90)
        score = max(0, min(100, target + rng.randint(-40, 15)))
        status = "warm" if lead_id % 2 else "cold"
        value = currency = won = closed = None
        if status == "warm" and rng.random() < 0.2:
            value, currency = float(rng.randrange(1_000, 200_000, 500)), rng.choice(("EUR", "USD", "SEK"))
            if rng.random() < 0.3:
                won = iso(rng.uniform(start, end))
            elif rng.random() < 0.3:
                closed = iso(rng.uniform(start, end))
        created = iso(start - rng.uniform(0, 60 * DAY))
        rows.append((lead_id, lead_id, name, name.lower(), status, score, target, value, currency, won, closed,
                     created))  # fmt: skip
        snapshots.append((lead_id, json.dumps({"id": lead_id, "company_name": name, "lead_status": status,
                                               "warming_score": score, "target_score": target})))  # fmt: skip
    conn.executemany(
        "INSERT INTO leads (id, company_id, company_name, name_lower, lead_status, warming_score, target_score,"
        " deal_value, deal_currency, won_at, closed_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    conn.executemany("INSERT INTO lead_snapshots (id, raw) VALUES (?, ?)", snapshots)


def _touchpoints(conn: sqlite3.Connection, rng: random.Random, leads: int, count: int, start: float, end: float) -> None:
    batch = []
    for touch_id in range(1, count + 1):
        at = iso(rng.uniform(start, end))
        batch.append((touch_id, rng.randint(1, leads), _text(rng, 8), rng.choice(TYPES), rng.randint(1, 6), at))
        if len(batch) == 50_000:
            _insert_touchpoints(conn, batch)
            batch = []
    _insert_touchpoints(conn, batch)
    # The lead list's line: each lead's count and last activity, as the service gives them.
    conn.execute(
        "UPDATE leads SET activity_count = (SELECT count(*) FROM touchpoints t WHERE t.lead_id = leads.id),"
        " last_activity_at = (SELECT max(created_at) FROM touchpoints t WHERE t.lead_id = leads.id)"
    )


def _insert_touchpoints(conn: sqlite3.Connection, batch: list[tuple[object, ...]]) -> None:
    conn.executemany(
        "INSERT INTO touchpoints (id, lead_id, description, detected_type, bonus_points, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        batch,
    )


def _notes(conn: sqlite3.Connection, rng: random.Random, leads: int, count: int, start: float, end: float) -> None:
    conn.executemany(
        "INSERT INTO notes (id, lead_id, content, created_at) VALUES (?, ?, ?, ?)",
        ((note_id, rng.randint(1, leads), _text(rng, 30), iso(rng.uniform(start, end)))
         for note_id in range(1, count + 1)),
    )  # fmt: skip


def _outbox(
    conn: sqlite3.Connection, rng: random.Random, leads: int, count: int, pending: int, start: float, end: float
) -> None:
    rows = []
    for n in range(count):
        lead_id = rng.randint(1, leads)
        kind = rng.choice(("change_lead_status", "complete_recommendation", "dismiss_recommendation", "update_deal"))
        if kind == "change_lead_status":
            payload: dict[str, object] = {"lead_id": lead_id, "lead_status": rng.choice(("warm", "cold"))}
        elif kind == "update_deal":
            payload = {"lead_id": lead_id, "deal_value": float(rng.randrange(1_000, 90_000, 500)),
                       "deal_currency": rng.choice(("EUR", "USD"))}  # fmt: skip
        else:
            payload = {"lead_id": lead_id, "recommendation_id": 1_000_000 + n}
        at = rng.uniform(start, end) if n >= pending else end - rng.uniform(0, 2 * DAY)
        state = "pending" if n < pending else "done"
        rows.append((uuid.UUID(int=rng.getrandbits(128)).hex, kind, lead_id, json.dumps(payload), state,
                     iso(at), at, iso(at)))  # fmt: skip
    rows.sort(key=lambda row: row[5])
    conn.executemany(
        "INSERT INTO outbox (op_id, kind, lead_id, payload, state, created_at, next_attempt_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
