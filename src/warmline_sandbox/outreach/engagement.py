"""Recommendations of a lead: generating them (a job), listing, completing, dismissing.

Completing one awards warming points, logs the action in the activity log (concerning the
contact whose social account the recommendation came from, if any) and dismisses
the lead's other ACTIVE recommendations on the same target (there is only one post to
comment on). Only active recommendations can be completed or dismissed; anything else is
the spec's `Recommendation not found or already dismissed`.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox import jobs
from warmline_sandbox.clock import Clock
from warmline_sandbox.db import iso
from warmline_sandbox.errors import not_found
from warmline_sandbox.outreach.leads import LEAD_NOT_FOUND, require_lead, update_lead
from warmline_sandbox.outreach.log import add_touchpoint
from warmline_sandbox.outreach.recommendations import (
    ACTION_ACTIVITY_TYPES,
    SourcePage,
    SuggestedAction,
    completion_points,
    generate,
)
from warmline_sandbox.outreach.scans import monitoring_pages, page_rows

GENERATION_KIND = "recommendation_generation"
RECOMMENDATION_NOT_FOUND = "Recommendation not found or already dismissed"

_ACTIVE_ORDER = (
    "ORDER BY CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, "
    "created_at DESC, id DESC"
)


def start_generation(
    conn: sqlite3.Connection,
    lead_id: int,
    api_key: str | None,
    seed: int,
    seconds: float,
    now: datetime,
) -> dict[str, Any]:
    require_lead(conn, lead_id)
    enabled = len(monitoring_pages(conn, lead_id, enabled_only=True))
    jobs.create_job(
        conn,
        GENERATION_KIND,
        api_key,
        {"lead_id": lead_id, "seed": seed},
        now=now,
        seconds=seconds,
        subject_id=lead_id,
    )
    hint = (
        f"Generating from {enabled} enabled monitoring sources"
        if enabled
        else "No monitoring source is enabled: run a signal scan or enable a source first"
    )
    return {"success": True, "status": "pending", "message": f"{hint}; poll the recommendations"}


def finish_generation(
    conn: sqlite3.Connection, job: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """Job finisher: suggest engagements from the sources enabled at this moment."""
    lead_id = int(job["params"]["lead_id"])
    lead = conn.execute("SELECT * FROM outreach_leads WHERE id = ?", (lead_id,)).fetchone()
    if lead is None:
        raise jobs.JobFailed(LEAD_NOT_FOUND)
    pages = [
        SourcePage(p["id"], p["url"], p["label"], p["page_type"], p["score"], p["contact_id"])
        for p in page_rows(conn, lead_id, enabled_only=True)
    ]
    suggestions = generate(
        int(job["params"].get("seed", 0)), lead_id, lead["lead_status"], pages, lead["generations"]
    )
    created = [s for s in suggestions if insert_recommendation(conn, lead_id, s, now) is not None]
    update_lead(conn, lead_id, now, generations=lead["generations"] + 1)
    return {"lead_id": lead_id, "created": len(created)}


def insert_recommendation(
    conn: sqlite3.Connection, lead_id: int, suggestion: SuggestedAction, now: datetime
) -> int | None:
    """Store a suggestion unless the same action on the same target is already active."""
    duplicate = conn.execute(
        "SELECT 1 FROM outreach_recommendations WHERE lead_id = ? AND status = 'active' "
        "AND action_type = ? AND target_url = ?",
        (lead_id, suggestion.action_type, suggestion.target_url),
    ).fetchone()
    if duplicate:
        return None
    cursor = conn.execute(
        "INSERT INTO outreach_recommendations (lead_id, action_type, target_url, "
        "suggested_comment, priority, engagement_reason, source_page_label, created_at, contact_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            lead_id,
            suggestion.action_type,
            suggestion.target_url,
            suggestion.suggested_comment,
            suggestion.priority,
            suggestion.engagement_reason,
            suggestion.source_page_label,
            iso(now),
            suggestion.contact_id,
        ),
    )
    return int(cursor.lastrowid or 0)


def active_recommendations(conn: sqlite3.Connection, lead_id: int) -> list[dict[str, Any]]:
    """Active recommendations, highest priority first, newest first within a priority."""
    rows = conn.execute(
        f"SELECT * FROM outreach_recommendations WHERE lead_id = ? AND status = 'active' {_ACTIVE_ORDER}",
        (lead_id,),
    ).fetchall()
    return [_recommendation(row) for row in rows]


def list_recommendations(conn: sqlite3.Connection, lead_id: int, clock: Clock) -> dict[str, Any]:
    require_lead(conn, lead_id)
    job = jobs.latest_job(conn, GENERATION_KIND, lead_id, clock)
    active = active_recommendations(conn, lead_id)
    counts = dict(
        conn.execute(
            "SELECT status, COUNT(*) FROM outreach_recommendations WHERE lead_id = ? GROUP BY status",
            (lead_id,),
        ).fetchall()
    )
    return {
        "success": True,
        "recommendations": active,
        "count": len(active),
        "progress": {
            "completed": counts.get("completed", 0),
            "dismissed": counts.get("dismissed", 0),
            "total": sum(counts.values()),
        },
        "generation_status": job["status"] if job else "none",
    }


def complete(conn: sqlite3.Connection, lead_id: int, rec_id: int, now: datetime) -> dict[str, Any]:
    require_lead(conn, lead_id)
    rec = _require_active(conn, lead_id, rec_id)
    _resolve(conn, rec_id, "completed", now)
    others = [
        row["id"]
        for row in conn.execute(
            "SELECT id FROM outreach_recommendations WHERE lead_id = ? AND status = 'active' "
            "AND target_url = ? ORDER BY id",
            (lead_id, rec["target_url"]),
        )
    ]
    for other in others:
        _resolve(conn, other, "dismissed", now)
    points = completion_points(rec["action_type"], rec["priority"])
    _, warming_score = add_touchpoint(
        conn,
        lead_id,
        f"{rec['action_type'].replace('_', ' ').capitalize()} ({rec['source_page_label']}): "
        f"{rec['target_url']}",
        ACTION_ACTIVITY_TYPES.get(rec["action_type"], "other"),
        _concerned_contact(conn, rec["contact_id"]),
        points,
        now,
    )
    return {
        "success": True,
        "recommendation": _recommendation(_get(conn, rec_id)),
        "points_awarded": points,
        "warming_score": warming_score,
        "auto_dismissed": others,
    }


def _concerned_contact(conn: sqlite3.Connection, contact_id: int | None) -> int | None:
    """The activity's `contact_id` (spec: "contact the activity concerns"): the contact whose
    social account the recommendation came from, while that contact still exists."""
    if contact_id is None:
        return None
    found = conn.execute("SELECT 1 FROM contacts WHERE id = ?", (contact_id,)).fetchone()
    return contact_id if found else None


def dismiss(conn: sqlite3.Connection, lead_id: int, rec_id: int, now: datetime) -> dict[str, Any]:
    require_lead(conn, lead_id)
    _require_active(conn, lead_id, rec_id)
    _resolve(conn, rec_id, "dismissed", now)
    return {"success": True, "recommendation": _recommendation(_get(conn, rec_id))}


def _require_active(conn: sqlite3.Connection, lead_id: int, rec_id: int) -> sqlite3.Row:
    row = conn.execute(
        "SELECT * FROM outreach_recommendations WHERE id = ? AND lead_id = ? AND status = 'active'",
        (rec_id, lead_id),
    ).fetchone()
    if row is None:
        raise not_found(RECOMMENDATION_NOT_FOUND)
    return row


def _resolve(conn: sqlite3.Connection, rec_id: int, status: str, now: datetime) -> None:
    conn.execute(
        "UPDATE outreach_recommendations SET status = ?, resolved_at = ? WHERE id = ?",
        (status, iso(now), rec_id),
    )


def _get(conn: sqlite3.Connection, rec_id: int) -> sqlite3.Row:
    return conn.execute("SELECT * FROM outreach_recommendations WHERE id = ?", (rec_id,)).fetchone()


def _recommendation(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "lead_id": row["lead_id"],
        "action_type": row["action_type"],
        "target_url": row["target_url"],
        "suggested_comment": row["suggested_comment"],
        "priority": row["priority"],
        "engagement_reason": row["engagement_reason"],
        "source_page_label": row["source_page_label"],
        "status": row["status"],
        "created_at": row["created_at"],
    }


jobs.register_finisher(GENERATION_KIND, finish_generation)
