"""Shared plumbing of the two record types with custom fields and tags (companies, contacts).

Both keep `tags` and `custom_fields` as JSON columns, have a field schema table, and are
listed with the same filters; this module holds that once.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from warmline_sandbox.db import dumps, loads

FIELD_TYPES = ("text", "number", "boolean", "date", "url", "list")


def decode(row: sqlite3.Row | dict[str, Any]) -> dict[str, Any]:
    """A stored row as its wire record: JSON columns decoded, bookkeeping columns dropped."""
    record = dict(row)
    record["tags"] = loads(record.get("tags"), [])
    record["custom_fields"] = loads(record.get("custom_fields"), {})
    record.pop("api_key", None)
    return record


def merge_tags(existing: list[str], new: list[str]) -> list[str]:
    """Tags in first-seen order, without duplicates (case-insensitive)."""
    seen = {tag.lower() for tag in existing}
    merged = list(existing)
    for tag in new:
        if tag.lower() not in seen:
            seen.add(tag.lower())
            merged.append(tag)
    return merged


def encode_updates(changes: dict[str, Any]) -> dict[str, Any]:
    return {
        name: dumps(value) if name in ("tags", "custom_fields") else value
        for name, value in changes.items()
    }


def field_schema(conn: sqlite3.Connection, table: str) -> list[dict[str, str]]:
    rows = conn.execute(f"SELECT key, name, type FROM {table} ORDER BY position, key")
    return [dict(row) for row in rows]


def ensure_field(conn: sqlite3.Connection, table: str, key: str, name: str, type_: str) -> None:
    """Declare a custom field (research results add theirs); an existing one is kept."""
    if type_ not in FIELD_TYPES:
        type_ = "text"
    conn.execute(
        f"INSERT OR IGNORE INTO {table} (key, name, type, position) "
        f"VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM {table}))",
        (key, name, type_),
    )


def escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
