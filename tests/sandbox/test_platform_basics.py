"""Health, auth, error envelopes, companies and contacts over the in-process app."""

from __future__ import annotations

import httpx

INVALID_KEY = {"success": False, "message": "Invalid or missing API key", "errors": None}


async def test_health_without_key(anon_client: httpx.AsyncClient) -> None:
    response = await anon_client.get("/v1/health")
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and body["status"] == "ok" and body["authenticated"] is False
    assert body["time"] == "2026-11-22T09:00:00.000Z"


async def test_health_validates_a_given_key(client: httpx.AsyncClient, anon_client: httpx.AsyncClient) -> None:
    assert (await client.get("/v1/health")).json()["authenticated"] is True
    for header in ("Bearer nope", "Basic dGVzdC1rZXk=", "Bearer", ""):
        bad = await anon_client.get("/v1/health", headers={"Authorization": header})
        assert (bad.status_code, bad.json()) == (401, INVALID_KEY), header


async def test_company_crud(client: httpx.AsyncClient) -> None:
    created = await client.post("/v1/companies", json={"name": "Acme", "domain": "acme.test", "tags": ["x", "X"],
                                                       "custom_fields": {"tier": "A"}})
    assert created.status_code == 201, created.text
    company = created.json()["data"]
    assert company["name"] == "Acme" and company["tags"] == ["x"] and company["source"] == "manual"
    assert company["ai_tag"] is None and company["created_at"].endswith("Z")
    assert set(company) == {"id", "name", "domain", "industry", "country", "region", "size", "description",
                            "tags", "custom_fields", "source", "ai_tag", "created_at", "updated_at"}
    updated = await client.put(f"/v1/companies/{company['id']}", json={"industry": "Software",
                                                                      "custom_fields": {"seats": 5}})
    data = updated.json()["data"]
    assert data["industry"] == "Software" and data["name"] == "Acme"
    assert data["custom_fields"] == {"tier": "A", "seats": 5}
    assert (await client.get(f"/v1/companies/{company['id']}/tags")).json() == {"success": True, "data": ["x"]}
    deleted = await client.delete(f"/v1/companies/{company['id']}")
    assert deleted.json() == {"success": True, "data": {"id": company["id"], "deleted": True}}
    for method in ("GET", "PUT", "DELETE"):
        missing = await client.request(method, f"/v1/companies/{company['id']}", json={"name": "x"})
        assert (missing.status_code, missing.json()["message"]) == (404, "Company not found")


async def test_company_list_filters_and_pagination(client: httpx.AsyncClient) -> None:
    for index in range(3):
        await client.post("/v1/companies", json={"name": f"Zebra Widgets {index}", "domain": f"zw{index}.test",
                                                 "industry": "Robotics", "country": "Chile",
                                                 "tags": ["zoo"] if index else []})
    page = (await client.get("/v1/companies", params={"search": "ZEBRA widg", "per_page": 2})).json()
    assert page["pagination"] == {"page": 1, "per_page": 2, "total": 3, "total_pages": 2}
    assert [c["name"] for c in page["data"]] == ["Zebra Widgets 0", "Zebra Widgets 1"]
    second = (await client.get("/v1/companies", params={"search": "zebra", "per_page": 2, "page": 2})).json()
    assert [c["name"] for c in second["data"]] == ["Zebra Widgets 2"]
    assert (await client.get("/v1/companies", params={"industry": "robotics"})).json()["pagination"]["total"] == 3
    assert (await client.get("/v1/companies", params={"country": "chile", "tag": "ZOO"})).json()["pagination"]["total"] == 2
    assert (await client.get("/v1/companies", params={"search": "100%_"})).json()["pagination"]["total"] == 0


async def test_seeded_companies_have_contacts_and_research_fields(client: httpx.AsyncClient) -> None:
    companies = (await client.get("/v1/companies", params={"per_page": 200})).json()
    assert companies["pagination"]["total"] >= 20
    fields = (await client.get("/v1/companies/fields")).json()["data"]
    assert {"key": "icp_fit_score", "name": "ICP fit score", "type": "number"} in fields
    contacts = (await client.get("/v1/contacts", params={"company_id": companies["data"][0]["id"]})).json()
    assert contacts["pagination"]["total"] >= 2
    assert {c["role"] for c in contacts["data"]} <= {"decision-maker", "champion", "influencer"}


