"""Dialects on the wire: each reading's raw shapes, in-process against a small seeded sandbox.

The seed (7, 300 companies, 4 leads) gives 21 saved companies, 50 contacts and four leads:
1 and 3 cold, 2 and 4 warm (2 with a deal in EUR, competitors, recommendations).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import re
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from support.sandbox_client import make_client
from warmline_sandbox.app import create_app
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.dialects import parse_dialects
from warmline_sandbox.settings import DEFAULT_QUOTAS, SandboxSettings

KEY = "dialect-key"
TEMPLATE = SandboxSettings(db_path="unset", api_keys=[KEY], seed=7, companies=300, leads=4, job_seconds=10.0)
RATE_HEADERS = ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")
EXPRESS_404 = (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n'
    "<body>\n<pre>Cannot {method} {path}</pre>\n</body>\n</html>\n"
)
BARE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00\Z")
CONTACTS_TOTAL = 50


@dataclass
class Served:
    app: FastAPI
    clock: ManualClock
    client: httpx.AsyncClient


@pytest.fixture(scope="module")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dialects") / "seeded.sqlite3"
    app = create_app(dataclasses.replace(TEMPLATE, db_path=path, api_keys=[KEY]), clock=ManualClock())
    app.state.db.close()
    return path


@pytest.fixture
async def serve(seeded_db: Path, tmp_path: Path) -> AsyncIterator[Callable[..., Served]]:
    """`serve("offset,sparse", **settings)`: a fresh copy of the seeded sandbox in those dialects."""
    made: list[Served] = []

    def make(dialects: str = "standard", **overrides: Any) -> Served:
        db_path = tmp_path / f"sandbox-{len(made)}.sqlite3"
        shutil.copyfile(seeded_db, db_path)
        settings = dataclasses.replace(TEMPLATE, db_path=db_path, api_keys=[KEY],
                                       dialects=parse_dialects(dialects), **overrides)
        clock = ManualClock()
        app = create_app(settings, clock=clock)
        made.append(Served(app, clock, make_client(app, key=KEY)))
        return made[-1]

    yield make
    for served in made:
        await served.client.aclose()
        served.app.state.db.close()


def fields(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (field name, value) of an answer, all the way down."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from fields(item)
    elif isinstance(value, list):
        for item in value:
            yield from fields(item)


async def standard_contact_ids(serve: Callable[..., Served], **params: Any) -> list[int]:
    body = (await serve().client.get("/v1/contacts", params={"per_page": 200, **params})).json()
    return [contact["id"] for contact in body["data"]]


# ------------------------------------------------------------------ paging


async def test_page_limit_walks_every_contact_once_in_pages_the_service_caps(serve: Callable[..., Served]) -> None:
    client = serve("page-limit").client
    seen: list[int] = []
    page = 1
    while True:
        answer = await client.get("/v1/contacts", params={"page": page, "limit": 100, "per_page": 3})
        body = answer.json()
        assert set(body) == {"success", "data", "pagination"}
        assert body["pagination"] == {"page": page, "limit": 25, "total": CONTACTS_TOTAL, "totalPages": 2}
        assert len(body["data"]) <= 25
        seen += [contact["id"] for contact in body["data"]]
        if page >= body["pagination"]["totalPages"]:
            break
        page += 1
    assert seen == await standard_contact_ids(serve)
    default = (await client.get("/v1/contacts")).json()
    assert default["pagination"]["limit"] == 25 and len(default["data"]) == 25
    small = (await client.get("/v1/contacts", params={"limit": 4, "page": 3})).json()
    assert small["pagination"] == {"page": 3, "limit": 4, "total": CONTACTS_TOTAL, "totalPages": 13}


async def test_page_limit_refuses_a_limit_that_is_no_positive_number(serve: Callable[..., Served]) -> None:
    client = serve("page-limit").client
    wrong_type = await client.get("/v1/companies", params={"limit": "ten"})
    assert wrong_type.status_code == 422
    assert wrong_type.json()["errors"][0]["field"] == "limit"
    too_small = await client.get("/v1/companies", params={"limit": 0})
    assert too_small.status_code == 400 and too_small.json()["errors"][0]["field"] == "limit"
    assert all(name in too_small.headers for name in RATE_HEADERS)
    anonymous = await serve("page-limit").client.get("/v1/companies", params={"limit": 0},
                                                     headers={"Authorization": ""})
    assert anonymous.status_code == 401, "the key is checked first, as on every route"


async def test_offset_walks_from_any_offset_with_the_size_capped(serve: Callable[..., Served]) -> None:
    client = serve("offset").client
    everyone = await standard_contact_ids(serve)
    for start, limit, size in ((0, 7, 7), (5, 100, 30), (13, 30, 30)):
        seen: list[int] = []
        offset = start
        while True:
            body = (await client.get("/v1/contacts", params={"offset": offset, "limit": limit, "page": 9})).json()
            assert set(body) == {"success", "items", "pagination"}
            pagination = body["pagination"]
            assert pagination == {"total": CONTACTS_TOTAL, "limit": size, "offset": offset,
                                  "has_more": offset + len(body["items"]) < CONTACTS_TOTAL}
            assert len(body["items"]) == min(size, CONTACTS_TOTAL - offset)
            seen += [contact["id"] for contact in body["items"]]
            if not pagination["has_more"]:
                break
            offset += len(body["items"])
        assert seen == everyone[start:], (start, limit)
    past = (await client.get("/v1/contacts", params={"offset": 500})).json()
    assert past["items"] == [] and past["pagination"]["has_more"] is False
    assert (await client.get("/v1/contacts", params={"offset": -1})).status_code == 400


async def test_cursor_walks_with_an_opaque_cursor_and_never_a_total(serve: Callable[..., Served]) -> None:
    client = serve("cursor").client
    seen: list[int] = []
    cursor: str | None = None
    pages = 0
    while True:
        answer = await client.get("/v1/contacts", params={"limit": 50, **({"cursor": cursor} if cursor else {})})
        assert "total" not in answer.text
        body = answer.json()
        assert set(body) == {"success", "data", "pagination"} and set(body["pagination"]) == {"next_cursor", "has_more"}
        assert len(body["data"]) <= 20
        seen += [contact["id"] for contact in body["data"]]
        pages += 1
        cursor = body["pagination"]["next_cursor"]
        assert (cursor is not None) == body["pagination"]["has_more"]
        if cursor is None:
            break
        assert re.fullmatch(r"[A-Za-z0-9_-]+", cursor) and not cursor.isdigit()
    assert pages == 3 and seen == await standard_contact_ids(serve)


@pytest.mark.parametrize("cursor", [
    "!!!not base64",
    base64.urlsafe_b64encode(b"not json").decode(),
    base64.urlsafe_b64encode(b'{"v": 1, "list": "companies", "at": 20}').decode(),  # another list's
    base64.urlsafe_b64encode(b'{"v": 1, "list": "contacts", "at": -1}').decode(),
])
async def test_an_unknown_or_garbled_cursor_is_a_400(serve: Callable[..., Served], cursor: str) -> None:
    answer = await serve("cursor").client.get("/v1/contacts", params={"cursor": cursor})
    assert answer.status_code == 400
    assert answer.json()["errors"] == [{"field": "cursor", "message": "Invalid or unknown cursor"}]


async def test_link_follows_the_next_link_with_the_same_filters(serve: Callable[..., Served]) -> None:
    client = serve("link").client
    expected = await standard_contact_ids(serve, search="e")
    assert len(expected) > 30
    seen: list[int] = []
    url = "/v1/contacts?search=e&per_page=50"
    page = 1
    while True:
        answer = await client.get(url)
        body = answer.json()
        assert body["pagination"] == {"page": page, "per_page": 15}
        assert "total" not in answer.text
        seen += [contact["id"] for contact in body["data"]]
        link = answer.headers.get("link")
        if link is None:
            break
        page += 1
        assert link == f'<http://sandbox/v1/contacts?page={page}&per_page=15&search=e>; rel="next"'
        url = link[1:link.index(">")]
    assert seen == expected
    refused = await client.get("/v1/contacts", params={"per_page": "many"})
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "per_page"


# ------------------------------------------------------------------ cold-default, request-names


async def test_cold_default_lists_cold_leads_when_no_status_is_asked(serve: Callable[..., Served]) -> None:
    client = serve("cold-default").client
    default = (await client.get("/v1/outreach/leads")).json()
    assert [lead["lead_status"] for lead in default["data"]] == ["cold", "cold"]
    assert default["pagination"]["total"] == 2
    warm = (await client.get("/v1/outreach/leads", params={"status": "warm"})).json()
    assert {lead["id"] for lead in warm["data"]} == {2, 4}
    cold = (await client.get("/v1/outreach/leads", params={"status": "cold"})).json()
    assert {lead["id"] for lead in cold["data"]} == {1, 3}


async def test_request_names_reads_status_and_ignores_lead_status(serve: Callable[..., Served]) -> None:
    client = serve("request-names").client
    ignored = await client.patch("/v1/outreach/leads/1/status", json={"lead_status": "warm"})
    assert (ignored.status_code, ignored.json()) == (200, {"success": True, "id": 1, "lead_status": "cold"})
    assert (await client.get("/v1/outreach/leads/1")).json()["data"]["lead_status"] == "cold"
    read = await client.patch("/v1/outreach/leads/1/status", json={"status": "warm", "lead_status": "cold"})
    assert read.json() == {"success": True, "id": 1, "lead_status": "warm"}
    assert (await client.get("/v1/outreach/leads/1")).json()["data"]["lead_status"] == "warm"
    wrong = await client.patch("/v1/outreach/leads/1/status", json={"status": "hot"})
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["field"] == "status"
    unknown = await client.patch("/v1/outreach/leads/999/status", json={"lead_status": "warm"})
    assert (unknown.status_code, unknown.json()["message"]) == (404, "Outreach lead not found")


async def test_request_names_for_pages_deals_and_competitors(serve: Callable[..., Served]) -> None:
    client = serve("request-names").client
    detail = (await client.get("/v1/outreach/leads/2")).json()["data"]
    page = detail["monitoring_pages"][0]
    competitor = next(c for c in detail["competitors"] if not c["is_pinned"])
    path = f"/v1/outreach/leads/2/monitoring-pages/{page['id']}"
    assert (await client.patch(path, json={"is_selected": not page["is_selected"]})).json() == {
        "success": True, "page": page}
    toggled = (await client.patch(path, json={"enabled": not page["is_selected"]})).json()
    assert toggled["page"]["is_selected"] is (not page["is_selected"])
    missing = await client.patch("/v1/outreach/leads/2/monitoring-pages/9999", json={"is_selected": True})
    assert (missing.status_code, missing.json()["message"]) == (404, "Monitoring page not found")

    assert (await client.patch("/v1/outreach/leads/2/deal", json={"deal_currency": "USD"})).json()[
        "deal_currency"] == "EUR"
    deal = (await client.patch("/v1/outreach/leads/2/deal", json={"currency": "usd", "deal_value": 5})).json()
    assert (deal["deal_currency"], deal["deal_value"]) == ("USD", 5)

    pin = f"/v1/outreach/leads/2/competitors/{competitor['id']}"
    assert (await client.patch(pin, json={"is_pinned": True})).json()["competitor"]["is_pinned"] is False
    assert (await client.patch(pin, json={"pinned": True})).json()["competitor"]["is_pinned"] is True

    contact = detail["contacts"][-1]
    key_contact = f"/v1/outreach/leads/2/contacts/{contact['id']}"
    pinned = (await client.patch(key_contact, json={"is_selected": not contact["is_selected"]})).json()
    assert pinned["contact"]["is_selected"] is (not contact["is_selected"]), "the spec shows is_selected: kept"


# ------------------------------------------------------------------ errors and families


async def test_errors_speak_express(serve: Callable[..., Served]) -> None:
    client = serve("errors", quotas={**DEFAULT_QUOTAS, "instant_lookups": 0}).client
    empty = await client.post("/v1/outreach/leads/1/notes", json={"content": ""})
    assert empty.status_code == 422
    assert empty.json() == {"errors": [{"type": "field", "msg": "String should have at least 1 character",
                                        "path": "content", "location": "body"}]}
    wrong = (await client.post("/v1/research/run", json={"template_name": "ICP fit", "company_ids": [1, "x"]}))
    assert wrong.status_code == 422 and wrong.json()["errors"][0]["path"] == "company_ids[1]"
    query = await client.get("/v1/companies", params={"per_page": 0})
    assert query.status_code == 422 and query.json()["errors"][0]["location"] == "query"
    plan = await client.post("/v1/companies/lookup", json={"query": "dental clinics"})
    assert (plan.status_code, plan.json()) == (
        402, {"error": {"message": "Plan limit reached: instant_lookups", "code": "plan_limit"}})
    conflict = await client.patch("/v1/outreach/leads/1/deal", json={"deal_value": 5})
    assert (conflict.status_code, conflict.json()) == (400, {"error": "Deal tracking is only available for warm leads"})
    missing = await client.get("/v1/outreach/leads/999")
    assert (missing.status_code, missing.json()) == (
        404, {"success": False, "message": "Outreach lead not found", "errors": None})
    anonymous = await client.get("/v1/companies", headers={"Authorization": ""})
    assert (anonymous.status_code, anonymous.json()) == (
        401, {"success": False, "message": "Invalid or missing API key", "errors": None})
    short = await client.post("/v1/contacts/search/999/add", json={"contact_ids": [1]})
    assert (short.status_code, short.json()) == (404, {"error": "Job not found"})


async def test_an_unknown_route_or_method_is_express_html(serve: Callable[..., Served]) -> None:
    client = serve("errors").client
    for method, path in (("GET", "/v1/the/path"), ("DELETE", "/v1/health"), ("POST", "/nowhere")):
        answer = await client.request(method, path, params={"q": "<x>"})
        assert answer.status_code == 404
        assert answer.headers["content-type"] == "text/html; charset=utf-8"
        assert answer.text == EXPRESS_404.format(method=method, path=path)
        assert all(name in answer.headers for name in RATE_HEADERS)
    standard = await serve().client.get("/v1/the/path")
    assert (standard.status_code, standard.json()["message"]) == (404, "Not found"), "standard: as today"


async def test_errors_429_has_no_retry_after(serve: Callable[..., Served]) -> None:
    client = serve("errors", rate_limit=(1, 60.0)).client
    assert (await client.get("/v1/health")).status_code == 200
    limited = await client.get("/v1/health")
    assert limited.status_code == 429 and "retry-after" not in limited.headers
    assert limited.headers["x-ratelimit-remaining"] == "0" and all(name in limited.headers for name in RATE_HEADERS)


async def test_unknown_routes_are_never_stored_by_idempotency(serve: Callable[..., Served]) -> None:
    client = serve("overview-only").client
    key = {"Idempotency-Key": "op-1"}
    run = {"template_name": "ICP fit", "company_ids": [1]}
    blocked = await client.post("/v1/research/run", json=run, headers=key)
    assert blocked.status_code == 404 and blocked.headers["content-type"].startswith("text/html")
    template_id = (await client.get("/v1/research-templates")).json()["data"][0]["id"]
    started = await client.post(f"/v1/research-templates/{template_id}/run", json={"company_ids": [1]}, headers=key)
    assert started.status_code == 201 and "idempotent-replayed" not in started.headers
    again = await client.post("/v1/research/run", json=run, headers=key)
    assert again.status_code == 404 and again.text == blocked.text
    unknown = await client.post("/v1/nowhere", json={}, headers=key)
    assert unknown.status_code == 404 and "idempotent-replayed" not in unknown.headers


async def test_overview_only_serves_research_under_the_overview_paths(serve: Callable[..., Served]) -> None:
    served = serve("overview-only")
    client = served.client
    for path in ("/v1/research/templates", "/v1/research/runs/x", "/v1/research"):
        answer = await client.get(path)
        assert (answer.status_code, answer.text) == (404, EXPRESS_404.format(method="GET", path=path))
        assert all(name in answer.headers for name in RATE_HEADERS)
    templates = (await client.get("/v1/research-templates")).json()["data"]
    template = (await client.get(f"/v1/research-templates/{templates[0]['id']}")).json()["data"]
    run = (await client.post(f"/v1/research-templates/{template['id']}/run", json={"company_ids": [1]})).json()
    served.clock.advance(11)
    status = (await client.get(f"/v1/research-templates/runs/{run['run_id']}")).json()
    assert status["status"] == "completed"


async def test_detailed_only_polls_runs_at_the_singular_path(serve: Callable[..., Served]) -> None:
    served = serve("detailed-only")
    client = served.client
    for path in ("/v1/research-templates", "/v1/research-templates/x/run"):
        answer = await client.get(path)
        assert (answer.status_code, answer.text) == (404, EXPRESS_404.format(method="GET", path=path))
    run = (await client.post("/v1/research/run", json={"template_name": "ICP fit", "company_ids": [1]})).json()
    served.clock.advance(11)
    status = await client.get(f"/v1/research/run/{run['run_id']}")
    assert status.status_code == 200 and status.json()["status"] == "completed"
    plural = await client.get(f"/v1/research/runs/{run['run_id']}")
    assert (plural.status_code, plural.text) == (
        404, EXPRESS_404.format(method="GET", path=f"/v1/research/runs/{run['run_id']}"))
    assert (await client.get("/v1/research/templates")).status_code == 200


# ------------------------------------------------------------------ sparse, words, names, bare


async def test_sparse_answers_unshown_mutations_with_a_message(serve: Callable[..., Served]) -> None:
    client = serve("sparse").client
    changed = await client.patch("/v1/outreach/leads/1/status", json={"lead_status": "warm"})
    assert changed.json() == {"success": True, "message": "Lead status updated"}
    created = await client.post("/v1/companies", json={"name": "Acme", "domain": "acme.test"})
    assert created.status_code == 201
    body = created.json()
    assert set(body) == {"success", "message", "id"} and body["message"] == "Company created"
    assert (await client.get(f"/v1/companies/{body['id']}")).json()["data"]["name"] == "Acme"
    contact = (await client.post("/v1/contacts", json={"first_name": "Dana"})).json()
    assert contact["message"] == "Contact created" and isinstance(contact["id"], int)
    assert (await client.delete(f"/v1/companies/{body['id']}")).json() == {"success": True,
                                                                           "message": "Company deleted"}
    score = (await client.patch("/v1/outreach/leads/1/target-score", json={"target_score": 50})).json()
    assert score == {"success": True, "id": 1, "target_score": 50}
    logged = (await client.post("/v1/outreach/leads/1/touchpoints", json={"description": "Called Dana"})).json()
    assert {"success", "touchpoint", "detected_type", "bonus_info"} <= set(logged)
    assert "contact_id" not in logged["touchpoint"], "null: left out"


async def test_sparse_never_sends_a_null_an_empty_array_or_generation_status(serve: Callable[..., Served]) -> None:
    client = serve("sparse").client
    answers = [await client.get(path) for path in (
        "/v1/outreach/leads", "/v1/companies", "/v1/contacts", "/v1/outreach/leads/1",
        "/v1/outreach/leads/2", "/v1/outreach/leads/1/recommendations", "/v1/outreach/leads/2/recommendations",
        "/v1/research/templates", "/v1/health",
    )]
    for answer in answers:
        assert answer.status_code == 200
        found = [(name, value) for name, value in fields(answer.json()) if value is None or value == []]
        assert found == [], answer.request.url
        assert "generation_status" not in answer.text
    lead = answers[3].json()["data"]
    assert "competitors" not in lead and "deal_value" not in lead  # lead 1 has neither


async def test_words_writes_other_words_for_unlisted_values(serve: Callable[..., Served]) -> None:
    client = serve("words").client
    detail = (await client.get("/v1/outreach/leads/2")).json()["data"]
    assert detail["signal_scan_status"] == "done" and detail["monitoring_active"] == 1
    assert {rec["priority"] for rec in detail["recommendations"]} <= {"HIGH", "MEDIUM", "LOW"}
    assert any(rec["action_type"] == "check-in" for rec in detail["recommendations"])
    kinds = {touchpoint["detected_type"] for touchpoint in detail["touchpoints"]}
    assert "linkedin_message" in kinds and "professional_network_message" not in kinds
    assert {page["is_selected"] for page in detail["monitoring_pages"]} <= {0, 1}
    assert {competitor["is_pinned"] for competitor in detail["competitors"]} <= {0, 1}
    assert {contact["is_selected"] for contact in detail["contacts"]} <= {0, 1}
    assert (await client.get("/v1/health")).json()["authenticated"] == 1

    created = (await client.post("/v1/contacts", json={
        "first_name": "Dana", "role": "decision_maker", "tags": [{"id": 1, "name": "vip"}, "Board"],
        "custom_fields": [{"key": "tier", "value": "A"}]})).json()["data"]
    assert created["role"] == "decision_maker"
    assert [tag["name"] for tag in created["tags"]] == ["vip", "Board"]
    assert all(isinstance(tag["id"], int) for tag in created["tags"])
    assert created["custom_fields"] == [{"key": "tier", "value": "A"}]
    tags = (await client.get(f"/v1/contacts/{created['id']}/tags")).json()["data"]
    assert tags == created["tags"]
    listed = (await client.get("/v1/contacts", params={"per_page": 200})).json()["data"]
    assert "decision-maker" not in {contact["role"] for contact in listed}

    page = detail["monitoring_pages"][0]
    toggled = await client.patch(f"/v1/outreach/leads/2/monitoring-pages/{page['id']}", json={"is_selected": 0})
    assert toggled.json()["page"]["is_selected"] == 0


async def test_words_for_job_statuses_and_integer_run_ids(serve: Callable[..., Served]) -> None:
    served = serve("words")
    client = served.client
    search = (await client.post("/v1/companies/deep-search", json={"query": "dental clinics"})).json()
    assert search["status"] == "pending"
    served.clock.advance(5)
    assert (await client.get(f"/v1/companies/deep-search/{search['job_id']}")).json()["status"] == "processing"
    run = (await client.post("/v1/research/run", json={"template_name": "ICP fit", "company_ids": [1]})).json()
    assert isinstance(run["run_id"], int) and run["status"] == "pending"  # fixed by the spec
    scan = (await client.post("/v1/outreach/leads/1/signal-scan")).json()
    assert scan["status"] == "scanning"
    served.clock.advance(11)
    polled = (await client.get(f"/v1/research/runs/{run['run_id']}")).json()
    assert (polled["run_id"], polled["status"]) == (run["run_id"], "completed")
    overview = (await client.get(f"/v1/research-templates/runs/{run['run_id']}")).json()
    assert overview["status"] == "completed"
    assert (await client.get(f"/v1/companies/deep-search/{search['job_id']}")).json()["status"] == "completed"
    assert (await client.get("/v1/outreach/leads/1/signal-scan")).json()["status"] == "done"
    assert (await client.get("/v1/research/runs/999999")).status_code == 404


async def test_names_renames_unshown_fields_and_accepts_both_names(serve: Callable[..., Served]) -> None:
    client = serve("names").client
    company = (await client.post("/v1/companies", json={"name": "Acme", "website": "acme.test",
                                                        "employee_range": "11-50"})).json()["data"]
    assert (company["website"], company["employee_range"]) == ("acme.test", "11-50")
    assert "domain" not in company and "size" not in company
    updated = (await client.put(f"/v1/companies/{company['id']}", json={"domain": "acme.example"})).json()
    assert updated["data"]["website"] == "acme.example"
    too_long = await client.post("/v1/companies", json={"name": "X", "website": "w" * 300})
    assert too_long.status_code == 400 and too_long.json()["errors"][0]["field"] == "website"
    contact = (await client.get("/v1/contacts/1")).json()["data"]
    assert "job_title" in contact and "linkedin_url" in contact and "title" not in contact

    detail = (await client.get("/v1/outreach/leads/2")).json()["data"]
    assert "website" in detail["company"] and "employee_range" in detail["company"]
    assert detail["currency"] == "EUR" and "deal_currency" not in detail
    page = detail["monitoring_pages"][0]
    assert {"title", "monitoring_score", "is_enabled"} <= set(page) and "label" not in page
    assert {"job_title", "linkedin_url", "is_selected"} <= set(detail["contacts"][0])
    competitor = detail["competitors"][0]
    assert {"website", "pinned"} <= set(competitor) and "is_pinned" not in competitor
    toggled = await client.patch(f"/v1/outreach/leads/2/monitoring-pages/{page['id']}",
                                 json={"is_enabled": not page["is_enabled"]})
    assert toggled.json()["page"]["is_enabled"] is (not page["is_enabled"])
    pinned = await client.patch(f"/v1/outreach/leads/2/competitors/{competitor['id']}", json={"pinned": True})
    assert pinned.json()["competitor"]["pinned"] is True
    deal = (await client.patch("/v1/outreach/leads/2/deal", json={"currency": "USD"})).json()
    assert deal["currency"] == "USD"

    lookup = (await client.post("/v1/companies/lookup", json={"query": "dental clinics"})).json()
    assert "companies" not in lookup and lookup["results"]
    assert all("similarity" in result and "website" in result for result in lookup["results"])
    health = (await client.get("/v1/health")).json()
    assert set(health) == {"success", "healthy", "server_time", "api_version", "authenticated"}
    assert (health["healthy"], health["api_version"], health["authenticated"]) == (True, "1", True)


async def test_bare_never_wraps_and_writes_timestamps_to_the_second(serve: Callable[..., Served]) -> None:
    client = serve("bare").client
    company = (await client.get("/v1/companies/1")).json()
    assert company["success"] is True and company["id"] == 1 and "data" not in company
    assert BARE_TIME.fullmatch(company["created_at"])
    listed = (await client.get("/v1/companies")).json()
    assert set(listed) == {"success", "companies", "pagination"}
    assert set((await client.get("/v1/outreach/leads")).json()) == {"success", "leads", "pagination"}
    assert set((await client.get("/v1/contacts")).json()) == {"success", "contacts", "pagination"}
    await client.post("/v1/outreach/leads/1/notes", json={"content": "first"})
    for path in ("/v1/outreach/leads/1/notes", "/v1/companies/fields", "/v1/companies/1/tags",
                 "/v1/contacts/fields", "/v1/research/templates"):
        assert isinstance((await client.get(path)).json(), list), path
    detail = (await client.get("/v1/outreach/leads/2")).json()
    assert detail["lead_status"] == "warm" and "data" not in detail
    for path in ("/v1/outreach/leads/2", "/v1/outreach/leads/2/recommendations", "/v1/health"):
        text = (await client.get(path)).text
        assert not re.search(r"\.\d{3}Z", text), path
        stamps = [value for name, value in fields(json.loads(text)) if name.endswith(("_at", "time"))]
        assert stamps and all(stamp is None or BARE_TIME.fullmatch(stamp) for stamp in stamps), path


# ------------------------------------------------------------------ combinations


async def test_offset_sparse_and_words_compose(serve: Callable[..., Served]) -> None:
    client = serve("offset,sparse,words").client
    body = (await client.get("/v1/outreach/leads", params={"offset": 1, "limit": 2})).json()
    assert [lead["id"] for lead in body["items"]] == [2, 3]
    assert body["pagination"] == {"total": 4, "limit": 2, "offset": 1, "has_more": True}
    assert all(lead["monitoring_active"] == 1 for lead in body["items"])
    assert not [name for name, value in fields(body) if value is None or value == []]


async def test_all_is_every_variation_of_the_answers_at_once(serve: Callable[..., Served]) -> None:
    client = serve("all").client
    leads: list[dict[str, Any]] = []
    cursor = None
    while True:
        body = (await client.get("/v1/outreach/leads", params={"limit": 1, **({"cursor": cursor} if cursor else {})})
                ).json()
        assert set(body) == {"success", "leads", "pagination"}  # cursor + bare
        leads += body["leads"]
        cursor = body["pagination"].get("next_cursor")  # sparse: absent on the last page
        if cursor is None:
            assert body["pagination"] == {"has_more": False}
            break
    assert [(lead["id"], lead["lead_status"], lead["monitoring_active"]) for lead in leads] == [
        (1, "cold", 1), (3, "cold", 1)]  # cold-default + words
    detail = (await client.get("/v1/outreach/leads/2")).json()
    assert detail["currency"] == "EUR" and detail["signal_scan_status"] == "done"  # bare + names + words
    assert BARE_TIME.fullmatch(detail["created_at"])
    assert not [name for name, value in fields(detail) if value is None or value == []]
    changed = await client.patch("/v1/outreach/leads/1/status", json={"lead_status": "warm"})
    assert changed.json() == {"success": True, "message": "Lead status updated"}
    invalid = await client.post("/v1/outreach/leads/1/notes", json={"content": ""})
    assert invalid.status_code == 422 and invalid.json()["errors"][0]["path"] == "content"
    detailed = await client.get("/v1/research/templates")
    assert detailed.status_code == 404 and detailed.headers["content-type"].startswith("text/html")
    health = (await client.get("/v1/health")).json()
    assert health == {"success": True, "healthy": True, "server_time": "2026-11-22T09:00:00+00:00",
                      "api_version": "1", "authenticated": 1}


# ------------------------------------------------------------------ every operation, every dialect

TOUR_DIALECTS = ["standard", "page-limit", "offset", "cursor", "link", "bare", "sparse", "words", "names", "errors", "overview-only", "detailed-only",
                 "cold-default", "request-names", "all,request-names",
                 "link,bare,sparse,words,names,errors,detailed-only,request-names"]


@pytest.mark.parametrize("dialects", TOUR_DIALECTS)
async def test_every_operation_answers_with_rate_headers_and_no_server_error(
    serve: Callable[..., Served], dialects: str
) -> None:
    standard = serve().client
    detail = (await standard.get("/v1/outreach/leads/2")).json()["data"]
    page, competitor = detail["monitoring_pages"][0]["id"], detail["competitors"][0]["id"]
    contact, rec = detail["contacts"][0]["id"], detail["recommendations"][0]["id"]
    served = serve(dialects)
    client = served.client
    lead = "/v1/outreach/leads/2"
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", "/v1/health", {}),
        ("GET", "/v1/companies", {"params": {"limit": 3, "page": 2, "offset": 7, "per_page": 4, "search": "a"}}),
        ("GET", "/v1/contacts", {"params": {"limit": "x", "per_page": "x", "offset": "x", "cursor": "zz"}}),
        ("GET", "/v1/outreach/leads", {"params": {"status": "warm"}}),
        ("POST", "/v1/companies", {"json": {"name": "A", "website": "a.test", "tags": [{"id": 1, "name": "x"}, "y"],
                                            "custom_fields": [{"key": "k", "value": 1}]}}),
        ("POST", "/v1/companies", {"content": b"not json", "headers": {"content-type": "application/json"}}),
        ("POST", "/v1/companies", {"json": [1, 2]}),
        ("PUT", "/v1/companies/1", {"json": {"employee_range": "1-10"}}),
        ("GET", "/v1/companies/1", {}), ("GET", "/v1/companies/1/tags", {}), ("GET", "/v1/companies/fields", {}),
        ("POST", "/v1/contacts", {"json": {"first_name": "D", "role": "decision_maker", "job_title": "CEO"}}),
        ("PUT", "/v1/contacts/1", {"json": {"role": "decision-maker"}}),
        ("GET", "/v1/contacts/1/tags", {}), ("GET", "/v1/contacts/fields", {}),
        ("DELETE", "/v1/contacts/2", {}), ("DELETE", "/v1/companies/999", {}),
        ("POST", "/v1/companies/lookup", {"json": {"query": "dental clinics", "save": 1, "broaden_search": 0}}),
        ("POST", "/v1/companies/deep-search", {"json": {"query": "dental clinics", "max_results": 3}}),
        ("POST", "/v1/contacts/search", {"json": {"company_id": 1, "roles": ["decision_maker"]}}),
        ("POST", "/v1/companies/1/deep-search", {"json": {"focus": "pricing"}}),
        ("GET", "/v1/research/templates", {}), ("GET", "/v1/research-templates", {}),
        ("POST", "/v1/research/run", {"json": {"template_name": "ICP fit", "company_ids": [1, 2]}}),
        ("POST", "/v1/research-templates/nope/run", {"json": {"company_ids": [1]}}),
        ("GET", "/v1/research/runs/99999999999999999999999", {}), ("GET", "/v1/research/run/x", {}),
        ("POST", "/v1/outreach/leads", {"json": {"company_ids": [5, 6, 1], "lead_status": "cold"}}),
        ("GET", lead, {}),
        ("PATCH", "/v1/outreach/leads/1/status", {"json": {"status": "warm"}}),
        ("PATCH", "/v1/outreach/leads/3/status", {"json": {"lead_status": "warm"}}),
        ("PATCH", "/v1/outreach/leads/abc/status", {"json": {}}),
        ("PATCH", "/v1/outreach/leads/1/target-score", {"json": {"target_score": 40}}),
        ("POST", "/v1/outreach/leads/1/signal-scan", {}), ("GET", "/v1/outreach/leads/1/signal-scan", {}),
        *[("PATCH", f"{lead}/monitoring-pages/{page_id}", {"json": body})
          for body in ({"is_selected": False}, {"enabled": 1}, {"is_enabled": True}, {}, {"foo": 1})
          for page_id in (page, 99999, "²")],
        ("GET", f"{lead}/recommendations", {}), ("POST", f"{lead}/recommendations/generate", {}),
        ("POST", f"{lead}/recommendations/{rec}/complete", {}), ("POST", f"{lead}/recommendations/{rec}/dismiss", {}),
        ("POST", f"{lead}/touchpoints", {"json": {"description": "Sent a LinkedIn message", "contact_id": contact}}),
        ("GET", f"{lead}/notes", {}), ("POST", f"{lead}/notes", {"json": {"content": "hi"}}),
        ("PATCH", f"{lead}/contacts/{contact}", {"json": {"is_selected": 0}}),
        *[("PATCH", f"{lead}/deal", {"json": body}) for body in (
            {"deal_value": 10, "currency": "usd", "won": 1}, {"deal_currency": "gbp"}, {"won": True, "lost": True})],
        ("PATCH", "/v1/outreach/leads/1/deal", {"json": {"deal_value": 5}}),
        ("POST", f"{lead}/competitors", {"json": {"name": "C", "website": "c.test"}}),
        ("POST", f"{lead}/competitors/{competitor}/scan", {}),
        *[("PATCH", f"{lead}/competitors/{competitor_id}", {"json": body})
          for body in ({"pinned": True}, {"is_pinned": 1}, {}) for competitor_id in (competitor, 999)],
        ("DELETE", "/v1/outreach/leads", {"json": {"lead_ids": [4]}}),
        ("GET", "/v1/nowhere", {}), ("DELETE", "/v1/health", {}), ("GET", "/", {}), ("GET", "/openapi.json", {}),
        *[("POST", f"{lead}/notes", {"json": {"content": text}, "headers": {"Idempotency-Key": "k1"}})
          for text in ("x", "x", "y")],
    ]
    for method, path, options in calls:
        answer = await client.request(method, path, **options)
        assert answer.status_code < 500, (method, path, answer.text)
        if path.startswith("/v1/"):
            assert all(name in answer.headers for name in RATE_HEADERS), (method, path)
        if answer.status_code == 200 and path.startswith("/v1/") and path != "/v1/health":
            served.clock.advance(1)  # jobs move along between the calls
