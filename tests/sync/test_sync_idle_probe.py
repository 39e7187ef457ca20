"""The idle probe, on a fake clock: an online engine that hears nothing from the service
asks it, so the status turns offline within 45 s of the service dying (refusing
connections, or silent) and back online within 45 s of its return; it never probes while
other traffic shows the service alive, and idling costs at most 4 requests a minute.

The engine's scheduled jobs (whatever they are: the jobs `start()` schedules) are run on
the fake clock at their own intervals, as APScheduler would; a silent service costs the
request's own deadline in fake time, so the bounds include it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from itertools import pairwise

import httpx
import pytest
from fastapi import FastAPI

from support.sync_helpers import KEY, FakeClock
from warmline.api import RateLimiter, ServiceClient
from warmline.api.errors import OfflineError
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline.sync.engine import TICK_JOB

BOUND = 45.0
UP, REFUSED, SILENT = "up", "refused", "silent"


class Switch(httpx.AsyncBaseTransport):
    """The sandbox behind a switch: up, refusing connections, or silent (the request takes
    its own deadline in fake time, then times out, as a black-holed server does)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, clock: FakeClock) -> None:
        self.inner = inner
        self.clock = clock
        self.mode = UP
        self.log: list[tuple[float, str]] = []  # fake time sent, path
        self.deadlines: dict[str, set[float | None]] = {}  # path: the deadlines it was sent with

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.log.append((self.clock(), request.url.path))
        self.deadlines.setdefault(request.url.path, set()).add(request.extensions["timeout"]["read"])
        if self.mode == REFUSED:
            raise httpx.ConnectError("connection refused", request=request)
        if self.mode == SILENT:
            deadline = request.extensions["timeout"]["read"]
            assert deadline is not None, "a request without a deadline would wait forever"
            self.clock.advance(deadline)
            raise httpx.ReadTimeout("timed out", request=request)
        return await self.inner.handle_async_request(request)

    def probes(self, since: float = float("-inf")) -> list[float]:
        return [at for at, path in self.log if path == "/v1/health" and at >= since]

    def last_path_before(self, moment: float) -> str:
        return [path for at, path in self.log if at <= moment][-1]


@pytest.fixture
def switch(sandbox: FastAPI, clock: FakeClock) -> Switch:
    return Switch(httpx.ASGITransport(app=sandbox), clock)


@pytest.fixture
async def idle_engine(
    store: Store, switch: Switch, clock: FakeClock
) -> AsyncIterator[tuple[SyncEngine, Callable[[float], Awaitable[None]]]]:
    """An engine whose scheduled jobs are run on the fake clock by `run_for(seconds)`."""
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=switch, limiter=limiter, clock=clock) as client:
        rng = random.Random(7)
        engine = SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)
        await engine.start()
        assert engine.scheduler is not None
        engine.scheduler.pause()  # we run the jobs ourselves, on the fake clock
        jobs = [(job.id, job.func, job.trigger.interval.total_seconds()) for job in engine.scheduler.get_jobs()]
        next_at = {job_id: clock() for job_id, _, _ in jobs}

        async def run_for(seconds: float) -> None:
            end = clock() + seconds
            while clock() < end:
                for job_id, func, interval in jobs:
                    if clock() >= next_at[job_id]:
                        await func()
                        # A job that took long (a silent service) misses runs: coalesced.
                        while next_at[job_id] <= clock():
                            next_at[job_id] += interval
                clock.advance(min(next_at.values()) - clock() if min(next_at.values()) > clock() else 0.0)

        assert next(interval for job_id, _, interval in jobs if job_id == TICK_JOB) == 1.0
        await run_for(1)  # the start: every job once (the refresh reaches the service)
        assert engine.status.current.online is True
        yield engine, run_for
        await engine.stop()


def watch(engine: SyncEngine, clock: FakeClock) -> list[tuple[float, bool | None]]:
    changes: list[tuple[float, bool | None]] = []
    engine.on_status(lambda status: changes.append((clock(), status.online)))
    return changes


