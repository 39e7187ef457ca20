"""Sync state shared through the database: online or offline, last sync, rate limits.

The flush loop may run in another process (`warmline sync --watch`) than the cockpit, so
what the status bar shows is read from here, not from memory.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from warmline.store.clock import iso
from warmline.store.database import Database
from warmline.store.mapping import dumps
from warmline.store.rows import loads

ONLINE = "online"
LAST_SYNC_AT = "last_sync_at"
RATE_LIMITED_UNTIL = "rate_limited_until"
LAST_ERROR = "last_error"
RATE_LIMIT_SERVICE = "rate_limit_service"
"""Which service (`ServiceClient.service_id`: a hash of base URL and key) the stored
`rate_limited_until` came from: a hold is dropped when the config points elsewhere."""
RATE_LIMIT_CLEARED_AT = "rate_limit_cleared_at"
"""When the rep last retried explicitly; an engine in any process drops its hold on seeing
it change."""


class SyncStatus(NamedTuple):
    """What the status bar shows. `online` is None before the first contact."""

    online: bool | None
    last_sync_at: float | None
    rate_limited_until: float | None
    last_error: str | None
    queued: int
    failed: int

    def rate_limited(self, now: float) -> bool:
        return self.rate_limited_until is not None and self.rate_limited_until > now


class StateStore(Database):
    """Key-value sync state; mixed into `warmline.store.Store`."""

    def set_state(self, key: str, value: Any) -> None:
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
            self.set_state(RATE_LIMITED_UNTIL, None)
            self.set_state(RATE_LIMIT_CLEARED_AT, self.clock())
            conn.execute(
                "UPDATE outbox SET not_before = NULL"
                " WHERE not_before IS NOT NULL AND state IN ('pending', 'ambiguous', 'failed')"
            )

    def get_state(self, key: str, default: Any = None) -> Any:
        found = self.scalar("SELECT value FROM sync_state WHERE key = ?", (key,))
        return default if found is None else loads(found, default)

    def sync_status(self) -> SyncStatus:
        values = {r["key"]: loads(r["value"]) for r in self.rows("SELECT key, value FROM sync_state")}
        counts = dict(
            (r["bucket"], r["n"])
            for r in self.rows(
                "SELECT CASE state WHEN 'failed' THEN 'failed' ELSE 'queued' END AS bucket, count(*) AS n"
                " FROM outbox WHERE state IN ('pending', 'in_flight', 'ambiguous', 'failed') GROUP BY bucket"
            )
        )
        online = values.get(ONLINE)
        return SyncStatus(
            online=online if isinstance(online, bool) else None,
            last_sync_at=values.get(LAST_SYNC_AT),
            rate_limited_until=values.get(RATE_LIMITED_UNTIL),
            last_error=values.get(LAST_ERROR),
            queued=counts.get("queued", 0),
            failed=counts.get("failed", 0),
        )
