"""Low-level writes of server data into the cache, inside a transaction the caller holds.

Shared by the apply functions the sync engine calls (`Store.upsert_*`) and by the effects
module when a delivered action's answer is folded in, so server data is written one way.
These functions write server state only; `warmline.store.effects.rebase` then re-applies
the local effects of actions still queued on the same lead.

One record the cache cannot hold costs that record only: a lead, or a child row, whose id
is not a whole number of 64 bits is skipped with a warning naming it, and `upsert` skips
any row holding an integer SQLite cannot bind (texts and numbers are repaired by
`warmline.store.mapping`, and again here for rows built elsewhere).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache

from warmline.store.mapping import (
    competitor_columns,
    dumps,
    lead_columns,
    lead_contact_columns,
    lead_snapshot,
    note_columns,
    page_columns,
    recommendation_columns,
    storable_id,
    touchpoint_columns,
)
from warmline.store.rows import json_object
from warmline.store.values import JsonMap, JsonObject, SqlRow, SqlValue
from warmline.textsafe import BeyondInt64, storable_json

log = logging.getLogger("warmline.store")

ChildColumns = Callable[[int, JsonMap], SqlRow]


@lru_cache(maxsize=256)
def _upsert_sql(table: str, columns: tuple[str, ...], conflict: tuple[str, ...], merge_raw: bool) -> str:
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    updates = [
        f"{c} = json_patch({table}.raw, excluded.raw)" if (c == "raw" and merge_raw) else f"{c} = excluded.{c}"
        for c in columns
        if c not in conflict
    ]
    action = f"DO UPDATE SET {', '.join(updates)}" if updates else "DO NOTHING"
    return f"INSERT INTO {table} ({names}) VALUES ({marks}) ON CONFLICT({', '.join(conflict)}) {action}"


def not_among(column: str, values: Sequence[SqlValue]) -> tuple[str, tuple[SqlValue, ...]]:
    """An SQL condition true for the rows whose `column` is none of `values`, and its
    parameters. With no values it is plainly true: `NOT IN (NULL)`, which stood in for an
    empty list, is never true in SQL, so an answer listing none (a lead's sources all
    gone, no research templates left) kept every row it should have dropped."""
    if not values:
        return "1", ()
    return f"{column} NOT IN ({', '.join('?' for _ in values)})", tuple(values)


def upsert(
    conn: sqlite3.Connection,
    table: str,
    rows: Iterable[Mapping[str, SqlValue]],
    conflict: Sequence[str] = ("id",),
    *,
    merge_raw: bool = False,
) -> int:
    """Insert or update rows by their conflict key; consecutive rows of one shape share a statement.

    With `merge_raw`, the stored `raw` JSON is merge-patched rather than replaced, so a list
    page does not erase what the lead's detail said.
    """
    count = 0
    batch: list[tuple[SqlValue, ...]] = []
    shape: tuple[str, ...] | None = None
    key = tuple(conflict)
    for given in rows:
        row = _storable_row(table, given, key)
        if row is None:
            continue
        columns = tuple(row)
        if shape is not None and columns != shape and batch:
            conn.executemany(_upsert_sql(table, shape, key, merge_raw), batch)
            batch = []
        shape = columns
        batch.append(tuple(row[c] for c in columns))
        count += 1
    if batch and shape is not None:
        conn.executemany(_upsert_sql(table, shape, key, merge_raw), batch)
    return count


def _storable_row(table: str, row: Mapping[str, SqlValue], key: tuple[str, ...]) -> SqlRow | None:
    """`row` as SQLite binds it (`textsafe.storable_json`), or None (with a warning naming
    it) when it holds an integer beyond 64 bits."""
    try:
        storable: SqlRow = storable_json(dict(row), int64=True)
    except BeyondInt64 as exc:
        which = ", ".join(f"{name} {_shown(row.get(name))}" for name in key)
        log.warning("skipped a row of %s (%s): %s", table, which, exc)
        return None
    return storable


def _shown(value: object) -> str:
    """An id for a warning: a number too long to read is said by its length."""
    if isinstance(value, int) and len(str(abs(value))) > 30:
        return f"of {len(str(abs(value)))} digits"
    return repr(value)


def _skipped(kind: str, record: JsonMap, lead_id: int | None = None) -> None:
    """Warn that a record of the service was not stored, as its id cannot be one."""
    where = f" of lead {lead_id}" if lead_id is not None else ""
    log.warning("skipped a %s%s: its id %s is not a whole number of 64 bits", kind, where, _shown(record.get("id")))


def write_leads(conn: sqlite3.Connection, items: Iterable[JsonMap]) -> list[int]:
    """Lead list items (or the scalar part of a detail) into `leads`; returns their ids."""
    ids: list[int] = []
    rows: list[SqlRow] = []
    snapshots: list[SqlRow] = []
    for item in items:
        if item.get("id") is None:
            continue
        lead_id = storable_id(item["id"])
        if lead_id is None:
            _skipped("lead", item)
            continue
        snapshot = lead_snapshot(item)
        ids.append(lead_id)
        rows.append({"id": lead_id, **lead_columns(snapshot)})
        snapshots.append({"id": lead_id, "raw": dumps(snapshot)})
    upsert(conn, "leads", rows)
    upsert(conn, "lead_snapshots", snapshots, merge_raw=True)
    return ids


def patch_lead_snapshot(conn: sqlite3.Connection, lead_id: int | None, changes: JsonMap) -> None:
    """Record what the server just told us about a lead (e.g. its new score) in its snapshot
    (none for a lead that is not cached, or for no lead)."""
    raw = lead_snapshot_of(conn, lead_id)
    if raw is None:
        return
    raw.update(lead_snapshot(changes))
    conn.execute("UPDATE lead_snapshots SET raw = ? WHERE id = ?", (dumps(raw), lead_id))


def lead_snapshot_of(conn: sqlite3.Connection, lead_id: int | None) -> JsonObject | None:
    """The server's last word on a cached lead; None for a lead not cached, or no lead."""
    if lead_id is None:
        return None
    found = conn.execute("SELECT raw FROM lead_snapshots WHERE id = ?", (lead_id,)).fetchone()
    return None if found is None else json_object(found[0])


