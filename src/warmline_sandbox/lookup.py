"""Instant company lookup: search the company database, optionally save the results."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox import companies, quotas
from warmline_sandbox.errors import ApiError
from warmline_sandbox.search import Criteria, search


def instant_lookup(
    conn: sqlite3.Connection, criteria: Criteria, *, save: bool, api_key: str, now: datetime
) -> dict[str, Any]:
    """One lookup (costs 1 instant lookup); `save` stores new results while the plan allows."""
    quotas.consume(conn, api_key, "instant_lookups")
    results = []
    saved_count = quota_limited = 0
    for entry in search(conn, criteria):
        item = {column: entry[column] for column in companies.PROFILE_FIELDS}
        if "similarity_score" in entry:
            item["similarity_score"] = entry["similarity_score"]
        existing = companies.find_by_domain(conn, entry["domain"])
        saved_id = existing["id"] if existing else None
        if save and existing is None:
            saved_id = save_entry(conn, entry, now=now, api_key=api_key, source="lookup")
            if saved_id is None:
                quota_limited += 1
            else:
                saved_count += 1
        item["saved_company_id"] = saved_id
        results.append(item)
    return {
        "success": True,
        "companies": results,
        "total": len(results),
        "saved_count": saved_count,
        "quota_limited": quota_limited,
    }


def save_entry(
    conn: sqlite3.Connection,
    entry: dict[str, Any],
    *,
    now: datetime,
    api_key: str | None,
    source: str,
    ai_tag: str | None = None,
) -> int | None:
    """Save a company database entry to the company list; None when the plan's cap is reached."""
    fields = {column: entry[column] for column in companies.PROFILE_FIELDS}
    try:
        company = companies.create_company(conn, fields, now=now, api_key=api_key, source=source, ai_tag=ai_tag)
    except ApiError as exc:
        if exc.status == 403:
            return None
        raise
    return int(company["id"])
