"""`SyncEngine`: the background scheduler that delivers, refreshes and polls.

It runs inside an existing asyncio loop (the cockpit's, or `warmline sync`'s): `start()`
creates an APScheduler `AsyncIOScheduler` on the running loop with five jobs, each with
`coalesce=True` (a backlog of missed runs is one run), `max_instances=1` (never two
flushes at once in one process; other processes are kept apart by the outbox claim) and
a generous `misfire_grace_time` (a laptop waking from sleep still runs them):

- `flush`: delivers the outbox; runs on its interval and at once on `wake()` (a new
  action, or the tick seeing an op come due). A wake during a flush makes that flush run
  another pass rather than being lost to `max_instances`.
- `tick` (every second, no request unless something is due): the health probe while
  offline (or before the first contact), and while online once the service has answered
  nothing for 20 s (the idle probe), a wake of the flush when another process queued
  an action, and the polls of jobs whose 5-10 s interval has come.
- `refresh`: the lead list and the recommendations of leads that have some and whose
  list line changed (stale-while-revalidate), every 5 minutes; `directory`: saved
  companies, contacts, field schemas and research templates, every 30 minutes. Both
  also run at start.
- `prefetch`: the detail of every lead whose cached detail is missing or stale, so any
  lead opens offline (`warmline.sync.prefetch`), within half of the rate-limit budget;
  run right after each refresh of the lead list, and every minute to resume a pass cut
  short. It is cancelled at once on `stop()`: it only reads.

`stop()` lets sends in progress finish for a moment, then cancels what is left; a send
cut off that way is marked ambiguous (never left in flight, never assumed lost), so the
next pass reconciles it with the server before anything is resent.

`run_once()` is one full pass without the scheduler, for `warmline sync --once`;
`sync_now()` is the same pass beside the scheduler, for the cockpit's "Sync now": never
two at once (a second call while one runs returns None), the status "syncing" from its
start to its end. The tick starts one by itself when its probe finds the service back
after being offline or refusing the key: the reads held back meanwhile would otherwise
wait for their timers (the lead list up to 5 minutes). One flush, one refresh and one
job poll run at a time in a process (`_flush_lock`, `_refresh_lock`, `_poll_lock`): a
pass waits for the scheduled one under way, then runs its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol, TypeVar, cast

# APScheduler 3 ships no types: `Scheduler` below states what the engine uses of it.
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from warmline.api import ServiceClient
from warmline.api.errors import (
    MAX_WAIT_SECONDS,
    ApiError,
    AuthError,
    BadResponseError,
    LeadNotFoundError,
    OfflineError,
    RateLimitedError,
)
from warmline.api.servertime import Estimate
from warmline.store import Store
from warmline.store.clock import EpochClock, system_clock
from warmline.store.sync_vocabulary import StateKey, SyncStatus
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import Blocking, in_thread
from warmline.sync.flush import Flusher, FlushReport
from warmline.sync.jobs import JobPoller, PollReport
from warmline.sync.prefetch import Prefetcher, PrefetchReport, Sleep
from warmline.sync.refresh import Refresher, UnreadableRecords
from warmline.sync.status import OFFLINE_PROBE_CAP, Connection, StatusBoard, StatusChange

log = logging.getLogger("warmline.sync")
# A library logs, the application decides where to: without these, Python's last-resort
# handler would print warnings (APScheduler's "skipped: maximum number of running
# instances") straight onto the cockpit's screen.
log.addHandler(logging.NullHandler())
logging.getLogger("apscheduler").addHandler(logging.NullHandler())


def _not_a_skipped_run(record: logging.LogRecord) -> bool:
    """Drops APScheduler's "skipped: maximum number of running instances reached": with
    `max_instances=1` a run due while the last one still runs is skipped by design (that
    run covers it), and a request that hangs for its 30 s deadline wrote one such warning a
    second into the rep's log. A job that raised or missed its time is still logged."""
    return "maximum number of running instances" not in str(record.msg)


logging.getLogger("apscheduler.scheduler").addFilter(_not_a_skipped_run)

