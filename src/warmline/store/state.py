"""Sync state shared through the database: online or offline, last sync, rate limits.

The flush loop may run in another process (`warmline sync --watch`) than the cockpit, so
what the status bar shows is read from here, not from memory. The keys and the status
type are the sync vocabulary (`warmline.store.sync_vocabulary`).
"""

from __future__ import annotations

from warmline.store.clock import iso
from warmline.store.database import Database
from warmline.store.mapping import dumps
from warmline.store.rows import loads
from warmline.store.sync_vocabulary import StateKey, SyncStatus
from warmline.store.values import JsonValue


class StateStore(Database):
    """Key-value sync state; mixed into `warmline.store.Store`."""

    def set_state(self, key: StateKey, value: object) -> None:
        with self.write() as conn:
            conn.execute(
                "INSERT INTO sync_state (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, dumps(value), iso(self.clock())),
            )

    def clear_rate_limit(self) -> None:
        """The rep asked to retry now (`warmline outbox retry`, the cockpit's retry): drop the
        wait the service asked for, stored and per op (`not_before`), so a wait that was
        absurd or is over on the service's side never stands between the rep and a send.
        Running engines see `rate_limit_cleared_at` change and drop their own hold."""
        with self.write() as conn:
            self.set_state(StateKey.RATE_LIMITED_UNTIL, None)
            self.set_state(StateKey.RATE_LIMIT_CLEARED_AT, self.clock())
            conn.execute(
                "UPDATE outbox SET not_before = NULL"
                " WHERE not_before IS NOT NULL AND state IN ('pending', 'ambiguous', 'failed')"
            )

    def get_state(self, key: StateKey, default: JsonValue = None) -> JsonValue:
        """The value stored under `key` as JSON gave it back; `default` when there is none."""
        found = self.scalar("SELECT value FROM sync_state WHERE key = ?", (key,))
        return default if found is None else loads(found, default)

    def service_address(self) -> str | None:
        """The address of the service this cache's data came from (`bind_service`); None
        for a new cache, or one from before Warmline recorded it."""
        found = self.get_state(StateKey.SERVICE_ADDRESS)
        return found if isinstance(found, str) and found else None

    def holds_service_data(self) -> bool:
        """Whether anything here came from a service or names its records (leads, companies,
        contacts, lookups, jobs, queued actions): a cache with none (a first start whose
        sync never reached its service, a mistyped address) may be bound to another."""
        tables = ("leads", "companies", "contacts", "lookups", "jobs", "outbox", "research_templates")
        return bool(self.scalar("SELECT " + " OR ".join(f"EXISTS (SELECT 1 FROM {table})" for table in tables)))

    def bind_service(self, address: str) -> None:
        """This cache's data comes from the service at `address` (`warmline.wiring`)."""
        self.set_state(StateKey.SERVICE_ADDRESS, address)

    def mark_cockpit_seen(self, now: float) -> None:
        """The cockpit closes at `now` (epoch seconds): the next Today lists what finished
        after it. Written at quit, so the Today of the next start is read before it moves."""
        self.set_state(StateKey.COCKPIT_LAST_SEEN, now)

    def cockpit_last_seen(self) -> float | None:
        """When the cockpit was last closed (epoch seconds); None when never on this cache."""
        return _epoch(self.get_state(StateKey.COCKPIT_LAST_SEEN))

    def sync_status(self) -> SyncStatus:
        """The status as the engine stored it (in whichever process it runs), with the
        outbox counted now."""
        values = {r["key"]: loads(r["value"]) for r in self.rows("SELECT key, value FROM sync_state")}
        counts = dict(
            (r["bucket"], r["n"])
            for r in self.rows(
                "SELECT CASE state WHEN 'failed' THEN 'failed' ELSE 'queued' END AS bucket, count(*) AS n"
                " FROM outbox WHERE state IN ('pending', 'in_flight', 'ambiguous', 'failed') GROUP BY bucket"
            )
        )
        online = values.get(StateKey.ONLINE)
        return SyncStatus(
            online=online if isinstance(online, bool) else None,
            syncing=bool(values.get(StateKey.SYNCING, False)),
            auth_failed=bool(values.get(StateKey.AUTH_FAILED, False)),
            rate_limited_until=_epoch(values.get(StateKey.RATE_LIMITED_UNTIL)),
            queued=_count(counts.get("queued")),
            failed=_count(counts.get("failed")),
            last_sync_at=_epoch(values.get(StateKey.LAST_SYNC_AT)),
            last_error=_text(values.get(StateKey.LAST_ERROR)),
            failing=_text(values.get(StateKey.SERVICE_FAILING)) or None,
            clock_note=_text(values.get(StateKey.CLOCK_NOTE)) or None,
            step=_text(values.get(StateKey.SYNC_STEP)) or None,
        )


# A value the engine did not write (an older version's, a damaged cache) reads as none,
# rather than reaching the status line's arithmetic as text.


def _epoch(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _count(value: object) -> int:
    return value if isinstance(value, int) else 0
