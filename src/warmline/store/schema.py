"""The cache's schema as a list of forward migrations, and the code that applies them.

A database records the number of migrations applied in `schema_version`. Opening an older
file applies the missing ones in order, each in its own `BEGIN IMMEDIATE` transaction that
re-reads the version first, so two processes opening the same file at once migrate it once.
Migrations are never edited after release; a change of schema is a new entry at the end.

Conventions of the tables:
- `raw` holds the server's JSON for the row (unknown fields included), so nothing the
  server sends is lost and a row's server state can be restored after a local change
  is undone (see `warmline.store.effects`). A lead's is in `lead_snapshots`.
- Rows created locally by a queued action (a pending touchpoint, note, competitor or job)
  carry the `op_id` of that action and have no server `id` until it is delivered.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

Migration = Callable[[sqlite3.Connection], None]

_LEADS = """
CREATE TABLE leads (
    id INTEGER PRIMARY KEY,
    company_id INTEGER,
    company_name TEXT NOT NULL DEFAULT '',
    name_lower TEXT NOT NULL DEFAULT '',
    lead_status TEXT NOT NULL DEFAULT 'cold',
    warming_score INTEGER NOT NULL DEFAULT 0,
    target_score INTEGER,
    gap INTEGER GENERATED ALWAYS AS (coalesce(target_score, 100) - warming_score) VIRTUAL,
    activity_count INTEGER NOT NULL DEFAULT 0,
    recommendation_count INTEGER NOT NULL DEFAULT 0,
    monitoring_active INTEGER NOT NULL DEFAULT 0,
    last_activity_at TEXT,
    created_at TEXT,
    hidden INTEGER NOT NULL DEFAULT 0,
    signal_scan_status TEXT,
    deal_value REAL,
    deal_currency TEXT,
    won_at TEXT,
    closed_at TEXT,
    closed_reason TEXT,
    generation_status TEXT,
    detail_fetched_at REAL
);
-- One index per sort (with and without the status filter). Each ends with the name so
-- that filter-as-you-type can test names while walking the index, without a table read.
CREATE INDEX leads_status_score ON leads(hidden, lead_status, warming_score DESC, id, name_lower);
CREATE INDEX leads_score ON leads(hidden, warming_score DESC, id, name_lower);
CREATE INDEX leads_status_gap ON leads(hidden, lead_status, gap, id, name_lower);
CREATE INDEX leads_gap ON leads(hidden, gap, id, name_lower);
CREATE INDEX leads_status_activity ON leads(hidden, lead_status, last_activity_at DESC, id, name_lower);
CREATE INDEX leads_activity ON leads(hidden, last_activity_at DESC, id, name_lower);
-- Name first: a typed prefix is a range of this index; it carries what filters and sorts.
CREATE INDEX leads_name ON leads(name_lower, hidden, lead_status, warming_score, gap, last_activity_at);
CREATE INDEX leads_company ON leads(company_id);

