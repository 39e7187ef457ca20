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
from warmline_sandbox.db import dumps, iso
from warmline_sandbox.records import decode, encode_updates, escape_like

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

FIELDS_TABLE = "company_fields"
PROFILE_FIELDS = ("name", "domain", "industry", "country", "region", "size", "description")
SOURCES = ("lookup", "deep_search", "manual")
COMPANY_NOT_FOUND = "Company not found"


def get_company(conn: sqlite3.Connection, company_id: int) -> dict[str, Any] | None:
    """The wire record of a saved company, or None."""
    row = conn.execute("SELECT * FROM companies WHERE id = ?", (company_id,)).fetchone()
    return decode(row) if row else None


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
        quotas.consume(conn, api_key, "saved_companies")
    tags = list(fields.get("tags") or [])
    if ai_tag and ai_tag not in tags:
        tags.append(ai_tag)
    cursor = conn.execute(
        "INSERT INTO companies (name, domain, industry, country, region, size, description, tags, "
        "custom_fields, source, ai_tag, api_key, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            *(fields.get(name) for name in PROFILE_FIELDS),
            dumps(tags),
            dumps(fields.get("custom_fields") or {}),
            source,
            ai_tag,
            api_key,
            iso(now),
            iso(now),
        ),
    )
    company = get_company(conn, int(cursor.lastrowid or 0))
    assert company is not None
    return company


def update_company(
    conn: sqlite3.Connection, company_id: int, changes: dict[str, Any], *, now: datetime
) -> dict[str, Any] | None:
    """Change only the given fields; `custom_fields` are merged key by key."""
    current = get_company(conn, company_id)
    if current is None:
        return None
    changes = dict(changes)
    if "custom_fields" in changes:
        changes["custom_fields"] = {**current["custom_fields"], **(changes["custom_fields"] or {})}
    if "tags" in changes and changes["tags"] is None:
        changes["tags"] = []
    encoded = encode_updates(changes)
    encoded["updated_at"] = iso(now)
    assignments = ", ".join(f"{name} = ?" for name in encoded)
    conn.execute(f"UPDATE companies SET {assignments} WHERE id = ?", (*encoded.values(), company_id))
    return get_company(conn, company_id)


def delete_company(conn: sqlite3.Connection, company_id: int) -> bool:
    row = conn.execute("SELECT api_key FROM companies WHERE id = ?", (company_id,)).fetchone()
    if row is None:
        return False
    conn.execute("DELETE FROM companies WHERE id = ?", (company_id,))
    if row["api_key"]:
        quotas.release(conn, row["api_key"], "saved_companies")
    return True


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
        clauses.append("EXISTS (SELECT 1 FROM json_each(companies.tags) WHERE lower(value) = lower(?))")
        args.append(tag)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    total = conn.execute(f"SELECT COUNT(*) FROM companies {where}", args).fetchone()[0]
    rows = conn.execute(f"SELECT * FROM companies {where} ORDER BY id LIMIT ? OFFSET ?", (*args, limit, offset))
    return [decode(row) for row in rows], int(total)
