"""Company deep search: an async job that finds companies for a query and saves them.

The real service searches maps, the web and its database; the sandbox searches its
company database with broadened semantic matching, and saves what it finds with an
AI-generated tag naming the search. Also per-company deep research (overview paths),
which produces a summary, key facts and sources for one saved company.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox import companies, jobs, quotas
from warmline_sandbox.clock import Clock
from warmline_sandbox.lookup import save_entry
from warmline_sandbox.search import Criteria, query_terms, search

JOB_NOT_FOUND = "Job not found"
POLL_HINT = "Deep search started. Poll GET /v1/companies/deep-search/{job_id} every 5-10 seconds until status is completed."


def ai_tag(query: str) -> str:
    """The tag found companies carry, e.g. `AI: dental clinics bavaria`."""
    terms, _ = query_terms(query)
    words = " ".join(terms[:6]) or query.strip().lower()[:40]
    return f"AI: {words}"


def start(conn: sqlite3.Connection, query: str, max_results: int, *, api_key: str, clock: Clock, seconds: float) -> dict[str, Any]:
    quotas.consume(conn, api_key, "deep_searches")
    job = jobs.create_job(
        conn, "deep_search", api_key, {"query": query, "max_results": max_results}, now=clock.now(), seconds=seconds
    )
    return {
        "success": True,
        "job_id": job["id"],
        "status": "pending",
        "query": query,
        "target_count": max_results,
        "created_at": job["created_at"],
        "message": POLL_HINT.format(job_id=job["id"]),
    }


def finish(conn: sqlite3.Connection, job: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Save up to `max_results` new companies matching the query, tagged; stop at the plan's cap."""
    params = job["params"]
    taken = {row["domain"] for row in conn.execute("SELECT lower(domain) AS domain FROM companies WHERE domain IS NOT NULL")}
    found = search(conn, Criteria(query=params["query"], broaden=True, exclude_domains=taken, limit=params["max_results"]))
    tag = ai_tag(params["query"])
    saved = []
    for entry in found:
        company_id = save_entry(conn, entry, now=now, api_key=job["api_key"], source="deep_search", ai_tag=tag)
        if company_id is None:
            break
        saved.append(company_id)
    return {"company_ids": saved, "ai_tag": tag, "quota_limited": len(found) - len(saved)}


def view(conn: sqlite3.Connection, job: dict[str, Any]) -> dict[str, Any]:
    result = job["result"] or {}
    found = [c for c in (companies.get_company(conn, cid) for cid in result.get("company_ids", [])) if c]
    return {
        "success": True,
        "job_id": job["id"],
        "status": job["status"],
        "query": job["params"]["query"],
        "target_count": job["params"]["max_results"],
        "progress": job["progress"],
        "found_count": len(result.get("company_ids", [])),
        "created_at": job["created_at"],
        "completed_at": job["completed_at"],
        "companies": found,
        "error": job["error"],
    }


def start_research(
    conn: sqlite3.Connection, company_id: int, focus: str | None, *, api_key: str, clock: Clock, seconds: float
) -> dict[str, Any]:
    quotas.consume(conn, api_key, "deep_searches")
    job = jobs.create_job(
        conn, "company_research", api_key, {"company_id": company_id, "focus": focus},
        now=clock.now(), seconds=seconds, subject_id=company_id,
    )
    return {"success": True, "search_id": job["id"], "company_id": company_id, "status": "pending",
            "created_at": job["created_at"]}


def finish_research(conn: sqlite3.Connection, job: dict[str, Any], now: datetime) -> dict[str, Any]:
    company = companies.get_company(conn, job["params"]["company_id"])
    if company is None:
        raise jobs.JobFailed("The company was deleted before the research finished")
    rng = random.Random(f"research:{job['id']}:{company['id']}")
    name, domain = company["name"], company.get("domain") or "example.com"
    focus = job["params"].get("focus")
    industry = (company.get("industry") or "its industry").lower()
    where = ", ".join(part for part in (company.get("region"), company.get("country")) if part) or "its home market"
    facts = [
        f"{name} operates in {industry} and is based in {where}.",
        f"Headcount band: {company.get('size') or 'unknown'}; hiring in {rng.choice(['sales', 'engineering', 'customer success', 'operations'])}.",
        f"Recent news: {rng.choice(['opened a new office', 'launched a new product line', 'announced a partnership', 'raised a funding round'])} in {now.year}.",
        f"Likely buying committee: {rng.choice(['CEO and CFO', 'VP Sales and RevOps lead', 'CTO and Head of IT', 'COO and procurement'])}.",
    ]
    if focus:
        facts.append(f"On {focus}: {name} mentions it on its website and in recent job posts.")
    return {
        "summary": f"{name} ({domain}) is a {company.get('size') or ''} {industry} company in {where}. "
                   f"{(company.get('description') or '').strip()}".replace("  ", " ").strip(),
        "key_facts": facts,
        "sources": [
            {"title": f"{name} website", "url": f"https://{domain}/"},
            {"title": f"{name} news", "url": f"https://{domain}/news"},
            {"title": f"{name} careers", "url": f"https://{domain}/careers"},
        ],
    }


def research_view(job: dict[str, Any]) -> dict[str, Any]:
    return {
        "success": True,
        "search_id": job["id"],
        "company_id": job["params"]["company_id"],
        "status": job["status"],
        "progress": job["progress"],
        "created_at": job["created_at"],
        "completed_at": job["completed_at"],
        "results": job["result"] if job["status"] == "completed" else None,
        "error": job["error"],
    }


jobs.register_finisher("deep_search", finish)
jobs.register_finisher("company_research", finish_research)
