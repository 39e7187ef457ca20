"""Jobs on a service that reads statuses differently: never done too early, never polled for ever."""

from __future__ import annotations

from pathlib import Path

import httpx

from support.dialects import make_world
from support.sync_helpers import KEY, FakeClock
from warmline import actions
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.sync.jobs import JOB_POLL_DEADLINE


async def test_a_generation_without_a_status_waits_for_new_cards(tmp_path: Path) -> None:
    """`sparse` leaves out `generation_status` (the spec has none): the first poll, before any
    new card, must not call the generation done."""
    async with make_world(tmp_path, "sparse") as world:
        await world.engine.refresh_leads()
        lead = world.one("SELECT lead_id FROM outreach_pages ORDER BY lead_id LIMIT 1")
        await world.engine.refresh_lead(lead)
        world.clock.advance(600)  # the seed's cards are older than the start
        actions.generate_recommendations(world.store, lead)
        await world.deliver()
        await world.engine.poll_jobs(force=True)
        job = next(j for j in world.store.jobs() if j.kind == "recommendations")
        new_cards = world.one(
            "SELECT count(*) FROM outreach_recommendations WHERE lead_id = ? AND created_at >= ?",
            (lead, world.clock.now().isoformat()[:19]),
        )
        assert new_cards == 0  # the sandbox makes them over time
        assert job.active and job.status == "running", (job.status, job.result_summary)
        done = await world.until_done("recommendations")
        assert done.status == "completed"


async def test_a_job_whose_status_is_never_an_end_expires_after_the_deadline(tmp_path: Path) -> None:
    clock = FakeClock()
    store = Store(tmp_path / "cache.sqlite3", clock=clock)

    def thinking(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return httpx.Response(201, json={"job_id": 7, "status": "pending", "query": "x", "target_count": 3})
        return httpx.Response(200, json={"job_id": 7, "status": "thinking"})

    async with ServiceClient("http://127.0.0.1", KEY, transport=httpx.MockTransport(thinking), clock=clock) as client:
        engine = SyncEngine(store, client, clock=clock, blocking=run_inline)
        actions.start_deep_search(store, "dental clinics", 3)
        await engine.flush()
        await engine.poll_jobs(force=True)
        job = store.jobs()[0]
        assert job.active and job.status == "thinking"  # shown as the service wrote it, still polled
        clock.advance(JOB_POLL_DEADLINE + 1)
        await engine.poll_jobs(force=True)
        job = store.jobs()[0]
        assert not job.active and job.status == "expired"
        assert job.error is not None and "last status: thinking" in job.error
    store.close()


async def test_what_was_learned_of_a_dialect_is_remembered_per_service(tmp_path: Path) -> None:
    """A new process against the same service starts from the paging style and research
    family an earlier one found; nothing is asked twice to find them again."""
    async with make_world(tmp_path, "cursor,overview-only") as world:
        await world.engine.refresh_directory()
        assert world.client.paging["/v1/companies"] == "cursor"
        assert world.client.families.known("research") == "overview"
        async with ServiceClient("http://127.0.0.1", KEY, transport=httpx.ASGITransport(app=world.app),
                                 clock=world.clock) as later:
            SyncEngine(world.store, later, clock=world.clock, blocking=run_inline)
            assert later.paging["/v1/companies"] == "cursor"
            assert later.families.known("research") == "overview"
        async with ServiceClient("http://127.0.0.1", "another-key", transport=httpx.ASGITransport(app=world.app),
                                 clock=world.clock) as elsewhere:
            SyncEngine(world.store, elsewhere, clock=world.clock, blocking=run_inline)
            assert elsewhere.paging == {}  # another service (or key): learned afresh