def first(changes: list[tuple[float, bool | None]], online: bool, since: float) -> float:
    return next((at for at, value in changes if value is online and at >= since), float("inf"))


@pytest.mark.parametrize("death", [REFUSED, SILENT])
async def test_an_idle_engine_sees_the_service_die_and_return_within_45_s(
    idle_engine, switch: Switch, clock: FakeClock, death: str
) -> None:
    engine, run_for = idle_engine
    changes = watch(engine, clock)
    found_by_probe = 0
    for cycle in range(12):  # different moments against the probe's rhythm and jitter
        await run_for(1 + cycle * 1.7)
        assert engine.status.current.online is True
        died = clock()
        switch.mode = death
        await run_for(BOUND)
        went = first(changes, False, died)
        assert went - died <= BOUND, (cycle, went - died)
        found_by_probe += switch.last_path_before(went) == "/v1/health"
        # The service returns at the worst moment: just after a failed probe.
        failed_probes = len(switch.probes(died))
        await run_for(60)
        while len(switch.probes(died)) == failed_probes:
            await run_for(1)
        back = clock()
        switch.mode = UP
        await run_for(BOUND)
        came = first(changes, True, back)
        assert came - back <= BOUND, (cycle, came - back)
    assert found_by_probe >= 10  # the probe, not a periodic refresh, did the finding


async def test_no_probe_while_other_traffic_shows_the_service_alive(idle_engine, switch: Switch, clock: FakeClock) -> None:
    engine, run_for = idle_engine
    await run_for(25)
    assert len(switch.probes()) == 1  # idle since the start: one probe
    assert await engine.refresh_leads() is not None
    talking = clock()
    for _ in range(6):  # another answer every 15 s (a refresh, a send, a poll...)
        await run_for(15)
        assert await engine.refresh_leads() is not None
    assert switch.probes(talking) == []
    talked = clock()
    await run_for(19.5)
    assert switch.probes(talked) == []
    await run_for(2)
    assert len(switch.probes(talked)) == 1  # 20 s of quiet: now it asks


async def test_a_failed_send_does_not_stand_for_an_answer(idle_engine, switch: Switch, clock: FakeClock) -> None:
    """Only an answer proves the service is up: requests that failed do not put the probe off."""
    engine, run_for = idle_engine
    changes = watch(engine, clock)
    died = clock()
    switch.mode = REFUSED
    for _ in range(9):  # the cockpit's own requests (lookups) keep failing meanwhile
        with pytest.raises(OfflineError):
            await engine.client.list_leads(None, 1, 10)
        await run_for(5)
    assert first(changes, False, died) - died <= BOUND


async def test_idling_costs_at_most_four_requests_a_minute(idle_engine, switch: Switch, clock: FakeClock) -> None:
    engine, run_for = idle_engine
    settled = clock() + engine.refresh_interval  # after the start's full reads
    await run_for(engine.refresh_interval + 30 * 60)
    minutes = Counter(int((at - settled) // 60) for at, _ in switch.log if at >= settled)
    probes = Counter(int((at - settled) // 60) for at in switch.probes(settled))
    span = (clock() - settled) / 60
    assert sum(minutes.values()) / span <= 4.0, dict(minutes)
    assert max(probes.values()) <= 3  # one every 20 s at most
    assert all(later - earlier >= 20 for earlier, later in pairwise(switch.probes(settled)))
    assert engine.status.current.online is True


async def test_the_probe_has_a_short_deadline_and_the_offline_backoff_a_low_cap(idle_engine, switch: Switch) -> None:
    engine, run_for = idle_engine
    await run_for(30)
    assert switch.deadlines["/v1/health"] == {5.0}  # other requests keep the client's own
    assert switch.deadlines["/v1/outreach/leads"] == {10.0}
    assert engine.connection.backoff.ceiling(50) <= 30.0
    assert engine.flusher.backoff.ceiling(50) == 300.0  # ops keep their own, longer backoff
