"""First-start data: the company database, research templates, and a demo organization.

Everything is drawn from one RNG seeded with `--seed`, so two sandboxes started with the
same seed hold the same data. Seeding runs once per database (a marker row records it);
a restart on the same `--db` keeps whatever changed since.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime, timedelta

from warmline_sandbox import (
    companies,
    contact_search,
    contacts,
    deep_search,  # noqa: F401  (registers the deep search's finisher)
    directory,
    jobs,
    research,
)
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.demo_meta import DEEP_SEARCH_META
from warmline_sandbox.outreach import seed_outreach
from warmline_sandbox.records import ensure_field
from warmline_sandbox.settings import SandboxSettings

SCHEMA = """
CREATE TABLE IF NOT EXISTS sandbox_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

EXTRA_SAVED_COMPANIES = 15
"""Saved companies beyond those in outreach, so the demo can add new leads."""
DEMO_TAGS = ("priority", "q1-target", "partner", "event-lead", "inbound", "expansion")
DEMO_DEEP_SEARCH = "food producers in Germany"
"""The query of the deep search the seed finishes shortly before the first start."""
DEMO_DEEP_SEARCH_RESULTS = 8


def is_seeded(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sandbox_meta WHERE key = 'seeded'").fetchone() is not None


def seed_database(conn: sqlite3.Connection, settings: SandboxSettings, now: datetime) -> bool:
    """Seed a new database (in the caller's transaction); False if it was seeded before."""
    if is_seeded(conn):
        return False
    rng = random.Random(settings.seed)
    pools = directory.name_pools(settings.seed)
    directory.seed_directory(conn, settings.companies, rng, pools)
    research.seed_templates(conn, now)
    seed_saved_companies(conn, settings.leads + EXTRA_SAVED_COMPANIES, rng, pools, now)
    seed_outreach(conn, settings, rng, now=now)
    seed_finished_deep_search(conn, now)
    conn.execute("INSERT INTO sandbox_meta (key, value) VALUES ('seeded', ?)", (now.isoformat(),))
    conn.execute("INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES ('seed', ?)", (str(settings.seed),))
    return True


def seed_finished_deep_search(conn: sqlite3.Connection, now: datetime) -> int:
    """A deep search started 50 minutes before `now` that finished 5 minutes later, through
    the job's own finisher (its companies are saved and tagged as a live one's). After the
    outreach seed, so its companies do not become demo leads. Returns the job's id, also
    kept under `DEEP_SEARCH_META`: `warmline demo` polls it on its first start, as a job
    started elsewhere, so its Today has a finished job to announce."""
    clock = ManualClock(now - timedelta(minutes=50))
    job = jobs.create_job(
        conn, "deep_search", None, {"query": DEMO_DEEP_SEARCH, "max_results": DEMO_DEEP_SEARCH_RESULTS},
        now=clock.now(), seconds=300,
    )
    clock.advance(300)
    jobs.finish_due(conn, clock, ("deep_search",))
    conn.execute(
        "INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES (?, ?)", (DEEP_SEARCH_META, str(job["id"]))
    )
    return int(job["id"])


def seed_saved_companies(
    conn: sqlite3.Connection, count: int, rng: random.Random, pools: directory.NamePools, now: datetime
) -> list[int]:
    """Save `count` database companies as if a rep had found them, with contacts and research."""
    total = conn.execute("SELECT COUNT(*) FROM directory").fetchone()[0]
    picks = rng.sample(range(1, total + 1), k=min(count, total))
    icp = research.get_template(conn, research.template_id_for("ICP fit"))
    saved = []
    for entry_id in picks:
        entry = directory.get_entry(conn, entry_id)
        assert entry is not None
        when = now - timedelta(days=rng.randint(5, 120), minutes=rng.randint(0, 600))
        fields = {name: entry[name] for name in companies.PROFILE_FIELDS}
        fields["tags"] = rng.sample(DEMO_TAGS, k=rng.randint(0, 2))
        company = companies.create_company(conn, fields, now=when, api_key=None, source=rng.choice(("lookup", "deep_search")))
        saved.append(company["id"])
        _seed_contacts(conn, company, rng, pools, when)
        if icp is not None and rng.random() < 0.4:
            values = {f["key"]: research.field_value(f, company, rng, when) for f in icp["fields"]}
            companies.update_company(conn, company["id"], {"custom_fields": values}, now=when)
    if icp is not None:
        for field in icp["fields"]:
            ensure_field(conn, companies.FIELDS_TABLE, field["key"], field["name"], field["type"])
    return saved


def _seed_contacts(
    conn: sqlite3.Connection, company: dict, rng: random.Random, pools: directory.NamePools, when: datetime
) -> None:
    domain = company.get("domain") or "example.com"
    for role in rng.sample(contact_search.ROLES, k=rng.randint(2, 3)):
        first, last = rng.choice(pools.first_names), rng.choice(pools.last_names)
        slug = f"{first}-{last}".lower().replace(" ", "-")
        contacts.create_contact(
            conn,
            {
                "company_id": company["id"],
                "first_name": first,
                "last_name": last,
                "title": rng.choice(contact_search.TITLES[role]),
                "role": role,
                "email": f"{slug.replace('-', '.')}@{domain}",
                "social_url": f"https://www.linkedin.com/in/{slug}-{rng.randrange(16**4):04x}",
            },
            now=when,
            api_key=None,
        )
