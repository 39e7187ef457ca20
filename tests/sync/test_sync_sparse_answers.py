"""A field the service leaves out never overwrites what the cache knows (issue: answers
stored with the models' defaults blanked names, targets, counts and deals)."""

from __future__ import annotations

from pathlib import Path

import httpx

from support.sync_helpers import KEY, FakeClock
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline

ITEM = {
    "id": 5, "company_id": 50, "company_name": "Fields AG", "lead_status": "warm", "warming_score": 40,
    "target_score": 70, "activity_count": 3, "recommendation_count": 1, "monitoring_active": True,
    "last_activity_at": "2026-11-20T10:00:00.000Z",
}
# The detail as the spec shows it: id, lead_status, warming_score and the arrays.
SPEC_DETAIL = {
    "id": 5, "lead_status": "warm", "warming_score": 42, "monitoring_pages": [], "contacts": [],
    "competitors": [], "touchpoints": [], "recommendations": [], "deal_value": 9000, "won_at": None,
    "closed_at": None, "closed_reason": None,
}


def service(request: httpx.Request) -> httpx.Response:
    path = request.url.path
    if path == "/v1/outreach/leads":
        status = request.url.params.get("status")
        items = [ITEM] if status in (None, "warm") else []
        return httpx.Response(200, json={"data": items, "pagination": {"page": 1, "total_pages": 1, "total": len(items)}})
    if path == "/v1/outreach/leads/5":
        return httpx.Response(200, json=SPEC_DETAIL)
    if path == "/v1/outreach/leads/5/notes":
        return httpx.Response(200, json={"success": True})
    if path == "/v1/outreach/leads/5/deal":
        return httpx.Response(200, json={"success": True, "message": "Deal updated"})
    return httpx.Response(404, json={"message": "Not Found"})


async def test_a_spec_only_detail_and_a_minimal_deal_answer_keep_what_the_cache_knows(tmp_path: Path) -> None:
    clock = FakeClock()
    store = Store(tmp_path / "cache.sqlite3", clock=clock)
    async with ServiceClient("http://127.0.0.1", KEY, transport=httpx.MockTransport(service), clock=clock) as client:
        engine = SyncEngine(store, client, clock=clock, blocking=run_inline)
        await engine.refresh_leads()
        await engine.refresh_lead(5)
        lead = store.get_lead(5)
        assert lead is not None
        assert (lead.company_name, lead.target_score, lead.activity_count, lead.last_activity_at) == (
            "Fields AG", 70, 3, "2026-11-20T10:00:00.000Z")
        assert lead.warming_score == 42  # what the detail did say is taken
        store.enqueue("update_deal", {"lead_id": 5, "deal_currency": "EUR"}, 5)
        report = await engine.flush()
        assert report.delivered == 1 and report.failed == 0
    detail = store.lead_detail(5)
    assert detail is not None and detail.deal_value == 9000 and detail.lead.company_name == "Fields AG"
    store.close()
