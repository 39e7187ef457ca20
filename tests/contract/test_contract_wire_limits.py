"""Contract: the limits WE chose where the spec is silent (docs/wire.md "Limits") are drawn at
the same place by the client (`warmline.api.limits`) and the sandbox (`warmline_sandbox.limits`).

The two sides keep separate copies of the numbers. For each limit, through the real client
against the real server: the last allowed value goes through (the server accepts it: it
answers, or says the thing named does not exist), the first value beyond it is refused by
the client before anything is sent, and the server refuses that same value with a 400 naming
the field. Moving the line on either side alone fails here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from support.contract import API_KEY, BASE_URL, RecordingTransport, Sandbox, new_company, new_lead
from warmline.api import ServiceClient
from warmline.api import limits as L
from warmline.api.errors import InputError, NotFoundError

LEADS = "/v1/outreach/leads"
UNKNOWN = 10**9
"""Ids from here on name nothing: a request of many ids is accepted and skips them."""

Send = Callable[[ServiceClient, int, Any], Awaitable[object]]
Raw = Callable[[int, Any], tuple[str, str, Any]]


async def warm_lead(client: ServiceClient, sandbox: Sandbox) -> int:
    return (await new_lead(client, "Wire Limits AB", "warm")).id


async def company(client: ServiceClient, sandbox: Sandbox) -> int:
    return await new_company(client, "Wire Limits Company")


async def finished_contact_search(client: ServiceClient, sandbox: Sandbox) -> int:
    job = await client.start_contact_search(await company(client, sandbox))
    sandbox.advance(11)
    assert (await client.get_contact_search(job.job_id)).status == "completed"
    return job.job_id


async def not_found(call: Awaitable[object]) -> None:
    """Accepted as a request; the server says what it names does not exist."""
    with pytest.raises(NotFoundError):
        await call


@dataclass(frozen=True)
class WireLimit:
    field: str
    at: Any
    beyond: Any
    send: Send
    """The client call carrying the value (whose target comes from `setup`)."""
    raw: Raw
    """(method, path, JSON body) of the same request, for the server to judge on its own."""
    setup: Callable[[ServiceClient, Sandbox], Awaitable[int]] = warm_lead


def ids(count: int) -> list[int]:
    return list(range(UNKNOWN, UNKNOWN + count))


def text(limit: int, char: str = "x") -> tuple[str, str]:
    return char * limit, char * (limit + 1)


def company_field(field: str) -> WireLimit:
    at, beyond = text(L.COMPANY_FIELD_MAX_CHARS[field], "c")
    body = {"name": "Field Limits"} if field != "name" else {}
    return WireLimit(
        field, at, beyond,
        lambda c, _, v: c.create_company({**body, field: v}),
        lambda _, v: ("POST", "/v1/companies", {**body, field: v}),
    )


CONTACT_SHAPES = {"email": ("", "@example.com"), "social_url": ("https://example.com/", "")}
"""What a contact field's value must look like around its filler (the client checks an
email and a profile address as what they are called)."""


def contact_field(field: str) -> WireLimit:
    start, end = CONTACT_SHAPES.get(field, ("", ""))
    at, beyond = (start + filler + end for filler in text(L.CONTACT_FIELD_MAX_CHARS[field] - len(start + end), "p"))
    body = {"last_name": "Limits"} if field != "last_name" else {"first_name": "Wire"}
    return WireLimit(
        field, at, beyond,
        lambda c, _, v: c.create_contact({**body, field: v}),
        lambda _, v: ("POST", "/v1/contacts", {**body, field: v}),
    )


def deal(field: str, at: Any, beyond: Any, **also: Any) -> WireLimit:
    return WireLimit(
        field, at, beyond,
        lambda c, lead, v: c.update_deal(lead, **also, **{field: v}),
        lambda lead, v: ("PATCH", f"{LEADS}/{lead}/deal", {**also, field: v}),
    )


def lookup(field: str, at: Any, beyond: Any) -> WireLimit:
    return WireLimit(
        field, at, beyond,
        lambda c, _, v: c.lookup_companies(**{field: v}),
        lambda _, v: ("POST", "/v1/companies/lookup", {field: v}),
    )


def research(field: str, limit: int) -> WireLimit:
    at, beyond = text(limit, "t")
    return WireLimit(
        field, at, beyond,
        lambda c, company_id, v: not_found(c.start_research_run([company_id], **{field: v})),
        lambda company_id, v: ("POST", "/v1/research/run", {field: v, "company_ids": [company_id]}),
        setup=company,
    )


def record_extras(field: str, at: Any, beyond: Any) -> WireLimit:
    return WireLimit(
        field, at, beyond,
        lambda c, _, v: c.create_company({"name": "Extras", field: v}),
        lambda _, v: ("POST", "/v1/companies", {"name": "Extras", field: v}),
    )


LIMITS: dict[str, WireLimit] = {
    "deal_value": deal("deal_value", L.DEAL_VALUE_MAX, L.DEAL_VALUE_MAX + 1),
    "closed_reason": deal("closed_reason", *text(L.MAX_CLOSED_REASON_CHARS, "r"), lost=True),
    "add_leads_company_ids": WireLimit(
        "company_ids", ids(L.IDS_PER_REQUEST_MAX), ids(L.IDS_PER_REQUEST_MAX + 1),
        lambda c, _, v: c.add_leads(v, "cold"),
        lambda _, v: ("POST", LEADS, {"company_ids": v, "lead_status": "cold"}),
    ),
    "remove_leads_lead_ids": WireLimit(
        "lead_ids", ids(L.IDS_PER_REQUEST_MAX), ids(L.IDS_PER_REQUEST_MAX + 1),
        lambda c, _, v: c.remove_leads(v),
        lambda _, v: ("DELETE", LEADS, {"lead_ids": v}),
    ),
    "add_contacts_contact_ids": WireLimit(
        "contact_ids", ids(L.IDS_PER_REQUEST_MAX), ids(L.IDS_PER_REQUEST_MAX + 1),
        lambda c, job, v: c.add_contacts(job, v),
        lambda job, v: ("POST", f"/v1/contacts/search/{job}/add", {"contact_ids": v}),
        setup=finished_contact_search,
    ),
    "id": WireLimit(
        "company_id", L.ID_MAX, L.ID_MAX + 1,
        lambda c, _, v: not_found(c.get_company(v)),
        lambda _, v: ("GET", f"/v1/companies/{v}", None),
    ),
    "page": WireLimit(
        "page", L.PAGE_MAX, L.PAGE_MAX + 1,
        lambda c, _, v: c.list_companies(page=v),
        lambda _, v: ("GET", f"/v1/companies?page={v}", None),
    ),
    "lookup_query": lookup("query", *text(L.LOOKUP_QUERY_MAX_CHARS, "q")),
    "lookup_keywords": lookup(
        "industries",
        [f"industry {n}" for n in range(L.LOOKUP_KEYWORDS_MAX)],
        [f"industry {n}" for n in range(L.LOOKUP_KEYWORDS_MAX + 1)],
    ),
    "lookup_keyword_length": lookup(
        "countries", [text(L.LOOKUP_KEYWORD_MAX_CHARS, "k")[0]], [text(L.LOOKUP_KEYWORD_MAX_CHARS, "k")[1]]
    ),
    "research_template_id": research("template_id", L.MAX_TEMPLATE_ID_CHARS),
    "research_template_name": research("template_name", L.MAX_TEMPLATE_NAME_CHARS),
    "competitor_domain": WireLimit(
        "domain", *text(L.MAX_DOMAIN_CHARS, "d"),
        lambda c, lead, v: c.add_competitor(lead, "Rival", domain=v),
        lambda lead, v: ("POST", f"{LEADS}/{lead}/competitors", {"name": "Rival", "domain": v}),
    ),
    "research_focus": WireLimit(
        "focus", *text(L.MAX_FOCUS_CHARS, "f"),
        lambda c, company_id, v: c.start_company_research(company_id, focus=v),
        lambda company_id, v: ("POST", f"/v1/companies/{company_id}/deep-search", {"focus": v}),
        setup=company,
    ),
    "tags": record_extras(
        "tags", [f"tag {n}" for n in range(L.TAGS_MAX)], [f"tag {n}" for n in range(L.TAGS_MAX + 1)]
    ),
    "tag_length": record_extras("tags", [text(L.MAX_TAG_CHARS, "t")[0]], [text(L.MAX_TAG_CHARS, "t")[1]]),
    "custom_field_key": record_extras(
        "custom_fields", {text(L.MAX_CUSTOM_FIELD_KEY_CHARS, "k")[0]: 1},
        {text(L.MAX_CUSTOM_FIELD_KEY_CHARS, "k")[1]: 1},
    ),
    **{f"company_{field}": company_field(field) for field in L.COMPANY_FIELD_MAX_CHARS if field != "name"},
    **{f"contact_{field}": contact_field(field) for field in L.CONTACT_FIELD_MAX_CHARS},
}


def fields_named(answer: httpx.Response) -> list[str]:
    """The top-level fields a 400 names: from `errors`, or from the `{error}` shape's text."""
    body = answer.json()
    if "error" in body:
        return [body["error"].split(": ", 1)[1].split(":", 1)[0]]
    return [str(item["field"]).split(".", 1)[0] for item in body["errors"]]


@pytest.mark.parametrize("name", sorted(LIMITS))
async def test_both_sides_draw_our_limit_at_the_same_place(sandbox: Sandbox, name: str) -> None:
    limit = LIMITS[name]
    client = sandbox.client()
    target = await limit.setup(client, sandbox)
    await limit.send(client, target, limit.at)

    sent = len(sandbox.transport.exchanges)
    with pytest.raises(InputError) as refused:
        await limit.send(client, target, limit.beyond)
    assert refused.value.field == limit.field
    assert len(sandbox.transport.exchanges) == sent, "refused before anything was sent"

    method, path, body = limit.raw(target, limit.beyond)
    headers = {"Authorization": f"Bearer {API_KEY}"}
    async with httpx.AsyncClient(
        transport=RecordingTransport(sandbox.app), base_url=BASE_URL, headers=headers
    ) as raw:
        answer = await raw.request(method, path, json=body)
    assert answer.status_code == 400, answer.text
    assert fields_named(answer) == [limit.field], answer.text
