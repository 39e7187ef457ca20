"""What the status line shows, read from the store (the sync engine writes it there).

The flush loop may run in another process (`warmline sync --watch`), so the cockpit
reads the shared state from the cache instead of asking a sync object in memory.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from warmline.store.rows import AMBIGUOUS, IN_FLIGHT, PENDING
from warmline.store.sync_vocabulary import StateKey
from warmline.tui.status import CockpitStatus
from warmline.tui.timefmt import DatetimeClock, parse_ts

if TYPE_CHECKING:
    from warmline.store import Store

WAITING = (PENDING, IN_FLIGHT, AMBIGUOUS)
"""The outbox states the status line counts as pending (`Store.sync_status`)."""


def status_from_store(store: Store, clock: DatetimeClock) -> CockpitStatus:
    """The status line's state: connection, queue, failures, freshness and job badges."""
    sync = store.sync_status()
    jobs = store.jobs(limit=200)
    seen_at = store.get_state(StateKey.JOBS_SEEN_AT)  # written by `mark_jobs_seen`, as text
    seen = parse_ts(seen_at if isinstance(seen_at, str) else None)
    queued = [job for job in jobs if job.active and job.remote_id is None]
    # A job started offline is one op waiting in the outbox: shown as a queued job only.
    # (Its op, once failed, is a failure to see to instead, so only waiting ones count.)
    ops = [store.get_op(job.op_id) for job in queued if job.op_id is not None]
    return CockpitStatus(
        state=sync.state(clock().timestamp()),
        sync=sync,
        running_jobs=sum(1 for job in jobs if job.active and job.remote_id is not None),
        queued_jobs=len(queued),
        queued_job_ops=sum(1 for op in ops if op is not None and op.state in WAITING),
        finished_jobs=sum(1 for job in jobs if not job.active and _after(job.completed_at, seen)),
    )


def _after(value: str | None, seen: datetime | None) -> bool:
    finished = parse_ts(value)
    return finished is not None and (seen is None or finished > seen)


SKEW_CAP = timedelta(days=1)
"""How far ahead of our clock a finished job's time may move the seen mark (below)."""


def mark_jobs_seen(store: Store, clock: DatetimeClock) -> None:
    """The rep looked at the job monitor: the jobs finished so far stop being announced.

    The mark is now, or the latest finish time among them when the service's clock runs
    ahead of ours (otherwise a job the rep has just seen finish stays announced until our
    clock catches up); a time absurdly far ahead moves it by `SKEW_CAP` at most."""
    now = clock()
    finished = (parse_ts(job.completed_at) for job in store.jobs(limit=200) if not job.active)
    latest = max((at for at in finished if at is not None), default=now)
    store.set_state(StateKey.JOBS_SEEN_AT, max(now, min(latest, now + SKEW_CAP)).isoformat())
