"""Deep search, per-company deep research, contact search: start, poll over the clock, results."""

from __future__ import annotations

import httpx

from warmline_sandbox.clock import ManualClock

JOB_NOT_FOUND = {"success": False, "message": "Job not found", "errors": None}
COMPANY_NOT_FOUND = {"success": False, "message": "Company not found", "errors": None}


async def new_company(client: httpx.AsyncClient, name: str = "Fjord Freight", domain: str = "fjordfreight.test") -> int:
    return (await client.post("/v1/companies", json={"name": name, "domain": domain})).json()["data"]["id"]


async def test_deep_search_lifecycle(client: httpx.AsyncClient, clock: ManualClock) -> None:
    started = await client.post("/v1/companies/deep-search", json={"query": "cold-chain freight transport", "max_results": 4})
    assert started.status_code == 201
    job = started.json()
    assert set(job) == {"success", "job_id", "status", "query", "target_count", "created_at", "message"}
    assert (job["status"], job["query"], job["target_count"]) == ("pending", "cold-chain freight transport", 4)
    assert job["created_at"] == "2026-11-22T09:00:00.000Z" and str(job["job_id"]) in job["message"]
    url = f"/v1/companies/deep-search/{job['job_id']}"
    polled = (await client.get(url)).json()
    assert (polled["status"], polled["progress"], polled["companies"], polled["completed_at"]) == ("pending", 0, [], None)
    clock.advance(5)
    assert (await client.get(url)).json()["status"] == "running"
    clock.advance(5)
    done = (await client.get(url)).json()
    assert (done["status"], done["progress"], done["found_count"], done["error"]) == ("completed", 100, 4, None)
    assert done["completed_at"] == "2026-11-22T09:00:10.000Z"
    for company in done["companies"]:
        assert company["source"] == "deep_search" and company["ai_tag"] == "AI: cold chain freight transport"
        assert company["ai_tag"] in company["tags"]
    tagged = (await client.get("/v1/companies", params={"tag": "AI: cold chain freight transport"})).json()
    assert tagged["pagination"]["total"] == 4
    assert (await client.get(url)).json()["companies"] == done["companies"], "the finisher ran once"


async def test_deep_search_companies_appear_in_the_list_without_polling(client: httpx.AsyncClient,
                                                                        clock: ManualClock) -> None:
    before = (await client.get("/v1/companies")).json()["pagination"]["total"]
    await client.post("/v1/companies/deep-search", json={"query": "organic food products", "max_results": 3})
    clock.advance(10)
    assert (await client.get("/v1/companies")).json()["pagination"]["total"] == before + 3


async def test_deep_search_rules(client: httpx.AsyncClient) -> None:
    for body in ({"query": "ab"}, {"query": "x" * 1001}, {"query": "dental", "max_results": 101},
                 {"query": "dental", "max_results": 0}, {"max_results": 5}):
        response = await client.post("/v1/companies/deep-search", json=body)
        assert response.status_code == 400, body
    default = (await client.post("/v1/companies/deep-search", json={"query": "dental"})).json()
    assert default["target_count"] == 20
    assert (await client.get("/v1/companies/deep-search/99999")).json() == JOB_NOT_FOUND


async def test_company_deep_research(client: httpx.AsyncClient, clock: ManualClock) -> None:
    company_id = await new_company(client)
    started = await client.post(f"/v1/companies/{company_id}/deep-search", json={"focus": "pricing"})
    assert started.status_code == 201
    body = started.json()
    assert (body["company_id"], body["status"]) == (company_id, "pending")
    url = f"/v1/companies/{company_id}/deep-search/{body['search_id']}"
    assert (await client.get(url)).json()["results"] is None
    clock.advance(10)
    done = (await client.get(url)).json()
    assert done["status"] == "completed"
    assert "Fjord Freight" in done["results"]["summary"]
    assert any("pricing" in fact for fact in done["results"]["key_facts"])
    assert done["results"]["sources"][0] == {"title": "Fjord Freight website", "url": "https://fjordfreight.test/"}
    other = await new_company(client, "Other Freight", "otherfreight.test")
    assert (await client.get(f"/v1/companies/{other}/deep-search/{body['search_id']}")).json() == JOB_NOT_FOUND
    assert (await client.get(f"/v1/companies/{company_id}/deep-search/999999")).json() == JOB_NOT_FOUND
    for unknown in (client.get(f"/v1/companies/999999/deep-search/{body['search_id']}"),
                    client.post("/v1/companies/999999/deep-search")):
        answer = await unknown
        assert (answer.status_code, answer.json()) == (404, COMPANY_NOT_FOUND), "the company is named first"


