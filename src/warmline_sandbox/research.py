"""Research templates and runs: extract data points about saved companies.

A run is an async job over 1-100 companies (one company enrichment each). When it
completes, every template field gets a value of its declared `type` per company, and
the values are written into the company's custom fields (the field joins the company
field schema). Values are made up deterministically from the company and the run.
"""

from __future__ import annotations

import random
import re
import sqlite3
import uuid
from datetime import datetime, timedelta
from typing import Any

from warmline_sandbox import companies, jobs, quotas
from warmline_sandbox.clock import Clock
from warmline_sandbox.db import dumps, iso, loads
from warmline_sandbox.errors import ApiError, not_found
from warmline_sandbox.records import ensure_field

SCHEMA = """
CREATE TABLE IF NOT EXISTS research_templates (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT,
    fields TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS research_runs (
    run_id TEXT PRIMARY KEY,
    job_id INTEGER NOT NULL UNIQUE REFERENCES jobs (id)
);
"""

TEMPLATE_NOT_FOUND = "Research template not found"
RUN_NOT_FOUND = "Research run not found"
_NAMESPACE = uuid.UUID("6f1c2d0e-5b7a-4c1e-9a53-1f0d8c2b7e44")

DEFAULT_TEMPLATES: tuple[tuple[str, str, list[dict[str, str]]], ...] = (
    (
        "ICP fit",
        "How well the company matches our ideal customer profile.",
        [
            {"key": "icp_fit_score", "name": "ICP fit score", "type": "number"},
            {"key": "icp_fit_reason", "name": "Why it fits", "type": "text"},
            {"key": "uses_crm", "name": "Uses a CRM", "type": "boolean"},
            {"key": "buying_signals", "name": "Buying signals", "type": "list"},
            {"key": "pricing_page_url", "name": "Pricing page", "type": "url"},
        ],
    ),
    (
        "Tech stack",
        "Technologies the company runs, from job posts and its website.",
        [
            {"key": "tech_stack", "name": "Tech stack", "type": "list"},
            {"key": "hosting_provider", "name": "Hosting provider", "type": "text"},
            {"key": "uses_ai", "name": "Uses AI in product", "type": "boolean"},
            {"key": "engineering_blog_url", "name": "Engineering blog", "type": "url"},
        ],
    ),
    (
        "Hiring signals",
        "Growth and hiring activity that suggests budget and urgency.",
        [
            {"key": "open_roles", "name": "Open roles", "type": "number"},
            {"key": "hiring_departments", "name": "Hiring departments", "type": "list"},
            {"key": "last_funding_date", "name": "Last funding date", "type": "date"},
            {"key": "careers_page_url", "name": "Careers page", "type": "url"},
            {"key": "growth_summary", "name": "Growth summary", "type": "text"},
        ],
    ),
)

_LIST_POOLS = {
    "tech": ("Python", "React", "PostgreSQL", "AWS", "Kubernetes", "Salesforce", "HubSpot", "Snowflake", "Go", "Java"),
    "depart": ("Sales", "Engineering", "Marketing", "Customer Success", "Operations", "Finance", "Product"),
    "signal": ("new funding round", "hiring sales leaders", "expanding to new markets", "launched a new product",
               "new CTO appointed", "migrating CRM", "opened an office"),
}
_TEXT_POOLS = {
    "hosting": ("AWS", "Google Cloud", "Microsoft Azure", "Hetzner", "OVHcloud", "on-premises"),
}


def template_id_for(name: str) -> str:
    """Stable UUIDs for the default templates, so ids survive re-seeding."""
    return str(uuid.uuid5(_NAMESPACE, name))


def seed_templates(conn: sqlite3.Connection, now: datetime) -> None:
    for name, description, fields in DEFAULT_TEMPLATES:
        conn.execute(
            "INSERT OR IGNORE INTO research_templates (id, name, description, fields, created_at) VALUES (?, ?, ?, ?, ?)",
            (template_id_for(name), name, description, dumps(fields), iso(now)),
        )


def _template(row: sqlite3.Row) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"], "description": row["description"],
            "fields": loads(row["fields"], []), "created_at": row["created_at"]}


