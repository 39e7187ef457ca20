"""Leads themselves: adding and removing them, their list item, status, target score, deal.

A lead is a saved company in the outreach pipeline. The list item's counts are computed
from the lead's rows in one query, so every response that shows a lead shows it
consistently.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from warmline_sandbox.db import iso
from warmline_sandbox.errors import ApiError, conflict, not_found
from warmline_sandbox.outreach.activity import apply_points
from warmline_sandbox.pagination import Page

LEAD_NOT_FOUND = "Outreach lead not found"
DEAL_NEEDS_WARM = "Deal tracking is only available for warm leads"
DEFAULT_TARGET_SCORE = 75

_LIST_ITEM_SQL = """
SELECT l.id, l.company_id, c.name AS company_name, l.lead_status, l.warming_score,
       l.target_score, l.created_at,
       (SELECT COUNT(*) FROM outreach_touchpoints t WHERE t.lead_id = l.id) AS activity_count,
       (SELECT COUNT(*) FROM outreach_recommendations r
         WHERE r.lead_id = l.id AND r.status = 'active') AS recommendation_count,
       EXISTS (SELECT 1 FROM outreach_pages p
                WHERE p.lead_id = l.id AND p.is_selected) AS monitoring_active,
       (SELECT MAX(t.created_at) FROM outreach_touchpoints t
         WHERE t.lead_id = l.id) AS last_activity_at
FROM outreach_leads l JOIN companies c ON c.id = l.company_id
"""


def require_lead(conn: sqlite3.Connection, lead_id: int) -> sqlite3.Row:
    """The lead's row, or the spec's 404 for every outreach endpoint."""
    row = conn.execute("SELECT * FROM outreach_leads WHERE id = ?", (lead_id,)).fetchone()
    if row is None:
        raise not_found(LEAD_NOT_FOUND)
    return row


def list_item(conn: sqlite3.Connection, lead_id: int) -> dict[str, Any]:
    row = conn.execute(_LIST_ITEM_SQL + " WHERE l.id = ?", (lead_id,)).fetchone()
    if row is None:
        raise not_found(LEAD_NOT_FOUND)
    return _item(row)


def list_leads(
    conn: sqlite3.Connection, lead_status: str | None, page: Page
) -> tuple[list[dict[str, Any]], int]:
    """One page of leads (of one status, or both), oldest first so pages stay stable."""
    where, args = ("WHERE l.lead_status = ?", (lead_status,)) if lead_status else ("", ())
    total = conn.execute(
        f"SELECT COUNT(*) FROM outreach_leads l JOIN companies c ON c.id = l.company_id {where}",
        args,
    ).fetchone()[0]
    rows = conn.execute(
        f"{_LIST_ITEM_SQL} {where} ORDER BY l.id LIMIT ? OFFSET ?",
        (*args, page.per_page, page.offset),
    ).fetchall()
    return [_item(row) for row in rows], int(total)


def _item(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "company_id": row["company_id"],
        "company_name": row["company_name"],
        "lead_status": row["lead_status"],
        "warming_score": row["warming_score"],
        "activity_count": row["activity_count"],
        "recommendation_count": row["recommendation_count"],
        "monitoring_active": bool(row["monitoring_active"]),
        "last_activity_at": row["last_activity_at"],
        "target_score": row["target_score"],
        "created_at": row["created_at"],
    }


def add_leads(
    conn: sqlite3.Connection, company_ids: list[int], lead_status: str, now: datetime
) -> dict[str, Any]:
    """Put saved companies into outreach; unknown or already-present ones are skipped, not fatal."""
    added: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for company_id in company_ids:
        reason = _why_not_addable(conn, company_id)
        if reason:
            skipped.append({"company_id": company_id, "reason": reason})
            continue
        lead_id = insert_lead(conn, company_id, lead_status, now)
        added.append(list_item(conn, lead_id))
    return {"success": True, "added": len(added), "leads": added, "skipped": skipped}


def insert_lead(
    conn: sqlite3.Connection,
    company_id: int,
    lead_status: str,
    now: datetime,
    *,
    warming_score: int = 0,
    target_score: int = DEFAULT_TARGET_SCORE,
) -> int:
    stamp = iso(now)
    cursor = conn.execute(
        "INSERT INTO outreach_leads (company_id, lead_status, warming_score, target_score, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        (company_id, lead_status, warming_score, target_score, stamp, stamp),
    )
    return int(cursor.lastrowid or 0)


def _why_not_addable(conn: sqlite3.Connection, company_id: int) -> str | None:
    if conn.execute("SELECT 1 FROM companies WHERE id = ?", (company_id,)).fetchone() is None:
        return "company not found"
    if conn.execute("SELECT 1 FROM outreach_leads WHERE company_id = ?", (company_id,)).fetchone():
        return "already in outreach"
    return None


def remove_leads(conn: sqlite3.Connection, lead_ids: list[int]) -> int:
    """Remove leads and everything hanging off them; their signal slots are freed by trigger."""
    removed = 0
    for lead_id in dict.fromkeys(lead_ids):
        removed += conn.execute("DELETE FROM outreach_leads WHERE id = ?", (lead_id,)).rowcount
    return removed


def set_status(
    conn: sqlite3.Connection, lead_id: int, lead_status: str, now: datetime
) -> dict[str, Any]:
    require_lead(conn, lead_id)
    update_lead(conn, lead_id, now, lead_status=lead_status)
    return {"success": True, "id": lead_id, "lead_status": lead_status}


def set_target_score(
    conn: sqlite3.Connection, lead_id: int, target_score: int, now: datetime
) -> dict[str, Any]:
    require_lead(conn, lead_id)
    update_lead(conn, lead_id, now, target_score=target_score)
    return {"success": True, "id": lead_id, "target_score": target_score}


def award_points(conn: sqlite3.Connection, lead_id: int, points: int, now: datetime) -> int:
    """Raise the lead's warming score (capped at 100); returns the new score."""
    score = apply_points(require_lead(conn, lead_id)["warming_score"], points)
    update_lead(conn, lead_id, now, warming_score=score)
    return score


