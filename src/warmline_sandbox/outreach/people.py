"""Who is around a lead: its key contacts (pinned from the company's contacts) and competitors."""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox.contacts import CONTACT_NOT_FOUND
from warmline_sandbox.db import iso
from warmline_sandbox.errors import not_found
from warmline_sandbox.outreach.leads import require_lead

COMPETITOR_NOT_FOUND = "Competitor not found"
MAX_LEAD_CONTACTS = 100


def lead_contacts(conn: sqlite3.Connection, lead_id: int, company_id: int) -> list[dict[str, Any]]:
    """The company's contacts, pinned ones first, each with whether it is a key contact."""
    rows = conn.execute(
        "SELECT c.id, c.first_name, c.last_name, c.title, c.role, c.email, c.social_url, "
        "k.contact_id IS NOT NULL AS is_selected FROM contacts c "
        "LEFT JOIN outreach_key_contacts k ON k.contact_id = c.id AND k.lead_id = ? "
        "WHERE c.company_id = ? ORDER BY is_selected DESC, c.id LIMIT ?",
        (lead_id, company_id, MAX_LEAD_CONTACTS),
    ).fetchall()
    return [_contact(row) for row in rows]


def pin_contact(
    conn: sqlite3.Connection, lead_id: int, contact_id: int, is_selected: bool
) -> dict[str, Any]:
    """Pin or unpin one of the lead's company contacts; repeating either is harmless."""
    lead = require_lead(conn, lead_id)
    exists = conn.execute(
        "SELECT 1 FROM contacts WHERE id = ? AND company_id = ?", (contact_id, lead["company_id"])
    ).fetchone()
    if exists is None:
        raise not_found(CONTACT_NOT_FOUND)
    if is_selected:
        conn.execute(
            "INSERT OR IGNORE INTO outreach_key_contacts (lead_id, contact_id) VALUES (?, ?)",
            (lead_id, contact_id),
        )
    else:
        conn.execute(
            "DELETE FROM outreach_key_contacts WHERE lead_id = ? AND contact_id = ?",
            (lead_id, contact_id),
        )
    contact = next(
        c for c in lead_contacts(conn, lead_id, lead["company_id"]) if c["id"] == contact_id
    )
    return {"success": True, "contact": contact}


def contact_role(conn: sqlite3.Connection, contact_id: int) -> str | None:
    """The role of a known contact; unknown contacts are a 404 for the caller."""
    row = conn.execute("SELECT role FROM contacts WHERE id = ?", (contact_id,)).fetchone()
    if row is None:
        raise not_found(CONTACT_NOT_FOUND)
    return row["role"]


def _contact(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "first_name": row["first_name"],
        "last_name": row["last_name"],
        "title": row["title"],
        "role": row["role"],
        "email": row["email"],
        "social_url": row["social_url"],
        "is_selected": bool(row["is_selected"]),
    }


def competitors(conn: sqlite3.Connection, lead_id: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT * FROM outreach_competitors WHERE lead_id = ? ORDER BY is_pinned DESC, id",
        (lead_id,),
    ).fetchall()
    return [_competitor(row) for row in rows]


def add_competitor(
    conn: sqlite3.Connection, lead_id: int, name: str, domain: str | None, now: datetime
) -> dict[str, Any]:
    require_lead(conn, lead_id)
    cursor = conn.execute(
        "INSERT INTO outreach_competitors (lead_id, name, domain, created_at) VALUES (?, ?, ?, ?)",
        (lead_id, name, domain, iso(now)),
    )
    return {
        "success": True,
        "competitor": _competitor(_require_competitor(conn, lead_id, int(cursor.lastrowid or 0))),
    }


def pin_competitor(
    conn: sqlite3.Connection, lead_id: int, competitor_id: int, is_pinned: bool
) -> dict[str, Any]:
    require_lead(conn, lead_id)
    _require_competitor(conn, lead_id, competitor_id)
    conn.execute(
        "UPDATE outreach_competitors SET is_pinned = ? WHERE id = ?",
        (int(is_pinned), competitor_id),
    )
    return {
        "success": True,
        "competitor": _competitor(_require_competitor(conn, lead_id, competitor_id)),
    }


def scan_competitor(
    conn: sqlite3.Connection, lead_id: int, competitor_id: int, now: datetime
) -> dict[str, Any]:
    """Scan a competitor's website at once (the sandbox has nothing to wait for)."""
    require_lead(conn, lead_id)
    row = _require_competitor(conn, lead_id, competitor_id)
    summary = competitor_summary(row["name"], competitor_id, now)
    conn.execute(
        "UPDATE outreach_competitors SET last_scanned_at = ?, scan_summary = ? WHERE id = ?",
        (iso(now), summary, competitor_id),
    )
    return {
        "success": True,
        "competitor": _competitor(_require_competitor(conn, lead_id, competitor_id)),
    }


def competitor_summary(name: str, competitor_id: int, now: datetime) -> str:
    """What a website scan "found": stable for one competitor on one day."""
    rng = random.Random(f"competitor:{competitor_id}:{now.date().isoformat()}")
    findings = [
        f"{rng.randint(1, 6)} new blog posts",
        f"{rng.randint(0, 12)} open roles",
        rng.choice(
            [
                "pricing page unchanged",
                "pricing page changed: new enterprise tier",
                "launched a free trial",
                "announced a partnership",
                "new case study published",
            ]
        ),
    ]
    return f"{name}: " + ", ".join(findings)


def _require_competitor(conn: sqlite3.Connection, lead_id: int, competitor_id: int) -> sqlite3.Row:
    row = conn.execute(
        "SELECT * FROM outreach_competitors WHERE id = ? AND lead_id = ?", (competitor_id, lead_id)
    ).fetchone()
    if row is None:
        raise not_found(COMPETITOR_NOT_FOUND)
    return row


def _competitor(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "domain": row["domain"],
        "is_pinned": bool(row["is_pinned"]),
        "last_scanned_at": row["last_scanned_at"],
        "scan_summary": row["scan_summary"],
    }
