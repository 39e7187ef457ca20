"""What the always-visible status line says: connection, queue, failures, freshness.

`CockpitStatus` is a plain value so the status line can be fed from the store, from the
sync engine, or from a test; `describe()` turns it into words without any widget.
"""

from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING

from warmline.config import KEY_FIX
from warmline.named_tuple import NamedTuple
from warmline.store.sync_vocabulary import SyncState, SyncStatus
from warmline.tui.safe import safe_text
from warmline.tui.timefmt import clock_time, relative

if TYPE_CHECKING:
    from warmline.sync.engine import PassReport

FAILING_WIDTH = 48
"""At most this much of what failed is shown, so the rest of the line still fits."""


def _within(text: str, width: int) -> str:
    """`text` (made safe), cut to `width` with an ellipsis that says it was cut."""
    text = safe_text(text).strip()
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


class CockpitStatus(NamedTuple):
    """The sync status as the status line shows it, with what only the cockpit knows."""

    state: SyncState = SyncState.UNKNOWN
    """The word, decided when the status was read (`SyncStatus.state`), or SYNC_OFF when
    the cockpit could not start sync."""
    sync: SyncStatus = SyncStatus()
    running_jobs: int = 0
    """Jobs the service has started (they have its id)."""
    queued_jobs: int = 0
    """Jobs whose start is still in the outbox (offline, or not sent yet): not running."""
    queued_job_ops: int = 0
    """Of the outbox's ops counted in `sync.queued`, those that start a queued job: the line
    counts each once, as a queued job, not also as pending."""
    finished_jobs: int = 0
    undo: str | None = None
    """The decision the undo key can still take back and for how long, with that key as
    the rep has it ("u undoes dismiss of Acme · 4s")."""
    syncing_now: bool = False
    """The rep's "Sync now" is running: the line says so until it ends, whatever the
    connection was (it may be what the pass is about to find out)."""
    sync_off: str | None = None
    """Why sync could not start, in a few words, when the reason has them (SYNC_OFF)."""


SYNC_OFF_HINT = "check the service settings in the config"
"""Why sync is off, when the reason has no few words of its own (`CockpitStatus.sync_off`)."""


class StatusPart(NamedTuple):
    """One segment of the status line and the colour role it takes (for the theme)."""

    text: str
    role: str = "normal"  # normal | good | warn | bad | muted


def describe(status: CockpitStatus, now: datetime, zone: tzinfo) -> list[StatusPart]:
    """Words for the status line, most important first; never an alarm for offline."""
    sync = status.sync
    parts = [_connection(status, now, zone)]
    if status.undo:
        parts.append(StatusPart(status.undo, "warn"))
    if sync.last_sync_at is not None:
        # A sync is past: after the clock was set back it reads "just now", never "in 1 h".
        parts.append(StatusPart("synced " + relative(min(_moment(sync.last_sync_at), now), now, zone, to_the_second=True),
                                    "muted"))
    elif status.state != SyncState.OFFLINE:
        parts.append(StatusPart("not synced yet", "muted"))
    pending = sync.queued - status.queued_job_ops
    if pending > 0:
        parts.append(StatusPart(f"{pending} pending", "warn"))
    if sync.failed:
        wording = "failure needs" if sync.failed == 1 else "failures need"
        parts.append(StatusPart(f"{sync.failed} {wording} attention", "bad"))
    if sync.clock_note:
        parts.append(StatusPart(_within(sync.clock_note, FAILING_WIDTH), "warn"))
    if status.running_jobs:
        parts.append(StatusPart(f"{status.running_jobs} job{'s' if status.running_jobs != 1 else ''} running"))
    if status.queued_jobs:
        parts.append(StatusPart(f"{status.queued_jobs} job{'s' if status.queued_jobs != 1 else ''} queued", "muted"))
    if status.finished_jobs:
        parts.append(StatusPart(f"{status.finished_jobs} job{'s' if status.finished_jobs != 1 else ''} done", "good"))
    return parts


def _moment(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


def _connection(status: CockpitStatus, now: datetime, zone: tzinfo) -> StatusPart:
    state = status.state
    if status.syncing_now and state != SyncState.SYNC_OFF:
        step = status.sync.step
        return StatusPart(f"⟳ syncing: {_within(step, FAILING_WIDTH)}…" if step else "⟳ syncing…", "normal")
    if state == SyncState.RATE_LIMITED:
        until = status.sync.rate_limited_until
        if until is not None and _moment(until) > now:
            return StatusPart(f"rate-limited until {clock_time(_moment(until), zone)}", "warn")
        return StatusPart("rate-limited", "warn")
    if state == SyncState.AUTH_FAILED:
        return StatusPart(f"✗ API key refused: {KEY_FIX}", "bad")  # in a shell; help has no more
    if state == SyncState.FAILING:
        what = _within(status.sync.failing or "", FAILING_WIDTH)
        return StatusPart("✗ service failing" + (f": {what}" if what else ""), "bad")
    if state == SyncState.SYNC_OFF:
        return StatusPart(f"✗ sync off: {status.sync_off or SYNC_OFF_HINT}", "bad")
    if state == SyncState.ONLINE:
        return StatusPart("● online", "good")
    if state == SyncState.OFFLINE:
        return StatusPart("○ offline", "warn")
    if state == SyncState.SYNCING:
        return StatusPart("⟳ syncing", "normal")
    return StatusPart("○ not connected", "muted")


def sync_result(report: "PassReport | None", zone: tzinfo, *, outbox_key: str) -> StatusPart:
    """The notice after "Sync now": what the pass did, or why it could not (the status line
    then says the same in its one word). None: a pass was already running. `outbox_key`:
    the rep's key for the outbox, which a problem sends them to."""
    if report is None:
        return StatusPart("A sync is already running.", "muted")
    if report.auth_error:
        return StatusPart(f"Sync now: the service refused the API key: {KEY_FIX}", "bad")
    if report.offline_error or not report.reachable:
        return StatusPart("Sync now: offline; queued actions go when the service is back.", "warn")
    if report.rate_limited_until is not None:
        until = clock_time(_moment(report.rate_limited_until), zone)
        return StatusPart(f"Sync now: the service asked us to wait until {until}; nothing was sent.", "warn")
    flush = report.flush
    sent = flush.delivered + flush.reconciled + flush.resolved
    done = [f"{sent} action{'s' if sent != 1 else ''} sent"]
    if report.leads_refreshed is not None:
        done.append(f"{report.leads_refreshed} lead{'s' if report.leads_refreshed != 1 else ''} read")
    if report.polls.polled:
        done.append(f"{report.polls.polled} job{'s' if report.polls.polled != 1 else ''} checked")
    problems = flush.failed + len(report.refresh_failures)
    if problems:
        done.append(f"{problems} problem{'s' if problems != 1 else ''}: see the outbox ({outbox_key}) and the status line")
    return StatusPart("Synced: " + ", ".join(done) + ".", "warn" if problems else "good")
