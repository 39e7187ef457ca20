"""Contract: the client and the sandbox enforce the spec's input limits at the same place.

For each limit of the spec: a value exactly at the limit goes through both sides; a value
just beyond it is refused by the client before anything is sent (`InputError`) AND by the
server when sent anyway (400 whose `errors` name the field, as docs/wire.md says). If the
two sides drew a line in different places, the rep would either be stopped from doing
something the service allows or see an op fail in the outbox an hour later.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from support.contract import API_KEY, BASE_URL, RecordingTransport, Sandbox, new_company, new_lead
from warmline.api import ServiceClient
from warmline.api.errors import InputError

LEADS = "/v1/outreach/leads"


async def note_at_limit(client: ServiceClient, lead_id: int) -> None:
    note = await client.add_note(lead_id, "n" * 10_000)
    assert len(note.content) == 10_000


async def activity_at_limit(client: ServiceClient, lead_id: int) -> None:
    result = await client.log_touchpoint(lead_id, "Called them. " + "x" * 4_987)
    assert len(result.touchpoint.description) == 5_000


async def target_scores_at_limits(client: ServiceClient, lead_id: int) -> None:
    assert (await client.set_target_score(lead_id, 1)).target_score == 1
    assert (await client.set_target_score(lead_id, 100)).target_score == 100


async def deep_search_query_at_limit(client: ServiceClient, lead_id: int) -> None:
    job = await client.start_deep_search("dental " + "q" * 993, max_results=1)
    assert job.query is not None and len(job.query) == 1_000


async def deep_search_max_results_at_limit(client: ServiceClient, lead_id: int) -> None:
    assert (await client.start_deep_search("dental clinics", max_results=100)).target_count == 100


async def lookup_query_at_limit(client: ServiceClient, lead_id: int) -> None:
    assert (await client.lookup_companies("saa")).total >= 0


async def company_name_at_limit(client: ServiceClient, lead_id: int) -> None:
    assert len((await client.create_company({"name": "N" * 200})).name) == 200


async def research_run_at_limit(client: ServiceClient, lead_id: int) -> None:
    ids = [await new_company(client, f"Run Limit {n}") for n in range(100)]
    run = await client.start_research_run(ids, template_name="ICP fit")
    assert run.company_ids == ids


async def per_page_at_limit(client: ServiceClient, lead_id: int) -> None:
    assert (await client.list_companies(per_page=200)).pagination.per_page == 200


@dataclass(frozen=True)
class SpecLimit:
    field: str
    at_limit: Callable[[ServiceClient, int], Awaitable[None]]
    beyond: Callable[[ServiceClient, int], Awaitable[object]]
    raw_beyond: Callable[[int], tuple[str, str, Any]]
    """(method, path, JSON body) of the request the client refused, for the server to judge."""


LIMITS: dict[str, SpecLimit] = {
    "note_content": SpecLimit(
        "content",
        note_at_limit,
        lambda c, lead: c.add_note(lead, "n" * 10_001),
        lambda lead: ("POST", f"{LEADS}/{lead}/notes", {"content": "n" * 10_001}),
    ),
    "activity_description": SpecLimit(
        "description",
        activity_at_limit,
        lambda c, lead: c.log_touchpoint(lead, "x" * 5_001),
        lambda lead: ("POST", f"{LEADS}/{lead}/touchpoints", {"description": "x" * 5_001}),
    ),
    "target_score": SpecLimit(
        "target_score",
        target_scores_at_limits,
        lambda c, lead: c.set_target_score(lead, 101),
        lambda lead: ("PATCH", f"{LEADS}/{lead}/target-score", {"target_score": 101}),
    ),
    "deep_search_query": SpecLimit(
        "query",
        deep_search_query_at_limit,
        lambda c, lead: c.start_deep_search("q" * 1_001),
        lambda lead: ("POST", "/v1/companies/deep-search", {"query": "q" * 1_001}),
    ),
    "deep_search_max_results": SpecLimit(
        "max_results",
        deep_search_max_results_at_limit,
        lambda c, lead: c.start_deep_search("dental clinics", max_results=101),
        lambda lead: ("POST", "/v1/companies/deep-search", {"query": "dental", "max_results": 101}),
    ),
    "lookup_query": SpecLimit(
        "query",
        lookup_query_at_limit,
        lambda c, lead: c.lookup_companies("sa"),
        lambda lead: ("POST", "/v1/companies/lookup", {"query": "sa"}),
    ),
    "company_name": SpecLimit(
        "name",
        company_name_at_limit,
        lambda c, lead: c.create_company({"name": "N" * 201}),
        lambda lead: ("POST", "/v1/companies", {"name": "N" * 201}),
    ),
    "research_run_companies": SpecLimit(
        "company_ids",
        research_run_at_limit,
        lambda c, lead: c.start_research_run(list(range(1, 102)), template_name="ICP fit"),
        lambda lead: (
            "POST",
            "/v1/research/run",
            {"template_name": "ICP fit", "company_ids": list(range(1, 102))},
        ),
    ),
    "per_page": SpecLimit(
        "per_page",
        per_page_at_limit,
        lambda c, lead: c.list_companies(per_page=201),
        lambda lead: ("GET", "/v1/companies?per_page=201", None),
    ),
}

CASES = sorted(LIMITS)


@pytest.mark.parametrize("name", CASES)
async def test_both_sides_draw_the_spec_limit_at_the_same_place(sandbox: Sandbox, name: str) -> None:
    limit = LIMITS[name]
    client = sandbox.client()
    lead = await new_lead(client, "Limits Co")
    await limit.at_limit(client, lead.id)

    sent = len(sandbox.transport.exchanges)
    with pytest.raises(InputError) as refused:
        await limit.beyond(client, lead.id)
    assert refused.value.field == limit.field
    assert len(sandbox.transport.exchanges) == sent, "refused before anything was sent"

    method, path, body = limit.raw_beyond(lead.id)
    headers = {"Authorization": f"Bearer {API_KEY}"}
    async with httpx.AsyncClient(
        transport=RecordingTransport(sandbox.app), base_url=BASE_URL, headers=headers
    ) as raw:
        answer = await raw.request(method, path, json=body)
    assert answer.status_code == 400, answer.text
    assert [e["field"] for e in answer.json()["errors"]] == [limit.field]
