"""What each kind of queued action does to the cache, before and after the server answers.

The model: what the rep sees for a lead is the server's last word (the `raw` snapshots)
plus the local effects of that lead's actions still in the outbox (pending, in flight,
ambiguous or failed), applied in the order they were queued. `rebase` rebuilds exactly
that: it restores the lead's rows from their snapshots and re-applies the live actions.
It runs after every change to either side: fresh server data, an action delivered (its
answer is folded into the snapshots first), undone, discarded or edited. Because of this,
an apply function never needs to remember what it overwrote, and undo is always exact.
Appends (activities, notes, competitors) commute with everything else, so a rebase
applies all of a lead's queued appends in a few set-based statements and replays only
the other ops one by one: a lead with a thousand queued activities stays cheap.

Payloads are the request: the path ids and body fields of the operation, named as in
docs/wire.md, so the sync engine can send them as they are. `meta` holds local-only facts
(the guessed activity type, whether the action was queued offline).

Which effect a kind has is its spec's `effect` (`warmline.ops.specs`), a value
(`warmline.ops.effects`) this module carries out: `_behaviour` matches on it once, for
every kind (the table in `warmline.ops.specs` says what each kind's effect is).

Annotations are evaluated, not strings, as in `warmline.store.rows` (its named tuples
are defined before the first frame).
"""


import functools
import sqlite3
from collections.abc import Callable, Mapping
from typing import assert_never

from warmline.named_tuple import NamedTuple
from warmline.ops.effects import (
    AppendRow,
    AppendTable,
    ChildFlag,
    ChildTable,
    CloseRecommendation,
    CreatedByService,
    Effect,
    HideLead,
    LocalRecord,
    SetDeal,
    SetLeadField,
    StartJob,
)
from warmline.store.clock import iso
from warmline.store.mapping import (
    company_columns,
    competitor_columns,
    contact_columns,
    dumps,
    lead_columns,
    lead_contact_columns,
    note_columns,
    page_columns,
    touchpoint_columns,
    unwrap,
)
from warmline.store.rows import EFFECT_STATES, Op, op_from_row
from warmline.store.tombstones import is_tombstoned
from warmline.store.values import JsonMap, JsonObject, JsonValue, SqlRow, SqlValue
from warmline.store.writers import (
    lead_exists,
    lead_snapshot_of,
    patch_lead_snapshot,
    upsert,
    write_leads,
)

Applier = Callable[[sqlite3.Connection, Op], None]
Folder = Callable[[sqlite3.Connection, Op, JsonObject, float], None]
# Applies every live op of a kind on a lead at once (or only `op_id`): appends commute with
# each other and with every other kind, so a lead with a thousand queued activities is
# rebuilt in a few statements rather than a thousand.
BulkApplier = Callable[[sqlite3.Connection, int, str | None], None]

_LIVE = "(" + ", ".join(f"'{state}'" for state in EFFECT_STATES) + ")"


class Behaviour(NamedTuple):
    """What one kind does: `apply` its local effect, fold its answer (`on_success`), and,
    for an append, apply every live op of the kind on a lead at once (`apply_all`)."""

    apply: Applier
    on_success: Folder
    apply_all: BulkApplier | None


# --- helpers -------------------------------------------------------------------------


def _live_of(kind: str, lead_id: int, op_id: str | None) -> tuple[str, tuple[SqlValue, ...]]:
    """WHERE clause (on outbox `o`) for the lead's live ops of `kind`, or just `op_id`."""
    clause = f"o.kind = ? AND o.lead_id = ? AND o.state IN {_LIVE}"
    return (clause + " AND o.op_id = ?", (kind, lead_id, op_id)) if op_id else (clause, (kind, lead_id))


def _insert_pending_rows(
    conn: sqlite3.Connection, table: str, kind: str, lead_id: int, op_id: str | None, columns: Mapping[str, str]
) -> None:
    """Pending rows (one per live op, keyed by op id) from the ops' payloads; rows already
    there are kept, and nothing is added for a lead that is not (or no longer) cached."""
    where, params = _live_of(kind, lead_id, op_id)
    names = ", ".join(["lead_id", "op_id", *columns])
    values = ", ".join(["o.lead_id", "o.op_id", *columns.values()])
    conn.execute(
        f"INSERT OR IGNORE INTO {table} ({names}) SELECT {values} FROM outbox o"
        f" WHERE {where} AND EXISTS (SELECT 1 FROM leads WHERE id = o.lead_id) ORDER BY o.seq",
        params,
    )


