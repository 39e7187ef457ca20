"""Exactly-once with the client's clock 180 s ahead of or behind the service's (issue #11,
item 2): the sandbox ignores Idempotency-Key and every first answer is lost after the
server applied the request, so only reconciliation keeps an activity from being sent
twice, and it compares the server's created_at with our first send. The offset is learned
from the health answer's `time` or from the `Date` header of any answer."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import formatdate
from pathlib import Path

import httpx
import pytest

from support.sync_helpers import (
    DROP_AFTER,
    DROP_BEFORE,
    KEY,
    START,
    FakeClock,
    FaultyTransport,
    make_sandbox,
    server_rows,
)
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.store.sync_vocabulary import SyncState
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline.tui.status import CockpitStatus, describe

ACTIVITIES = 30
DAY = 86_400.0
LEADS = (1, 2, 3, 4)


class SkewedClock:
    """The client's clock: the server's fake clock plus a constant offset."""

    def __init__(self, base: FakeClock, skew: float) -> None:
        self.base = base
        self.skew = skew

    def __call__(self) -> float:
        return self.base() + self.skew

    async def sleep(self, seconds: float) -> None:
        self.base.advance(max(0.0, seconds))


class DatedTransport(httpx.AsyncBaseTransport):
    """Adds the `Date` header a real HTTP server sends (1 s resolution), from the server's clock;
    `health_time` False strips the health answer's `time` field, so only Date teaches."""

    def __init__(self, inner: httpx.AsyncBaseTransport, clock: FakeClock, *, date: bool, health_time: bool) -> None:
        self.inner, self.clock, self.date, self.health_time = inner, clock, date, health_time

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        body = await response.aread()
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in ("content-length", "date")]
        if request.url.path == "/v1/health" and not self.health_time:
            body = body.replace(b'"time":', b'"time_was":')
        if self.date:
            headers.append(("Date", formatdate(self.clock(), usegmt=True)))
        return httpx.Response(response.status_code, headers=headers, content=body)


@dataclass
class World:
    server: FakeClock
    local: SkewedClock
    sandbox: object
    faults: FaultyTransport
    store: Store
    client: ServiceClient
    engine: SyncEngine


@pytest.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[World]:
    skew, date, health_time = request.param
    server = FakeClock(START)
    local = SkewedClock(server, skew)
    sandbox = make_sandbox(tmp_path / "sandbox.sqlite3", server, idempotency=False)
    faults = FaultyTransport(DatedTransport(httpx.ASGITransport(app=sandbox), server, date=date, health_time=health_time))
    store = Store(tmp_path / "cache.sqlite3", clock=local)
    limiter = RateLimiter(clock=local, sleep=local.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=faults, limiter=limiter, clock=local) as client:
        rng = random.Random(3)
        engine = SyncEngine(store, client, clock=local, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)
        yield World(server, local, sandbox, faults, store, client, engine)
    store.close()
    sandbox.state.db.close()  # type: ignore[attr-defined]


async def _deliver_with_lost_answers(world: World) -> list[str]:
    """Queue 30 activities; every first send is applied and its answer lost; then drain."""
    engine, store = world.engine, world.store
    assert await engine.connection.probe()
    assert await engine.refresh_leads() is not None
    texts = []
    for index in range(ACTIVITIES):
        lead = LEADS[index % len(LEADS)]
        text = f"skew activity {index}"
        store.enqueue("log_activity", {"lead_id": lead, "description": text, "contact_id": None}, lead)
        texts.append(text)
    world.faults.only_mutations = True
    world.faults.fail_next(*[DROP_AFTER] * ACTIVITIES)
    for _ in range(100):  # one op per lead at a time: an ambiguous op holds its lead's next
        world.server.advance(7.0)  # the check comes a little later than the send
        await engine.flush(ignore_backoff=True)
        if store.outbox_counts().queued == 0:
            break
    assert store.outbox_counts().queued == 0
    assert not world.faults.plan  # every planned loss happened
    on_server = [
        text for lead in LEADS for text in server_rows(world.sandbox, "outreach_touchpoints", "description", lead)  # type: ignore[arg-type]
        if text.startswith("skew activity")
    ]
    return on_server


SKEWS = [
    pytest.param((180.0, True, True), id="ahead-date-and-health-time"),
    pytest.param((-180.0, True, True), id="behind-date-and-health-time"),
    pytest.param((180.0, False, True), id="ahead-health-time-only"),
    pytest.param((-180.0, False, True), id="behind-health-time-only"),
    pytest.param((180.0, True, False), id="ahead-date-only"),
    pytest.param((-180.0, True, False), id="behind-date-only"),
    pytest.param((0.0, True, True), id="in-step"),
    pytest.param((2 * DAY, True, True), id="two-days-ahead"),
    pytest.param((-2 * DAY, True, True), id="two-days-behind"),
    pytest.param((2 * DAY, True, False), id="two-days-ahead-date-only"),
]


@pytest.mark.parametrize("world", SKEWS, indirect=True)
async def test_thirty_activities_are_thirty_touchpoints_whatever_the_clock_offset(world: World) -> None:
    """Two days off is more than `MAX_OFFSET`: measured, not trusted, and still used for the
    window (it gave 60 touchpoints when such a sample was dropped)."""
    on_server = await _deliver_with_lost_answers(world)
    assert len(on_server) == ACTIVITIES, f"{len(on_server)} touchpoints for {ACTIVITIES} activities"
    assert sorted(on_server) == sorted(f"skew activity {i}" for i in range(ACTIVITIES))
    reconciled = world.store.scalar("SELECT count(*) FROM outbox WHERE json_extract(result, '$.reconciled')")
    assert reconciled == ACTIVITIES  # adopted from what the server shows, none resent


