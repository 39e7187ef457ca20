"""What the always-visible status line says: connection, queue, failures, freshness.

`SyncStatus` is a plain value so the status line can be fed from the store, from the
sync engine, or from a test; `describe()` turns it into words without any widget.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import NamedTuple

from warmline.tui.safe import safe_text
from warmline.tui.timefmt import clock_time, parse_ts, relative

ONLINE = "online"
OFFLINE = "offline"
SYNCING = "syncing"
RATE_LIMITED = "rate_limited"
AUTH_FAILED = "auth_failed"
FAILING = "failing"
"""The service answers, but with errors or garbage where the cache's data should be."""
SYNC_OFF = "sync_off"
"""Sync could not start (the client refused the configured service); the cache still works."""
UNKNOWN = "unknown"


FAILING_WIDTH = 48
"""At most this much of what failed is shown, so the rest of the line still fits."""


class SyncStatus(NamedTuple):
    """A snapshot of the sync state as the rep should see it."""

    state: str = UNKNOWN
    pending: int = 0
    failed: int = 0
    last_sync_at: datetime | str | None = None
    rate_limited_until: datetime | str | None = None
    running_jobs: int = 0
    finished_jobs: int = 0
    undo: str | None = None
    """The decision `u` can still take back and for how long ("dismiss of Acme · 4s")."""
    failing: str | None = None
    """With FAILING: what failed, briefly ("lead list (HTTP 503)")."""


class StatusPart(NamedTuple):
    """One segment of the status line and the colour role it takes (for the theme)."""

    text: str
    role: str = "normal"  # normal | good | warn | bad | muted


def describe(status: SyncStatus, now: datetime, zone: tzinfo) -> list[StatusPart]:
    """Words for the status line, most important first; never an alarm for offline."""
    parts = [_connection(status, now, zone)]
    if status.undo:
        parts.append(StatusPart(f"u undoes {status.undo}", "warn"))
    if status.last_sync_at is not None:
        parts.append(StatusPart("synced " + relative(status.last_sync_at, now, zone), "muted"))
    elif status.state != OFFLINE:
        parts.append(StatusPart("not synced yet", "muted"))
    if status.pending:
        parts.append(StatusPart(f"{status.pending} pending", "warn"))
    if status.failed:
        wording = "failure needs" if status.failed == 1 else "failures need"
        parts.append(StatusPart(f"{status.failed} {wording} attention", "bad"))
    if status.running_jobs:
        parts.append(StatusPart(f"{status.running_jobs} job{'s' if status.running_jobs != 1 else ''} running"))
    if status.finished_jobs:
        parts.append(StatusPart(f"{status.finished_jobs} job{'s' if status.finished_jobs != 1 else ''} done", "good"))
    return parts


def _connection(status: SyncStatus, now: datetime, zone: tzinfo) -> StatusPart:
    if status.state == RATE_LIMITED:
        until = parse_ts(status.rate_limited_until)
        if until is not None and until > now:
            return StatusPart(f"rate-limited until {clock_time(until, zone)}", "warn")
        return StatusPart("rate-limited", "warn")
    if status.state == AUTH_FAILED:
        return StatusPart("✗ API key refused: check the config (see ? for help)", "bad")
    if status.state == FAILING:
        what = safe_text(status.failing or "")[:FAILING_WIDTH].strip()
        return StatusPart("✗ service failing" + (f": {what}" if what else ""), "bad")
    if status.state == SYNC_OFF:
        return StatusPart("✗ sync off: check the service settings in the config", "bad")
    if status.state == ONLINE:
        return StatusPart("● online", "good")
    if status.state == OFFLINE:
        return StatusPart("○ offline", "warn")
    if status.state == SYNCING:
        return StatusPart("⟳ syncing", "normal")
    return StatusPart("○ not connected", "muted")
