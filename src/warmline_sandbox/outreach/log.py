"""A lead's activity log (touchpoints, which raise the warming score) and its notes."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Any

from warmline_sandbox.db import iso
from warmline_sandbox.outreach.activity import score_activity
from warmline_sandbox.outreach.leads import award_points, require_lead
from warmline_sandbox.outreach.people import contact_role

RECENT_TOUCHPOINTS = 50
REPEAT_WINDOW = timedelta(days=1)


def log_activity(
    conn: sqlite3.Connection,
    lead_id: int,
    description: str,
    contact_id: int | None,
    now: datetime,
) -> dict[str, Any]:
    """Type the activity, score it in its context and raise the lead's warming score."""
    require_lead(conn, lead_id)
    role = contact_role(conn, contact_id) if contact_id is not None else None
    recent = frozenset(
        row["detected_type"]
        for row in conn.execute(
            "SELECT DISTINCT detected_type FROM outreach_touchpoints "
            "WHERE lead_id = ? AND created_at > ?",
            (lead_id, iso(now - REPEAT_WINDOW)),
        )
    )
    score = score_activity(description, today=now.date(), contact_role=role, recent_types=recent)
    touchpoint, warming_score = add_touchpoint(
        conn, lead_id, description, score.detected_type, contact_id, score.total, now
    )
    return {
        "success": True,
        "touchpoint": touchpoint,
        "detected_type": score.detected_type,
        "bonus_info": {
            "base_points": score.base_points,
            "multiplier": score.multiplier,
            "total": score.total,
            "reason": score.reason,
        },
        "warming_score": warming_score,
    }


def add_touchpoint(
    conn: sqlite3.Connection,
    lead_id: int,
    description: str,
    detected_type: str,
    contact_id: int | None,
    points: int,
    now: datetime,
) -> tuple[dict[str, Any], int]:
    """Store one activity and award its points; returns it and the lead's new score."""
    cursor = conn.execute(
        "INSERT INTO outreach_touchpoints "
        "(lead_id, description, detected_type, contact_id, bonus_points, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (lead_id, description, detected_type, contact_id, points, iso(now)),
    )
    row = conn.execute(
        "SELECT * FROM outreach_touchpoints WHERE id = ?", (cursor.lastrowid,)
    ).fetchone()
    return _touchpoint(row), award_points(conn, lead_id, points, now)


def recent_touchpoints(conn: sqlite3.Connection, lead_id: int) -> list[dict[str, Any]]:
    """The 50 most recent activities, newest first (the lead detail's `touchpoints`)."""
    rows = conn.execute(
        "SELECT * FROM outreach_touchpoints WHERE lead_id = ? "
        "ORDER BY created_at DESC, id DESC LIMIT ?",
        (lead_id, RECENT_TOUCHPOINTS),
    ).fetchall()
    return [_touchpoint(row) for row in rows]


def _touchpoint(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "description": row["description"],
        "detected_type": row["detected_type"],
        "contact_id": row["contact_id"],
        "bonus_points": row["bonus_points"],
        "created_at": row["created_at"],
    }


def add_note(conn: sqlite3.Connection, lead_id: int, content: str, now: datetime) -> dict[str, Any]:
    require_lead(conn, lead_id)
    cursor = conn.execute(
        "INSERT INTO outreach_notes (lead_id, content, created_at) VALUES (?, ?, ?)",
        (lead_id, content, iso(now)),
    )
    row = conn.execute("SELECT * FROM outreach_notes WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return {"success": True, "note": _note(row)}


def list_notes(conn: sqlite3.Connection, lead_id: int) -> dict[str, Any]:
    """All notes of the lead, newest first."""
    require_lead(conn, lead_id)
    rows = conn.execute(
        "SELECT * FROM outreach_notes WHERE lead_id = ? ORDER BY created_at DESC, id DESC",
        (lead_id,),
    ).fetchall()
    return {"success": True, "data": [_note(row) for row in rows]}


def _note(row: sqlite3.Row) -> dict[str, Any]:
    return {"id": row["id"], "content": row["content"], "created_at": row["created_at"]}
