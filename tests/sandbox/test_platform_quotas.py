"""Plan quotas: each one is counted as the spec's Limits table says; exhaustion is a 403 naming it."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from warmline_sandbox import quotas
from warmline_sandbox.clock import ManualClock

KEY = "test-key"


def set_limit(app: FastAPI, quota: str, value: int) -> None:
    with app.state.db.transaction() as conn:
        quotas.set_limit(conn, KEY, quota, value)


def used(app: FastAPI, quota: str) -> int:
    with app.state.db.read() as conn:
        return quotas.used(conn, KEY, quota)


def assert_plan_limit(response: httpx.Response, quota: str, used_now: int, limit: int) -> None:
    assert response.status_code == 403, response.text
    assert response.json() == {
        "success": False,
        "message": f"Plan limit reached: {quota} ({used_now} of {limit} used)",
        "errors": {"quota": quota, "limit": limit, "used": used_now},
    }


async def new_company(client: httpx.AsyncClient, name: str) -> int:
    return (await client.post("/v1/companies", json={"name": name, "domain": f"{name.lower()}.test"})).json()["data"]["id"]


async def test_instant_lookups(app: FastAPI, client: httpx.AsyncClient) -> None:
    set_limit(app, "instant_lookups", 2)
    for _ in range(2):
        assert (await client.post("/v1/companies/lookup", json={"industries": ["fintech"]})).status_code == 200
    assert_plan_limit(await client.post("/v1/companies/lookup", json={"industries": ["fintech"]}),
                      "instant_lookups", 2, 2)
    invalid = await client.post("/v1/companies/lookup", json={"query": "ab"})
    assert invalid.status_code == 400, "validation comes before the quota"


async def test_deep_searches_count_company_and_contact_searches(app: FastAPI, client: httpx.AsyncClient) -> None:
    company_id = await new_company(client, "Quota")
    set_limit(app, "deep_searches", 3)
    assert (await client.post("/v1/companies/deep-search", json={"query": "dental clinics"})).status_code == 201
    assert (await client.post("/v1/contacts/search", json={"company_id": company_id})).status_code == 201
    assert (await client.post(f"/v1/companies/{company_id}/deep-search", json={})).status_code == 201
    for request in (
        client.post("/v1/companies/deep-search", json={"query": "dental clinics"}),
        client.post("/v1/contacts/search", json={"company_id": company_id}),
        client.post(f"/v1/companies/{company_id}/deep-search", json={}),
    ):
        assert_plan_limit(await request, "deep_searches", 3, 3)


async def test_company_enrichments_one_per_company(app: FastAPI, client: httpx.AsyncClient) -> None:
    ids = [await new_company(client, f"Enrich{i}") for i in range(3)]
    set_limit(app, "company_enrichments", 4)
    started = await client.post("/v1/research/run", json={"template_name": "ICP fit", "company_ids": ids})
    assert started.status_code == 201
    assert used(app, "company_enrichments") == 3
    over = await client.post("/v1/research/run", json={"template_name": "ICP fit", "company_ids": ids[:2]})
    assert_plan_limit(over, "company_enrichments", 3, 4)
    assert (await client.post("/v1/research/run", json={"template_name": "ICP fit", "company_ids": ids[:1]})).status_code == 201


async def test_contact_capacity_skips_past_the_limit(app: FastAPI, client: httpx.AsyncClient, clock: ManualClock) -> None:
    company_id = await new_company(client, "People")
    job_id = (await client.post("/v1/contacts/search", json={"company_id": company_id})).json()["job_id"]
    clock.advance(11)
    found = (await client.get(f"/v1/contacts/search/{job_id}")).json()["contacts"]
    set_limit(app, "contact_capacity", used(app, "contact_capacity") + 2)
    added = (await client.post(f"/v1/contacts/search/{job_id}/add", json={"contact_ids": [c["id"] for c in found[:3]]})).json()
    assert (added["success"], added["added"], added["skipped"]) == (True, 2, 1)
    assert added["skipped_ids"] == [{"id": found[2]["id"], "reason": "limit"}]
    assert_plan_limit(await client.post("/v1/contacts", json={"first_name": "Manual"}), "contact_capacity", 2, 2)
    await client.delete(f"/v1/contacts/{added['contacts'][0]['id']}")
    assert (await client.post("/v1/contacts", json={"first_name": "Manual"})).status_code == 201, "delete frees capacity"


async def test_saved_companies_cap_lookup_saves_and_creation(app: FastAPI, client: httpx.AsyncClient) -> None:
    set_limit(app, "saved_companies", 2)
    looked = (await client.post("/v1/companies/lookup", json={"industries": ["Energy"], "save": True, "limit": 5})).json()
    assert (looked["total"], looked["saved_count"], looked["quota_limited"]) == (5, 2, 3)
    assert [c["saved_company_id"] is not None for c in looked["companies"]] == [True, True, False, False, False]
    assert_plan_limit(await client.post("/v1/companies", json={"name": "One Too Many"}), "saved_companies", 2, 2)
    await client.delete(f"/v1/companies/{looked['companies'][0]['saved_company_id']}")
    assert (await client.post("/v1/companies", json={"name": "Fits Again"})).status_code == 201


async def test_site_signal_slots(app: FastAPI, client: httpx.AsyncClient) -> None:
    company_id = await new_company(client, "Signals")
    lead = (await client.post("/v1/outreach/leads", json={"company_ids": [company_id], "lead_status": "cold"})).json()
    lead_id = lead["leads"][0]["id"]
    set_limit(app, "site_signal_slots", used(app, "site_signal_slots"))
    limited = await client.post(f"/v1/outreach/leads/{lead_id}/signal-scan", json={})
    assert limited.status_code == 403
    assert limited.json()["errors"]["quota"] == "site_signal_slots"


@pytest.mark.parametrize("quota", ["instant_lookups", "deep_searches", "company_enrichments", "contact_capacity",
                                   "site_signal_slots", "saved_companies"])
def test_every_quota_has_a_default_and_usage_lists_it(app: FastAPI, quota: str) -> None:
    with app.state.db.read() as conn:
        assert quotas.usage(conn, KEY)[quota]["limit"] > 0


def test_consume_release_never_below_zero(app: FastAPI) -> None:
    with app.state.db.transaction() as conn:
        quotas.set_limit(conn, "other", "deep_searches", 1)
        quotas.consume(conn, "other", "deep_searches")
        with pytest.raises(quotas.ApiError):
            quotas.consume(conn, "other", "deep_searches")
        quotas.release(conn, "other", "deep_searches", 5)
        assert quotas.used(conn, "other", "deep_searches") == 0