def _replace_local(
    conn: sqlite3.Connection,
    table: str,
    op: Op,
    record: object,
    columns_of: Callable[[int, JsonMap], SqlRow],
    *,
    logged: bool = False,
) -> SqlRow | None:
    """Swap the op's pending row for the server's record (when the answer carried one);
    returns the record's columns.

    With `logged`, the record keeps when the rep took the action (`logged_at`, the op's
    creation): the service's `created_at` is only when it arrived there. Later refreshes
    update the row by id and never name `op_id` or `logged_at`, so both stay.
    """
    conn.execute(f"DELETE FROM {table} WHERE op_id = ?", (op.op_id,))
    if op.lead_id is None or not isinstance(record, Mapping):
        return None
    row = columns_of(op.lead_id, record)
    if row.get("id") is not None and lead_exists(conn, op.lead_id):
        extra: SqlRow = {"op_id": op.op_id, **({"logged_at": op.created_at} if logged else {})}
        upsert(conn, table, [{**row, **extra}])
    return row


def _insert_job(conn: sqlite3.Connection, op: Op, kind: str, **columns: SqlValue) -> None:
    values: SqlRow = {
        "kind": kind,
        "status": "queued",
        "active": 1,
        "params": dumps(op.payload),
        "created_at": op.created_at,
        "updated_at": op.created_at,
        "queued_offline": 1 if op.meta.get("queued_offline") else 0,
        "op_id": op.op_id,
        **columns,
    }
    names = ", ".join(values)
    marks = ", ".join("?" for _ in values)
    conn.execute(f"INSERT OR IGNORE INTO jobs ({names}) VALUES ({marks})", tuple(values.values()))


def attach_job(
    conn: sqlite3.Connection, op: Op, kind: str, remote_id: JsonValue, answer: JsonMap, now: float
) -> None:
    """The server accepted a job start: give the queued job its remote id and first status.

    A job already known under that id (a signal scan started again on the same lead) is
    reused, so each remote job has one row.
    """
    status = str(answer.get("status") or "pending")
    fields: SqlRow = {
        "status": status,
        "active": 1,
        "progress": answer.get("progress") if isinstance(answer.get("progress"), int) else None,
        "updated_at": iso(now),
        "next_poll_at": now,
        "error": None,
        "completed_at": None,
        "results_applied": 0,
        "raw": dumps(dict(answer)),
    }
    remote = None if remote_id is None else str(remote_id)
    existing = None
    if remote is not None:
        existing = conn.execute(
            "SELECT key FROM jobs WHERE kind = ? AND remote_id = ? AND op_id IS NOT ?",
            (kind, remote, op.op_id),
        ).fetchone()
    sets = ", ".join(f"{k} = ?" for k in fields)
    if existing is not None:
        conn.execute("DELETE FROM jobs WHERE op_id = ?", (op.op_id,))
        conn.execute(
            f"UPDATE jobs SET {sets}, op_id = ? WHERE key = ?", (*fields.values(), op.op_id, existing[0])
        )
        return
    _insert_job(conn, op, kind, lead_id=op.lead_id, company_id=op.payload.get("company_id"))
    conn.execute(f"UPDATE jobs SET {sets}, remote_id = ? WHERE op_id = ?", (*fields.values(), remote, op.op_id))


def _set_raw(conn: sqlite3.Connection, table: str, where: str, params: tuple[SqlValue, ...], changes: JsonMap) -> None:
    """Patch the server snapshot of child rows when the answer did not carry the record."""
    conn.execute(f"UPDATE {table} SET raw = json_patch(raw, ?) WHERE {where}", (dumps(dict(changes)), *params))


def _count(conn: sqlite3.Connection, lead_id: int | None, key: str) -> int:
    snapshot = lead_snapshot_of(conn, lead_id) if lead_id is not None else None
    value = (snapshot or {}).get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


# --- appends ---------------------------------------------------------------------------


