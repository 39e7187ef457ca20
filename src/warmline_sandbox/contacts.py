"""Saved contacts: the organization's permanent contact list.

Contacts come from contact searches (added one by one from a completed job) or by hand;
each uses one unit of the adding key's `contact_capacity`, given back on delete.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any, Literal, get_args

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
CREATE TABLE IF NOT EXISTS contacts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER REFERENCES companies (id) ON DELETE SET NULL,
    first_name TEXT,
    last_name TEXT,
    email TEXT,
    title TEXT,
    role TEXT,
    social_url TEXT,
    phone TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    custom_fields TEXT NOT NULL DEFAULT '{}',
    api_key TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS contacts_company ON contacts (company_id);
CREATE INDEX IF NOT EXISTS contacts_email_lower ON contacts (lower(email));
CREATE TABLE IF NOT EXISTS contact_fields (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0
);
"""

TABLE = "contacts"
FIELDS_TABLE = "contact_fields"
QUOTA = "contact_capacity"
PERSON_FIELDS = ("company_id", "first_name", "last_name", "email", "title", "role", "social_url", "phone")
Role = Literal["decision-maker", "champion", "influencer"]
ROLES: tuple[str, ...] = get_args(Role)
CONTACT_NOT_FOUND = "Contact not found"


def get_contact(conn: sqlite3.Connection, contact_id: int) -> dict[str, Any] | None:
    return get_record(conn, TABLE, contact_id)


def find_by_email(conn: sqlite3.Connection, email: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT * FROM contacts WHERE lower(email) = lower(?) ORDER BY id LIMIT 1", (email,)
    ).fetchone()
    return decode(row) if row else None


def create_contact(
    conn: sqlite3.Connection, fields: dict[str, Any], *, now: datetime, api_key: str | None
) -> dict[str, Any]:
    """Store a contact; uses one unit of the key's `contact_capacity` (none for seed data)."""
    if api_key is not None:
        quotas.consume(conn, api_key, QUOTA)
    return insert_record(
        conn, TABLE, PERSON_FIELDS, fields, api_key=api_key, created_at=iso(now), updated_at=iso(now)
    )


def update_contact(
    conn: sqlite3.Connection, contact_id: int, changes: dict[str, Any], *, now: datetime
) -> dict[str, Any] | None:
    return update_record(conn, TABLE, contact_id, changes, iso(now))


def delete_contact(conn: sqlite3.Connection, contact_id: int) -> bool:
    return delete_record(conn, TABLE, contact_id, QUOTA)


def list_contacts(
    conn: sqlite3.Connection,
    *,
    offset: int,
    limit: int,
    search: str | None = None,
    company_id: int | None = None,
    tag: str | None = None,
) -> tuple[list[dict[str, Any]], int]:
    clauses: list[str] = []
    args: list[Any] = []
    if search:
        pattern = f"%{escape_like(search.lower())}%"
        clauses.append(
            "(lower(COALESCE(first_name, '') || ' ' || COALESCE(last_name, '')) LIKE ? ESCAPE '\\' "
            "OR lower(COALESCE(email, '')) LIKE ? ESCAPE '\\' OR lower(COALESCE(title, '')) LIKE ? ESCAPE '\\')"
        )
        args += [pattern, pattern, pattern]
    if company_id is not None:
        clauses.append("company_id = ?")
        args.append(company_id)
    if tag:
        clauses.append(tag_clause(TABLE))
        args.append(tag)
    return list_records(conn, TABLE, clauses, args, offset=offset, limit=limit)