T = TypeVar("T")
LeadGoneListener = Callable[[int], None]
ScheduledJob = Callable[[], Awaitable[None]]


class Scheduler(Protocol):
    """What the engine uses of APScheduler's `AsyncIOScheduler`."""

    @property
    def running(self) -> bool: ...

    def add_job(
        self, func: ScheduledJob, trigger: str, *, seconds: float, id: str, next_run_time: datetime | None = None
    ) -> object: ...

    def modify_job(self, job_id: str, *, next_run_time: datetime) -> object: ...

    def start(self) -> None: ...

    def pause(self) -> None: ...

    def shutdown(self, wait: bool = True) -> None: ...

FLUSH_JOB = "flush"
TICK_JOB = "tick"
REFRESH_JOB = "refresh"
DIRECTORY_JOB = "directory"
PREFETCH_JOB = "prefetch"

# The parts of the cache a read refreshes, as the rep is told when one fails.
PART_LEADS = "lead list"
PART_RECOMMENDATIONS = "recommendations"
PART_DIRECTORY = "saved companies and contacts"
PART_DETAILS = "lead details"


def _brief(exc: ApiError) -> str:
    """A few words for the status line; the whole message is in `last_error`."""
    if isinstance(exc, BadResponseError):
        return "unreadable answer"
    if exc.status is not None:
        return f"HTTP {exc.status}"
    return "no complete answer"


PASS_BUDGET = 300.0
"""Seconds one `run_once` pass (`warmline sync --once`) may take in all; past it the pass
stops and the service counts as unresponsive (docs/sync.md "Limits")."""

SERVER_CLOCK_STEP = 1.0
"""Seconds the learned offset must move before it is written again."""


@dataclass
class PassReport:
    """What `run_once` did, for `warmline sync --once` to print and choose its exit code."""

    reachable: bool = False
    flush: FlushReport = field(default_factory=FlushReport)
    polls: PollReport = field(default_factory=PollReport)
    leads_refreshed: int | None = None
    offline_error: str | None = None
    auth_error: str | None = None
    rate_limited_until: float | None = None
    errors: list[str] = field(default_factory=list)
    status: SyncStatus | None = None
    prefetch: PrefetchReport | None = None
    # Leads whose detail is cached (readable offline), of the leads in the cache.
    details_cached: int | None = None
    leads_cached: int | None = None
    # One line per part of the cache whose refresh failed although the service answered
    # ("Refresh of the lead list failed: ..."): `sync --once` prints them and exits 1.
    refresh_failures: list[str] = field(default_factory=list)