def _touchpoint_done(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
    row = _replace_local(conn, "touchpoints", op, answer.get("touchpoint"), touchpoint_columns, logged=True)
    bonus = answer.get("bonus_info")
    reason = bonus.get("reason") if isinstance(bonus, Mapping) else None
    if row is not None and row.get("id") is not None and isinstance(reason, str) and reason:
        conn.execute("UPDATE touchpoints SET bonus_reason = ? WHERE id = ?", (reason, row["id"]))
    changes: JsonObject = {"activity_count": _count(conn, op.lead_id, "activity_count") + 1}
    snapshot = lead_snapshot_of(conn, op.lead_id) or {}
    created = row.get("created_at") if row is not None else None
    happened = created if isinstance(created, str) and created else op.created_at
    if (snapshot.get("last_activity_at") or "") < happened:
        changes["last_activity_at"] = happened
    if isinstance(answer.get("warming_score"), int):
        changes["warming_score"] = answer["warming_score"]
    patch_lead_snapshot(conn, op.lead_id, changes)


def _log_activities(conn: sqlite3.Connection, kind: str, lead_id: int, op_id: str | None) -> None:
    _insert_pending_rows(
        conn,
        "touchpoints",
        kind,
        lead_id,
        op_id,
        {
            "description": "json_extract(o.payload, '$.description')",
            "detected_type": "json_extract(o.meta, '$.guessed_type')",
            "contact_id": "json_extract(o.payload, '$.contact_id')",
            "bonus_points": "0",
            "created_at": "o.created_at",
            "logged_at": "o.created_at",
        },
    )
    where, params = _live_of(kind, lead_id, op_id)
    count, latest = conn.execute(f"SELECT count(*), max(o.created_at) FROM outbox o WHERE {where}", params).fetchone()
    if count:
        conn.execute(
            "UPDATE leads SET activity_count = activity_count + ?,"
            " last_activity_at = max(coalesce(last_activity_at, ''), ?) WHERE id = ?",
            (count, latest, lead_id),
        )


def _note_done(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
    _replace_local(conn, "notes", op, answer.get("note"), note_columns, logged=True)


def _add_notes(conn: sqlite3.Connection, kind: str, lead_id: int, op_id: str | None) -> None:
    _insert_pending_rows(
        conn, "notes", kind, lead_id, op_id,
        {
            "content": "json_extract(o.payload, '$.content')",
            "created_at": "o.created_at",
            "logged_at": "o.created_at",
        },
    )


def _competitor_added(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
    _replace_local(conn, "competitors", op, answer.get("competitor"), competitor_columns)


def _add_competitors(conn: sqlite3.Connection, kind: str, lead_id: int, op_id: str | None) -> None:
    _insert_pending_rows(
        conn, "competitors", kind, lead_id, op_id,
        {"name": "json_extract(o.payload, '$.name')", "domain": "json_extract(o.payload, '$.domain')"},
    )


# Each table an append fills: its pending rows of a kind's live ops, and the fold of an answer.
_APPENDS: dict[AppendTable, tuple[Callable[[sqlite3.Connection, str, int, str | None], None], Folder]] = {
    "touchpoints": (_log_activities, _touchpoint_done),
    "notes": (_add_notes, _note_done),
    "competitors": (_add_competitors, _competitor_added),
}


def _append(kind: str, table: AppendTable) -> Behaviour:
    add_rows, on_success = _APPENDS[table]

    def apply_all(conn: sqlite3.Connection, lead_id: int, op_id: str | None) -> None:
        add_rows(conn, kind, lead_id, op_id)

    def apply(conn: sqlite3.Connection, op: Op) -> None:
        if op.lead_id is not None:
            apply_all(conn, op.lead_id, op.op_id)

    return Behaviour(apply, on_success, apply_all)


# --- recommendations -------------------------------------------------------------------


def _recommendation_done(status: str) -> Folder:
    def fold(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
        rec_id = op.payload["recommendation_id"]
        found = answer.get("recommendation")
        rec: JsonMap = found if isinstance(found, Mapping) else {}
        final = str(rec.get("status") or status)
        closed = conn.execute(
            "UPDATE recommendations SET status = ?, raw = json_patch(raw, ?) WHERE id = ? AND status = 'active'",
            (final, dumps({**rec, "status": final}), rec_id),
        ).rowcount
        auto = [i for i in answer.get("auto_dismissed") or [] if isinstance(i, int)]
        marks = ", ".join("?" for _ in auto) or "NULL"
        auto_closed = conn.execute(
            f"UPDATE recommendations SET status = 'dismissed' WHERE id IN ({marks}) AND status = 'active'",
            tuple(auto),
        ).rowcount
        snapshot = lead_snapshot_of(conn, op.lead_id)
        if snapshot is None:
            return
        changes: JsonObject = {
            "recommendation_count": max(0, _count(conn, op.lead_id, "recommendation_count") - closed - auto_closed)
        }
        progress = snapshot.get("rec_progress")
        if isinstance(progress, dict):
            progress = dict(progress)
            key = "completed" if final == "completed" else "dismissed"
            progress[key] = int(progress.get(key) or 0) + closed
            progress["dismissed"] = int(progress.get("dismissed") or 0) + auto_closed
            changes["rec_progress"] = progress
        if isinstance(answer.get("warming_score"), int):
            changes["warming_score"] = answer["warming_score"]
        patch_lead_snapshot(conn, op.lead_id, changes)

    return fold


def _close_recommendation(status: str) -> Applier:
    def apply(conn: sqlite3.Connection, op: Op) -> None:
        rec_id = op.payload["recommendation_id"]
        closed = conn.execute(
            "UPDATE recommendations SET local_status = ?"
            " WHERE id = ? AND status = 'active' AND local_status IS NULL",
            (status, rec_id),
        ).rowcount
        if closed and status == "completed":
            # The spec's rule, applied at once: completing a card dismisses the lead's other
            # active cards on the same post. The rep never sees (and never acts on) a card
            # the service is about to dismiss; the answer's `auto_dismissed` confirms it.
            closed += conn.execute(
                "UPDATE recommendations SET local_status = 'dismissed'"
                " WHERE lead_id = ? AND id != ? AND status = 'active' AND local_status IS NULL"
                " AND target_url IS NOT NULL AND target_url != ''"
                " AND target_url = (SELECT target_url FROM recommendations WHERE id = ?)",
                (op.lead_id, rec_id, rec_id),
            ).rowcount
        if closed:
            conn.execute(
                "UPDATE leads SET recommendation_count = max(0, recommendation_count - ?) WHERE id = ?",
                (closed, op.lead_id),
            )

    return apply



# --- set-to-value on the lead ------------------------------------------------------------


def _lead_field_done(field: str) -> Folder:
    def fold(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
        value = answer.get(field, op.payload[field])
        patch_lead_snapshot(conn, op.lead_id, {field: value})

    return fold


def _set_lead_field(field: str) -> Applier:
    def apply(conn: sqlite3.Connection, op: Op) -> None:
        column = lead_columns({field: op.payload[field]})[field]
        conn.execute(f"UPDATE leads SET {field} = ? WHERE id = ?", (column, op.lead_id))

    return apply


_DEAL_FIELDS = ("deal_value", "deal_currency", "won_at", "closed_at", "closed_reason")


def deal_changes(payload: JsonMap, at: str) -> JsonObject:
    """The deal fields a deal update sets, as the server would (wire: won/lost markers)."""
    changes: JsonObject = {}
    for key in ("deal_value", "deal_currency", "closed_reason"):
        if key in payload:
            changes[key] = payload[key]
    if "won" in payload:
        changes["won_at"] = at if payload["won"] else None
    if "lost" in payload:
        changes["closed_at"] = at if payload["lost"] else None
        if not payload["lost"]:
            changes["closed_reason"] = None
    return changes


def _deal_done(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
    """The deal as the update made it: what the answer says wins, and a field the answer
    leaves out (a sparse or minimal answer) is what the update set, never a blank."""
    said = {k: answer[k] for k in _DEAL_FIELDS if k in answer}
    patch_lead_snapshot(conn, op.lead_id, {**deal_changes(op.payload, op.created_at), **said})


def _update_deal(conn: sqlite3.Connection, op: Op) -> None:
    changes = lead_columns(deal_changes(op.payload, op.created_at))
    if changes:
        sets = ", ".join(f"{k} = ?" for k in changes)
        conn.execute(f"UPDATE leads SET {sets} WHERE id = ?", (*changes.values(), op.lead_id))


def _remove_done(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
    conn.execute("DELETE FROM leads WHERE id = ?", (op.lead_id,))


def _remove_lead(conn: sqlite3.Connection, op: Op) -> None:
    conn.execute("UPDATE leads SET hidden = 1 WHERE id = ?", (op.lead_id,))


# --- flags on the lead's records ----------------------------------------------------------------


class _Children(NamedTuple):
    """How one table of the lead's records is written: the column an op's id names, the
    columns of a record the answer carries, and the key it is upserted by."""

    key: str
    columns_of: Callable[[int, JsonMap], SqlRow]
    conflict: tuple[str, ...]
    # The record is written only while its lead is cached (a key contact's row is keyed by
    # the lead itself, so it needs no such check).
    needs_lead: bool


_CHILDREN: dict[ChildTable, _Children] = {
    "lead_contacts": _Children("contact_id", lead_contact_columns, ("lead_id", "contact_id"), False),
    "monitoring_pages": _Children("id", page_columns, ("id",), True),
    "competitors": _Children("id", competitor_columns, ("id",), True),
}


def _flag_set(flag: ChildFlag) -> Applier:
    table = _CHILDREN[flag.table]

    def apply(conn: sqlite3.Connection, op: Op) -> None:
        value = (1 if op.payload[flag.flag] else 0) if flag.from_payload else 1
        conn.execute(
            f"UPDATE {flag.table} SET {flag.flag} = ? WHERE {table.key} = ? AND lead_id = ?",
            (value, op.payload[flag.id_field], op.lead_id),
        )

    return apply


def _flag_done(flag: ChildFlag) -> Folder:
    """The record the answer carries replaces the cached one; without it, the server's
    snapshot of the record takes the flag the op set (a local mark is never in it)."""
    table = _CHILDREN[flag.table]

    def fold(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
        record = answer.get(flag.answer_key)
        if (
            isinstance(record, Mapping)
            and record.get("id") is not None
            and op.lead_id is not None
            and (not table.needs_lead or lead_exists(conn, op.lead_id))
        ):
            upsert(conn, flag.table, [table.columns_of(op.lead_id, record)], table.conflict)
        elif flag.from_payload:
            where, params = (
                ("id = ?", (op.payload[flag.id_field],))
                if table.key == "id"
                else (f"lead_id = ? AND {table.key} = ?", (op.lead_id, op.payload[flag.id_field]))
            )
            _set_raw(conn, flag.table, where, params, {flag.flag: op.payload[flag.flag]})

    return fold


# --- leads and contacts created by the server ---------------------------------------------


def _leads_added(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
    leads = [lead for lead in answer.get("leads") or [] if isinstance(lead, Mapping)]
    write_leads(conn, leads)


def _nothing(conn: sqlite3.Connection, op: Op) -> None:
    """No local effect: what the action creates has ids only the server can give."""


def _contacts_added(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
    contacts = [c for c in answer.get("contacts") or [] if isinstance(c, Mapping) and c.get("id") is not None]
    upsert(conn, "contacts", [contact_columns(c) for c in contacts])


# --- records made offline, under a local id ----------------------------------------------------

LOCAL_ID = "local_id"  # the payload's field (`warmline.ops.creates.LOCAL_FIELD`)


def _make_local(record: LocalRecord) -> Applier:
    """The record as the rep typed it, under its local id (shown as pending: id < 0)."""

    def apply(conn: sqlite3.Connection, op: Op) -> None:
        fields = {key: value for key, value in op.payload.items() if key != LOCAL_ID}
        upsert(conn, record.table, [_columns(record)({**fields, "id": op.payload[LOCAL_ID]})])

    return apply


def _local_done(record: LocalRecord) -> Folder:
    """The service's record takes the local one's place, and its id the local id's, in the
    same transaction that marks the create done (`OutboxStore.mark_done_many`)."""

    def fold(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
        found = answer.get(record.answer_key)
        remote = found.get("id") if isinstance(found, Mapping) else None
        if not isinstance(found, Mapping) or not isinstance(remote, int) or remote < 1:
            return  # the spec's check keeps such an answer from being marked done
        local = op.payload[LOCAL_ID]
        conn.execute(f"DELETE FROM {record.table} WHERE id = ?", (local,))
        upsert(conn, record.table, [_columns(record)(found)])
        if record.table == "companies":
            leads = substitute_company_id(conn, local, remote)
        else:
            leads = substitute_id(conn, record.id_field, local, remote, found)
        for lead_id in leads:
            rebase(conn, lead_id)

    return fold


def _columns(record: LocalRecord) -> Callable[[JsonMap], SqlRow]:
    return company_columns if record.table == "companies" else contact_columns


def substitute_company_id(conn: sqlite3.Connection, local: int, remote: int) -> set[int]:
    """Put `remote` for `local` wherever the cache names the local company: the `company_id`
    and `company_ids` of ops not yet done (which may then be sent), and the contacts made
    offline on it. Returns the leads of the ops touched, for the caller to rebase."""
    in_list = "EXISTS (SELECT 1 FROM json_each(payload, '$.company_ids') WHERE value = ?)"
    leads = {
        row[0]
        for row in conn.execute(
            "SELECT lead_id FROM outbox WHERE lead_id IS NOT NULL AND state != 'done'"
            f" AND (json_extract(payload, '$.company_id') = ? OR {in_list})",
            (local, local),
        )
    }
    conn.execute(
        "UPDATE outbox SET payload = json_set(payload, '$.company_id', ?)"
        " WHERE state != 'done' AND json_extract(payload, '$.company_id') = ?",
        (remote, local),
    )
    conn.execute(
        "UPDATE outbox SET payload = json_set(payload, '$.company_ids', json((SELECT json_group_array("
        " CASE WHEN value = ? THEN ? ELSE value END) FROM json_each(payload, '$.company_ids'))))"
        f" WHERE state != 'done' AND {in_list}",
        (local, remote, local),
    )
    conn.execute("UPDATE contacts SET company_id = ? WHERE company_id = ?", (remote, local))
    return leads


def substitute_id(
    conn: sqlite3.Connection, field: str, local: int, remote: int, record: JsonMap
) -> set[int]:
    """Put `remote` for `local` wherever the cache names the local contact: the payloads of
    ops not yet done (which may then be sent), the leads' contacts and activities. Returns
    the leads touched, for the caller to rebase."""
    path = f"$.{field}"
    leads = {
        row[0]
        for row in conn.execute(
            "SELECT lead_id FROM outbox WHERE lead_id IS NOT NULL AND state != 'done' AND json_extract(payload, ?) = ?"
            " UNION SELECT lead_id FROM lead_contacts WHERE contact_id = ?"
            " UNION SELECT lead_id FROM touchpoints WHERE contact_id = ?",
            (path, local, local, local),
        )
    }
    conn.execute(
        "UPDATE outbox SET payload = json_set(payload, ?, ?) WHERE state != 'done' AND json_extract(payload, ?) = ?",
        (path, remote, path, local),
    )
    conn.execute("UPDATE touchpoints SET contact_id = ? WHERE contact_id = ?", (remote, local))
    for (lead_id,) in conn.execute("SELECT lead_id FROM lead_contacts WHERE contact_id = ?", (local,)).fetchall():
        conn.execute("DELETE FROM lead_contacts WHERE lead_id = ? AND contact_id = ?", (lead_id, local))
        # The service lists the company's contacts on the lead, unpinned until a pin says so
        # (a refresh may have brought the row already: it is kept).
        fields = {key: record.get(key) for key in ("first_name", "last_name", "title", "role", "email", "social_url")}
        row = lead_contact_columns(lead_id, {**fields, "id": remote, "is_selected": False})
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        conn.execute(f"INSERT OR IGNORE INTO lead_contacts ({names}) VALUES ({marks})", tuple(row.values()))
    return leads


def _drop_local_records(conn: sqlite3.Connection) -> None:
    """Records made offline whose create is no longer live (undone, discarded): gone, and
    the leads' rows naming them too."""
    live = (
        f"SELECT json_extract(payload, '$.{LOCAL_ID}') FROM outbox WHERE state IN {_LIVE}"
        f" AND json_extract(payload, '$.{LOCAL_ID}') IS NOT NULL"
    )
    conn.execute(f"DELETE FROM contacts WHERE id < 0 AND id NOT IN ({live})")
    conn.execute(f"DELETE FROM companies WHERE id < 0 AND id NOT IN ({live})")
    conn.execute(f"DELETE FROM lead_contacts WHERE contact_id < 0 AND contact_id NOT IN ({live})")


# --- job starts ------------------------------------------------------------------------------


def _job_started(kind: str, id_field: str | None, lead_field: str | None = None) -> Folder:
    def fold(conn: sqlite3.Connection, op: Op, answer: JsonObject, now: float) -> None:
        remote = answer.get(id_field) if id_field else op.lead_id
        attach_job(conn, op, kind, remote, answer, now)
        if lead_field is not None and op.lead_id is not None:
            patch_lead_snapshot(conn, op.lead_id, {lead_field: str(answer.get("status") or "pending")})

    return fold


def _start_job(kind: str, lead_field: str | None = None) -> Applier:
    def apply(conn: sqlite3.Connection, op: Op) -> None:
        _insert_job(conn, op, kind, lead_id=op.lead_id, company_id=op.payload.get("company_id"))
        if lead_field is not None:
            conn.execute(f"UPDATE leads SET {lead_field} = 'queued' WHERE id = ?", (op.lead_id,))

    return apply


# --- every kind's behaviour, from its spec ------------------------------------------------------


def _behaviour(kind: str, effect: Effect) -> Behaviour:
    """What the store does for an op whose spec has `effect`."""
    match effect:
        case AppendRow(table=table):
            return _append(kind, table)
        case CloseRecommendation(status=status):
            return Behaviour(_close_recommendation(status), _recommendation_done(status), None)
        case SetLeadField(field=field):
            return Behaviour(_set_lead_field(field), _lead_field_done(field), None)
        case SetDeal():
            return Behaviour(_update_deal, _deal_done, None)
        case HideLead():
            return Behaviour(_remove_lead, _remove_done, None)
        case ChildFlag():
            return Behaviour(_flag_set(effect), _flag_done(effect), None)
        case CreatedByService(records="leads"):
            return Behaviour(_nothing, _leads_added, None)
        case CreatedByService():
            return Behaviour(_nothing, _contacts_added, None)
        case LocalRecord():
            return Behaviour(_make_local(effect), _local_done(effect), None)
        case StartJob(job=job, id_field=id_field, lead_field=lead_field):
            return Behaviour(_start_job(job, lead_field), _job_started(job, id_field, lead_field), None)
        case _:
            assert_never(effect)


class _Table(NamedTuple):
    """What the store does per kind, derived once from the specs."""

    behaviours: dict[str, Behaviour]
    flags: tuple[ChildFlag, ...]  # every flag an op sets on the lead's records
    bulk_kinds: str  # the appends, as an SQL list


@functools.cache
def _table() -> _Table:
    # The specs load the api's limits; the cockpit's first frame reads the store without them.
    from warmline.ops.specs import SPECS  # deferred: first frame

    behaviours: dict[str, Behaviour] = {kind: _behaviour(kind, spec.effect) for kind, spec in SPECS.items()}
    flags = tuple(dict.fromkeys(spec.effect for spec in SPECS.values() if isinstance(spec.effect, ChildFlag)))
    bulk = "(" + ", ".join(f"'{k}'" for k, b in behaviours.items() if b.apply_all is not None) + ")"
    return _Table(behaviours, flags, bulk)


def knows_kind(kind: str) -> bool:
    """Whether this version has a spec for `kind` (an op of another kind cannot be queued)."""
    return kind in _table().behaviours


def apply_op(conn: sqlite3.Connection, op: Op) -> None:
    """The op's local effect, as its kind's spec says."""
    _table().behaviours[op.kind].apply(conn, op)


# --- rebuilding what the rep sees ------------------------------------------------------------


PENDING_ROW_TABLES = ("touchpoints", "notes", "competitors")


def restore_lead(conn: sqlite3.Connection, lead_id: int) -> None:
    """Put the lead's rows back to the server's last word, dropping every local effect."""
    snapshot = lead_snapshot_of(conn, lead_id)
    if snapshot is not None:
        # A lead the service removed stays out of the lists (see store.tombstones).
        columns = {**lead_columns(snapshot, complete=True), "hidden": int(is_tombstoned(conn, lead_id))}
        sets = ", ".join(f"{k} = ?" for k in columns)
        conn.execute(f"UPDATE leads SET {sets} WHERE id = ?", (*columns.values(), lead_id))
    for table in PENDING_ROW_TABLES:
        # Pending rows of ops still live are kept: the bulk appliers only add missing ones.
        conn.execute(
            f"DELETE FROM {table} WHERE lead_id = ? AND id IS NULL AND NOT EXISTS"
            f" (SELECT 1 FROM outbox o WHERE o.op_id = {table}.op_id AND o.state IN {_LIVE})",
            (lead_id,),
        )
    for flag in _table().flags:
        # A flag the service's record says goes back to what it says; a local mark is cleared.
        value = f"coalesce(json_extract(raw, '$.{flag.flag}'), 0)" if flag.from_payload else "0"
        conn.execute(f"UPDATE {flag.table} SET {flag.flag} = {value} WHERE lead_id = ?", (lead_id,))
    conn.execute("UPDATE recommendations SET local_status = NULL WHERE lead_id = ? AND local_status IS NOT NULL", (lead_id,))


def forget_pending_rows(conn: sqlite3.Connection, op_id: str) -> None:
    """Drop an op's pending rows so the next rebase rebuilds them (its payload changed)."""
    for table in PENDING_ROW_TABLES:
        conn.execute(f"DELETE FROM {table} WHERE op_id = ? AND id IS NULL", (op_id,))


def _drop_queued_jobs(conn: sqlite3.Connection, lead_id: int | None) -> None:
    """Jobs created by actions not yet delivered; rebuilt from the outbox right after."""
    conn.execute(
        "DELETE FROM jobs WHERE lead_id IS ? AND op_id IS NOT NULL AND NOT EXISTS"
        " (SELECT 1 FROM outbox o WHERE o.op_id = jobs.op_id AND o.state = 'done')",
        (lead_id,),
    )


def live_ops(conn: sqlite3.Connection, lead_id: int | None, *, bulk: bool = True) -> list[Op]:
    """The live ops of a lead (or of no lead) in queue order; `bulk=False` leaves out appends."""
    skip = "" if bulk else f" AND kind NOT IN {_table().bulk_kinds}"
    cursor = conn.execute(
        f"SELECT * FROM outbox WHERE lead_id IS ? AND state IN {_LIVE}{skip} ORDER BY seq", (lead_id,)
    )
    names = [d[0] for d in cursor.description]
    return [op_from_row(dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


def rebase(conn: sqlite3.Connection, lead_id: int | None) -> None:
    """Server state plus the live actions of this lead (or of no lead), in queue order.

    Only the kinds the lead has live are re-applied: this runs once per delivered op, so
    the statements of absent kinds would be most of the sync engine's cost per op.
    """
    live_kinds = {
        row[0]
        for row in conn.execute(
            f"SELECT DISTINCT kind FROM outbox WHERE lead_id IS ? AND state IN {_LIVE}", (lead_id,)
        )
    }
    behaviours = _table().behaviours
    if lead_id is not None:
        restore_lead(conn, lead_id)
        for name, behaviour in behaviours.items():
            if behaviour.apply_all is not None and name in live_kinds:
                behaviour.apply_all(conn, lead_id, None)
    _drop_queued_jobs(conn, lead_id)
    if lead_id is None:
        _drop_local_records(conn)
    if any(behaviours[name].apply_all is None for name in live_kinds):
        for op in live_ops(conn, lead_id, bulk=False):
            behaviours[op.kind].apply(conn, op)


def leads_with_live_ops(conn: sqlite3.Connection) -> set[int]:
    rows = conn.execute(
        f"SELECT DISTINCT lead_id FROM outbox WHERE lead_id IS NOT NULL AND state IN {_LIVE}"
    ).fetchall()
    return {r[0] for r in rows}


def rebase_touched(conn: sqlite3.Connection, lead_ids: set[int] | list[int]) -> None:
    """After server data for these leads arrived: re-apply the live actions of those that have any."""
    for lead_id in sorted(leads_with_live_ops(conn).intersection(lead_ids)):
        rebase(conn, lead_id)


def fold_answer(conn: sqlite3.Connection, op: Op, result: JsonMap | None, now: float) -> None:
    """Fold the server's answer to a delivered op into the snapshots (the caller then rebases)."""
    _table().behaviours[op.kind].on_success(conn, op, unwrap(result or {}), now)