-- The server's last word on each lead (scalar fields, unknown ones included), apart from
-- the list columns so that the rows the list pages through stay small.
CREATE TABLE lead_snapshots (
    id INTEGER PRIMARY KEY REFERENCES leads(id) ON DELETE CASCADE,
    raw TEXT NOT NULL DEFAULT '{}'
);
"""

_LEAD_DETAIL = """
CREATE TABLE monitoring_pages (
    id INTEGER PRIMARY KEY,
    lead_id INTEGER NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
    url TEXT,
    label TEXT,
    page_type TEXT,
    score INTEGER,
    is_selected INTEGER NOT NULL DEFAULT 0,
    last_checked_at TEXT,
    raw TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX monitoring_pages_lead ON monitoring_pages(lead_id);

CREATE TABLE lead_contacts (
    lead_id INTEGER NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
    contact_id INTEGER NOT NULL,
    first_name TEXT,
    last_name TEXT,
    title TEXT,
    role TEXT,
    email TEXT,
    social_url TEXT,
    is_selected INTEGER NOT NULL DEFAULT 0,
    raw TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (lead_id, contact_id)
);

CREATE TABLE competitors (
    local_id INTEGER PRIMARY KEY,
    id INTEGER UNIQUE,
    lead_id INTEGER NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
    name TEXT NOT NULL DEFAULT '',
    domain TEXT,
    is_pinned INTEGER NOT NULL DEFAULT 0,
    last_scanned_at TEXT,
    scan_summary TEXT,
    scan_queued INTEGER NOT NULL DEFAULT 0,
    op_id TEXT UNIQUE,
    raw TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX competitors_lead ON competitors(lead_id);

CREATE TABLE touchpoints (
    local_id INTEGER PRIMARY KEY,
    id INTEGER UNIQUE,
    lead_id INTEGER NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
    description TEXT NOT NULL DEFAULT '',
    detected_type TEXT,
    contact_id INTEGER,
    bonus_points INTEGER NOT NULL DEFAULT 0,
    created_at TEXT,
    op_id TEXT UNIQUE,
    raw TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX touchpoints_lead ON touchpoints(lead_id, created_at);

CREATE TABLE notes (
    local_id INTEGER PRIMARY KEY,
    id INTEGER UNIQUE,
    lead_id INTEGER NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
    content TEXT NOT NULL DEFAULT '',
    created_at TEXT,
    op_id TEXT UNIQUE,
    raw TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX notes_lead ON notes(lead_id, created_at);

CREATE TABLE recommendations (
    id INTEGER PRIMARY KEY,
    lead_id INTEGER NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
    action_type TEXT,
    target_url TEXT,
    suggested_comment TEXT,
    priority TEXT,
    engagement_reason TEXT,
    source_page_label TEXT,
    status TEXT NOT NULL DEFAULT 'active',
    local_status TEXT,
    created_at TEXT,
    raw TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX recommendations_lead ON recommendations(lead_id);
CREATE INDEX recommendations_queue ON recommendations(status, local_status, created_at);
"""

_DIRECTORY = """
CREATE TABLE companies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    name_lower TEXT NOT NULL DEFAULT '',
    search_text TEXT NOT NULL DEFAULT '',
    domain TEXT,
    industry TEXT,
    country TEXT,
    region TEXT,
    size TEXT,
    description TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    custom_fields TEXT NOT NULL DEFAULT '{}',
    source TEXT,
    ai_tag TEXT,
    created_at TEXT,
    updated_at TEXT,
    raw TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX companies_name ON companies(name_lower, id);

CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    company_id INTEGER,
    first_name TEXT,
    last_name TEXT,
    name_lower TEXT NOT NULL DEFAULT '',
    search_text TEXT NOT NULL DEFAULT '',
    email TEXT,
    title TEXT,
    role TEXT,
    social_url TEXT,
    phone TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    custom_fields TEXT NOT NULL DEFAULT '{}',
    created_at TEXT,
    updated_at TEXT,
    raw TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX contacts_name ON contacts(name_lower, id);
CREATE INDEX contacts_company ON contacts(company_id, name_lower, id);

CREATE TABLE field_schemas (
    entity TEXT NOT NULL,
    key TEXT NOT NULL,
    name TEXT,
    type TEXT,
    position INTEGER NOT NULL DEFAULT 0,
    raw TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (entity, key)
);

CREATE TABLE research_templates (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    name_lower TEXT NOT NULL DEFAULT '',
    description TEXT,
    fields TEXT NOT NULL DEFAULT '[]',
    created_at TEXT,
    raw TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE lookups (
    key TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    response TEXT NOT NULL,
    fetched_at TEXT NOT NULL
);
"""

_JOBS_OUTBOX_STATE = """
CREATE TABLE jobs (
    key INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    remote_id TEXT,
    lead_id INTEGER,
    company_id INTEGER,
    status TEXT NOT NULL DEFAULT 'queued',
    active INTEGER NOT NULL DEFAULT 1,
    progress INTEGER,
    params TEXT NOT NULL DEFAULT '{}',
    result_summary TEXT,
    error TEXT,
    created_at TEXT,
    updated_at TEXT,
    completed_at TEXT,
    next_poll_at REAL,
    queued_offline INTEGER NOT NULL DEFAULT 0,
    results_applied INTEGER NOT NULL DEFAULT 0,
    op_id TEXT UNIQUE,
    raw TEXT NOT NULL DEFAULT '{}',
    UNIQUE (kind, remote_id)
);
CREATE INDEX jobs_poll ON jobs(active, next_poll_at);

CREATE TABLE outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    op_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    lead_id INTEGER,
    payload TEXT NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    first_sent_at TEXT,
    next_attempt_at REAL NOT NULL,
    not_before REAL,
    claimed_by TEXT,
    last_error TEXT,
    result TEXT,
    updated_at TEXT NOT NULL
);
CREATE INDEX outbox_lead_queue ON outbox(lead_id, seq)
    WHERE state IN ('pending', 'in_flight', 'ambiguous');
CREATE INDEX outbox_state ON outbox(state, next_attempt_at);

CREATE TABLE sync_state (
    key TEXT PRIMARY KEY,
    value TEXT,
    updated_at TEXT
);
"""

# Full-text indexes for filter-as-you-type (substring match through trigrams). Kept in
# sync by triggers; a name that does not change does not touch the index.
_FTS_SOURCES = (("leads", "name_lower"), ("companies", "search_text"), ("contacts", "search_text"))


def _fts_sql(table: str, column: str) -> str:
    fts = f"{table}_fts"
    return f"""
CREATE VIRTUAL TABLE {fts} USING fts5({column}, content='{table}', content_rowid='id', tokenize='trigram');
CREATE TRIGGER {table}_fts_insert AFTER INSERT ON {table} BEGIN
    INSERT INTO {fts}(rowid, {column}) VALUES (new.id, new.{column});
END;
CREATE TRIGGER {table}_fts_delete AFTER DELETE ON {table} BEGIN
    INSERT INTO {fts}({fts}, rowid, {column}) VALUES ('delete', old.id, old.{column});
END;
CREATE TRIGGER {table}_fts_update AFTER UPDATE OF {column} ON {table}
WHEN old.{column} IS NOT new.{column} BEGIN
    INSERT INTO {fts}({fts}, rowid, {column}) VALUES ('delete', old.id, old.{column});
    INSERT INTO {fts}(rowid, {column}) VALUES (new.id, new.{column});
END;
"""


def trigram_supported(conn: sqlite3.Connection) -> bool:
    """SQLite 3.34+ with FTS5 has the trigram tokenizer; without it we filter by scanning."""
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.trigram_probe USING fts5(x, tokenize='trigram')")
    except sqlite3.OperationalError:
        return False
    conn.execute("DROP TABLE temp.trigram_probe")
    return True


def _initial_schema(conn: sqlite3.Connection) -> None:
    for script in (_LEADS, _LEAD_DETAIL, _DIRECTORY, _JOBS_OUTBOX_STATE):
        _run_script(conn, script)
    if trigram_supported(conn):
        for table, column in _FTS_SOURCES:
            _run_script(conn, _fts_sql(table, column))


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: `executescript` would COMMIT our open transaction."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            conn.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete SQL statement in migration: {statement!r}")


_TRUST = """
-- An op held for the rep's undo window (epoch seconds): never sent before then, by any
-- process. NULL: not held (ops queued from the CLI, and every op before this migration).
ALTER TABLE outbox ADD COLUMN hold_until REAL;
-- The list fields of a lead when its detail (and its recommendations) were last fetched:
-- prefetch re-reads only leads whose list line changed since.
ALTER TABLE leads ADD COLUMN detail_sig TEXT;
ALTER TABLE leads ADD COLUMN recs_sig TEXT;
-- When the rep took the action that made the row (local time, ISO 8601 UTC); the
-- service's created_at is when it arrived there.
ALTER TABLE touchpoints ADD COLUMN logged_at TEXT;
ALTER TABLE notes ADD COLUMN logged_at TEXT;
-- Leads the service told us are gone ("Outreach lead not found"): kept by id, so actions
-- on them are refused with the lead's name, until the service lists the lead again.
CREATE TABLE lead_tombstones (
    id INTEGER PRIMARY KEY,
    company_name TEXT NOT NULL DEFAULT '',
    reason TEXT,
    removed_at TEXT NOT NULL
);
"""


def _trust(conn: sqlite3.Connection) -> None:
    _run_script(conn, _TRUST)


_BONUS_REASON = """
-- The service's reason for an activity's points ("Call: 10 base points x 1.2 (next step
-- scheduled)"): only the answer to logging it carries it, so refreshes never name it and
-- it stays. NULL for activities logged elsewhere.
ALTER TABLE touchpoints ADD COLUMN bonus_reason TEXT;
"""


def _bonus_reason(conn: sqlite3.Connection) -> None:
    _run_script(conn, _BONUS_REASON)


_TODAY_INDEXES = """
-- Today (store/today.py) at 10,000 leads, from indexes alone (bench/bench_today.py): the
-- activities since yesterday with their points, to find the leads that reached their
-- target; and the active recommendations counted by priority.
CREATE INDEX touchpoints_created ON touchpoints(created_at, lead_id, bonus_points, id);
CREATE INDEX recommendations_priority ON recommendations(status, local_status, priority, lead_id);
"""


def _today_indexes(conn: sqlite3.Connection) -> None:
    _run_script(conn, _TODAY_INDEXES)


def last_touched_sql(lead: str, listed: str) -> str:
    """The later of a lead's list line's last activity (`listed`) and its newest cached
    touchpoint, NULL when it has neither (an empty text counts as none): the value of
    `leads.last_touched_at` for the lead whose id is `lead`. One probe of
    `touchpoints_lead`."""
    newest = f"(SELECT max(t.created_at) FROM touchpoints t WHERE t.lead_id = {lead})"
    return f"nullif(max(coalesce({listed}, ''), coalesce({newest}, '')), '')"


_RETOUCH = "UPDATE leads SET last_touched_at = {value} WHERE id = {lead};"

_LAST_TOUCHED = f"""
-- A lead's last activity as Today's going-cold section reads it (store/today.py): the
-- later of its list line's last_activity_at (which counts queued activities) and its
-- newest cached touchpoint, pending ones included; NULL with neither. Kept by the triggers
-- below, so that every writer (sync, local effects, undo, cascades) keeps it without
-- knowing of it; `quiet_since` falls back on the lead's creation. Going cold at 10,000
-- leads is then one range of `leads_quiet` with a LIMIT, instead of a probe of
-- `touchpoints_lead` for every quiet warm lead.
ALTER TABLE leads ADD COLUMN last_touched_at TEXT;
ALTER TABLE leads ADD COLUMN quiet_since TEXT
    GENERATED ALWAYS AS (coalesce(last_touched_at, nullif(created_at, ''))) VIRTUAL;
UPDATE leads SET last_touched_at = {last_touched_sql("leads.id", "leads.last_activity_at")};
CREATE INDEX leads_quiet ON leads(hidden, lead_status, quiet_since);
CREATE TRIGGER leads_touched_insert AFTER INSERT ON leads BEGIN
    {_RETOUCH.format(value=last_touched_sql("new.id", "new.last_activity_at"), lead="new.id")}
END;
CREATE TRIGGER leads_touched_update AFTER UPDATE OF last_activity_at ON leads
WHEN old.last_activity_at IS NOT new.last_activity_at BEGIN
    {_RETOUCH.format(value=last_touched_sql("new.id", "new.last_activity_at"), lead="new.id")}
END;
-- A newer touchpoint only moves the time forward: no need to read the others.
CREATE TRIGGER touchpoints_touched_insert AFTER INSERT ON touchpoints
WHEN coalesce(new.created_at, '') != '' BEGIN
    UPDATE leads SET last_touched_at = new.created_at
    WHERE id = new.lead_id AND coalesce(last_touched_at, '') < new.created_at;
END;
CREATE TRIGGER touchpoints_touched_update AFTER UPDATE OF created_at, lead_id ON touchpoints
WHEN old.created_at IS NOT new.created_at OR old.lead_id IS NOT new.lead_id BEGIN
    {_RETOUCH.format(value=last_touched_sql("old.lead_id", "last_activity_at"), lead="old.lead_id")}
    {_RETOUCH.format(value=last_touched_sql("new.lead_id", "last_activity_at"), lead="new.lead_id")}
END;
-- A deleted touchpoint (an undone activity, a pending one replaced by the service's) moves
-- the time back only when it was the newest.
CREATE TRIGGER touchpoints_touched_delete AFTER DELETE ON touchpoints
WHEN coalesce(old.created_at, '') != '' BEGIN
    UPDATE leads SET last_touched_at = {last_touched_sql("old.lead_id", "last_activity_at")}
    WHERE id = old.lead_id AND last_touched_at = old.created_at;
END;
"""


def _last_touched(conn: sqlite3.Connection) -> None:
    _run_script(conn, _LAST_TOUCHED)


# Epoch seconds of a stored wire timestamp (NULL when it is not one), for the migration below.
_EPOCH_OF_UPDATE = "((julianday(updated_at) - 2440587.5) * 86400.0)"

_WINDOWS_AND_LEASES = f"""
-- Every wait an op is given is kept with its length, so that a wait stored under a clock
-- that was wrong (a year ahead, an hour behind) heals to at most that length from now
-- (`OutboxStore.heal_times`) instead of holding the op, and its lead, for the jump.
-- hold_seconds: the undo window `hold_until` was set for. wait_seconds: how far ahead
-- `next_attempt_at` and `not_before` were set (our backoff, the service's Retry-After).
ALTER TABLE outbox ADD COLUMN hold_seconds REAL;
ALTER TABLE outbox ADD COLUMN wait_seconds REAL;
-- The lease of an in-flight op's claim (epoch seconds), renewed by its live sender: a
-- claim whose sender cannot be checked is taken for gone once it runs out.
ALTER TABLE outbox ADD COLUMN claim_until REAL;
-- The lengths of the waits stored before: from the time of the op's last change, no
-- longer than the longest undo window (60 s) and the longest wait the service may ask (1 h).
UPDATE outbox SET hold_seconds = min(60.0, max(0.0, hold_until - {_EPOCH_OF_UPDATE}))
    WHERE hold_until IS NOT NULL;
UPDATE outbox SET wait_seconds =
    min(3600.0, max(0.0, max(next_attempt_at, coalesce(not_before, 0)) - {_EPOCH_OF_UPDATE}))
    WHERE state IN ('pending', 'ambiguous');
"""


def _windows_and_leases(conn: sqlite3.Connection) -> None:
    _run_script(conn, _WINDOWS_AND_LEASES)


# Search everywhere (store/search.py): a word index per kind of result, external content
# (the rows themselves are the one copy: the index holds only words), kept by triggers on
# the rows so every writer (sync, local effects, undo, cascades) keeps it without knowing
# of it. Words as `unicode61` splits them, accents folded; prefixes of 1 to 3 letters
# indexed, so a word being typed is one lookup.
SEARCH_TOKENIZER = "tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'"

# (index, table, rowid column, indexed columns); the columns are the table's own.
SEARCH_INDEXES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("search_leads", "leads", "id", ("company_name",)),
    ("search_deals", "leads", "id", ("deal_text",)),
    ("search_companies", "companies", "id", ("name", "domain", "industry", "country")),
    ("search_contacts", "contacts", "id", ("first_name", "last_name", "title", "email")),
    ("search_notes", "notes", "local_id", ("content",)),
    ("search_activities", "touchpoints", "local_id", ("description",)),
    ("search_recommendations", "recommendations", "id", ("engagement_reason", "suggested_comment")),
)

# What a deal says, in words: found by its outcome, its value, its currency and the reason
# it was lost. Generated (never stored); NULL for a lead with no deal.
_DEAL_TEXT = """
ALTER TABLE leads ADD COLUMN deal_text TEXT GENERATED ALWAYS AS (
    CASE WHEN deal_value IS NOT NULL OR won_at IS NOT NULL OR closed_at IS NOT NULL
         OR deal_currency IS NOT NULL OR closed_reason IS NOT NULL
    THEN trim(
        CASE WHEN won_at IS NOT NULL THEN 'won ' WHEN closed_at IS NOT NULL THEN 'lost ' ELSE 'open ' END
        || 'deal ' || coalesce(deal_value || ' ', '') || coalesce(deal_currency || ' ', '')
        || coalesce(closed_reason, ''))
    END) VIRTUAL;
"""

# The source columns each index reads (a generated column is kept through what it is made of).
_SEARCH_SOURCES = {"deal_text": ("deal_value", "deal_currency", "won_at", "closed_at", "closed_reason")}


def search_index_sql(
    fts: str, table: str, rowid: str, columns: tuple[str, ...], tokenizer: str = SEARCH_TOKENIZER
) -> str:
    """One search index over `table` and the triggers that keep it (shared with the
    follow-ups file, `store.followups`)."""
    names = ", ".join(columns)
    new = ", ".join(f"new.{c}" for c in columns)
    old = ", ".join(f"old.{c}" for c in columns)
    sources = [source for c in columns for source in _SEARCH_SOURCES.get(c, (c,))]
    changed = " OR ".join(f"old.{c} IS NOT new.{c}" for c in sources)
    return f"""
CREATE VIRTUAL TABLE {fts} USING fts5({names}, content='{table}', content_rowid='{rowid}', {tokenizer});
CREATE TRIGGER {fts}_insert AFTER INSERT ON {table} BEGIN
    INSERT INTO {fts}(rowid, {names}) VALUES (new.{rowid}, {new});
END;
CREATE TRIGGER {fts}_delete AFTER DELETE ON {table} BEGIN
    INSERT INTO {fts}({fts}, rowid, {names}) VALUES ('delete', old.{rowid}, {old});
END;
CREATE TRIGGER {fts}_update AFTER UPDATE OF {", ".join(dict.fromkeys([rowid, *sources]))} ON {table}
WHEN old.{rowid} IS NOT new.{rowid} OR {changed} BEGIN
    INSERT INTO {fts}({fts}, rowid, {names}) VALUES ('delete', old.{rowid}, {old});
    INSERT INTO {fts}(rowid, {names}) VALUES (new.{rowid}, {new});
END;
INSERT INTO {fts}({fts}) VALUES ('rebuild');
"""


def add_search_index(conn: sqlite3.Connection, fts: str, table: str, rowid: str, columns: tuple[str, ...]) -> None:
    """Create one search index, its triggers, and fill it from the rows already there."""
    _run_script(conn, search_index_sql(fts, table, rowid, columns))


def _search_indexes(conn: sqlite3.Connection) -> None:
    _run_script(conn, _DEAL_TEXT)
    for fts, table, rowid, columns in SEARCH_INDEXES:
        add_search_index(conn, fts, table, rowid, columns)


_REVIEW_INDEXES = """
-- The week in review (store/review.py) reads a week's notes by their time, as it reads
-- activities through `touchpoints_created`: a range of this index instead of a scan of
-- every note (100,000 in bench/bench_report.py).
CREATE INDEX notes_created ON notes(created_at, lead_id);
"""


def _review_indexes(conn: sqlite3.Connection) -> None:
    _run_script(conn, _REVIEW_INDEXES)


MIGRATIONS: list[Migration] = [
    _initial_schema,
    _trust,
    _bonus_reason,
    _today_indexes,
    _last_touched,
    _windows_and_leases,
    _search_indexes,
    _review_indexes,
]


def current_version(conn: sqlite3.Connection) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)"
    )
    found = conn.execute("SELECT max(version) FROM schema_version").fetchone()[0]
    return int(found or 0)


class NewerSchemaError(RuntimeError):
    """The cache was written by a newer Warmline: refused rather than misread."""


def migrate(
    conn: sqlite3.Connection,
    migrations: Sequence[Migration] = MIGRATIONS,
    on_upgrade: Callable[[int, int], None] | None = None,
) -> int:
    """Bring the database up to `len(migrations)`; returns the version reached.

    The connection must be in autocommit mode (no transaction open). A file written by a
    newer Warmline (a higher version than we know) is refused rather than misread.
    `on_upgrade(version, target)` is called once before an existing file (not a new one)
    is brought up: a migration may rebuild an index over all its rows, seconds on a large
    cache, and the one waiting should be told.
    """
    target = len(migrations)
    found: int | None = None  # the version the file had: 0 for a new one
    told = False
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = current_version(conn)
            if version > target:
                raise NewerSchemaError(
                    f"the cache was written by a newer Warmline (schema {version}, we know {target})"
                )
            if version == target:
                conn.execute("COMMIT")
                return version
            found = version if found is None else found
            if on_upgrade is not None and not told and found > 0:
                on_upgrade(version, target)
                told = True
            migrations[version](conn)
            conn.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                (version + 1,),
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