@dataclass(frozen=True)
class DealChanges:
    """The deal fields a request provided; `None` means "leave as it is"."""

    deal_value: float | None = None
    deal_currency: str | None = None
    won: bool | None = None
    lost: bool | None = None
    closed_reason: str | None = None


def update_deal(
    conn: sqlite3.Connection, lead_id: int, changes: DealChanges, now: datetime
) -> dict[str, Any]:
    """Apply only the provided deal fields.

    Marking won or lost keeps the first timestamp when repeated, so a retried request
    does not move the date; unmarking clears it.
    """
    lead = require_lead(conn, lead_id)
    if lead["lead_status"] != "warm":
        raise conflict(DEAL_NEEDS_WARM)
    if changes.won and changes.lost:
        raise ApiError(
            400,
            "A deal cannot be both won and lost",
            errors=[{"field": "lost", "message": "cannot be true together with won"}],
        )
    fields: dict[str, Any] = {}
    if changes.deal_value is not None:
        fields["deal_value"] = changes.deal_value
    if changes.deal_currency is not None:
        fields["deal_currency"] = changes.deal_currency.upper()
    if changes.won is not None:
        fields["won_at"] = (lead["won_at"] or iso(now)) if changes.won else None
    if changes.lost is not None:
        fields["closed_at"] = (lead["closed_at"] or iso(now)) if changes.lost else None
        if not changes.lost:
            fields["closed_reason"] = None
    if changes.closed_reason is not None and changes.lost is not False:
        fields["closed_reason"] = changes.closed_reason
    update_lead(conn, lead_id, now, **fields)
    return {"success": True, "id": lead_id, **deal_fields(require_lead(conn, lead_id))}


def deal_fields(lead: sqlite3.Row) -> dict[str, Any]:
    return {
        "deal_value": lead["deal_value"],
        "deal_currency": lead["deal_currency"],
        "won_at": lead["won_at"],
        "closed_at": lead["closed_at"],
        "closed_reason": lead["closed_reason"],
    }


_UPDATABLE = frozenset(
    {
        "lead_status",
        "warming_score",
        "target_score",
        "slot_key",
        "generations",
        "deal_value",
        "deal_currency",
        "won_at",
        "closed_at",
        "closed_reason",
    }
)


def update_lead(conn: sqlite3.Connection, lead_id: int, now: datetime, **fields: Any) -> None:
    """Set some columns of a lead and stamp `updated_at`."""
    unknown = set(fields) - _UPDATABLE
    if unknown:
        raise ValueError(f"not lead columns: {sorted(unknown)}")
    assignments = "".join(f"{name} = ?, " for name in fields)
    conn.execute(
        f"UPDATE outreach_leads SET {assignments}updated_at = ? WHERE id = ?",
        (*fields.values(), iso(now), lead_id),
    )