def lead_exists(conn: sqlite3.Connection, lead_id: int | None) -> bool:
    if lead_id is None:
        return False
    return conn.execute("SELECT 1 FROM leads WHERE id = ?", (lead_id,)).fetchone() is not None


def _child_rows(
    table: str, lead_id: int, items: Iterable[JsonMap], columns: ChildColumns, key: str = "id"
) -> list[SqlRow]:
    """The rows of a lead's `items` that have an id (`key`); one whose id the cache cannot
    hold is skipped with a warning naming it."""
    rows: list[SqlRow] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        row = columns(lead_id, item)
        if row[key] is not None:
            rows.append(row)
        elif item.get("id") is not None:
            _skipped(f"row of {table}", item, lead_id)
    return rows


def _replace_children(
    conn: sqlite3.Connection,
    table: str,
    lead_id: int,
    rows: list[SqlRow],
    key: str,
    conflict: Sequence[str],
) -> None:
    """Make the lead's server rows of `table` exactly `rows` (each with its `key`; local
    pending rows are kept, and so are rows under a local id: a contact made offline)."""
    unlisted, keep = not_among(key, [r[key] for r in rows])
    conn.execute(f"DELETE FROM {table} WHERE lead_id = ? AND {key} > 0 AND {unlisted}", (lead_id, *keep))
    upsert(conn, table, rows, conflict)


def write_pages(conn: sqlite3.Connection, lead_id: int, pages: Iterable[JsonMap]) -> None:
    rows = _child_rows("monitoring_pages", lead_id, pages, page_columns)
    _replace_children(conn, "monitoring_pages", lead_id, rows, "id", ("id",))


def write_lead_contacts(conn: sqlite3.Connection, lead_id: int, contacts: Iterable[JsonMap]) -> None:
    rows = _child_rows("lead_contacts", lead_id, contacts, lead_contact_columns, "contact_id")
    _replace_children(conn, "lead_contacts", lead_id, rows, "contact_id", ("lead_id", "contact_id"))


def write_competitors(conn: sqlite3.Connection, lead_id: int, competitors: Iterable[JsonMap]) -> None:
    rows = _child_rows("competitors", lead_id, competitors, competitor_columns)
    _replace_children(conn, "competitors", lead_id, rows, "id", ("id",))


def write_touchpoints(conn: sqlite3.Connection, lead_id: int, touchpoints: Iterable[JsonMap]) -> None:
    """Add or update touchpoints; older ones beyond the server's window of 50 are kept.

    Rows are matched by server id and only the server's columns are written, so the link
    to our op (`op_id`) and when the rep logged it (`logged_at`) survive every refresh.
    """
    upsert(conn, "touchpoints", _child_rows("touchpoints", lead_id, touchpoints, touchpoint_columns))


def write_notes(conn: sqlite3.Connection, lead_id: int, notes: Iterable[JsonMap]) -> None:
    """Add or update notes by server id (`op_id` and `logged_at` kept, as for touchpoints)."""
    upsert(conn, "notes", _child_rows("notes", lead_id, notes, note_columns))


def write_recommendations(conn: sqlite3.Connection, lead_id: int, recs: Iterable[JsonMap]) -> None:
    """The lead's active recommendations are exactly `recs`; the rest left the server's queue."""
    rows = _child_rows("recommendations", lead_id, recs, recommendation_columns)
    _replace_children(conn, "recommendations", lead_id, rows, "id", ("id",))


def write_lead_detail(conn: sqlite3.Connection, detail: JsonMap, fetched_at: float) -> int:
    """A full lead detail: the scalar part into `leads`, each array into its table. A
    detail whose id the cache cannot hold is refused (`ValueError`) before any write."""
    raw_id = detail.get("id")
    lead_id = storable_id(raw_id)
    if lead_id is None:
        if isinstance(raw_id, int):
            raise BeyondInt64(raw_id, "lead id")
        raise ValueError(f"a lead detail without a usable id ({_shown(raw_id):.40})")
    write_leads(conn, [detail])
    conn.execute("UPDATE leads SET detail_fetched_at = ? WHERE id = ?", (fetched_at, lead_id))
    writers = {
        "monitoring_pages": write_pages,
        "contacts": write_lead_contacts,
        "competitors": write_competitors,
        "touchpoints": write_touchpoints,
        "notes": write_notes,
        "recommendations": write_recommendations,
    }
    for key, writer in writers.items():
        value = detail.get(key)
        if isinstance(value, list):
            writer(conn, lead_id, value)
    return lead_id