async def test_contact_search_and_add(client: httpx.AsyncClient, clock: ManualClock) -> None:
    company_id = await new_company(client)
    started = (await client.post("/v1/contacts/search", json={"company_id": company_id})).json()
    assert (started["status"], started["company_id"]) == ("pending", company_id)
    job_id = started["job_id"]
    early = await client.post(f"/v1/contacts/search/{job_id}/add", json={"contact_ids": [1]})
    assert (early.status_code, early.json()) == (409, {"error": "Job must be completed before adding contacts"})
    clock.advance(10)
    polled = (await client.get(f"/v1/contacts/search/{job_id}")).json()
    found = polled["contacts"]
    assert polled["status"] == "completed" and 3 <= len(found) <= 10
    assert {c["role"] for c in found} == {"decision-maker", "champion", "influencer"}
    for person in found:
        assert set(person) == {"id", "first_name", "last_name", "title", "role", "email", "social_url", "company_id"}
        assert person["email"].endswith("@fjordfreight.test") and person["social_url"].startswith("https://")
    chosen = [found[0]["id"], found[1]["id"]]
    added = (await client.post(f"/v1/contacts/search/{job_id}/add", json={"contact_ids": chosen + [123456789]})).json()
    assert (added["success"], added["added"], added["skipped"]) == (True, 2, 1)
    assert added["skipped_ids"] == [{"id": 123456789, "reason": "unknown"}]
    assert [c["email"] for c in added["contacts"]] == [found[0]["email"], found[1]["email"]]
    again = (await client.post(f"/v1/contacts/search/{job_id}/add", json={"contact_ids": chosen})).json()
    assert (again["added"], again["skipped"]) == (0, 2)
    listed = (await client.get("/v1/contacts", params={"company_id": company_id})).json()
    assert listed["pagination"]["total"] == 2


async def test_contact_search_roles_and_errors(client: httpx.AsyncClient, clock: ManualClock) -> None:
    company_id = await new_company(client)
    job_id = (await client.post("/v1/contacts/search", json={"company_id": company_id, "roles": ["champion"]})).json()["job_id"]
    clock.advance(10)
    assert {c["role"] for c in (await client.get(f"/v1/contacts/search/{job_id}")).json()["contacts"]} == {"champion"}
    assert (await client.post("/v1/contacts/search", json={"company_id": 99999999})).status_code == 404
    assert (await client.post("/v1/contacts/search", json={"company_id": company_id, "roles": ["ceo"]})).status_code == 400
    assert (await client.get("/v1/contacts/search/99999")).json() == JOB_NOT_FOUND
    missing = await client.post("/v1/contacts/search/99999/add", json={"contact_ids": [1]})
    assert (missing.status_code, missing.json()) == (404, {"error": "Job not found"})
    empty = await client.post(f"/v1/contacts/search/{job_id}/add", json={"contact_ids": []})
    assert (empty.status_code, empty.json()) == (400, {"error": "contact_ids must not be empty"})
    malformed = await client.post(f"/v1/contacts/search/{job_id}/add", json={"contact_ids": "all"})
    assert malformed.status_code == 422 and set(malformed.json()) == {"error"}


async def test_contact_search_fails_when_the_company_goes(client: httpx.AsyncClient, clock: ManualClock) -> None:
    company_id = await new_company(client)
    job_id = (await client.post("/v1/contacts/search", json={"company_id": company_id})).json()["job_id"]
    await client.delete(f"/v1/companies/{company_id}")
    clock.advance(10)
    polled = (await client.get(f"/v1/contacts/search/{job_id}")).json()
    assert (polled["status"], polled["contacts"]) == ("failed", [])
    assert polled["error"] == "The company was deleted before the search finished"
