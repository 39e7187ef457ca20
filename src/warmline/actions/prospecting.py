"""Prospecting: putting companies into outreach and starting the service's asynchronous work
(deep searches, contact searches, research runs, per-company research).

Job starts show in the job monitor at once as `queued` (also while offline) and get their
server id when delivered; the sync engine then polls them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warmline.actions.queue import queue, validator
from warmline.api import limits
from warmline.ops.kinds import OpKind
from warmline.store import Store


@validator(OpKind.ADD_TO_OUTREACH, editable=("company_ids", "lead_status"))
def _valid_outreach(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    return {
        "company_ids": list(dict.fromkeys(limits.check_id_list("company_ids", p.get("company_ids")))),
        "lead_status": limits.check_lead_status(p.get("lead_status")),
    }


def add_to_outreach(store: Store, company_ids: Iterable[int], lead_status: str = "cold") -> str:
    """Make saved companies leads: cold (social warming) or warm (active nurturing)."""
    return queue(store, OpKind.ADD_TO_OUTREACH, {"company_ids": company_ids, "lead_status": lead_status})


@validator(OpKind.START_DEEP_SEARCH, editable=("query", "max_results"))
def _valid_deep_search(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    query, count = limits.check_deep_search(
        p.get("query"), p.get("max_results", limits.DEEP_SEARCH_MAX_RESULTS_DEFAULT)
    )
    return {"query": query, "max_results": count}


def start_deep_search(
    store: Store, query: str, max_results: int = limits.DEEP_SEARCH_MAX_RESULTS_DEFAULT
) -> str:
    """Start an AI deep search for companies (3-1000 characters, up to 100 results; costs 1 deep search)."""
    return queue(store, OpKind.START_DEEP_SEARCH, {"query": query, "max_results": max_results})


@validator(OpKind.START_CONTACT_SEARCH, editable=("roles",))
def _valid_contact_search(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    payload: dict[str, Any] = {"company_id": limits.check_id("company_id", p.get("company_id"))}
    if p.get("roles") is not None:
        payload["roles"] = limits.check_contact_roles(p["roles"])
    return payload


def start_contact_search(store: Store, company_id: int, roles: Iterable[str] | None = None) -> str:
    """Start a web search for decision-makers, champions and influencers (costs 1 deep search)."""
    return queue(store, OpKind.START_CONTACT_SEARCH, {"company_id": company_id, "roles": roles})


@validator(OpKind.ADD_FOUND_CONTACTS, editable=("contact_ids",))
def _valid_found_contacts(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    return {
        "job_id": limits.check_id("job_id", p.get("job_id")),
        "contact_ids": list(dict.fromkeys(limits.check_contact_ids(p.get("contact_ids")))),
    }


def add_found_contacts(store: Store, job_id: int, contact_ids: Iterable[int]) -> str:
    """Add contacts picked from a completed contact search to the permanent list."""
    return queue(store, OpKind.ADD_FOUND_CONTACTS, {"job_id": job_id, "contact_ids": contact_ids})


@validator(OpKind.START_RESEARCH_RUN, editable=("company_ids",))
def _valid_research_run(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    template_id, template_name = p.get("template_id"), p.get("template_name")
    company_ids = limits.check_research_run(template_id, template_name, p.get("company_ids"))
    payload: dict[str, Any] = {"company_ids": list(dict.fromkeys(company_ids))}
    if isinstance(template_id, str) and template_id.strip():
        payload["template_id"] = template_id.strip()
    elif isinstance(template_name, str):  # check_research_run made sure one of the two is given
        payload["template_name"] = template_name.strip()
    return payload


def start_research_run(
    store: Store, company_ids: Iterable[int], template_id: str | None = None, template_name: str | None = None
) -> str:
    """Run a research template over 1-100 companies (costs 1 enrichment per company).

    A template named in the cache is sent by its id, so a rename on the server cannot
    make the run pick another template.
    """
    if template_id is None and template_name is not None:
        known = store.find_template(template_name)
        if known is not None:
            template_id, template_name = known.id, None
    payload = {"company_ids": company_ids, "template_id": template_id, "template_name": template_name}
    return queue(store, OpKind.START_RESEARCH_RUN, payload)


@validator(OpKind.START_COMPANY_RESEARCH, editable=("focus",))
def _valid_company_research(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    payload: dict[str, Any] = {"company_id": limits.check_id("company_id", p.get("company_id"))}
    focus = p.get("focus")
    focus = limits.check_focus(focus.strip() if isinstance(focus, str) else focus)
    if focus:
        payload["focus"] = focus
    return payload


def start_company_research(store: Store, company_id: int, focus: str | None = None) -> str:
    """Start deep research of one company (costs 1 deep search)."""
    return queue(store, OpKind.START_COMPANY_RESEARCH, {"company_id": company_id, "focus": focus})
