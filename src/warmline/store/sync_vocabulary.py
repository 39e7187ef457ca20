"""The sync vocabulary: the states a connection can be in, the keys the sync state is
stored under, and the one status that the engine produces, the store persists and the
cockpit shows.

It lives in the store because every user can import it from there: the engine (sync/)
writes the status, the store reads it back for any process (the flush loop may run in
`warmline sync --watch` while the cockpit shows it), and the cockpit reads it on its
first frame, before the HTTP stack is loaded. Nothing here imports more than the
standard library.
"""

from enum import StrEnum

from warmline.named_tuple import NamedTuple


class SyncState(StrEnum):
    """The one word for the connection, shown to the rep (status line, `sync --watch`).

    Never stored: it is worked out from a `SyncStatus` when shown (`SyncStatus.state`)."""

    AUTH_FAILED = "auth_failed"
    """The service refused the API key: nothing is sent until a probe passes."""
    OFFLINE = "offline"
    FAILING = "failing"
    """The service answers, but with errors or garbage where the cache's data should be."""
    RATE_LIMITED = "rate_limited"
    SYNCING = "syncing"
    ONLINE = "online"
    UNKNOWN = "unknown"
    """Before the first answer from the service."""
    SYNC_OFF = "sync_off"
    """Only the cockpit says it: sync could not start (the client refused the configured
    service); the cache still works."""


class StateKey(StrEnum):
    """The keys of the cache's `sync_state` table. Stored: a value changed here needs a
    migration of the cache, so never rename one."""

    ONLINE = "online"
    SYNCING = "syncing"
    AUTH_FAILED = "auth_failed"
    SERVICE_FAILING = "service_failing"
    LAST_SYNC_AT = "last_sync_at"
    RATE_LIMITED_UNTIL = "rate_limited_until"
    LAST_ERROR = "last_error"
    RATE_LIMIT_SERVICE = "rate_limit_service"
    """Which service (`ServiceClient.service_id`: a hash of base URL and key) the stored
    `rate_limited_until` came from: a hold is dropped when the config points elsewhere."""
    RATE_LIMIT_CLEARED_AT = "rate_limit_cleared_at"
    """When the rep last retried explicitly; an engine in any process drops its hold on
    seeing it change."""
    SERVER_CLOCK = "server_clock"
    """The service's clock offset last learned, so a new process reconciles in the
    server's time even before (or without) an answer that carries the time."""
    CLOCK_NOTE = "clock_note"
    """Why the service's clock is not trusted ("clock 2.0 d ahead of the service"), or
    nothing: reconciliation then works in a wider window, and the rep is told."""
    SERVICE_ADDRESS = "service_address"
    """The service this cache's data came from (`warmline.wiring.service_address`): the
    cache is refused to any other, so its queued actions never reach another's leads."""
    SYNC_STEP = "sync_step"
    """What a whole pass ("Sync now", `warmline sync --once`) is doing now, while it runs."""
    SERVICE_DIALECT = "service_dialect"
    """What the client learned of the service's dialect (paging styles, research paths),
    with the `service_id` it came from: a new process starts from it."""
    JOBS_SEEN_AT = "tui.jobs_seen_at"
    """When the rep last looked at the job monitor: later finished jobs are announced."""
    THEME = "tui.theme"
    """The theme last picked in the cockpit (palette): the next start opens in it."""
    COCKPIT_LAST_SEEN = "tui.cockpit_last_seen"
    """When the cockpit was last closed (epoch seconds): Today lists the jobs finished
    since then (`Store.mark_cockpit_seen`, `Store.cockpit_last_seen`)."""


class SyncStatus(NamedTuple):
    """One snapshot of the sync state: the engine's, or what the store has of it.

    `online` is None before the first contact. Every field but `queued` and `failed` (which
    the store counts in the outbox) is stored under the `StateKey` of the same name
    (`failing` under `SERVICE_FAILING`, `step` under `SYNC_STEP`)."""

    online: bool | None = None
    syncing: bool = False
    auth_failed: bool = False
    rate_limited_until: float | None = None
    queued: int = 0
    failed: int = 0
    last_sync_at: float | None = None
    last_error: str | None = None
    failing: str | None = None
    """What the service failed to give us, briefly ("lead list (HTTP 503)"); None when the
    last read of each part succeeded."""
    clock_note: str | None = None
    """Our clock and the service's differ by more than a day (`ServerClock.distrust`)."""
    step: str | None = None
    """What a whole pass is doing now ("reading leads"), while one runs; None otherwise."""

    def rate_limited(self, now: float) -> bool:
        """The service asked us to wait past `now` (epoch seconds)."""
        return self.rate_limited_until is not None and self.rate_limited_until > now

    def state(self, now: float) -> SyncState:
        """The one word for the status line; the most pressing condition wins."""
        if self.auth_failed:
            return SyncState.AUTH_FAILED
        if self.online is False:
            return SyncState.OFFLINE
        if self.failing:
            return SyncState.FAILING
        if self.rate_limited(now):
            return SyncState.RATE_LIMITED
        if self.syncing:
            return SyncState.SYNCING
        return SyncState.ONLINE if self.online else SyncState.UNKNOWN


STORED_FIELDS: dict[str, StateKey] = {
    "online": StateKey.ONLINE,
    "syncing": StateKey.SYNCING,
    "auth_failed": StateKey.AUTH_FAILED,
    "rate_limited_until": StateKey.RATE_LIMITED_UNTIL,
    "last_sync_at": StateKey.LAST_SYNC_AT,
    "last_error": StateKey.LAST_ERROR,
    "failing": StateKey.SERVICE_FAILING,
    "clock_note": StateKey.CLOCK_NOTE,
    "step": StateKey.SYNC_STEP,
}
"""Each stored field of `SyncStatus` and the key it is stored under."""
