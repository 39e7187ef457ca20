"""The full lead detail: the list item plus everything hanging off the lead.

Reading it first observes the lead's latest scan and generation jobs, so a job that is
due shows its results (pages, recommendations) in the same answer as its status.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from warmline_sandbox import jobs
from warmline_sandbox.clock import Clock
from warmline_sandbox.companies import company_profile, get_company
from warmline_sandbox.outreach.engagement import GENERATION_KIND, active_recommendations
from warmline_sandbox.outreach.leads import deal_fields, list_item, require_lead
from warmline_sandbox.outreach.log import recent_touchpoints
from warmline_sandbox.outreach.people import competitors, lead_contacts
from warmline_sandbox.outreach.scans import SCAN_KIND, monitoring_pages, scan_status

OUTREACH_JOB_KINDS = (SCAN_KIND, GENERATION_KIND)


def finish_due_outreach_jobs(conn: sqlite3.Connection, clock: Clock) -> None:
    """Let every due scan and generation land before a read that shows their effects."""
    jobs.finish_due(conn, clock, OUTREACH_JOB_KINDS)


def lead_detail(conn: sqlite3.Connection, lead_id: int, clock: Clock) -> dict[str, Any]:
    require_lead(conn, lead_id)
    # Observing the jobs may finish them, which changes the lead: read it afterwards.
    status = scan_status(conn, lead_id, clock)
    jobs.latest_job(conn, GENERATION_KIND, lead_id, clock)
    lead = require_lead(conn, lead_id)
    company = get_company(conn, lead["company_id"])
    assert company is not None, "a lead's company cannot be deleted (foreign key)"
    return {
        **list_item(conn, lead_id),
        "signal_scan_status": status,
        "company": company_profile(company),
        "monitoring_pages": monitoring_pages(conn, lead_id),
        "contacts": lead_contacts(conn, lead_id, lead["company_id"]),
        "competitors": competitors(conn, lead_id),
        "touchpoints": recent_touchpoints(conn, lead_id),
        "recommendations": active_recommendations(conn, lead_id),
        **deal_fields(lead),
    }
