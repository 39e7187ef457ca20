"""Saved contacts: the organization's permanent contact list.

Contacts come from contact searches (added one by one from a completed job) or by hand;
each uses one unit of the adding key's `contact_capacity`, given back on delete.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox import quotas
from warmline_sandbox.db import dumps, iso
from warmline_sandbox.records import decode, encode_updates, escape_like

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

FIELDS_TABLE = "contact_fields"
PERSON_FIELDS = ("company_id", "first_name", "last_name", "email", "title", "role", "social_url", "phone")
ROLES = ("decision-maker", "champion", "influencer")
CONTACT_NOT_FOUND = "Contact not found"


def get_contact(conn: sqlite3.Connection, contact_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM contacts WHERE id = ?", (contact_id,)).fetchone()
    return decode(row) if row else None


def find_by_email(conn: sqlite3.Connection, email: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT * FROM contacts WHERE lower(email) = lower(?) ORDER BY id LIMIT 1", (email,)
    ).fetchone()
    return decode(row) if row else None


def contacts_of_company(conn: sqlite3.Connection, company_id: int) -> list[dict[str, Any]]:
    rows = conn.execute("SELECT * FROM contacts WHERE company_id = ? ORDER BY id", (company_id,))
    return [decode(row) for row in rows]


def create_contact(
    conn: sqlite3.Connection, fields: dict[str, Any], *, now: datetime, api_key: str | None
) -> dict[str, Any]:
    """Store a contact; uses one unit of the key's `contact_capacity` (none for seed data)."""
    if api_key is not None:
        quotas.consume(conn, api_key, "contact_capacity")
    cursor = conn.execute(
        "INSERT INTO contacts (company_id, first_name, last_name, email, title, role, social_url, phone, "
        "tags, custom_fields, api_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            *(fields.get(name) for name in PERSON_FIELDS),
            dumps(list(fields.get("tags") or [])),
            dumps(fields.get("custom_fields") or {}),
            api_key,
            iso(now),
            iso(now),
        ),
    )
    contact = get_contact(conn, int(cursor.lastrowid or 0))
    assert contact is not None
    return contact


def update_contact(
    conn: sqlite3.Connection, contact_id: int, changes: dict[str, Any], *, now: datetime
) -> dict[str, Any] | None:
    current = get_contact(conn, contact_id)
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
    conn.execute(f"UPDATE contacts SET {assignments} WHERE id = ?", (*encoded.values(), contact_id))
    return get_contact(conn, contact_id)


def delete_contact(conn: sqlite3.Connection, contact_id: int) -> bool:
    row = conn.execute("SELECT api_key FROM contacts WHERE id = ?", (contact_id,)).fetchone()
    if row is None:
        return False
    conn.execute("DELETE FROM contacts WHERE id = ?", (contact_id,))
    if row["api_key"]:
        quotas.release(conn, row["api_key"], "contact_capacity")
    return True


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
        clauses.append("EXISTS (SELECT 1 FROM json_each(contacts.tags) WHERE lower(value) = lower(?))")
        args.append(tag)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    total = conn.execute(f"SELECT COUNT(*) FROM contacts {where}", args).fetchone()[0]
    rows = conn.execute(f"SELECT * FROM contacts {where} ORDER BY id LIMIT ? OFFSET ?", (*args, limit, offset))
    return [decode(row) for row in rows], int(total)
