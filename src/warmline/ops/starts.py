"""The work the service does on its own: signal scans, deep searches, contact searches,
research runs and company research (each a job polled after the start), and the
operations that create leads or contacts (`add_to_outreach`, `add_found_contacts`).
Their validation, request and reconciliation probe, each with its payload and `OpSpec`
(`warmline.ops.specs` tables them by kind).

Only a signal scan and adding to outreach leave something readable to match; the other
starts are resent under the same key (against a server without idempotency support that
is at-least-once: docs/sync.md says so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from warmline.api import limits
from warmline.ops import matching
from warmline.ops.effects import (
    CreatedByService,
    Reconcile,
    StartJob,
)
from warmline.ops.facts import CacheFacts
from warmline.ops.kinds import JobKind
from warmline.ops.op import Answer, Op
from warmline.ops.parts import dump, probe_of, request_of
from warmline.ops.spec import OpSpec, job_start
from warmline.ops.validation import record_id, record_ids, require_lead

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient


# --- payloads: each kind's request as its validator writes it (`warmline.ops.parts`) ---


class OnLead(TypedDict):
    """`start_signal_scan`, `generate_recommendations`."""

    lead_id: int


class AddToOutreach(TypedDict):
    company_ids: list[int]
    lead_status: NotRequired[str | None]


class StartDeepSearch(TypedDict):
    query: str
    max_results: NotRequired[int | None]


class StartContactSearch(TypedDict):
    company_id: int
    roles: NotRequired[list[str] | None]


class AddFoundContacts(TypedDict):
    job_id: int
    contact_ids: list[int]


class StartResearchRun(TypedDict):
    """The template by id, or by name (one of the two)."""

    company_ids: list[int]
    template_id: NotRequired[str | None]
    template_name: NotRequired[str | None]


class StartCompanyResearch(TypedDict):
    company_id: int
    focus: NotRequired[str | None]


def valid_lead_only(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(cache, p.get("lead_id"))}


# --- start_signal_scan -------------------------------------------------------------------------


async def send_signal_scan(client: ServiceClient, p: OnLead, key: str) -> Answer:
    return dump(await client.start_signal_scan(p["lead_id"], idempotency_key=key))


async def probe_signal_scan(client: ServiceClient, cache: CacheFacts, op: Op, p: OnLead) -> Answer | None:
    scan = await client.get_signal_scan(p["lead_id"])
    since = matching.since(client, op)
    started = scan.started_at.timestamp() if scan.started_at is not None else None
    if scan.status == "none" or started is None or (since is not None and started < since):
        return None
    return {**dump(scan), "reconciled": True}


# --- add_to_outreach -----------------------------------------------------------------------------


def valid_outreach(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    return {
        "company_ids": list(dict.fromkeys(record_ids(cache, "company_ids", p.get("company_ids"), limits.check_id_list))),
        "lead_status": limits.check_lead_status(p.get("lead_status")),
    }


async def send_outreach(client: ServiceClient, p: AddToOutreach, key: str) -> Answer:
    answer = await client.add_leads(list(p["company_ids"]), p.get("lead_status") or "cold", idempotency_key=key)
    return dump(answer)


async def probe_outreach(client: ServiceClient, cache: CacheFacts, op: Op, p: AddToOutreach) -> Answer | None:
    """Every company of the op is a lead (of either status): adding them is done."""
    wanted = set(p["company_ids"])
    found: dict[int, Answer] = {}
    for status in ("cold", "warm"):
        async for items, _walk in client.walk_leads(status):
            found.update({lead.company_id: dump(lead) for lead in items if lead.company_id in wanted})
    if set(found) != wanted:
        return None
    return {"added": len(found), "leads": list(found.values()), "reconciled": True}


# --- start_deep_search ------------------------------------------------------------------------------


def valid_deep_search(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    query, count = limits.check_deep_search(
        p.get("query"), p.get("max_results", limits.DEEP_SEARCH_MAX_RESULTS_DEFAULT)
    )
    return {"query": query, "max_results": count}


async def send_deep_search(client: ServiceClient, p: StartDeepSearch, key: str) -> Answer:
    count = p.get("max_results")
    if count is None:
        count = limits.DEEP_SEARCH_MAX_RESULTS_DEFAULT
    return dump(await client.start_deep_search(p["query"], count, idempotency_key=key))


# --- start_contact_search and add_found_contacts ------------------------------------------------------


def valid_contact_search(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    payload: dict[str, Any] = {"company_id": record_id(cache, "company_id", p.get("company_id"))}
    if p.get("roles") is not None:
        payload["roles"] = limits.check_contact_roles(p["roles"])
    return payload


async def send_contact_search(client: ServiceClient, p: StartContactSearch, key: str) -> Answer:
    answer = await client.start_contact_search(p["company_id"], p.get("roles"), idempotency_key=key)
    return dump(answer)


def valid_found_contacts(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    return {
        "job_id": limits.check_id("job_id", p.get("job_id")),
        "contact_ids": list(dict.fromkeys(limits.check_contact_ids(p.get("contact_ids")))),
    }


async def send_found_contacts(client: ServiceClient, p: AddFoundContacts, key: str) -> Answer:
    answer = await client.add_contacts(p["job_id"], list(p["contact_ids"]), idempotency_key=key)
    return dump(answer)


# --- start_research_run and start_company_research -----------------------------------------------------


def valid_research_run(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    template_id, template_name = p.get("template_id"), p.get("template_name")
    company_ids = record_ids(
        cache, "company_ids", p.get("company_ids"), lambda _f, ids: limits.check_research_run(template_id, template_name, ids)
    )
    payload: dict[str, Any] = {"company_ids": list(dict.fromkeys(company_ids))}
    if isinstance(template_id, str) and template_id.strip():
        payload["template_id"] = template_id.strip()
    elif isinstance(template_name, str):  # check_research_run made sure one of the two is given
        payload["template_name"] = template_name.strip()
    return payload


async def send_research_run(client: ServiceClient, p: StartResearchRun, key: str) -> Answer:
    answer = await client.start_research_run(
        list(p["company_ids"]),
        template_id=p.get("template_id"),
        template_name=p.get("template_name"),
        idempotency_key=key,
    )
    return dump(answer)


def valid_company_research(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    payload: dict[str, Any] = {"company_id": record_id(cache, "company_id", p.get("company_id"))}
    focus = p.get("focus")
    focus = limits.check_focus(focus.strip() if isinstance(focus, str) else focus)
    if focus:
        payload["focus"] = focus
    return payload


async def send_company_research(client: ServiceClient, p: StartCompanyResearch, key: str) -> Answer:
    answer = await client.start_company_research(p["company_id"], p.get("focus"), idempotency_key=key)
    return dump(answer)


# --- the specs (`warmline.ops.specs` tables them by kind) ---------------------------------


ADD_TO_OUTREACH_SPEC = OpSpec(
    payload=AddToOutreach,
    validate=valid_outreach,
    editable=("company_ids", "lead_status"),
    derive_meta=None,
    effect=CreatedByService("leads"),
    reconcile=Reconcile.KEYED,
    send=request_of(send_outreach),
    annotate_late=False,
    probe=probe_of(probe_outreach),
    confirm=None,
    done_if_card_gone=False,
)


ADD_FOUND_CONTACTS_SPEC = OpSpec(
    payload=AddFoundContacts,
    validate=valid_found_contacts,
    editable=("contact_ids",),
    derive_meta=None,
    effect=CreatedByService("contacts"),
    reconcile=Reconcile.KEYED,
    send=request_of(send_found_contacts),
    annotate_late=False,
    probe=None,
    confirm=None,
    done_if_card_gone=False,
)


START_SIGNAL_SCAN_SPEC = job_start(
    payload=OnLead,
    validate=valid_lead_only,
    editable=(),
    effect=StartJob(job=JobKind.SIGNAL_SCAN, id_field=None, lead_field="signal_scan_status"),
    send=request_of(send_signal_scan),
    probe=probe_of(probe_signal_scan),
)


START_DEEP_SEARCH_SPEC = job_start(
    payload=StartDeepSearch,
    validate=valid_deep_search,
    editable=("query", "max_results"),
    effect=StartJob(job=JobKind.DEEP_SEARCH, id_field="job_id", lead_field=None),
    send=request_of(send_deep_search),
    probe=None,
)


START_CONTACT_SEARCH_SPEC = job_start(
    payload=StartContactSearch,
    validate=valid_contact_search,
    editable=("roles",),
    effect=StartJob(job=JobKind.CONTACT_SEARCH, id_field="job_id", lead_field=None),
    send=request_of(send_contact_search),
    probe=None,
)


START_RESEARCH_RUN_SPEC = job_start(
    payload=StartResearchRun,
    validate=valid_research_run,
    editable=("company_ids",),
    effect=StartJob(job=JobKind.RESEARCH_RUN, id_field="run_id", lead_field=None),
    send=request_of(send_research_run),
    probe=None,
)


START_COMPANY_RESEARCH_SPEC = job_start(
    payload=StartCompanyResearch,
    validate=valid_company_research,
    editable=("focus",),
    effect=StartJob(job=JobKind.COMPANY_RESEARCH, id_field="search_id", lead_field=None),
    send=request_of(send_company_research),
    probe=None,
)
