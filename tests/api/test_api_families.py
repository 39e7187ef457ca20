"""The research path families: fall back on a missing route, remember what worked, and
never mistake a missing resource for a missing route."""

from __future__ import annotations

import json

import httpx
import pytest

from support.api_samples import API_KEY, BASE_URL, RUN, TEMPLATE
from warmline.api import ServiceClient
from warmline.api import errors as e

ROUTE_MISSING = [
    httpx.Response(404, json={"detail": "Not Found"}),
    httpx.Response(404),
    httpx.Response(405, json={"detail": "Method Not Allowed"}),
]


def only_overview(missing: httpx.Response):
    """A service that knows only the overview family."""

    def reply(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.startswith("/v1/research/"):
            return missing
        if path == "/v1/research-templates":
            return httpx.Response(200, json={"success": True, "data": [TEMPLATE]})
        if path == f"/v1/research-templates/{TEMPLATE['id']}/run":
            return httpx.Response(201, json={"success": True, **RUN, "status": "pending"})
        if path == "/v1/research-templates/runs/run-1":
            return httpx.Response(200, json={"success": True, **RUN})
        if path == f"/v1/research-templates/{TEMPLATE['id']}":
            return httpx.Response(200, json={"success": True, "data": TEMPLATE})
        return httpx.Response(404, json={"success": False, "message": "Research template not found"})

    return reply


def paths(service) -> list[str]:
    return [f"{r.method} {r.url.path}" for r in service.requests]


@pytest.mark.parametrize("missing", ROUTE_MISSING, ids=["404-detail", "404-empty", "405"])
async def test_falls_back_to_overview_and_remembers(missing, client: ServiceClient, service) -> None:
    service.default = only_overview(missing)
    templates = await client.list_research_templates()
    assert templates[0].id == TEMPLATE["id"]
    assert paths(service) == ["GET /v1/research/templates", "GET /v1/research-templates"]
    assert client.families.known("research") == "overview"

    service.requests.clear()
    run = await client.get_research_run("run-1")
    assert run.status == "completed"
    assert paths(service) == ["GET /v1/research-templates/runs/run-1"]


async def test_overview_run_by_name_resolves_the_template(client: ServiceClient, service) -> None:
    service.default = only_overview(ROUTE_MISSING[0])
    run = await client.start_research_run([7, 8], template_name="icp FIT", idempotency_key="op-9")
    assert run.run_id == "run-1"
    assert paths(service) == [
        "POST /v1/research/run",
        "GET /v1/research-templates",
        f"POST /v1/research-templates/{TEMPLATE['id']}/run",
    ]
    last = service.requests[-1]
    assert json.loads(last.content) == {"company_ids": [7, 8]}
    assert last.headers["Idempotency-Key"] == "op-9"
    assert service.requests[0].headers["Idempotency-Key"] == "op-9"


async def test_overview_run_with_unknown_name_is_not_found(client: ServiceClient, service) -> None:
    service.default = only_overview(ROUTE_MISSING[0])
    with pytest.raises(e.NotFoundError, match="Research template not found: 'Nope'"):
        await client.start_research_run([7], template_name="Nope")
    assert not any(r.method == "POST" and "research-templates" in r.url.path for r in service.requests)


async def test_a_real_not_found_does_not_fall_back(client: ServiceClient, service) -> None:
    service.reply(httpx.Response(404, json={"success": False, "message": "Research template not found", "errors": None}))
    with pytest.raises(e.NotFoundError, match="Research template not found"):
        await client.get_research_template("missing-id")
    assert paths(service) == ["GET /v1/research/templates/missing-id"]
    assert client.families.known("research") is None


async def test_both_families_missing_raises_route_missing(client: ServiceClient, service) -> None:
    service.default = httpx.Response(404, json={"detail": "Not Found"})
    with pytest.raises(e.RouteMissingError):
        await client.list_research_templates()
    assert len(service.requests) == 2
    assert client.families.known("research") is None


async def test_preferred_family_is_tried_first(service) -> None:
    service.default = only_overview(ROUTE_MISSING[0])
    async with ServiceClient(
        BASE_URL, API_KEY, transport=httpx.MockTransport(service), prefer_family="overview"
    ) as client:
        await client.get_research_template(TEMPLATE["id"])
    assert paths(service) == [f"GET /v1/research-templates/{TEMPLATE['id']}"]


async def test_a_remembered_family_that_disappears_falls_back_again(client: ServiceClient, service) -> None:
    service.reply(
        httpx.Response(200, json={"success": True, "data": [TEMPLATE]}),
        httpx.Response(404, json={"detail": "Not Found"}),
        httpx.Response(200, json={"success": True, "data": [TEMPLATE]}),
    )
    await client.list_research_templates()
    assert client.families.known("research") == "detailed"
    await client.list_research_templates()
    assert client.families.known("research") == "overview"
    assert paths(service)[1:] == ["GET /v1/research/templates", "GET /v1/research-templates"]


def test_unknown_preferred_family_is_refused() -> None:
    with pytest.raises(ValueError, match="prefer must be one of detailed, overview"):
        ServiceClient(BASE_URL, API_KEY, prefer_family="newest")
