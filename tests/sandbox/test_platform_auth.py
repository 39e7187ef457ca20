"""Auth on every operation: walk the OpenAPI document and call each one without a key."""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI

INVALID_KEY = {"success": False, "message": "Invalid or missing API key", "errors": None}
RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def operations(app: FastAPI) -> list[tuple[str, str]]:
    """(method, concrete path) of every documented operation, path parameters filled in."""
    found = []
    for path, item in app.openapi()["paths"].items():
        concrete = re.sub(r"\{[^}]+\}", "1", path)
        found.extend((method.upper(), concrete) for method in item)
    return found


def test_openapi_documents_every_family(app: FastAPI) -> None:
    paths = set(app.openapi()["paths"])
    expected = {
        "/v1/health", "/v1/companies", "/v1/companies/{company_id}", "/v1/companies/fields",
        "/v1/companies/{company_id}/tags", "/v1/contacts", "/v1/contacts/{contact_id}", "/v1/contacts/fields",
        "/v1/contacts/{contact_id}/tags", "/v1/companies/lookup", "/v1/companies/deep-search",
        "/v1/companies/deep-search/{job_id}", "/v1/companies/{company_id}/deep-search",
        "/v1/companies/{company_id}/deep-search/{search_id}", "/v1/contacts/search", "/v1/contacts/search/{job_id}",
        "/v1/contacts/search/{job_id}/add", "/v1/research/templates", "/v1/research/templates/{template_id}",
        "/v1/research/run", "/v1/research/runs/{run_id}", "/v1/research-templates",
        "/v1/research-templates/{template_id}", "/v1/research-templates/{template_id}/run",
        "/v1/research-templates/runs/{run_id}", "/v1/outreach/leads",
    }
    assert expected <= paths
    assert sum(1 for path in paths if path.startswith("/v1/outreach/leads")) >= 12
    assert "HTTPBearer" in app.openapi()["components"]["securitySchemes"]


async def test_every_operation_but_health_needs_a_key(app: FastAPI, anon_client: httpx.AsyncClient) -> None:
    checked = 0
    for method, path in operations(app):
        for headers in ({}, {"Authorization": "Bearer wrong-key"}):
            response = await anon_client.request(method, path, headers=headers, json={})
            if path == "/v1/health" and not headers:
                assert response.status_code == 200
                continue
            assert (response.status_code, response.json()) == (401, INVALID_KEY), (method, path, headers)
            assert all(name in response.headers for name in RATE_HEADERS), (method, path)
            checked += 1
    assert checked >= 2 * 45


async def test_a_key_registered_on_start_works_and_others_do_not(client_factory, app: FastAPI) -> None:
    async with client_factory(app, key="test-key") as good, client_factory(app, key="test-key2") as bad:
        assert (await good.get("/v1/companies")).status_code == 200
        assert (await bad.get("/v1/companies")).status_code == 401