@pytest.mark.parametrize(
    "world",
    [pytest.param((2 * DAY, True, True), id="two-days-ahead"), pytest.param((-2 * DAY, True, True), id="two-days-behind"),
     pytest.param((0.0, True, True), id="in-step")],
    indirect=True,
)
async def test_an_identical_record_made_before_our_send_is_not_ours_whatever_the_offset(world: World) -> None:
    """The other side of the window: a colleague logged the same text 10 minutes before our
    first send, which never arrived. It must not be adopted (our activity would be lost):
    two days behind, our clock less `CLOCK_SKEW` took it for ours."""
    assert await world.engine.connection.probe()
    assert await world.engine.refresh_leads() is not None
    colleague = (await world.client.log_touchpoint(1, "same words")).touchpoint
    assert colleague is not None
    world.server.advance(600)
    op_id = world.store.enqueue("log_activity", {"lead_id": 1, "description": "same words", "contact_id": None}, 1)
    world.faults.only_mutations = True
    world.faults.fail_next(DROP_BEFORE)
    assert (await world.engine.flush()).ambiguous == 1
    world.server.advance(7.0)
    report = await world.engine.flush(ignore_backoff=True)
    assert (report.delivered, report.reconciled) == (1, 0)
    on_server = server_rows(world.sandbox, "outreach_touchpoints", "description", 1)  # type: ignore[arg-type]
    assert on_server.count("same words") == 2
    assert world.store.get_op(op_id).result["touchpoint"]["id"] != colleague.id


@pytest.mark.parametrize("world", [pytest.param((2 * DAY, True, True), id="two-days-ahead"),
                                   pytest.param((-2 * DAY, False, True), id="two-days-behind")], indirect=True)
async def test_an_offset_beyond_a_day_is_measured_but_not_trusted_and_the_status_can_say_so(world: World) -> None:
    assert await world.engine.connection.probe()
    clock = world.client.server_clock
    assert clock.estimate() is None  # neither the rate limiter nor the service check use it
    measured = clock.measured()
    assert measured is not None and measured.offset == pytest.approx(-world.local.skew, abs=1.0)
    side = "ahead of" if world.local.skew > 0 else "behind"
    assert clock.distrust() == f"clock 2.0 d {side} the service"
    # ... and the status says so: stored for every process, shown on the status line.
    await world.engine.refresh_leads()
    assert world.engine.status.current.clock_note == f"clock 2.0 d {side} the service"
    assert world.store.sync_status().clock_note == f"clock 2.0 d {side} the service"
    shown = describe(CockpitStatus(sync=world.store.sync_status(), state=SyncState.ONLINE),
                     datetime.fromtimestamp(world.local(), UTC), UTC)
    assert f"clock 2.0 d {side} the service" in [part.text for part in shown]


@pytest.mark.parametrize("world", [pytest.param((180.0, True, True), id="ahead")], indirect=True)
async def test_a_new_process_reconciles_in_server_time_with_the_offset_it_stored(world: World, tmp_path: Path) -> None:
    """The offset is kept in the sync state: a later run against a service whose answers
    carry no time at all (no Date, no health time) still reconciles in the server's time."""
    assert await world.engine.connection.probe()
    await world.engine.refresh_leads()
    stored = world.store.get_state("server_clock")
    assert stored["offset"] == pytest.approx(-180.0, abs=1.0) and stored["base_url"] == world.client.base_url
    timeless = FaultyTransport(DatedTransport(httpx.ASGITransport(app=world.sandbox), world.server,  # type: ignore[arg-type]
                                              date=False, health_time=False))
    limiter = RateLimiter(clock=world.local, sleep=world.local.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=timeless, limiter=limiter, clock=world.local) as client:
        engine = SyncEngine(world.store, client, clock=world.local, blocking=run_inline)
        assert client.server_clock.samples == 0
        assert client.server_clock.estimate().offset == pytest.approx(-180.0, abs=1.0)  # type: ignore[union-attr]
        world.engine, world.faults, world.client = engine, timeless, client
        on_server = await _deliver_with_lost_answers(world)
    assert len(on_server) == ACTIVITIES


@pytest.mark.parametrize("world", [pytest.param((180.0, True, True), id="ahead")], indirect=True)
async def test_a_stored_offset_of_another_service_is_not_used(world: World) -> None:
    world.store.set_state("server_clock", {"offset": -180.0, "uncertainty": 0.5, "base_url": "http://elsewhere"})
    async with ServiceClient("http://127.0.0.1", KEY, transport=world.faults, clock=world.local) as client:
        SyncEngine(world.store, client, clock=world.local, blocking=run_inline)
        assert client.server_clock.estimate() is None


@pytest.mark.parametrize(
    "world",
    [pytest.param((-180.0, False, False), id="behind-no-time-at-all"),
     pytest.param((60.0, False, False), id="a-minute-ahead-no-time-at-all")],
    indirect=True,
)
async def test_without_any_server_time_the_old_rule_still_holds_for_a_clock_behind(world: World) -> None:
    """No Date and no health time: nothing to learn from, so our clock less 120 s
    (`CLOCK_SKEW`), which a clock behind the server's or up to 120 s ahead satisfies
    (docs/sync.md says a clock further ahead may duplicate; without the margin, a clock a
    minute ahead made 60 touchpoints of 30 activities)."""
    on_server = await _deliver_with_lost_answers(world)
    assert world.client.server_clock.estimate() is None
    assert len(on_server) == ACTIVITIES
