"""Prefetch: every lead's detail cached for offline reading, re-read only when its list line
changed, most useful first, within half of the rate-limit window; and the recommendation
queue re-read only for leads whose line changed."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from support.sync_helpers import KEY, FakeClock, FaultyTransport, make_sandbox
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.sync.prefetch import DEFAULT_REQUESTS, Budget, Prefetcher

LEADS = 12
_LEAD_PATH = re.compile(r"^/v1/outreach/leads/(\d+)(/notes|/recommendations)?$")


@pytest.fixture
def sandbox(tmp_path: Path, clock: FakeClock) -> Iterator[FastAPI]:
    app = make_sandbox(tmp_path / "sandbox.sqlite3", clock, leads=LEADS)
    yield app
    app.state.db.close()


def reads(transport: FaultyTransport, what: str = "") -> list[int]:
    """Lead ids of the GETs of one lead resource ('' the detail, '/notes', '/recommendations')."""
    found = []
    for _method, path, _key, _fault in transport.sent("GET"):
        match = _LEAD_PATH.match(path)
        if match and (match.group(2) or "") == what:
            found.append(int(match.group(1)))
    return found


async def test_one_pass_caches_every_lead_s_detail(engine: SyncEngine, store: Store) -> None:
    assert store.detail_coverage() == (0, LEADS)
    report = await engine.run_once()
    assert report.details_cached == report.leads_cached == LEADS
    assert report.prefetch is not None and report.prefetch.finished and report.prefetch.fetched == LEADS
    for row in store.lead_page():
        detail = store.lead_detail(row.id)
        assert detail is not None and detail.detail_fetched_at is not None


async def test_a_second_pass_reads_only_the_lead_whose_line_changed(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport
) -> None:
    await engine.run_once()
    transport.log.clear()
    await engine.run_once()
    assert reads(transport) == [] and reads(transport, "/notes") == []
    assert reads(transport, "/recommendations") == []  # an idle pass re-reads no queue

    changed = store.lead_page(limit=1)[0].id
    await client.log_touchpoint(changed, "Called Dana, she wants a demo next week")
    transport.log.clear()
    report = await engine.run_once()
    assert reads(transport) == [changed] and reads(transport, "/notes") == [changed]
    assert set(reads(transport, "/recommendations")) <= {changed}
    assert report.prefetch is not None and report.prefetch.fetched == 1
    assert "Called Dana" in {t.description[:11] for t in store.lead_detail(changed).touchpoints}


async def test_the_recommendation_queue_follows_a_change_on_the_service(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport
) -> None:
    assert await engine.refresh_recommendations()
    with_recs = [row.id for row in store.lead_page() if row.recommendation_count > 0]
    assert with_recs, "the seeded sandbox has leads with recommendations"
    lead_id = with_recs[0]
    first = (await client.get_recommendations(lead_id)).recommendations[0]
    await client.dismiss_recommendation(lead_id, first.id)  # by another client
    transport.log.clear()
    assert await engine.refresh_leads() is not None
    assert await engine.refresh_recommendations() == 1
    assert reads(transport, "/recommendations") == [lead_id]
    server = {r.id for r in (await client.get_recommendations(lead_id)).recommendations}
    assert {r.id for r in store.active_recommendations(lead_id=lead_id)} == server
    assert first.id not in server


async def test_a_lead_removed_on_the_service_does_not_end_the_pass(
    engine: SyncEngine, store: Store, client: ServiceClient
) -> None:
    gone = store.leads_needing_detail()[0]
    await client.remove_leads([gone])
    report = await engine.prefetch(wait=False)
    assert report is not None and report.finished
    assert report.gone == 1 and report.fetched == LEADS - 1
    assert store.detail_coverage() == (LEADS - 1, LEADS - 1)  # it left the list at once


class Started:
    """Wraps a refresher: when (on the fake clock) each lead's read was started."""

    def __init__(self, inner: object, clock: FakeClock) -> None:
        self.inner = inner
        self.clock = clock
        self.at: list[float] = []

    async def lead(self, lead_id: int) -> int:
        self.at.append(self.clock())
        return await self.inner.lead(lead_id)  # type: ignore[attr-defined, no-any-return]


async def test_at_most_half_of_the_window_then_wait_for_its_reset(
    engine: SyncEngine, store: Store, client: ServiceClient, clock: FakeClock
) -> None:
    waits: list[tuple[float, float]] = []  # (when, how long)

    async def sleep(seconds: float) -> None:
        waits.append((clock(), seconds))
        clock.advance(seconds)

    limiter = client.limiter
    limiter.limit, limiter.remaining, limiter.reset_at = 100, 10, clock() + 30
    started = Started(engine.refresher, clock)
    prefetcher = Prefetcher(started, limiter, clock=clock, sleep=sleep)  # type: ignore[arg-type]
    report = await prefetcher.run(store.leads_needing_detail(), wait=True)

    first_wait_at, first_wait = waits[0]
    spent_before_wait = 2 * sum(1 for at in started.at if at <= first_wait_at)  # a lead: 2 requests
    assert spent_before_wait <= 10 // 2 and spent_before_wait == 4
    assert first_wait == pytest.approx(30)  # until the window resets
    assert report.finished and report.fetched == LEADS and len(waits) == 1


async def test_without_waiting_the_pass_stops_when_the_share_is_spent(
    engine: SyncEngine, store: Store, client: ServiceClient, clock: FakeClock, transport: FaultyTransport
) -> None:
    limiter = client.limiter
    limiter.limit, limiter.remaining, limiter.reset_at = 100, 10, clock() + 30
    transport.log.clear()
    report = await engine.prefetch(wait=False)
    assert report is not None and not report.finished and report.fetched == 2
    assert len(reads(transport)) + len(reads(transport, "/notes")) <= 5
    assert store.detail_coverage() == (2, LEADS)


