"""The local SQLite cache: schema, migrations, queries and the action outbox.

`Store(path)` opens (creating or migrating) the cache. Its methods come from modules
named for what they hold:

- `leads`: `lead_page`, `lead_count`, `lead_detail`, `resolve_lead`, `upsert_leads`,
  `upsert_lead_detail`
- `recommendations`: `active_recommendations`, `recommendation_progress`,
  `upsert_recommendations`
- `outbox`: `enqueue`, `due_ops`, `mark_in_flight`, `mark_done`, `mark_retry`,
  `mark_ambiguous`, `mark_failed`, `recover_after_crash`, `retry`, `retry_all`,
  `discard`, `undo`, `outbox_rows`, `outbox_counts`
- `jobs`: `jobs`, `due_jobs`, `record_job`, `found_contacts`
- `directory`: companies, contacts, field schemas, tags, research templates, lookups
- `state`: `set_state`, `get_state`, `sync_status`
- `tombstones`: `mark_lead_gone`, `lead_tombstone` (leads the service removed)

Read models: what one page shows, read in one transaction as plain typed data, for the
cockpit's screens and the commands that print the same (each a function of the store, in
its own module, imported where it is used): `company_page`, `contact_page`,
`lookup_history`, `people_found`, `research_results`, `today` (`custom_fields` labels the
custom fields they hold). Nothing outside this package runs SQL (tests/test_no_sql_outside_store.py).

`effects` says what each queued action does locally; `database` how the connection is
configured; `schema` the migrations. Never imports Textual or Rich.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from warmline.config import data_dir
from warmline.store.clock import EpochClock, system_clock
from warmline.store.database import CacheUnusable, StoreError, cache_unusable
from warmline.store.directory import DirectoryStore
from warmline.store.jobs import JobsStore
from warmline.store.leads import LeadsStore
from warmline.store.outbox import OpStateError, OutboxStore
from warmline.store.recommendations import RecommendationsStore
from warmline.store.rows import (
    AMBIGUOUS,
    DONE,
    EFFECT_STATES,
    FAILED,
    IN_FLIGHT,
    PENDING,
    QUEUE_STATES,
    CompanyRow,
    ContactRow,
    Job,
    LeadRow,
    Op,
    OutboxCounts,
    Recommendation,
    RecommendationProgress,
)
from warmline.store.schema import MIGRATIONS, NewerSchemaError, migrate
from warmline.store.state import StateStore
from warmline.store.sync_vocabulary import StateKey, SyncState, SyncStatus
from warmline.store.tombstones import Tombstone, TombstonesStore

DB_FILENAME = "cache.sqlite3"


def default_db_path() -> Path:
    """The cache file in the data dir (`WARMLINE_DATA_DIR` or the platform's user data dir)."""
    return data_dir() / DB_FILENAME


class Store(LeadsStore, RecommendationsStore, OutboxStore, JobsStore, DirectoryStore, StateStore, TombstonesStore):
    """The cache. Safe to share between threads; open one per process."""

    def __init__(
        self,
        path: Path | str | None = None,
        clock: EpochClock = system_clock,
        on_upgrade: Callable[[int, int], None] | None = None,
    ) -> None:
        """`on_upgrade`: told before a cache written by an older Warmline is brought up to
        date (`migrate`), which may take seconds on a large one."""
        super().__init__(default_db_path() if path is None else path, clock)
        try:
            with self._lock:
                self.schema_version = migrate(self.conn, MIGRATIONS, on_upgrade)
        except (sqlite3.DatabaseError, OSError, NewerSchemaError) as exc:
            # Not SQLite, truncated, a damaged page, read-only, written by a newer Warmline.
            self.conn.close()
            raise cache_unusable(self.path, exc) from exc


__all__ = [
    "AMBIGUOUS",
    "CacheUnusable",
    "DONE",
    "EFFECT_STATES",
    "FAILED",
    "IN_FLIGHT",
    "PENDING",
    "QUEUE_STATES",
    "CompanyRow",
    "ContactRow",
    "Job",
    "LeadRow",
    "Op",
    "OpStateError",
    "OutboxCounts",
    "Recommendation",
    "RecommendationProgress",
    "Store",
    "StateKey",
    "StoreError",
    "SyncState",
    "SyncStatus",
    "Tombstone",
    "default_db_path",
]
