"""What the status line shows, read from the store (the sync engine writes it there).

The flush loop may run in another process (`warmline sync --watch`), so the cockpit
reads the shared state from the cache instead of asking a sync object in memory.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from warmline.tui.status import (
    AUTH_FAILED,
    FAILING,
    OFFLINE,
    ONLINE,
    RATE_LIMITED,
    SYNCING,
    UNKNOWN,
    SyncStatus,
)
from warmline.tui.timefmt import Clock, parse_ts

JOBS_SEEN_AT = "tui.jobs_seen_at"
# Written by the sync engine (warmline.sync.status) beside the store's own keys; read by
# name here so that painting the cockpit does not import the HTTP stack.
SYNCING_KEY = "syncing"
AUTH_FAILED_KEY = "auth_failed"
FAILING_KEY = "service_failing"


def _moment(epoch: float | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


def status_from_store(store: Any, clock: Clock) -> SyncStatus:
    """The status line's state: connection, queue, failures, freshness and job badges."""
    shared = store.sync_status()
    now = clock().timestamp()
    failing = store.get_state(FAILING_KEY)
    failing = failing if isinstance(failing, str) and failing else None
    if store.get_state(AUTH_FAILED_KEY, False):
        state = AUTH_FAILED
    elif shared.online is False:
        state = OFFLINE
    elif failing:
        state = FAILING
    elif shared.rate_limited(now):
        state = RATE_LIMITED
    elif store.get_state(SYNCING_KEY, False):
        state = SYNCING
    elif shared.online is True:
        state = ONLINE
    else:
        state = UNKNOWN
    jobs = store.jobs(limit=200)
    seen = parse_ts(store.get_state(JOBS_SEEN_AT))
    return SyncStatus(
        state=state,
        pending=shared.queued,
        failed=shared.failed,
        last_sync_at=_moment(shared.last_sync_at),
        rate_limited_until=_moment(shared.rate_limited_until),
        running_jobs=sum(1 for job in jobs if job.active),
        finished_jobs=sum(1 for job in jobs if not job.active and _after(job.completed_at, seen)),
        failing=failing,
    )


def _after(value: str | None, seen: datetime | None) -> bool:
    finished = parse_ts(value)
    return finished is not None and (seen is None or finished > seen)


def mark_jobs_seen(store: Any, clock: Clock) -> None:
    """The rep looked at the job monitor: finished jobs stop being announced."""
    store.set_state(JOBS_SEEN_AT, clock().isoformat())
