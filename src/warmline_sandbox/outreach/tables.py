"""The outreach tables.

Leads hang off the platform's `companies` (a company in outreach cannot be deleted until
its lead is removed) and read its `contacts`; everything else hangs off a lead and goes
with it. Counts shown on a lead (activities, active
recommendations, monitoring) are computed from these rows on every read rather than
stored, so they cannot drift out of step.

All API keys belong to one organization (see `warmline_sandbox.auth`), so rows carry no
key; only the signal slot remembers which key's plan it was taken from, so removing the
lead gives it back to that key.
"""

import sqlite3

TABLES = """
CREATE TABLE IF NOT EXISTS outreach_leads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL UNIQUE REFERENCES companies (id),
    lead_status TEXT NOT NULL CHECK (lead_status IN ('cold', 'warm')),
    warming_score INTEGER NOT NULL DEFAULT 0,
    target_score INTEGER NOT NULL DEFAULT 75,
    slot_key TEXT,
    generations INTEGER NOT NULL DEFAULT 0,
    deal_value REAL,
    deal_currency TEXT,
    won_at TEXT,
    closed_at TEXT,
    closed_reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outreach_pages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lead_id INTEGER NOT NULL REFERENCES outreach_leads (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    label TEXT NOT NULL,
    page_type TEXT NOT NULL,
    score INTEGER NOT NULL,
    is_selected INTEGER NOT NULL DEFAULT 0,
    last_checked_at TEXT,
    contact_id INTEGER,
    UNIQUE (lead_id, url)
);
CREATE TABLE IF NOT EXISTS outreach_recommendations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lead_id INTEGER NOT NULL REFERENCES outreach_leads (id) ON DELETE CASCADE,
    action_type TEXT NOT NULL,
    target_url TEXT NOT NULL,
    suggested_comment TEXT NOT NULL,
    priority TEXT NOT NULL,
    engagement_reason TEXT NOT NULL,
    source_page_label TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    created_at TEXT NOT NULL,
    resolved_at TEXT,
    contact_id INTEGER
);
CREATE INDEX IF NOT EXISTS outreach_recommendations_lead
    ON outreach_recommendations (lead_id, status);
CREATE TABLE IF NOT EXISTS outreach_touchpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lead_id INTEGER NOT NULL REFERENCES outreach_leads (id) ON DELETE CASCADE,
    description TEXT NOT NULL,
    detected_type TEXT NOT NULL,
    contact_id INTEGER,
    bonus_points INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS outreach_touchpoints_lead
    ON outreach_touchpoints (lead_id, created_at);
CREATE TABLE IF NOT EXISTS outreach_notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lead_id INTEGER NOT NULL REFERENCES outreach_leads (id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outreach_key_contacts (
    lead_id INTEGER NOT NULL REFERENCES outreach_leads (id) ON DELETE CASCADE,
    contact_id INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
    PRIMARY KEY (lead_id, contact_id)
);
CREATE TABLE IF NOT EXISTS outreach_competitors (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lead_id INTEGER NOT NULL REFERENCES outreach_leads (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    domain TEXT,
    is_pinned INTEGER NOT NULL DEFAULT 0,
    last_scanned_at TEXT,
    scan_summary TEXT,
    created_at TEXT NOT NULL
);
"""

# A lead's signal slot goes back to the key that took it whenever the lead row goes,
# however it is deleted: one rule in one place, next to the data it guards.
SLOT_TRIGGER = """
CREATE TRIGGER IF NOT EXISTS outreach_free_signal_slot AFTER DELETE ON outreach_leads
WHEN old.slot_key IS NOT NULL
BEGIN
    UPDATE quota_usage SET used = MAX(0, used - 1)
    WHERE api_key = old.slot_key AND quota = 'site_signal_slots';
END;
"""

SCHEMA = TABLES + SLOT_TRIGGER

# Columns added after their table was first released: a database made before gets them when
# opened (`add_missing_columns`); the CREATE TABLE statements above have them for new ones.
# `contact_id` is the contact whose social account a monitoring page is, and so the contact a
# recommendation drawn from that page, and the activity of completing it, concern.
ADDED_COLUMNS = (
    ("outreach_pages", "contact_id", "INTEGER"),
    ("outreach_recommendations", "contact_id", "INTEGER"),
)


def add_missing_columns(conn: sqlite3.Connection) -> None:
    """Bring an older sandbox database up to ADDED_COLUMNS (idempotent)."""
    for table, column, declaration in ADDED_COLUMNS:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