class NoRateHeaders(httpx.AsyncBaseTransport):
    """A service that never says its rate limit; counts requests in flight at once."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.in_flight = 0
        self.most_in_flight = 0
        self.requests = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.in_flight += 1
        self.requests += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            response = await self.inner.handle_async_request(request)
            body = await response.aread()
        finally:
            self.in_flight -= 1
        headers = [(k, v) for k, v in response.headers.items() if not k.lower().startswith("x-ratelimit")]
        return httpx.Response(response.status_code, headers=headers, content=body)


async def test_a_service_that_never_says_its_limit_gets_a_modest_pace(
    engine: SyncEngine, store: Store, sandbox: FastAPI, clock: FakeClock
) -> None:
    transport = NoRateHeaders(httpx.ASGITransport(app=sandbox))
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    per_sleep: list[int] = []

    async def sleep(seconds: float) -> None:
        per_sleep.append(transport.requests)
        clock.advance(seconds)

    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=clock) as client:
        refresher = type(engine.refresher)(store, client)
        report = await Prefetcher(refresher, limiter, clock=clock, sleep=sleep).run(store.leads_needing_detail())
    assert report.finished and report.fetched == LEADS
    assert transport.most_in_flight == 1  # one lead at a time while nothing is known
    spent = [later - earlier for earlier, later in zip([0, *per_sleep], [*per_sleep, transport.requests], strict=True)]
    assert per_sleep and max(spent) <= DEFAULT_REQUESTS


class Recorder:
    """A refresher that records which leads it was asked for."""

    def __init__(self) -> None:
        self.order: list[int] = []

    async def lead(self, lead_id: int) -> int:
        self.order.append(lead_id)
        return lead_id


def _line(lead_id: int, status: str, score: int, *, recs: int = 0, last: str | None = None) -> dict[str, object]:
    return {"id": lead_id, "company_id": 100 + lead_id, "company_name": f"Lead {lead_id}", "lead_status": status,
            "warming_score": score, "target_score": 75, "activity_count": 1 if last else 0,
            "recommendation_count": recs, "monitoring_active": False, "last_activity_at": last}


async def test_ready_then_warm_then_recommendations_then_recent_activity_first(tmp_path: Path, clock: FakeClock) -> None:
    store = Store(tmp_path / "order.sqlite3", clock=clock)
    store.upsert_leads([
        _line(1, "cold", 10),
        _line(2, "cold", 20, last="2026-01-02T10:00:00Z"),
        _line(3, "cold", 30, recs=2, last="2025-11-01T10:00:00Z"),
        _line(4, "warm", 40),
        _line(5, "cold", 80),  # past its target: ready
        _line(6, "cold", 5, last="2025-12-01T10:00:00Z"),
    ])
    expected = [5, 4, 3, 2, 6, 1]
    assert store.leads_needing_detail() == expected

    limiter = RateLimiter(clock=clock)
    limiter.limit, limiter.remaining, limiter.reset_at = 1000, 1000, clock() + 60
    recorder = Recorder()
    report = await Prefetcher(recorder, limiter, clock=clock, concurrency=1).run(store.leads_needing_detail())  # type: ignore[arg-type]
    assert recorder.order == expected and report.finished

    for lead_id in expected:  # the details arrive (same list fields): nothing is stale any more
        store.upsert_lead_detail({**_snapshot(store, lead_id), "touchpoints": [], "notes": []})
    assert store.leads_needing_detail() == []
    store.upsert_leads([{**_snapshot(store, 2), "activity_count": 2}])  # a new activity on the service
    assert store.leads_needing_detail() == [2]
    store.close()


def _snapshot(store: Store, lead_id: int) -> dict[str, object]:
    found = store.row("SELECT raw FROM lead_snapshots WHERE id = ?", (lead_id,))
    assert found is not None
    return json.loads(found["raw"])


async def test_stop_cancels_a_prefetch_waiting_for_its_window(
    store: Store, client: ServiceClient, clock: FakeClock
) -> None:
    engine = SyncEngine(store, client, clock=clock, blocking=run_inline, stop_grace=3600, flush_interval=3600,
                        refresh_interval=3600, directory_interval=3600, tick_interval=3600)
    engine.prefetcher.budget = Budget(client.limiter, clock, share=0.0)  # every window already spent
    waiting = asyncio.Event()

    async def sleep(seconds: float) -> None:
        waiting.set()
        await asyncio.sleep(seconds)

    engine.prefetcher.sleep = sleep
    await engine.start()
    await asyncio.wait_for(waiting.wait(), 60)  # the refresh ran, then the prefetch, now waiting
    task = engine._prefetch_task
    assert task is not None
    await engine.stop()  # with a grace of an hour: only the cancel lets it return
    assert task.done() and engine._prefetch_task is None
    assert store.detail_coverage() == (0, LEADS)


async def test_leads_without_cards_have_their_figures_read_once_within_the_budget(
    engine: SyncEngine, store: Store, transport: FaultyTransport
) -> None:
    """Triage's all-time counts include leads with no card left; the triage queue does not
    read those, so the prefetch does, once, after the details."""
    assert await engine.refresh_recommendations() is not None
    without = store.leads_never_read_for_recommendations()
    assert without, "the seeded sandbox has leads with no recommendation"
    transport.log.clear()
    report = await engine.prefetch(wait=False)
    assert report is not None and report.finished
    assert sorted(reads(transport, "/recommendations")) == sorted(without)
    assert store.leads_never_read_for_recommendations() == []
    transport.log.clear()
    await engine.prefetch(wait=False)
    assert reads(transport, "/recommendations") == []
