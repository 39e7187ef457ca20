"""Saved companies: the organization's company list (not the lookup database).

Companies arrive from instant lookup (`save`), deep searches, or by hand. Each carries
custom fields (research results land there) and tags. The key that saved a company is
kept so that deleting it gives back that key's `saved_companies` capacity.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox import quotas
from warmline_sandbox.db import iso
from warmline_sandbox.records import (
    decode,
    delete_record,
    escape_like,
    get_record,
    insert_record,
    list_records,
    tag_clause,
    update_record,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS companies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    domain TEXT,
    industry TEXT,
    country TEXT,
    region TEXT,
    size TEXT,
    description TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    custom_fields TEXT NOT NULL DEFAULT '{}',
    source TEXT NOT NULL DEFAULT 'manual',
    ai_tag TEXT,
    api_key TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS companies_domain_lower ON companies (lower(domain));
CREATE TABLE IF NOT EXISTS company_fields (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);
"""

TABLE = "companies"
FIELDS_TABLE = "company_fields"
QUOTA = "saved_companies"
PROFILE_FIELDS = ("name", "domain", "industry", "country", "region", "size", "description")
COMPANY_NOT_FOUND = "Company not found"


def get_company(conn: sqlite3.Connection, company_id: int) -> dict[str, Any] | None:
    """The wire record of a saved company, or None."""
    return get_record(conn, TABLE, company_id)


def company_profile(company: dict[str, Any]) -> dict[str, Any]:
    """The short company information embedded in other records (e.g. a lead's detail)."""
    return {"id": company["id"], **{name: company.get(name) for name in PROFILE_FIELDS}}


def find_by_domain(conn: sqlite3.Connection, domain: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT * FROM companies WHERE lower(domain) = lower(?) ORDER BY id LIMIT 1", (domain,)
    ).fetchone()
    return decode(row) if row else None


def create_company(
    conn: sqlite3.Connection,
    fields: dict[str, Any],
    *,
    now: datetime,
    api_key: str | None,
    source: str = "manual",
    ai_tag: str | None = None,
) -> dict[str, Any]:
    """Save a company; counts against the key's `saved_companies` quota (none for seed data)."""
    if api_key is not None:
        quotas.consume(conn, api_key, QUOTA)
    tags = list(fields.get("tags") or [])
    if ai_tag:
        tags.append(ai_tag)
    return insert_record(
        conn, TABLE, PROFILE_FIELDS, {**fields, "tags": tags},
        source=source, ai_tag=ai_tag, api_key=api_key, created_at=iso(now), updated_at=iso(now),
    )


def update_company(
    conn: sqlite3.Connection, company_id: int, changes: dict[str, Any], *, now: datetime
) -> dict[str, Any] | None:
    """Change only the given fields; `custom_fields` are merged key by key."""
    return update_record(conn, TABLE, company_id, changes, iso(now))


def delete_company(conn: sqlite3.Connection, company_id: int) -> bool:
    return delete_record(conn, TABLE, company_id, QUOTA)


def list_companies(
    conn: sqlite3.Connection,
    *,
    offset: int,
    limit: int,
    search: str | None = None,
    industry: str | None = None,
    country: str | None = None,
    tag: str | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """A page of companies (oldest first) and the total matching the filters."""
    clauses: list[str] = []
    args: list[Any] = []
    if search:
        pattern = f"%{escape_like(search.lower())}%"
        clauses.append("(lower(name) LIKE ? ESCAPE '\\' OR lower(COALESCE(domain, '')) LIKE ? ESCAPE '\\')")
        args += [pattern, pattern]
    if industry:
        clauses.append("lower(COALESCE(industry, '')) = lower(?)")
        args.append(industry)
    if country:
        clauses.append("lower(COALESCE(country, '')) = lower(?)")
        args.append(country)
    if tag:
        clauses.append(tag_clause(TABLE))
        args.append(tag)
    return list_records(conn, TABLE, clauses, args, offset=offset, limit=limit)