class SyncEngine:
    """Delivers the outbox, refreshes the cache and polls jobs for one store and client."""

    def __init__(
        self,
        store: Store,
        client: ServiceClient,
        *,
        concurrency: int = 4,
        clock: EpochClock = system_clock,
        backoff: Backoff | None = None,
        rng: random.Random | None = None,
        blocking: Blocking = in_thread,
        flush_interval: float = 30.0,
        refresh_interval: float = 300.0,
        directory_interval: float = 1800.0,
        tick_interval: float = 1.0,
        stop_grace: float = 5.0,
        annotate_late_activities: bool = False,
        prefetch_interval: float = 60.0,
        sleep: Sleep = asyncio.sleep,
        pass_budget: float = PASS_BUDGET,
    ) -> None:
        self.store = store
        self.pass_budget = pass_budget
        self.client = client
        self.clock = clock
        rng = rng or random.Random()
        backoff = backoff or Backoff(rng=rng)
        self._blocking = blocking
        self._lead_gone_listeners: list[LeadGoneListener] = []
        self.status = StatusBoard(store, clock)
        self.connection = Connection(
            client, self.status, clock=clock, backoff=Backoff(cap=OFFLINE_PROBE_CAP, rng=rng)
        )
        self.flusher = Flusher(
            store, client, concurrency=concurrency, backoff=backoff, clock=clock,
            blocking=blocking, on_lead_gone=self._lead_gone, annotate_late_activities=annotate_late_activities,
        )
        self.refresher = Refresher(store, client, blocking=blocking, on_lead_gone=self._lead_gone, concurrency=concurrency)
        self.prefetcher = Prefetcher(self.refresher, client.limiter, clock=clock, sleep=sleep)
        self.prefetch_interval = prefetch_interval
        self._prefetch_task: asyncio.Task[object] | None = None
        self.poller = JobPoller(
            store, client, self.refresher, concurrency=concurrency, clock=clock, rng=rng,
            blocking=blocking,
        )
        self.flush_interval = flush_interval
        self.refresh_interval = refresh_interval
        self.directory_interval = directory_interval
        self.tick_interval = tick_interval
        self.stop_grace = stop_grace
        self.scheduler: Scheduler | None = None
        self._woken = False
        self._flushing = False
        self._stopping = False
        self._running: set[asyncio.Task[object]] = set()
        self._pass_task: asyncio.Task[PassReport] | None = None
        self._flush_lock = asyncio.Lock()
        self._refresh_lock = asyncio.Lock()
        self._poll_lock = asyncio.Lock()
        # Parts whose last read failed although the service answered -> the failure.
        self._failing: dict[str, ApiError] = {}
        self._restore_rate_limit()
        self._stored_clock: Estimate | None = None
        self._restore_server_clock()
        self._stored_dialect: object = None
        self._restore_dialect()

    def _restore_rate_limit(self) -> None:
        """A wait the server asked for outlives a restart: it was stored with the status.

        Only for the same service and key (`StateKey.RATE_LIMIT_SERVICE`): pointed
        elsewhere, the old hold is dropped. Never longer than MAX_WAIT_SECONDS from now: a hold stored by
        an older version (or a lying service) for years is cut to that, in the store too,
        so the status line shows the real end."""
        until = self.status.current.rate_limited_until
        service = self.client.service_id
        now = self.clock()
        if self.store.get_state(StateKey.RATE_LIMIT_SERVICE) != service:
            # Another service or another key: its wait is not ours, nor its refusal of a
            # key (the rep set a new one since), which the status line would otherwise show.
            self.store.set_state(StateKey.RATE_LIMIT_SERVICE, service)
            if until is not None or self.status.current.auth_failed:
                self.status.update(rate_limited_until=None, auth_failed=False)
            until = None
        elif until is not None and until > now + MAX_WAIT_SECONDS:
            until = now + MAX_WAIT_SECONDS
            self.status.update(rate_limited_until=until)
        if until is not None and until > now:
            self.client.limiter.block_for(until - now)
        self._cleared_seen = self.store.get_state(StateKey.RATE_LIMIT_CLEARED_AT)

    async def _honour_retry(self) -> None:
        """The rep retried explicitly since we last looked (`Store.clear_rate_limit`, maybe in
        another process): the service's wait no longer holds us back."""
        cleared = await self._blocking(self.store.get_state, StateKey.RATE_LIMIT_CLEARED_AT)
        if cleared == self._cleared_seen:
            return
        self._cleared_seen = cleared
        if self.client.limiter.delay() > 0 or self.status.current.rate_limited_until is not None:
            self.client.limiter.clear()
            await self._blocking(self.status.update, rate_limited_until=None)

    def _restore_server_clock(self) -> None:
        """The offset learned by an earlier run against the same service, as a start."""
        stored = self.store.get_state(StateKey.SERVER_CLOCK)
        if not isinstance(stored, dict) or stored.get("base_url") != self.client.base_url:
            return
        offset, uncertainty = stored.get("offset"), stored.get("uncertainty")
        if isinstance(offset, int | float) and isinstance(uncertainty, int | float):
            self._stored_clock = Estimate(float(offset), float(uncertainty))
            self.client.server_clock.seed(self._stored_clock)

    def _restore_dialect(self) -> None:
        """What an earlier run learned of this service's dialect, as a start."""
        stored = self.store.get_state(StateKey.SERVICE_DIALECT)
        if isinstance(stored, dict) and stored.get("service") == self.client.service_id:
            self.client.restore_dialect(stored.get("dialect"))
            self._stored_dialect = stored.get("dialect")

    async def _remember_dialect(self) -> None:
        """Store what the client learned of the dialect when it changed."""
        learned = self.client.dialect_state()
        if learned == self._stored_dialect:
            return
        self._stored_dialect = learned
        value = {"service": self.client.service_id, "dialect": learned}
        await self._blocking(self.store.set_state, StateKey.SERVICE_DIALECT, value)

    async def _remember_server_clock(self) -> None:
        """Store the learned offset when it moved (a write per answer would be waste), and
        say in the status when the two clocks differ by more than we trust."""
        note = self.client.server_clock.distrust()
        if note != self.status.current.clock_note:
            await self._blocking(self.status.update, clock_note=note)
        estimate = self.client.server_clock.estimate()
        stored = self._stored_clock
        if estimate is None or (
            stored is not None
            and abs(estimate.offset - stored.offset) < SERVER_CLOCK_STEP
            and abs(estimate.uncertainty - stored.uncertainty) < SERVER_CLOCK_STEP
        ):
            return
        self._stored_clock = estimate
        value = {"offset": estimate.offset, "uncertainty": estimate.uncertainty, "base_url": self.client.base_url}
        await self._blocking(self.store.set_state, StateKey.SERVER_CLOCK, value)

    # --- listeners ----------------------------------------------------------------------------

    def on_lead_gone(self, listener: LeadGoneListener) -> Callable[[], None]:
        """`listener(lead_id)` when the service said a lead does not exist (`sync.blocking.LeadGone`)."""
        self._lead_gone_listeners.append(listener)
        return lambda: self._lead_gone_listeners.remove(listener) if listener in self._lead_gone_listeners else None

    def on_status(self, listener: Callable[[SyncStatus], None]) -> Callable[[], None]:
        """`listener(status)` whenever the sync status changes."""
        return self.status.subscribe(listener)

    def _lead_gone(self, lead_id: int) -> None:
        for listener in list(self._lead_gone_listeners):
            try:
                listener(lead_id)
            except Exception:
                log.exception("lead-gone listener failed")

    # --- the scheduler ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Recover from a crash, then schedule the jobs on the running loop; returns at once."""
        recovered = await self._blocking(self.store.recover_after_crash)
        if recovered:
            log.info("%d action(s) left in flight by a previous run will be reconciled", recovered)
        self._stopping = False
        scheduler: Scheduler = AsyncIOScheduler(
            event_loop=asyncio.get_running_loop(),
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 3600},
        )
        now = datetime.now(UTC)
        scheduler.add_job(self._guarded(self._flush_job), "interval", seconds=self.flush_interval,
                          id=FLUSH_JOB, next_run_time=now)
        scheduler.add_job(self._guarded(self._tick_job), "interval", seconds=self.tick_interval,
                          id=TICK_JOB, next_run_time=now)
        scheduler.add_job(self._guarded(self._refresh_job), "interval", seconds=self.refresh_interval,
                          id=REFRESH_JOB, next_run_time=now)
        scheduler.add_job(self._guarded(self._directory_job), "interval", seconds=self.directory_interval,
                          id=DIRECTORY_JOB, next_run_time=now)
        # Not at start: the refresh job runs it as soon as the lead list is in.
        scheduler.add_job(self._guarded(self._prefetch_job), "interval", seconds=self.prefetch_interval,
                          id=PREFETCH_JOB)
        scheduler.start()
        self.scheduler = scheduler

    def wake(self) -> None:
        """A new action was queued: flush now (or right after the flush in progress)."""
        self._woken = True
        if self.scheduler is None or self._stopping or self._flushing:
            return
        self._run_now(FLUSH_JOB)

    async def send_held(self, op_ids: list[str], grace: float = 3.0) -> FlushReport | None:
        """The rep quits inside an undo window: end the hold of `op_ids` and deliver them,
        for at most `grace` seconds. What cannot go now (offline, slow) stays queued,
        due at once, and goes at the next sync: a decision is never lost by quitting."""
        released = await self._blocking(self.store.release_holds, op_ids)
        if not released or self._held_back():
            return None
        try:
            return await asyncio.wait_for(self.flush(), grace)
        except TimeoutError:  # cut sends are marked ambiguous and reconciled next time
            return None

    def _run_now(self, job_id: str) -> None:
        if self.scheduler is None or not self.scheduler.running:
            return
        with contextlib.suppress(LookupError):  # the job is gone: shutting down
            self.scheduler.modify_job(job_id, next_run_time=datetime.now(UTC))

    async def stop(self) -> None:
        """Stop scheduling; let sends in progress finish briefly, then cut them (ambiguous).

        Ends this process's undo windows first (`Store.release_own_holds`): nobody is left
        here to undo, so they go with the next sync (the cockpit quitting, `sync --watch`
        told to stop by a signal)."""
        self._stopping = True
        try:
            await self._blocking(self.store.release_own_holds)
        except Exception:  # a cache that cannot be written now: the holds end with their window
            log.warning("could not end this process's undo windows", exc_info=True)
        scheduler, self.scheduler = self.scheduler, None
        if scheduler is not None and scheduler.running:
            scheduler.pause()
        if self._prefetch_task is not None:
            self._prefetch_task.cancel()  # only reads, and may be waiting out a window
        running = {task for task in self._running if not task.done()}
        if running:
            _done, pending = await asyncio.wait(running, timeout=self.stop_grace)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
        if scheduler is not None and scheduler.running:
            scheduler.shutdown(wait=False)
            await asyncio.sleep(0)  # the shutdown runs on the loop's next turn
        await self._blocking(self.status.update, syncing=False)

    def _guarded(self, job: ScheduledJob) -> ScheduledJob:
        """Track the job's task (for `stop`) and keep one failure from ending the schedule."""

        async def run() -> None:
            if self._stopping:
                return
            task = asyncio.current_task()
            if task is not None:
                self._running.add(task)
            try:
                await job()
            except asyncio.CancelledError:
                if self._stopping:
                    return  # cut by `stop` on purpose: APScheduler would log it as a job that broke
                raise
            except Exception:
                log.exception("sync job %s failed", getattr(job, "__name__", job))
            finally:
                if task is not None:
                    self._running.discard(task)

        run.__name__ = getattr(job, "__name__", "job")
        return run

    async def _flush_job(self) -> None:
        if self._held_back():
            return  # the tick's probe brings us back, then wakes the flush
        # A sender that died while we run (in another PID namespace, say) or whose lease
        # ran out leaves its ops in flight: taken over here as at start, not left blocking
        # their leads until the next start.
        recovered = await self._blocking(self.store.recover_after_crash)
        if recovered:
            log.info("%d action(s) left in flight by a sender that is gone will be reconciled", recovered)
        self._flushing = True
        try:
            while not self._stopping:
                self._woken = False
                await self.flush()
                # A wake during the pass asks for another, unless the pass found the service
                # gone or the key refused: then nothing is sent until a probe passes.
                if not self._woken or self._held_back():
                    break
        finally:
            self._flushing = False
        # Ops backing off are picked up by the tick when they come due (`_due_now`).

    def _held_back(self) -> bool:
        """Offline or the key refused: only the tick's probe talks to the service."""
        return self.connection.offline or self.status.current.auth_failed

    async def _tick_job(self) -> None:
        await self._honour_retry()
        if self.connection.probe_due():
            returning = self._held_back()  # not the first contact: reads were held back
            if await self.connection.probe(timeout=self.connection.probe_timeout):
                if returning:
                    self._start_pass()
                else:
                    self.wake()
            return
        if self._held_back():
            return
        # Online, but nothing heard for a while: make sure it is still true.
        if self.connection.idle_probe_due() and not await self.connection.probe(timeout=self.connection.probe_timeout):
            return
        if await self._due_now():
            self.wake()
        await self.poll_jobs()

    async def _due_now(self) -> bool:
        """An op could be claimed right now and no flush is running: for example one queued
        by another process (the CLI while the cockpit runs), which our wake did not see."""
        if self._flushing or self.client.limiter.delay() > 0:
            return False
        return bool(await self._blocking(self.store.due_ops, None, 1))

    async def _refresh_job(self) -> None:
        if self._held_back():
            return
        async with self._refresh_lock:
            if await self.refresh_leads() is not None:
                await self.refresh_recommendations()
                self._run_now(PREFETCH_JOB)

    async def _prefetch_job(self) -> None:
        if self._held_back():
            return
        self._prefetch_task = asyncio.current_task()
        try:
            await self.prefetch()
        finally:
            self._prefetch_task = None

    async def _directory_job(self) -> None:
        if self._held_back():
            return
        async with self._refresh_lock:
            await self.refresh_directory()

    # --- the work, callable directly ---------------------------------------------------------

    async def flush(self, *, ignore_backoff: bool = False) -> FlushReport:
        """One pass over the outbox; updates the status (syncing, offline, rate limit)."""
        async with self._flush_lock:
            return await self._flush(ignore_backoff)

    async def _flush(self, ignore_backoff: bool) -> FlushReport:
        await self._honour_retry()
        await self._blocking(self.status.update, syncing=True)
        report = await self.flusher.flush(ignore_backoff=ignore_backoff)
        if report.offline:
            self.connection.lost(report.offline_error or "could not reach the service")
        elif report.auth_error:
            self.connection.refused_key(report.auth_error)
        elif report.answered:
            self.connection.reached()
        # Inside a whole pass (`sync_now`), "syncing" lasts until the pass ends.
        changes: StatusChange = {"syncing": self._passing, "rate_limited_until": self._rate_limited_until()}
        if report.settled and not report.offline and not report.auth_error:
            # Only an op settled with the service is a sync: a pass with nothing to send, or
            # whose sends got no answer or an error, proves nothing ("offline · synced just
            # now" would be a lie).
            changes["last_sync_at"] = self.clock()
        await self._blocking(self.status.update, **changes)
        await self._remember_server_clock()
        return report

    async def poll_jobs(self, *, force: bool = False) -> PollReport:
        async with self._poll_lock:
            report = await self.poller.poll(force=force)
        if report.offline:
            self.connection.lost(report.offline_error or "could not reach the service")
        elif report.auth_error:
            self.connection.refused_key(report.auth_error)
        elif report.polled:
            self.connection.reached()
        return report

    async def refresh_leads(self) -> int | None:
        """The lead list; None when it could not be fetched (offline, key refused...)."""
        return await self._talk(self.refresher.leads(), PART_LEADS)

    async def refresh_recommendations(self) -> int | None:
        """Recommendations of every lead that has some (the triage queue)."""
        return await self._talk(self.refresher.recommendation_queue(), PART_RECOMMENDATIONS)

    async def refresh_directory(self) -> bool:
        """Saved companies and contacts, field schemas, research templates."""
        return await self._talk(self.refresher.directory(), PART_DIRECTORY) is not None

    async def prefetch(self, *, wait: bool = True) -> PrefetchReport | None:
        """The detail of every lead whose cached detail is missing or stale, within half of
        the rate-limit budget (see `warmline.sync.prefetch`); with `wait`, spent budgets are
        waited out until every lead is read. None when the service could not be talked to."""
        lead_ids = await self._blocking(self.store.leads_needing_detail)
        report: PrefetchReport | None = PrefetchReport(finished=True)
        if lead_ids:
            report = await self._talk(self.prefetcher.run(lead_ids, wait=wait), PART_DETAILS)
        if report is not None and report.finished:
            await self._backfill_recommendation_counts(wait)
        return report  # with nothing to read: no exchange, so no "synced" either

    async def _backfill_recommendation_counts(self, wait: bool) -> None:
        """Once per lead with no card: its recommendation figures, for triage's all-time
        counts, one request a lead within the same budget as the details."""
        lead_ids = await self._blocking(self.store.leads_never_read_for_recommendations)
        if lead_ids:
            await self._talk(
                self.prefetcher.run(lead_ids, wait=wait, fetch=self.refresher.recommendations, cost=1),
                PART_RECOMMENDATIONS,
            )

    async def refresh_lead(self, lead_id: int) -> bool:
        """One lead's detail (the rep opened it): True when the cache was updated."""
        return await self._talk(self.refresher.lead(lead_id), PART_DETAILS) is not None

    async def _talk(self, work: Awaitable[T], part: str) -> T | None:
        """Run one read of `part` (`PART_LEADS`...) against the service, turning failures into
        status changes: offline, key refused, or "failing" when the service answered with an
        error or garbage (kept per part, until that part is read successfully)."""
        try:
            result = await work
        except OfflineError as exc:
            self.connection.lost(str(exc))
            return None
        except AuthError as exc:
            self.connection.refused_key(str(exc))
            return None
        except LeadNotFoundError:
            # The refresher marked the lead removed and said so (`lead_gone`): the service
            # answered, and the rep is told by that notice, not by a sync error.
            self.connection.reached()
            return None
        except RateLimitedError as exc:
            # The service asked us to wait: the status says rate-limited, not failing. An
            # answer that is not a refusal ends a refusal (a wait of our own, no status, is
            # no answer).
            if exc.status is not None:
                await self._blocking(self.status.update, auth_failed=False, last_error=str(exc))
            else:
                await self._blocking(self.status.update, last_error=str(exc))
            return None
        except UnreadableRecords as exc:
            # The readable records are cached: the status says what was not, and the reads
            # that follow this one (a lead list's recommendations) still run.
            log.info("refresh of the %s was partial: %s", part, exc)
            self.connection.reached()
            self._failing[part] = exc
            await self._blocking(self.status.update, last_error=str(exc), failing=self._failing_summary())
            return cast(T, exc.cached)
        except ApiError as exc:
            log.info("refresh of the %s failed: %s", part, exc)
            self._failing[part] = exc
            # The service answered, with an error: "failing" replaces a refused key.
            await self._blocking(
                self.status.update, auth_failed=False, last_error=str(exc), failing=self._failing_summary()
            )
            return None
        self.connection.reached()
        # A stored failure of an earlier run (no part of ours) ends with any good read.
        self._failing.pop(part, None)
        await self._blocking(self.status.update, last_sync_at=self.clock(), failing=self._failing_summary())
        await self._remember_server_clock()
        await self._remember_dialect()
        return result

    def _failing_summary(self) -> str | None:
        """The status line's words for what is failing: "lead list (HTTP 503)"."""
        if not self._failing:
            return None
        part, exc = next(iter(self._failing.items()))
        more = len(self._failing) - 1
        return f"{part} ({_brief(exc)})" + (f" and {more} more" if more else "")

    def _rate_limited_until(self) -> float | None:
        delay = self.client.limiter.delay()
        return self.clock() + delay if delay > 0 else None

    async def run_once(self) -> PassReport:
        """One full pass: reach the service, deliver every queued op now (our backoff skipped,
        the server's Retry-After kept), refresh the cache, poll every running job.

        While the service has asked us to wait, the pass sends nothing and says until when,
        rather than sleeping through the wait. The pass ends within `pass_budget` seconds
        (each request has its own deadline too): a service still answering at the end
        counts as unresponsive, reported as offline; sends cut short are ambiguous and
        reconciled by the next pass."""
        report = PassReport()
        await self._blocking(self.store.recover_after_crash)
        await self._honour_retry()
        try:
            async with asyncio.timeout(self.pass_budget):
                await self._pass(report)
        except TimeoutError:
            message = f"The service did not finish answering within the pass's {self.pass_budget:g} s budget"
            self.connection.lost(message)
            report.offline_error = message
        report.errors = [*report.flush.errors, *report.polls.errors]
        report.refresh_failures = [f"Refresh of the {part} failed: {exc}" for part, exc in self._failing.items()]
        if report.prefetch is not None:
            report.errors.extend(report.prefetch.errors)
        report.details_cached, report.leads_cached = await self._blocking(self.store.detail_coverage)
        report.status = self.status.current
        return report

    @property
    def _passing(self) -> bool:
        return self._pass_task is not None and not self._pass_task.done()

    async def sync_now(self) -> PassReport | None:
        """One full pass now, as `run_once` (deliver, refresh, poll every job), beside the
        scheduler: the rep pressed "Sync now". None when a pass is already running (a
        second press starts no other); the one running says how it went."""
        task = self._start_pass()
        return None if task is None else await task

    def _start_pass(self) -> asyncio.Task[PassReport] | None:
        """Start a pass in a task of its own (`stop` waits for it, then cuts it), unless one
        runs or the engine is stopping."""
        if self._passing or self._stopping:
            return None
        task = asyncio.get_running_loop().create_task(self._pass_now())
        self._pass_task = task
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task

    async def _pass_now(self) -> PassReport:
        report = PassReport()
        try:
            await self._blocking(self.status.update, syncing=True)
            await self._honour_retry()
            # Sure of the service (online, the key accepted): no probe first.
            await self._pass(report, probe=self._held_back() or self.status.current.online is None)
        except Exception as exc:  # noqa: BLE001 - a broken pass is reported, the engine goes on
            log.exception("sync now failed")
            report.errors.append(f"the pass stopped: {exc}")
        finally:
            self._pass_task = None
            await self._blocking(self.status.update, syncing=False)
        report.errors = [*report.errors, *report.flush.errors, *report.polls.errors]
        report.refresh_failures = [f"Refresh of the {part} failed: {exc}" for part, exc in self._failing.items()]
        report.status = self.status.current
        return report

    async def _step(self, step: str | None) -> None:
        """Name what the pass does now, for the status line ("⟳ syncing: reading leads…"):
        on a slow service a bare "syncing" said nothing for seconds."""
        await self._blocking(self.status.update, step=step)

    async def _pass(self, report: PassReport, *, probe: bool = True) -> None:
        try:
            await self._steps(report, probe=probe)
        finally:
            await self._step(None)

    async def _steps(self, report: PassReport, *, probe: bool) -> None:
        if not self._waiting(report):
            if probe:
                await self._step("checking the service")
            report.reachable = await self.connection.probe() if probe else True
            await self._remember_server_clock()
            if report.reachable:
                await self._full_pass(report)
            elif self.status.current.auth_failed:
                report.auth_error = self.status.current.last_error
            else:
                report.offline_error = self.status.current.last_error

    def _waiting(self, report: PassReport) -> bool:
        report.rate_limited_until = self._rate_limited_until()
        return report.rate_limited_until is not None

    async def _full_pass(self, report: PassReport) -> None:
        # Deliver first, so the refreshed data already shows what was just sent.
        await self._step("sending queued actions")
        report.flush = await self.flush(ignore_backoff=True)
        report.offline_error, report.auth_error = report.flush.offline_error, report.flush.auth_error
        if report.offline_error or report.auth_error or self._waiting(report):
            return
        async with self._refresh_lock:
            await self._step("reading leads")
            report.leads_refreshed = await self.refresh_leads()
            if report.leads_refreshed is not None:
                await self._step("reading recommendations")
                await self.refresh_recommendations()
                await self._step("reading companies and contacts")
                await self.refresh_directory()
        if self._waiting(report):
            return
        await self._step("checking jobs")
        report.polls = await self.poll_jobs(force=True)
        report.offline_error, report.auth_error = report.polls.offline_error, report.polls.auth_error
        if self.scheduler is not None:
            self._run_now(PREFETCH_JOB)  # a running engine reads the details as after any refresh
        elif not (report.offline_error or report.auth_error or self.connection.offline or self._waiting(report)):
            # Every lead readable offline, as far as this window's half of the budget goes:
            # a one-off command does not wait for the window to reset.
            await self._step("reading lead details")
            report.prefetch = await self.prefetch(wait=False)
        if self.connection.offline and report.offline_error is None:
            report.offline_error = self.status.current.last_error
