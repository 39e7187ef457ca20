"""Polling running jobs until they end, and pulling in what they produced.

Each started job is a row of the store's `jobs` table with its `next_poll_at`, so polling
survives restarts. A due job is polled once, then scheduled again 5-10 s later (the
spec's interval, jittered so a hundred jobs started together do not poll in lockstep).
Statuses are stored as the server says them; a status we do not know keeps the job
polled and shown as it is. When a job is first seen completed, its results come into the
cache: the store takes what the poll answer carries (a deep search's companies, a
research run's custom fields, a contact search's found contacts), and here we fetch what
it does not (the companies a research run enriched, a scanned lead's new monitoring
sources, a lead's generated recommendations).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from warmline.api import ServiceClient
from warmline.api.errors import ApiError, AuthError, NotFoundError, OfflineError
from warmline.ops.kinds import JobKind
from warmline.store import Store
from warmline.store.clock import EpochClock, epoch_of, system_clock
from warmline.store.jobs import is_terminal
from warmline.store.rows import Job
from warmline.sync.blocking import Blocking, in_thread
from warmline.sync.refresh import Refresher
from warmline.sync.requests import Answer, dump

POLL_MIN = 5.0
POLL_MAX = 10.0
# Far enough ahead that every started job counts as due (a forced poll).
_EVERY_JOB = 1e12

Fetch = Callable[[ServiceClient, Job], Awaitable[Answer]]


def _int_id(job: Job) -> int:
    return int(str(job.remote_id))


async def _deep_search(client: ServiceClient, job: Job) -> Answer:
    return dump(await client.get_deep_search(_int_id(job)))


async def _contact_search(client: ServiceClient, job: Job) -> Answer:
    return dump(await client.get_contact_search(_int_id(job)))


async def _research_run(client: ServiceClient, job: Job) -> Answer:
    return dump(await client.get_research_run(str(job.remote_id)))


async def _company_research(client: ServiceClient, job: Job) -> Answer:
    # The job's own column, else the request that started it (the service checks the id).
    company_id = job.company_id if job.company_id is not None else int(job.params["company_id"])
    return dump(await client.get_company_research(company_id, _int_id(job)))


async def _signal_scan(client: ServiceClient, job: Job) -> Answer:
    return dump(await client.get_signal_scan(_lead_of(job)))


GENERATION_QUIET = 180.0
"""Seconds a generation is waited for on a service that does not report its progress (the
spec has no generation status): new recommendations end it at once; none by then ends it
as completed with a message saying none came."""
JOB_POLL_DEADLINE = 72 * 3600.0
"""Seconds a job is polled at most: a service that never says a job ended (a status we
never learn to read as an end) must not be polled for ever. Past it the job is recorded as
expired, with the last status the service gave, and no longer polled. Generous, so that a
clock set a day ahead does not end a running job."""
SERVER_SKEW = 120.0
"""How far the service's clock may lag ours when its cards' times are compared with the
job's start (as `reconcile.CLOCK_SKEW`)."""


def _started(job: Job) -> float | None:
    """When the job was started, on our clock (epoch seconds)."""
    return epoch_of(job.created_at)


async def _generation(client: ServiceClient, job: Job) -> Answer:
    listing = await client.get_recommendations(_lead_of(job))
    answer = dump(listing)
    if listing.generation_status is not None:
        return {**answer, "status": listing.generation_status}
    # The spec has no generation status: the cards made since the start are the result.
    started = _started(job)
    fresh = started is None or any(
        rec.created_at is not None and rec.created_at.timestamp() >= started - SERVER_SKEW
        for rec in listing.recommendations
    )
    if fresh:
        return {**answer, "status": "completed"}
    waited = client.now() - started if started is not None else 0.0
    if waited >= GENERATION_QUIET:
        return {**answer, "status": "completed",
                "message": f"no new recommendations after {GENERATION_QUIET / 60:.0f} min"}
    return {**answer, "status": "running", "message": "waiting for new recommendations"}


def _lead_of(job: Job) -> int:
    return job.lead_id if job.lead_id is not None else _int_id(job)


FETCHERS: dict[str, Fetch] = {
    JobKind.DEEP_SEARCH: _deep_search,
    JobKind.CONTACT_SEARCH: _contact_search,
    JobKind.RESEARCH_RUN: _research_run,
    JobKind.COMPANY_RESEARCH: _company_research,
    JobKind.SIGNAL_SCAN: _signal_scan,
    JobKind.RECOMMENDATIONS: _generation,
}


