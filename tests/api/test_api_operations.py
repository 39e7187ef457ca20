"""Every operation of the spec: the request the client sends and the model it returns.

One row per client method: what it is called with, the method, path, query and JSON body
that must go out, the wire.md-shaped answer, and a check on the returned model. Mutating
operations are called with an idempotency key that must arrive as `Idempotency-Key`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from support.api_samples import (
    API_KEY,
    COMPANY,
    COMPETITOR,
    CONTACT,
    FOUND_CONTACT,
    LEAD,
    LEAD_DETAIL,
    NOTE,
    PAGE,
    REC,
    RUN,
    TEMPLATE,
    TOUCHPOINT,
    TS,
)
from warmline.api import ServiceClient

NO_BODY = object()
IK = "op-5f1c"
WHEN = datetime(2026, 11, 22, 10, 24, 11, 123000, tzinfo=UTC)


@dataclass
class Op:
    id: str
    call: Callable[[ServiceClient, str], Awaitable[Any]]
    method: str
    path: str
    answer: Any
    check: Callable[[Any], bool]
    body: Any = NO_BODY
    params: dict[str, str] = field(default_factory=dict)
    status: int = 200

    @property
    def mutating(self) -> bool:
        return self.method != "GET"


def ok(**fields: Any) -> dict:
    return {"success": True, **fields}


OPS = [
    Op("health", lambda c, k: c.health(), "GET", "/v1/health",
       ok(status="ok", version="1.0", time=TS, authenticated=True),
       lambda r: r.status == "ok" and r.authenticated and r.time == WHEN),
    # companies
    Op("list_companies", lambda c, k: c.list_companies(2, 10, search="acme", tag="icp"),
       "GET", "/v1/companies",
       ok(data=[COMPANY], pagination={"page": 2, "per_page": 10, "total": 11, "total_pages": 2}),
       lambda r: r.items[0].name == "Acme Logistics" and r.pagination.total == 11 and not r.has_next,
       params={"page": "2", "per_page": "10", "search": "acme", "tag": "icp"}),
    Op("get_company", lambda c, k: c.get_company(7), "GET", "/v1/companies/7", ok(data=COMPANY),
       lambda r: r.id == 7 and r.custom_fields == {"icp_fit": 8} and r.created_at == WHEN),
    Op("company_fields", lambda c, k: c.company_fields(), "GET", "/v1/companies/fields",
       ok(data=[{"key": "icp_fit", "name": "ICP fit", "type": "number"}]),
       lambda r: r[0].key == "icp_fit" and r[0].type == "number"),
    Op("company_tags", lambda c, k: c.company_tags(7), "GET", "/v1/companies/7/tags",
       ok(data=["icp", "nordics"]), lambda r: r == ["icp", "nordics"]),
    Op("create_company", lambda c, k: c.create_company({"name": "Acme Logistics", "domain": "acme.io"}, idempotency_key=k),
       "POST", "/v1/companies", ok(data=COMPANY), lambda r: r.id == 7,
       body={"name": "Acme Logistics", "domain": "acme.io"}, status=201),
    Op("update_company", lambda c, k: c.update_company(7, {"industry": "SaaS"}, idempotency_key=k),
       "PUT", "/v1/companies/7", ok(data={**COMPANY, "industry": "SaaS"}),
       lambda r: r.industry == "SaaS", body={"industry": "SaaS"}),
    Op("delete_company", lambda c, k: c.delete_company(7, idempotency_key=k), "DELETE",
       "/v1/companies/7", ok(data={"id": 7, "deleted": True}), lambda r: r.id == 7 and r.deleted),
    # contacts
    Op("list_contacts", lambda c, k: c.list_contacts(company_id=7), "GET", "/v1/contacts",
       ok(data=[CONTACT], pagination={"page": 1, "per_page": 50, "total": 1, "total_pages": 1}),
       lambda r: r.items[0].full_name == "Dana Berg",
       params={"page": "1", "per_page": "50", "company_id": "7"}),
    Op("get_contact", lambda c, k: c.get_contact(4), "GET", "/v1/contacts/4", ok(data=CONTACT),
       lambda r: r.email == "dana@acme.io"),
    Op("contact_fields", lambda c, k: c.contact_fields(), "GET", "/v1/contacts/fields",
       ok(data=[{"key": "linkedin_warm", "name": "Warm intro", "type": "boolean"}]),
       lambda r: r[0].type == "boolean"),
    Op("contact_tags", lambda c, k: c.contact_tags(4), "GET", "/v1/contacts/4/tags",
       ok(data=["vip"]), lambda r: r == ["vip"]),
    Op("create_contact", lambda c, k: c.create_contact({"first_name": "Dana", "company_id": 7}, idempotency_key=k),
       "POST", "/v1/contacts", ok(data=CONTACT), lambda r: r.id == 4,
       body={"first_name": "Dana", "company_id": 7}, status=201),
    Op("update_contact", lambda c, k: c.update_contact(4, {"title": "COO"}, idempotency_key=k),
       "PUT", "/v1/contacts/4", ok(data={**CONTACT, "title": "COO"}), lambda r: r.title == "COO",
       body={"title": "COO"}),
    Op("delete_contact", lambda c, k: c.delete_contact(4, idempotency_key=k), "DELETE",
       "/v1/contacts/4", ok(data={"id": 4, "deleted": True}), lambda r: r.deleted),
    # prospecting
    Op("lookup_companies",
       lambda c, k: c.lookup_companies(" logistics SaaS ", countries=["Sweden"], save=True, limit=5, idempotency_key=k),
       "POST", "/v1/companies/lookup",
       ok(companies=[{"name": "Acme", "domain": "acme.io", "similarity_score": 0.91, "saved_company_id": 7}],
          total=1, saved_count=1, quota_limited=0),
       lambda r: r.companies[0].similarity_score == 0.91 and r.saved_count == 1,
       body={"query": "logistics SaaS", "countries": ["Sweden"], "save": True, "limit": 5}),
    Op("start_deep_search", lambda c, k: c.start_deep_search("dental clinics in Bavaria", idempotency_key=k),
       "POST", "/v1/companies/deep-search",
       ok(job_id=5, status="pending", query="dental clinics in Bavaria", target_count=20, created_at=TS,
          message="Poll GET /v1/companies/deep-search/5"),
       lambda r: r.job_id == 5 and r.status == "pending" and r.target_count == 20,
       body={"query": "dental clinics in Bavaria", "max_results": 20}, status=201),
    Op("get_deep_search", lambda c, k: c.get_deep_search(5), "GET", "/v1/companies/deep-search/5",
       ok(job_id=5, status="completed", query="q", target_count=20, progress=100, found_count=1,
          created_at=TS, completed_at=TS, companies=[COMPANY], error=None),
       lambda r: r.status == "completed" and r.companies[0].id == 7 and r.completed_at == WHEN),
    Op("start_company_research", lambda c, k: c.start_company_research(7, focus="hiring", idempotency_key=k),
       "POST", "/v1/companies/7/deep-search",
       ok(search_id=3, company_id=7, status="pending", created_at=TS),
       lambda r: r.search_id == 3 and r.results is None, body={"focus": "hiring"}, status=201),
    Op("get_company_research", lambda c, k: c.get_company_research(7, 3), "GET",
       "/v1/companies/7/deep-search/3",
       ok(search_id=3, company_id=7, status="completed", progress=100, created_at=TS, completed_at=TS,
          results={"summary": "Growing", "key_facts": ["Opened Oslo office"],
                   "sources": [{"title": "Blog", "url": "https://acme.io/blog"}]}),
       lambda r: r.results.key_facts == ["Opened Oslo office"] and r.results.sources[0].title == "Blog"),
    Op("start_contact_search", lambda c, k: c.start_contact_search(7, ["champion"], idempotency_key=k),
       "POST", "/v1/contacts/search",
       ok(job_id=4, status="pending", company_id=7, created_at=TS, message="poll"),
       lambda r: r.job_id == 4, body={"company_id": 7, "roles": ["champion"]}, status=201),
    Op("get_contact_search", lambda c, k: c.get_contact_search(4), "GET", "/v1/contacts/search/4",
       ok(job_id=4, status="completed", company_id=7, progress=100, created_at=TS, completed_at=TS,
          contacts=[FOUND_CONTACT]),
       lambda r: r.contacts[0].role == "champion"),
    Op("add_contacts", lambda c, k: c.add_contacts(4, [1, 2], idempotency_key=k), "POST",
       "/v1/contacts/search/4/add",
       ok(added=1, skipped=1, contacts=[CONTACT], skipped_ids=[{"id": 2, "reason": "duplicate"}]),
       lambda r: r.added == 1 and r.skipped_ids[0].reason == "duplicate",
       body={"contact_ids": [1, 2]}),
    # research (detailed family: the default preference)
    Op("list_research_templates", lambda c, k: c.list_research_templates(), "GET",
       "/v1/research/templates", ok(data=[TEMPLATE]), lambda r: r[0].fields[0].key == "icp_fit"),
    Op("get_research_template", lambda c, k: c.get_research_template(TEMPLATE["id"]), "GET",
       f"/v1/research/templates/{TEMPLATE['id']}", ok(data=TEMPLATE), lambda r: r.name == "ICP fit"),
    Op("start_research_run", lambda c, k: c.start_research_run([7, 8], template_name="ICP fit", idempotency_key=k),
       "POST", "/v1/research/run",
       ok(run_id="run-1", status="pending", template_id=TEMPLATE["id"], company_ids=[7, 8], created_at=TS),
       lambda r: r.run_id == "run-1" and r.company_ids == [7, 8],
       body={"template_name": "ICP fit", "company_ids": [7, 8]}, status=201),
    Op("get_research_run", lambda c, k: c.get_research_run("run-1"), "GET", "/v1/research/runs/run-1",
       ok(**RUN), lambda r: r.results[0].fields == {"icp_fit": 8}),
    # outreach leads
    Op("list_leads", lambda c, k: c.list_leads("warm", per_page=25), "GET", "/v1/outreach/leads",
       ok(data=[LEAD], pagination={"page": 1, "per_page": 25, "total": 1, "total_pages": 1}),
       lambda r: r.items[0].warming_score == 42 and r.items[0].last_activity_at == WHEN,
       params={"status": "warm", "page": "1", "per_page": "25"}),
    Op("get_lead", lambda c, k: c.get_lead(3), "GET", "/v1/outreach/leads/3", ok(data=LEAD_DETAIL),
       lambda r: r.monitoring_pages[0].score == 8 and r.contacts[0].is_selected
       and r.competitors[0].name == "Rival" and r.touchpoints[0].detected_type == "call"
       and r.recommendations[0].priority == "high" and r.deal_value == 24000
       and r.company.domain == "acme.io"),
    Op("add_leads", lambda c, k: c.add_leads([7, 8], "warm", idempotency_key=k), "POST",
       "/v1/outreach/leads",
       ok(added=1, leads=[LEAD], skipped=[{"company_id": 8, "reason": "already a lead"}]),
       lambda r: r.added == 1 and r.skipped[0].company_id == 8,
       body={"company_ids": [7, 8], "lead_status": "warm"}, status=201),
    Op("remove_leads", lambda c, k: c.remove_leads([3], idempotency_key=k), "DELETE",
       "/v1/outreach/leads", ok(removed=1), lambda r: r.removed == 1, body={"lead_ids": [3]}),
    Op("set_lead_status", lambda c, k: c.set_lead_status(3, "warm", idempotency_key=k), "PATCH",
       "/v1/outreach/leads/3/status", ok(id=3, lead_status="warm"),
       lambda r: r.lead_status == "warm", body={"lead_status": "warm"}),
    Op("set_target_score", lambda c, k: c.set_target_score(3, 80, idempotency_key=k), "PATCH",
       "/v1/outreach/leads/3/target-score", ok(id=3, target_score=80),
       lambda r: r.target_score == 80, body={"target_score": 80}),
    Op("start_signal_scan", lambda c, k: c.start_signal_scan(3, idempotency_key=k), "POST",
       "/v1/outreach/leads/3/signal-scan",
       ok(lead_id=3, status="pending", started_at=TS, message="Scan started"),
       lambda r: r.status == "pending" and r.started_at == WHEN, body={}, status=201),
    Op("get_signal_scan", lambda c, k: c.get_signal_scan(3), "GET", "/v1/outreach/leads/3/signal-scan",
       ok(status="none", message="No scan has been started"), lambda r: r.status == "none"),
    Op("set_monitoring_page", lambda c, k: c.set_monitoring_page(3, 9, False, idempotency_key=k),
       "PATCH", "/v1/outreach/leads/3/monitoring-pages/9", ok(page={**PAGE, "is_selected": False}),
       lambda r: r.id == 9 and r.is_selected is False, body={"is_selected": False}),
    Op("get_recommendations", lambda c, k: c.get_recommendations(3), "GET",
       "/v1/outreach/leads/3/recommendations",
       ok(recommendations=[REC], count=1, progress={"completed": 2, "dismissed": 1, "total": 4},
          generation_status="completed"),
       lambda r: r.count == 1 and r.progress.total == 4 and r.recommendations[0].id == 11),
    Op("generate_recommendations", lambda c, k: c.generate_recommendations(3, idempotency_key=k),
       "POST", "/v1/outreach/leads/3/recommendations/generate",
       ok(status="pending", message="Generating"), lambda r: r.status == "pending", body={}, status=202),
    Op("complete_recommendation", lambda c, k: c.complete_recommendation(3, 11, idempotency_key=k),
       "POST", "/v1/outreach/leads/3/recommendations/11/complete",
       ok(recommendation={**REC, "status": "completed"}, points_awarded=5, warming_score=47, auto_dismissed=[12]),
       lambda r: r.points_awarded == 5 and r.warming_score == 47 and r.auto_dismissed == [12]),
    Op("dismiss_recommendation", lambda c, k: c.dismiss_recommendation(3, 11, idempotency_key=k),
       "POST", "/v1/outreach/leads/3/recommendations/11/dismiss",
       ok(recommendation={**REC, "status": "dismissed"}), lambda r: r.status == "dismissed"),
    Op("log_touchpoint", lambda c, k: c.log_touchpoint(3, "Called Dana", contact_id=4, idempotency_key=k),
       "POST", "/v1/outreach/leads/3/touchpoints",
       ok(touchpoint=TOUCHPOINT, detected_type="call",
          bonus_info={"base_points": 10, "multiplier": 1.5, "total": 15, "reason": "call"}, warming_score=60),
       lambda r: r.touchpoint.id == 21 and r.bonus_info.multiplier == 1.5 and r.warming_score == 60,
       body={"description": "Called Dana", "contact_id": 4}, status=201),
    Op("list_notes", lambda c, k: c.list_notes(3), "GET", "/v1/outreach/leads/3/notes",
       ok(data=[NOTE]), lambda r: r[0].content == "Wants pricing by Friday"),
    Op("add_note", lambda c, k: c.add_note(3, "Wants pricing by Friday", idempotency_key=k), "POST",
       "/v1/outreach/leads/3/notes", ok(note=NOTE), lambda r: r.id == 31 and r.created_at == WHEN,
       body={"content": "Wants pricing by Friday"}, status=201),
    Op("pin_contact", lambda c, k: c.pin_contact(3, 4, True, idempotency_key=k), "PATCH",
       "/v1/outreach/leads/3/contacts/4", ok(contact={**FOUND_CONTACT, "id": 4, "is_selected": True}),
       lambda r: r.id == 4 and r.is_selected, body={"is_selected": True}),
    Op("update_deal", lambda c, k: c.update_deal(3, deal_value=24000, deal_currency="eur", won=True, idempotency_key=k),
       "PATCH", "/v1/outreach/leads/3/deal",
       ok(id=3, deal_value=24000, deal_currency="EUR", won_at=TS, closed_at=None, closed_reason=None),
       lambda r: r.deal_currency == "EUR" and r.won_at == WHEN,
       body={"deal_value": 24000, "deal_currency": "EUR", "won": True}),
    Op("add_competitor", lambda c, k: c.add_competitor(3, "Rival", "rival.io", idempotency_key=k), "POST",
       "/v1/outreach/leads/3/competitors", ok(competitor=COMPETITOR), lambda r: r.id == 5,
       body={"name": "Rival", "domain": "rival.io"}, status=201),
    Op("scan_competitor", lambda c, k: c.scan_competitor(3, 5, idempotency_key=k), "POST",
       "/v1/outreach/leads/3/competitors/5/scan",
       ok(competitor={**COMPETITOR, "last_scanned_at": TS, "scan_summary": "New pricing page"}),
       lambda r: r.scan_summary == "New pricing page"),
    Op("pin_competitor", lambda c, k: c.pin_competitor(3, 5, True, idempotency_key=k), "PATCH",
       "/v1/outreach/leads/3/competitors/5", ok(competitor={**COMPETITOR, "is_pinned": True}),
       lambda r: r.is_pinned, body={"is_pinned": True}),
]


@pytest.mark.parametrize("op", OPS, ids=[op.id for op in OPS])
async def test_operation_request_and_result(op: Op, client: ServiceClient, service) -> None:
    service.reply(httpx.Response(op.status, json=op.answer))
    result = await op.call(client, IK)

    (request,) = service.requests
    assert request.method == op.method
    assert request.url.path == op.path
    assert dict(request.url.params) == op.params
    if op.body is NO_BODY:
        assert request.content == b""
    else:
        assert json.loads(request.content) == op.body
    assert request.headers["Authorization"] == f"Bearer {API_KEY}"
    assert request.headers.get("Idempotency-Key") == (IK if op.mutating else None)
    assert op.check(result)


def test_every_public_client_method_is_covered() -> None:
    """A new operation added to the client without a row above fails here."""
    public = {
        name for name in dir(ServiceClient)
        if not name.startswith("_") and callable(getattr(ServiceClient, name)) and name != "aclose"
    }
    assert public - NOT_OPERATIONS == {op.id for op in OPS}


NOT_OPERATIONS = {"walk", "walk_leads", "walk_companies", "walk_contacts", "now", "dialect_state", "restore_dialect"}
"""Whole-list walks (many requests each, tested in tests/api/test_api_paging.py), the
client's clock and what it learned of the service (tests/dialects/test_dialect_jobs.py)."""


async def test_mutation_without_idempotency_key_sends_none(client: ServiceClient, service) -> None:
    service.reply(httpx.Response(201, json=ok(note=NOTE)))
    await client.add_note(3, "hello")
    assert "Idempotency-Key" not in service.requests[0].headers
