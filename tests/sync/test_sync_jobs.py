"""Job polling: the 5-10 s interval, persistence, unknown statuses, results pulled in."""

from __future__ import annotations

import json

import httpx

from support.sync_helpers import FakeClock, FaultyTransport
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.sync.jobs import POLL_MAX, POLL_MIN

LEAD = 1


def polls(transport: FaultyTransport, part: str) -> int:
    return sum(1 for method, path, _key, _fault in transport.log if method == "GET" and part in path)


async def start(engine: SyncEngine, store: Store, kind: str, payload: dict, lead: int | None = None) -> None:
    store.enqueue(kind, payload, lead)
    assert (await engine.flush()).delivered == 1


async def test_polled_every_five_to_ten_seconds_until_it_ends(
    engine: SyncEngine, store: Store, clock: FakeClock, transport: FaultyTransport
) -> None:
    await start(engine, store, "start_deep_search", {"query": "software companies", "max_results": 3})
    assert (await engine.poll_jobs()).polled == 1  # due at once after the start
    job = store.jobs()[0]
    assert clock() + POLL_MIN <= job.next_poll_at <= clock() + POLL_MAX
    clock.advance(POLL_MIN - 0.1)
    await engine.poll_jobs()
    assert polls(transport, "/deep-search/") == 1  # not before its time
    clock.advance(POLL_MAX - POLL_MIN + 0.2)
    assert (await engine.poll_jobs()).completed == 1  # 10 s job, seen at once when due
    job = store.jobs()[0]
    assert job.status == "completed" and not job.active and job.next_poll_at is None
    assert job.result_summary == "3 companies found"
    clock.advance(60)
    await engine.poll_jobs()
    assert polls(transport, "/deep-search/") == 2  # polling stopped


async def test_jobs_survive_a_restart(
    engine: SyncEngine, store: Store, clock: FakeClock, transport: FaultyTransport, tmp_path
) -> None:
    await start(engine, store, "start_contact_search", {"company_id": 1})
    reopened = Store(tmp_path / "cache.sqlite3", clock=clock)
    try:
        async with ServiceClient("http://127.0.0.1", "sync-test-key", transport=transport, clock=clock) as client:
            later = SyncEngine(reopened, client, clock=clock, blocking=run_inline)
            clock.advance(11)
            assert (await later.poll_jobs()).completed == 1
        job = reopened.jobs()[0]
        assert job.kind == "contact_search" and job.status == "completed"
        assert reopened.found_contacts(job.key)  # the found contacts are in the cache
    finally:
        reopened.close()


class Rewriting(httpx.AsyncBaseTransport):
    """Answers polls of deep searches with a status this version has never heard of."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method == "GET" and "/deep-search/" in request.url.path:
            body = json.loads(await response.aread())
            body["status"] = "thinking hard"
            return httpx.Response(200, json=body)
        return response


async def test_an_unknown_status_is_kept_and_polled(store: Store, clock: FakeClock, transport: FaultyTransport) -> None:
    async with ServiceClient("http://127.0.0.1", "sync-test-key", transport=Rewriting(transport), clock=clock) as client:
        engine = SyncEngine(store, client, clock=clock, blocking=run_inline)
        await start(engine, store, "start_deep_search", {"query": "software companies", "max_results": 1})
        clock.advance(11)
        await engine.poll_jobs()
        job = store.jobs()[0]
        assert job.status == "thinking hard" and job.active and job.next_poll_at > clock()


async def test_a_finished_signal_scan_brings_the_lead_detail(
    engine: SyncEngine, store: Store, clock: FakeClock
) -> None:
    before = store.lead_detail(LEAD)
    await start(engine, store, "start_signal_scan", {"lead_id": LEAD}, LEAD)
    clock.advance(11)
    report = await engine.poll_jobs()
    assert report.completed == 1
    detail = store.lead_detail(LEAD)
    assert detail.signal_scan_status == "completed"
    assert detail.monitoring_pages and detail.detail_fetched_at is not None
    assert before.detail_fetched_at is None


async def test_generated_recommendations_come_into_the_queue(
    engine: SyncEngine, store: Store, clock: FakeClock, client: ServiceClient
) -> None:
    await start(engine, store, "generate_recommendations", {"lead_id": LEAD}, LEAD)
    clock.advance(11)
    assert (await engine.poll_jobs()).completed == 1
    server = await client.get_recommendations(LEAD)
    cached = {r.id for r in store.active_recommendations(lead_id=LEAD)}
    assert cached == {r.id for r in server.recommendations}


async def test_a_research_run_fills_the_companies_custom_fields(
    engine: SyncEngine, store: Store, clock: FakeClock, client: ServiceClient
) -> None:
    template = (await client.list_research_templates())[0]
    company_ids = [row.company_id for row in store.lead_page(limit=2)]
    await start(engine, store, "start_research_run", {"template_id": template.id, "company_ids": company_ids})
    clock.advance(11)
    assert (await engine.poll_jobs()).completed == 1
    for company_id in company_ids:
        company = store.get_company(company_id)
        assert company is not None
        assert {f.key for f in template.fields} <= set(company.custom_fields)


async def test_a_job_the_server_forgot_ends_failed(engine: SyncEngine, store: Store, clock: FakeClock) -> None:
    await start(engine, store, "start_deep_search", {"query": "software companies", "max_results": 1})
    store.conn.execute("UPDATE jobs SET remote_id = '999999'")
    report = await engine.poll_jobs()
    job = store.jobs()[0]
    assert report.ended == 1 and job.status == "failed" and not job.active
    assert job.error == "Job not found"