@dataclass
class PollReport:
    polled: int = 0
    completed: int = 0
    ended: int = 0
    errors: list[str] = field(default_factory=list)
    offline: bool = False
    offline_error: str | None = None
    auth_error: str | None = None


class JobPoller:
    """Polls due jobs (all started jobs when forced) with a small concurrency cap."""

    def __init__(
        self,
        store: Store,
        client: ServiceClient,
        refresher: Refresher,
        *,
        concurrency: int = 4,
        clock: EpochClock = system_clock,
        rng: random.Random | None = None,
        blocking: Blocking = in_thread,
    ) -> None:
        self.store = store
        self.client = client
        self.refresher = refresher
        self.concurrency = max(1, concurrency)
        self.clock = clock
        self.rng = rng or random.Random()
        self._blocking = blocking

    def next_interval(self) -> float:
        return self.rng.uniform(POLL_MIN, POLL_MAX)

    async def poll(self, *, force: bool = False) -> PollReport:
        """Poll every due job once (`force`: every started job still running)."""
        report = PollReport()
        now = self.clock()
        due: list[Job] = await self._blocking(self.store.due_jobs, now + _EVERY_JOB if force else now)
        gate = asyncio.Semaphore(self.concurrency)

        async def run(job: Job) -> None:
            async with gate:
                if report.offline or report.auth_error:
                    return
                await self._poll_one(job, report)

        await asyncio.gather(*(run(job) for job in due))
        return report

    async def _poll_one(self, job: Job, report: PollReport) -> None:
        remote_id = job.remote_id
        if remote_id is None:  # not started on the service: `due_jobs` gives none of those
            return
        fetch = FETCHERS.get(job.kind)
        next_at = self.clock() + self.next_interval()
        if fetch is None:
            # A kind this version cannot poll: shown as it is, checked again later, no request.
            report.errors.append(f"cannot poll jobs of kind {job.kind}")
            await self._blocking(self.store.set_next_poll, job.key, next_at)
            return
        try:
            answer = await fetch(self.client, job)
        except NotFoundError as exc:
            await self._record(job, remote_id, {"status": "failed", "error": str(exc)}, None)
            report.ended += 1
            return
        except OfflineError as exc:
            report.offline, report.offline_error = True, str(exc)
            return
        except AuthError as exc:
            report.auth_error = str(exc)
            return
        except ApiError as exc:
            report.errors.append(f"{job.kind} {job.remote_id}: {exc}")
            await self._blocking(self.store.set_next_poll, job.key, next_at)
            return
        report.polled += 1
        started = _started(job)  # on the store's clock, as `now` below
        if started is not None and self.store.clock() - started > JOB_POLL_DEADLINE and job.active:
            answer = {**answer, **self._expired(answer)}
        stored = await self._record(job, remote_id, answer, next_at)
        if job.active and not stored.active:
            report.ended += 1
            if stored.status.lower() == "completed":
                report.completed += 1
                await self._follow_up(stored, answer, report)

    @staticmethod
    def _expired(answer: Answer) -> Answer:
        """A job still not ended after `JOB_POLL_DEADLINE`: no longer polled, and why."""
        last = answer.get("status")
        if isinstance(last, str) and is_terminal(last):
            return {}
        hours = JOB_POLL_DEADLINE / 3600
        return {"status": "expired",
                "error": f"the service did not say it ended within {hours:.0f} h (last status: {last}); "
                         "no longer polled"}

    async def _record(self, job: Job, remote_id: str, answer: Answer, next_at: float | None) -> Job:
        return await self._blocking(
            self.store.record_job,
            job.kind,
            remote_id,
            answer,
            next_poll_at=next_at,
            lead_id=job.lead_id,
            company_id=job.company_id,
        )

    async def _follow_up(self, job: Job, answer: Answer, report: PollReport) -> None:
        """Fetch what a completed job changed but its poll answer did not carry."""
        try:
            if job.kind == JobKind.SIGNAL_SCAN and job.lead_id is not None:
                await self.refresher.lead(job.lead_id)
            elif job.kind == JobKind.RECOMMENDATIONS and job.lead_id is not None:
                await self._blocking(self.store.upsert_recommendations, job.lead_id, answer)
            elif job.kind == JobKind.RESEARCH_RUN:
                ids = [i for i in answer.get("company_ids") or job.params.get("company_ids") or [] if isinstance(i, int)]
                if ids:
                    await self.refresher.company_ids(ids)
        except ApiError as exc:
            # The job is done and recorded; the next refresh brings the rest.
            logging.getLogger("warmline.sync").info("follow-up of %s %s failed: %s", job.kind, job.remote_id, exc)
            report.errors.append(f"{job.kind} {job.remote_id}: {exc}")