async def test_contact_crud(client: httpx.AsyncClient) -> None:
    company_id = (await client.post("/v1/companies", json={"name": "Holm AB"})).json()["data"]["id"]
    created = await client.post("/v1/contacts", json={"first_name": "Dana", "last_name": "Holm", "company_id": company_id,
                                                      "role": "champion", "email": "dana@holm.test", "tags": ["vip"]})
    assert created.status_code == 201, created.text
    contact = created.json()["data"]
    assert set(contact) == {"id", "company_id", "first_name", "last_name", "email", "title", "role", "social_url",
                            "phone", "tags", "custom_fields", "created_at", "updated_at"}
    updated = (await client.put(f"/v1/contacts/{contact['id']}", json={"title": "VP Ops"})).json()["data"]
    assert updated["title"] == "VP Ops" and updated["first_name"] == "Dana"
    found = (await client.get("/v1/contacts", params={"search": "vp ops"})).json()
    assert [c["id"] for c in found["data"]] == [contact["id"]]
    assert (await client.get(f"/v1/contacts/{contact['id']}/tags")).json()["data"] == ["vip"]
    assert (await client.get("/v1/contacts/fields")).json() == {"success": True, "data": []}
    assert (await client.delete(f"/v1/contacts/{contact['id']}")).json()["data"]["deleted"] is True
    assert (await client.get(f"/v1/contacts/{contact['id']}")).status_code == 404


async def test_contact_rules(client: httpx.AsyncClient) -> None:
    nameless = await client.post("/v1/contacts", json={"email": "x@y.test"})
    assert nameless.status_code == 400
    assert nameless.json()["errors"][0]["message"].endswith("first_name or last_name is required")
    orphan = await client.post("/v1/contacts", json={"first_name": "A", "company_id": 10**12})
    assert (orphan.status_code, orphan.json()["errors"]) == (400, [{"field": "company_id", "message": "Company not found"}])
    bad_role = await client.post("/v1/contacts", json={"first_name": "A", "role": "boss"})
    assert bad_role.status_code == 400


async def test_malformed_requests_get_4xx_envelopes(client: httpx.AsyncClient) -> None:
    bad_json = await client.post("/v1/companies", content=b'{"name": ', headers={"content-type": "application/json"})
    assert bad_json.status_code == 400 and bad_json.json()["message"] == "Request body is not valid JSON"
    wrong_type = await client.post("/v1/companies", json={"name": 5})
    assert wrong_type.status_code == 422
    assert wrong_type.json() == {"success": False, "message": "Validation failed",
                                 "errors": [{"field": "name", "message": "Input should be a valid string"}]}
    too_long = await client.post("/v1/companies", json={"name": "x" * 201})
    assert too_long.status_code == 400 and too_long.json()["errors"][0]["field"] == "name"
    unknown_field = await client.post("/v1/companies", json={"name": "A", "owner": "me"})
    assert unknown_field.status_code == 400
    for path in (f"/v1/companies/{2**63}", f"/v1/companies/{10**30}", "/v1/companies/-1", "/v1/contacts/0",
                 "/v1/companies/abc"):
        response = await client.get(path)
        assert response.status_code in (400, 404, 422), path
        assert response.json()["success"] is False
    huge_page = await client.get("/v1/companies", params={"page": 10**20})
    assert huge_page.status_code == 400
    unknown_route = await client.get("/v1/nothing-here")
    assert unknown_route.json() == {"success": False, "message": "Not found", "errors": None}
    wrong_method = await client.patch("/v1/companies")
    assert wrong_method.status_code == 405 and wrong_method.json()["success"] is False


async def test_deleting_a_company_in_outreach_is_a_conflict(client: httpx.AsyncClient) -> None:
    company_id = (await client.post("/v1/companies", json={"name": "Kept GmbH"})).json()["data"]["id"]
    added = await client.post("/v1/outreach/leads", json={"company_ids": [company_id], "lead_status": "cold"})
    assert added.status_code == 201, added.text
    response = await client.delete(f"/v1/companies/{company_id}")
    assert (response.status_code, response.json()) == (
        409, {"success": False, "message": "Company is in outreach; remove its lead first", "errors": None})
    assert (await client.get(f"/v1/companies/{company_id}")).status_code == 200


async def test_a_body_field_named_like_a_location_keeps_its_name(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/companies/lookup", json={"query": "ab"})
    assert response.json()["errors"] == [{"field": "query", "message": "String should have at least 3 characters"}]
    response = await client.get("/v1/companies", params={"per_page": 0})
    assert [e["field"] for e in response.json()["errors"]] == ["per_page"]


def test_without_keys_the_database_key_is_reused(tmp_path) -> None:
    from warmline_sandbox.app import create_app
    from warmline_sandbox.settings import SandboxSettings

    keys = []
    for _ in range(2):
        settings = SandboxSettings(db_path=tmp_path / "keys.db", companies=50, leads=1)
        app = create_app(settings)
        keys.append(settings.api_keys)
        app.state.db.close()
    assert keys[0] == keys[1] and keys[0][0].startswith("sk_sandbox_")
