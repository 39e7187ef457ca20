"""Signal scans of a lead and the monitoring pages they discover.

A scan is a job (see `warmline_sandbox.jobs`); when it is first observed after it is due
its finisher stores the pages found. A rescan refreshes the same sources and keeps the
rep's choice of which ones are monitored. The first scan of a lead takes one
`site_signal_slots` from the caller's plan; the slot stays with the lead until it is
removed (then the trigger in `tables.py` gives it back).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from warmline_sandbox import jobs, quotas
from warmline_sandbox.clock import Clock
from warmline_sandbox.db import iso
from warmline_sandbox.errors import not_found
from warmline_sandbox.outreach.leads import LEAD_NOT_FOUND, require_lead, update_lead
from warmline_sandbox.outreach.people import lead_contacts
from warmline_sandbox.outreach.signals import (
    DiscoveredPage,
    ScanCompany,
    ScanContact,
    discover_pages,
)

SCAN_KIND = "signal_scan"
SLOT_QUOTA = "site_signal_slots"
PAGE_NOT_FOUND = "Monitoring page not found"

_MESSAGES = {
    "pending": "Signal scan queued; poll this endpoint every 5-10 seconds",
    "running": "Scanning the company's web pages, social profiles and key contacts' accounts",
}


def start_scan(
    conn: sqlite3.Connection,
    lead_id: int,
    api_key: str | None,
    seed: int,
    seconds: float,
    now: datetime,
) -> dict[str, Any]:
    """Start a scan; only a lead's first scan occupies a signal slot (seed data, `api_key`
    None, occupies none)."""
    lead = require_lead(conn, lead_id)
    if lead["slot_key"] is None and api_key is not None:
        quotas.consume(conn, api_key, SLOT_QUOTA)
        update_lead(conn, lead_id, now, slot_key=api_key)
    job = jobs.create_job(
        conn,
        SCAN_KIND,
        api_key,
        {"lead_id": lead_id, "seed": seed},
        now=now,
        seconds=seconds,
        subject_id=lead_id,
    )
    return {
        "success": True,
        "lead_id": lead_id,
        "status": "pending",
        "started_at": job["created_at"],
        "message": _MESSAGES["pending"],
    }


def scan_progress(conn: sqlite3.Connection, lead_id: int, clock: Clock) -> dict[str, Any]:
    """The latest scan of the lead as of now (finishing it if it is due)."""
    require_lead(conn, lead_id)
    job = jobs.latest_job(conn, SCAN_KIND, lead_id, clock)
    if job is None:
        return {
            "success": True,
            "status": "none",
            "message": "No signal scan has been started for this lead",
        }
    pages_found = int((job["result"] or {}).get("pages_found", 0))
    message = _MESSAGES.get(job["status"]) or (
        f"Found {pages_found} monitoring sources"
        if job["status"] == "completed"
        else f"Signal scan failed: {job['error']}"
    )
    return {
        "success": True,
        "status": job["status"],
        "progress": job["progress"],
        "pages_found": pages_found,
        "started_at": job["created_at"],
        "completed_at": job["completed_at"],
        "message": message,
    }


def scan_status(conn: sqlite3.Connection, lead_id: int, clock: Clock) -> str:
    job = jobs.latest_job(conn, SCAN_KIND, lead_id, clock)
    return job["status"] if job else "none"


def finish_scan(conn: sqlite3.Connection, job: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Job finisher: discover the lead's sources and store them."""
    lead_id = int(job["params"]["lead_id"])
    lead = conn.execute(
        "SELECT l.company_id, c.name, c.domain FROM outreach_leads l "
        "JOIN companies c ON c.id = l.company_id WHERE l.id = ?",
        (lead_id,),
    ).fetchone()
    if lead is None:
        raise jobs.JobFailed(LEAD_NOT_FOUND)
    contacts = [
        ScanContact(
            id=c["id"],
            first_name=c["first_name"] or "",
            last_name=c["last_name"] or "",
            title=c["title"],
            role=c["role"],
            social_url=c["social_url"],
            is_selected=c["is_selected"],
        )
        for c in lead_contacts(conn, lead_id, lead["company_id"])
    ]
    found = discover_pages(
        int(job["params"].get("seed", 0)),
        lead_id,
        ScanCompany(lead["name"], lead["domain"]),
        contacts,
    )
    store_pages(conn, lead_id, found, now)
    return {"lead_id": lead_id, "pages_found": len(found)}


def store_pages(
    conn: sqlite3.Connection, lead_id: int, found: list[DiscoveredPage], now: datetime
) -> None:
    """Replace the lead's pages with those found, keeping the selection of known ones."""
    selected = {
        row["url"]: bool(row["is_selected"])
        for row in conn.execute(
            "SELECT url, is_selected FROM outreach_pages WHERE lead_id = ?", (lead_id,)
        )
    }
    urls = [page.url for page in found]
    marks = ",".join("?" for _ in urls)
    conn.execute(
        f"DELETE FROM outreach_pages WHERE lead_id = ? AND url NOT IN ({marks})", (lead_id, *urls)
    )
    for page in found:
        conn.execute(
            "INSERT INTO outreach_pages "
            "(lead_id, url, label, page_type, score, is_selected, last_checked_at, contact_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (lead_id, url) DO UPDATE SET "
            "label = excluded.label, page_type = excluded.page_type, score = excluded.score, "
            "is_selected = excluded.is_selected, last_checked_at = excluded.last_checked_at, "
            "contact_id = excluded.contact_id",
            (
                lead_id,
                page.url,
                page.label,
                page.page_type,
                page.score,
                int(selected.get(page.url, page.is_selected)),
                iso(now),
                page.contact_id,
            ),
        )


def page_rows(
    conn: sqlite3.Connection, lead_id: int, *, enabled_only: bool = False
) -> list[sqlite3.Row]:
    """The lead's sources as stored (with the contact owning each), best-scored first."""
    only = " AND is_selected" if enabled_only else ""
    return conn.execute(
        f"SELECT * FROM outreach_pages WHERE lead_id = ?{only} ORDER BY score DESC, id", (lead_id,)
    ).fetchall()


def monitoring_pages(
    conn: sqlite3.Connection, lead_id: int, *, enabled_only: bool = False
) -> list[dict[str, Any]]:
    """The lead's sources as docs/wire.md shows them, best-scored first."""
    return [_page(row) for row in page_rows(conn, lead_id, enabled_only=enabled_only)]


def toggle_page(
    conn: sqlite3.Connection, lead_id: int, page_id: int, is_selected: bool
) -> dict[str, Any]:
    require_lead(conn, lead_id)
    updated = conn.execute(
        "UPDATE outreach_pages SET is_selected = ? WHERE id = ? AND lead_id = ?",
        (int(is_selected), page_id, lead_id),
    ).rowcount
    if not updated:
        raise not_found(PAGE_NOT_FOUND)
    row = conn.execute("SELECT * FROM outreach_pages WHERE id = ?", (page_id,)).fetchone()
    return {"success": True, "page": _page(row)}


def _page(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "url": row["url"],
        "label": row["label"],
        "page_type": row["page_type"],
        "score": row["score"],
        "is_selected": bool(row["is_selected"]),
        "last_checked_at": row["last_checked_at"],
    }


jobs.register_finisher(SCAN_KIND, finish_scan)