def list_templates(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    return [_template(row) for row in conn.execute("SELECT * FROM research_templates ORDER BY name")]


def get_template(conn: sqlite3.Connection, template_id: str) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM research_templates WHERE id = ?", (template_id,)).fetchone()
    return _template(row) if row else None


def find_template(conn: sqlite3.Connection, template_id: str | None, template_name: str | None) -> dict[str, Any]:
    """The template named by id or (case-insensitive) name; 404 when neither matches."""
    if template_id:
        template = get_template(conn, template_id)
    else:
        row = conn.execute(
            "SELECT * FROM research_templates WHERE lower(name) = lower(?) ORDER BY created_at LIMIT 1",
            (template_name or "",),
        ).fetchone()
        template = _template(row) if row else None
    if template is None:
        raise not_found(TEMPLATE_NOT_FOUND)
    return template


def start_run(
    conn: sqlite3.Connection, template: dict[str, Any], company_ids: list[int], *, api_key: str, clock: Clock,
    seconds: float, seed: int,
) -> dict[str, Any]:
    """Start a run; every company must be saved; costs one enrichment per company.

    An unknown company is docs/wire.md's 404 `Company not found` (like every other id that
    names nothing); `errors` says which ids, so a rep running 100 companies can fix the list.
    """
    ids = list(dict.fromkeys(company_ids))
    missing = [cid for cid in ids if companies.get_company(conn, cid) is None]
    if missing:
        detail = f"{companies.COMPANY_NOT_FOUND}: {', '.join(map(str, missing[:20]))}"
        raise ApiError(404, companies.COMPANY_NOT_FOUND, errors=[{"field": "company_ids", "message": detail}])
    quotas.consume(conn, api_key, "company_enrichments", len(ids))
    params = {"template_id": template["id"], "company_ids": ids, "seed": seed}
    job = jobs.create_job(conn, "research_run", api_key, params, now=clock.now(), seconds=seconds)
    run_id = str(uuid.uuid4())
    conn.execute("INSERT INTO research_runs (run_id, job_id) VALUES (?, ?)", (run_id, job["id"]))
    return {"success": True, "run_id": run_id, "status": "pending", "template_id": template["id"],
            "company_ids": ids, "created_at": job["created_at"]}


def run_number(conn: sqlite3.Connection, run_id: str) -> int | None:
    """A run's number (its job's id): the integer a dialect shows for its `run_id`."""
    row = conn.execute("SELECT job_id FROM research_runs WHERE run_id = ?", (run_id,)).fetchone()
    return int(row["job_id"]) if row else None


def run_id_of(conn: sqlite3.Connection, number: int) -> str | None:
    """The `run_id` of the run with this number, if there is one."""
    row = conn.execute("SELECT run_id FROM research_runs WHERE job_id = ?", (number,)).fetchone()
    return str(row["run_id"]) if row else None


def observe_run(conn: sqlite3.Connection, run_id: str, clock: Clock) -> dict[str, Any]:
    row = conn.execute("SELECT job_id FROM research_runs WHERE run_id = ?", (run_id,)).fetchone()
    job = jobs.observe(conn, row["job_id"], clock, kind="research_run") if row else None
    if job is None:
        raise not_found(RUN_NOT_FOUND)
    result = job["result"] or {}
    return {
        "success": True,
        "run_id": run_id,
        "status": job["status"],
        "template_id": job["params"]["template_id"],
        "company_ids": job["params"]["company_ids"],
        "progress": job["progress"],
        "created_at": job["created_at"],
        "completed_at": job["completed_at"],
        "results": result.get("results", []),
        "error": job["error"],
    }


def finish_run(conn: sqlite3.Connection, job: dict[str, Any], now: datetime) -> dict[str, Any]:
    params = job["params"]
    template = get_template(conn, params["template_id"])
    if template is None:
        raise jobs.JobFailed("The research template was deleted")
    for field in template["fields"]:
        ensure_field(conn, companies.FIELDS_TABLE, field["key"], field["name"], field["type"])
    results = []
    for company_id in params["company_ids"]:
        company = companies.get_company(conn, company_id)
        if company is None:
            continue
        rng = random.Random(f"research:{params['seed']}:{job['id']}:{company_id}")
        values = {field["key"]: field_value(field, company, rng, now) for field in template["fields"]}
        companies.update_company(conn, company_id, {"custom_fields": values}, now=now)
        results.append({"company_id": company_id, "fields": values})
    return {"results": results}


def field_value(field: dict[str, str], company: dict[str, Any], rng: random.Random, now: datetime) -> Any:
    """A plausible value of the field's type for this company."""
    key, kind = field["key"].lower(), field.get("type", "text")
    domain = company.get("domain") or "example.com"
    if kind == "number":
        return rng.randint(1, 100) if "score" in key else rng.randint(0, 60)
    if kind == "boolean":
        return rng.random() < 0.6
    if kind == "date":
        return (now - timedelta(days=rng.randint(30, 1000))).date().isoformat()
    if kind == "url":
        slug = re.sub(r"_?url$", "", key).replace("_page", "").replace("_", "-") or "about"
        return f"https://{domain}/{slug}"
    if kind == "list":
        pool = next((items for word, items in _LIST_POOLS.items() if word in key), _LIST_POOLS["signal"])
        return rng.sample(pool, k=min(len(pool), rng.randint(2, 4)))
    pool = next((items for word, items in _TEXT_POOLS.items() if word in key), None)
    if pool:
        return rng.choice(pool)
    industry = (company.get("industry") or "its market").lower()
    return f"{company['name']} {rng.choice(['is growing fast in', 'is a strong player in', 'is expanding within', 'is modernising its stack in'])} {industry}."


def validate_template_choice(template_id: str | None, template_name: str | None) -> None:
    if not (template_id or template_name):
        raise ApiError(400, "Validation failed", errors=[
            {"field": "template_id", "message": "give template_id or template_name"}])


jobs.register_finisher("research_run", finish_run)
