"""Shared plumbing of the two record types with custom fields and tags (companies, contacts).

Both keep `tags` and `custom_fields` as JSON columns, have a field schema table, use a
unit of a plan quota per record, and are listed the same way; this module holds that once.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from warmline_sandbox import quotas
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


def get_record(conn: sqlite3.Connection, table: str, record_id: int) -> dict[str, Any] | None:
    row = conn.execute(f"SELECT * FROM {table} WHERE id = ?", (record_id,)).fetchone()
    return decode(row) if row else None


def insert_record(
    conn: sqlite3.Connection, table: str, columns: tuple[str, ...], fields: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    """Insert the given columns of `fields` plus `extra` columns; JSON columns encoded."""
    values = {name: fields.get(name) for name in columns}
    values["tags"] = merge_tags([], list(fields.get("tags") or []))
    values["custom_fields"] = fields.get("custom_fields") or {}
    values.update(extra)
    encoded = _encode(values)
    marks = ", ".join("?" for _ in encoded)
    cursor = conn.execute(f"INSERT INTO {table} ({', '.join(encoded)}) VALUES ({marks})", tuple(encoded.values()))
    record = get_record(conn, table, int(cursor.lastrowid or 0))
    assert record is not None
    return record


def update_record(
    conn: sqlite3.Connection, table: str, record_id: int, changes: dict[str, Any], updated_at: str
) -> dict[str, Any] | None:
    """Change only the given fields; `custom_fields` are merged key by key, `tags` replaced."""
    current = get_record(conn, table, record_id)
    if current is None:
        return None
    changes = dict(changes)
    if "custom_fields" in changes:
        changes["custom_fields"] = {**current["custom_fields"], **(changes["custom_fields"] or {})}
    if "tags" in changes:
        changes["tags"] = changes["tags"] or []
    encoded = _encode({**changes, "updated_at": updated_at})
    assignments = ", ".join(f"{name} = ?" for name in encoded)
    conn.execute(f"UPDATE {table} SET {assignments} WHERE id = ?", (*encoded.values(), record_id))
    return get_record(conn, table, record_id)


def delete_record(conn: sqlite3.Connection, table: str, record_id: int, quota: str) -> bool:
    """Delete a record and give its creating key back the unit of `quota` it used."""
    row = conn.execute(f"SELECT api_key FROM {table} WHERE id = ?", (record_id,)).fetchone()
    if row is None:
        return False
    conn.execute(f"DELETE FROM {table} WHERE id = ?", (record_id,))
    if row["api_key"]:
        quotas.release(conn, row["api_key"], quota)
    return True


def list_records(
    conn: sqlite3.Connection, table: str, clauses: list[str], args: list[Any], *, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of records (oldest first) matching all `clauses`, and how many match in total."""
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    total = conn.execute(f"SELECT COUNT(*) FROM {table} {where}", args).fetchone()[0]
    rows = conn.execute(f"SELECT * FROM {table} {where} ORDER BY id LIMIT ? OFFSET ?", (*args, limit, offset))
    return [decode(row) for row in rows], int(total)


def tag_clause(table: str) -> str:
    return f"EXISTS (SELECT 1 FROM json_each({table}.tags) WHERE lower(value) = lower(?))"


def _encode(values: dict[str, Any]) -> dict[str, Any]:
    return {name: dumps(value) if name in ("tags", "custom_fields") else value for name, value in values.items()}


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
