"""Health, auth, error envelopes and companies/contacts CRUD over the in-process app."""

from __future__ import annotations

import httpx


async def test_health_without_key(anon_client: httpx.AsyncClient) -> None:
    response = await anon_client.get("/v1/health")
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and body["status"] == "ok" and body["authenticated"] is False


async def test_health_validates_a_given_key(client: httpx.AsyncClient, anon_client: httpx.AsyncClient) -> None:
    assert (await client.get("/v1/health")).json()["authenticated"] is True
    bad = await anon_client.get("/v1/health", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401
    assert bad.json() == {"success": False, "message": "Invalid or missing API key", "errors": None}


async def test_company_crud(client: httpx.AsyncClient) -> None:
    created = await client.post("/v1/companies", json={"name": "Acme", "domain": "acme.test", "tags": ["x"]})
    assert created.status_code == 201, created.text
    company = created.json()["data"]
    assert company["name"] == "Acme" and company["tags"] == ["x"] and company["source"] == "manual"
    updated = await client.put(f"/v1/companies/{company['id']}", json={"industry": "Software"})
    assert updated.json()["data"]["industry"] == "Software"
    assert updated.json()["data"]["name"] == "Acme"
    assert (await client.get(f"/v1/companies/{company['id']}/tags")).json()["data"] == ["x"]
    deleted = await client.delete(f"/v1/companies/{company['id']}")
    assert deleted.json()["data"] == {"id": company["id"], "deleted": True}
    missing = await client.get(f"/v1/companies/{company['id']}")
    assert missing.status_code == 404
    assert missing.json()["message"] == "Company not found"

