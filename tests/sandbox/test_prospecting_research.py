"""Research templates and runs under both path families; results land in custom fields."""

from __future__ import annotations

import re

import httpx
import pytest

from warmline_sandbox import research
from warmline_sandbox.clock import ManualClock

TYPE_CHECKS = {
    "number": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "date": lambda v: isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v),
    "url": lambda v: isinstance(v, str) and v.startswith("https://"),
    "list": lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v),
    "text": lambda v: isinstance(v, str) and v,
}


async def new_companies(client: httpx.AsyncClient, count: int) -> list[int]:
    ids = []
    for index in range(count):
        body = {"name": f"Research {index}", "domain": f"research{index}.test", "industry": "Energy"}
        ids.append((await client.post("/v1/companies", json=body)).json()["data"]["id"])
    return ids


@pytest.mark.parametrize("path", ["/v1/research/templates", "/v1/research-templates"])
async def test_templates_in_both_families(client: httpx.AsyncClient, path: str) -> None:
    templates = (await client.get(path)).json()["data"]
    assert {t["name"] for t in templates} >= {"ICP fit", "Tech stack", "Hiring signals"}
    for template in templates:
        assert set(template) == {"id", "name", "description", "fields", "created_at"}
        assert re.fullmatch(r"[0-9a-f-]{36}", template["id"])
        assert all(set(f) == {"key", "name", "type"} and f["type"] in TYPE_CHECKS for f in template["fields"])
    one = (await client.get(f"{path}/{templates[0]['id']}")).json()
    assert one == {"success": True, "data": templates[0]}
    missing = await client.get(f"{path}/not-a-template")
    assert (missing.status_code, missing.json()["message"]) == (404, "Research template not found")


async def test_run_by_name_fills_typed_custom_fields(client: httpx.AsyncClient, clock: ManualClock) -> None:
    ids = await new_companies(client, 2)
    started = await client.post("/v1/research/run", json={"template_name": "hiring SIGNALS", "company_ids": ids})
    assert started.status_code == 201
    run = started.json()
    assert (run["status"], run["company_ids"]) == ("pending", ids)
    clock.advance(10)
    done = (await client.get(f"/v1/research/runs/{run['run_id']}")).json()
    assert (done["status"], done["progress"]) == ("completed", 100)
    template = (await client.get(f"/v1/research/templates/{run['template_id']}")).json()["data"]
    types = {f["key"]: f["type"] for f in template["fields"]}
    assert [r["company_id"] for r in done["results"]] == ids
    for result in done["results"]:
        assert set(result["fields"]) == set(types)
        for key, value in result["fields"].items():
            assert TYPE_CHECKS[types[key]](value), (key, value)
        company = (await client.get(f"/v1/companies/{result['company_id']}")).json()["data"]
        assert company["custom_fields"] == result["fields"]
    schema = (await client.get("/v1/companies/fields")).json()["data"]
    assert {"key": "open_roles", "name": "Open roles", "type": "number"} in schema
    assert (await client.get(f"/v1/research-templates/runs/{run['run_id']}")).json() == done


async def test_overview_run_path(client: httpx.AsyncClient, clock: ManualClock) -> None:
    ids = await new_companies(client, 1)
    template = next(t for t in (await client.get("/v1/research-templates")).json()["data"] if t["name"] == "Tech stack")
    started = await client.post(f"/v1/research-templates/{template['id']}/run", json={"company_ids": ids})
    assert started.status_code == 201 and started.json()["template_id"] == template["id"]
    run_id = started.json()["run_id"]
    assert (await client.get(f"/v1/research-templates/runs/{run_id}")).json()["results"] == []
    clock.advance(10)
    assert (await client.get(f"/v1/research-templates/runs/{run_id}")).json()["status"] == "completed"


async def test_run_rules(client: httpx.AsyncClient) -> None:
    ids = await new_companies(client, 1)
    neither = await client.post("/v1/research/run", json={"company_ids": ids})
    assert neither.status_code == 400
    unknown = await client.post("/v1/research/run", json={"template_name": "Nope", "company_ids": ids})
    assert (unknown.status_code, unknown.json()["message"]) == (404, "Research template not found")
    for company_ids in ([], list(range(1, 102))):
        response = await client.post("/v1/research/run", json={"template_name": "ICP fit", "company_ids": company_ids})
        assert response.status_code == 400
    for path, body in (("/v1/research/run", {"template_name": "ICP fit"}),
                       (f"/v1/research-templates/{research.template_id_for('ICP fit')}/run", {})):
        missing = await client.post(path, json={**body, "company_ids": [ids[0], 99999999]})
        assert (missing.status_code, missing.json()["message"]) == (404, "Company not found"), path
        assert missing.json()["errors"] == [{"field": "company_ids", "message": "Company not found: 99999999"}]
    run = await client.get("/v1/research/runs/unknown-run")
    assert (run.status_code, run.json()["message"]) == (404, "Research run not found")
