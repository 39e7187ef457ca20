"""Contact search: an async job that finds people at a saved company.

The real service does web research; the sandbox invents 3-10 plausible people per search
(decision-makers, champions, influencers), deterministically from the seed and the job.
Found people are kept with the job; adding them copies them into the permanent contact
list, one unit of contact capacity each, skipping duplicates and what the plan refuses.
"""

from __future__ import annotations

import random
import re
import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox import companies, contacts, jobs, quotas
from warmline_sandbox.clock import Clock
from warmline_sandbox.directory import name_pools
from warmline_sandbox.errors import ApiError

SCHEMA = """
CREATE TABLE IF NOT EXISTS search_contacts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    company_id INTEGER,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    title TEXT NOT NULL,
    role TEXT NOT NULL,
    email TEXT NOT NULL,
    social_url TEXT NOT NULL,
    contact_id INTEGER
);
CREATE INDEX IF NOT EXISTS search_contacts_job ON search_contacts (job_id);
"""

TITLES = {
    "decision-maker": ("CEO", "CFO", "COO", "CTO", "VP Sales", "VP Operations", "Head of Procurement"),
    "champion": ("Head of RevOps", "Sales Operations Manager", "Head of Growth", "Director of Operations",
                 "Product Lead", "Head of Partnerships"),
    "influencer": ("Senior Account Executive", "Marketing Manager", "IT Manager", "Business Analyst",
                   "Customer Success Lead", "Procurement Specialist"),
}
ROLES = contacts.ROLES
JOB_NOT_FOUND = "Job not found"
NOT_COMPLETED = "Job must be completed before adding contacts"
POLL_HINT = "Contact search started. Poll GET /v1/contacts/search/{job_id} every 5-10 seconds until status is completed."
FOUND_FIELDS = ("id", "first_name", "last_name", "title", "role", "email", "social_url", "company_id")


def start(
    conn: sqlite3.Connection, company_id: int, roles: list[str], *, api_key: str, clock: Clock, seconds: float, seed: int
) -> dict[str, Any]:
    if companies.get_company(conn, company_id) is None:
        raise ApiError(404, companies.COMPANY_NOT_FOUND)
    quotas.consume(conn, api_key, "deep_searches")
    params = {"company_id": company_id, "roles": sorted(set(roles)), "seed": seed}
    job = jobs.create_job(conn, "contact_search", api_key, params, now=clock.now(), seconds=seconds, subject_id=company_id)
    return {"success": True, "job_id": job["id"], "status": "pending", "company_id": company_id,
            "created_at": job["created_at"], "message": POLL_HINT.format(job_id=job["id"])}


def finish(conn: sqlite3.Connection, job: dict[str, Any], now: datetime) -> dict[str, Any]:
    params = job["params"]
    company = companies.get_company(conn, params["company_id"])
    if company is None:
        raise jobs.JobFailed("The company was deleted before the search finished")
    rng = random.Random(f"contacts:{params['seed']}:{job['id']}:{company['id']}")
    pools = name_pools(params["seed"])
    roles = params["roles"] or list(ROLES)
    domain = company.get("domain") or re.sub(r"[^a-z0-9]+", "", company["name"].lower()) + ".com"
    people = []
    for index in range(rng.randint(3, 10)):
        role = roles[index % len(roles)] if index < len(roles) else rng.choice(roles)
        first, last = rng.choice(pools.first_names), rng.choice(pools.last_names)
        slug = re.sub(r"[^a-z0-9]+", "-", f"{first} {last}".lower()).strip("-")
        people.append((
            job["id"], company["id"], first, last, rng.choice(TITLES[role]), role,
            f"{slug.replace('-', '.')}@{domain}", f"https://www.linkedin.com/in/{slug}-{rng.randrange(16**4):04x}",
        ))
    conn.executemany(
        "INSERT INTO search_contacts (job_id, company_id, first_name, last_name, title, role, email, social_url) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        people,
    )
    return {"found": len(people)}


def found_contacts(conn: sqlite3.Connection, job_id: int) -> list[dict[str, Any]]:
    rows = conn.execute(f"SELECT {', '.join(FOUND_FIELDS)} FROM search_contacts WHERE job_id = ? ORDER BY id", (job_id,))
    return [dict(row) for row in rows]


def view(conn: sqlite3.Connection, job: dict[str, Any]) -> dict[str, Any]:
    return {
        "success": True,
        "job_id": job["id"],
        "status": job["status"],
        "company_id": job["params"]["company_id"],
        "progress": job["progress"],
        "created_at": job["created_at"],
        "completed_at": job["completed_at"],
        "contacts": found_contacts(conn, job["id"]) if job["status"] == "completed" else [],
        "error": job["error"],
    }


def add(conn: sqlite3.Connection, job: dict[str, Any], contact_ids: list[int], *, api_key: str, now: datetime) -> dict[str, Any]:
    """Copy the chosen found people into the contact list; skip duplicates, unknown ids, capacity."""
    if job["status"] != "completed":
        raise ApiError(409, NOT_COMPLETED, shape="short")
    found = {row["id"]: row for row in conn.execute("SELECT * FROM search_contacts WHERE job_id = ?", (job["id"],))}
    added: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for found_id in dict.fromkeys(contact_ids):
        person = found.get(found_id)
        if person is None:
            skipped.append({"id": found_id, "reason": "unknown"})
        elif person["contact_id"] is not None or contacts.find_by_email(conn, person["email"]):
            skipped.append({"id": found_id, "reason": "duplicate"})
        elif quotas.remaining(conn, api_key, "contact_capacity") < 1:
            skipped.append({"id": found_id, "reason": "limit"})
        else:
            fields = {name: person[name] for name in ("company_id", "first_name", "last_name", "title", "role",
                                                      "email", "social_url")}
            contact = contacts.create_contact(conn, fields, now=now, api_key=api_key)
            conn.execute("UPDATE search_contacts SET contact_id = ? WHERE id = ?", (contact["id"], found_id))
            added.append(contact)
    return {"success": True, "added": len(added), "skipped": len(skipped), "contacts": added, "skipped_ids": skipped}


jobs.register_finisher("contact_search", finish)
