"""Prospecting: putting companies into outreach and starting the service's asynchronous work
(deep searches, contact searches, research runs, per-company research).

Job starts show in the job monitor at once as `queued` (also while offline) and get their
server id when delivered; the sync engine then polls them.
"""

from __future__ import annotations

from collections.abc import Iterable

from warmline.actions.queue import queue
from warmline.api import limits
from warmline.ops.kinds import OpKind
from warmline.store import Store


def add_to_outreach(store: Store, company_ids: Iterable[int], lead_status: str = "cold") -> str:
    """Make saved companies leads: cold (social warming) or warm (active nurturing)."""
    return queue(store, OpKind.ADD_TO_OUTREACH, {"company_ids": company_ids, "lead_status": lead_status})


def start_deep_search(
    store: Store, query: str, max_results: int = limits.DEEP_SEARCH_MAX_RESULTS_DEFAULT
) -> str:
    """Start an AI deep search for companies (3-1000 characters, up to 100 results; costs 1 deep search)."""
    return queue(store, OpKind.START_DEEP_SEARCH, {"query": query, "max_results": max_results})


def start_contact_search(store: Store, company_id: int, roles: Iterable[str] | None = None) -> str:
    """Start a web search for decision-makers, champions and influencers (costs 1 deep search)."""
    return queue(store, OpKind.START_CONTACT_SEARCH, {"company_id": company_id, "roles": roles})


def add_found_contacts(store: Store, job_id: int, contact_ids: Iterable[int]) -> str:
    """Add contacts picked from a completed contact search to the permanent list."""
    return queue(store, OpKind.ADD_FOUND_CONTACTS, {"job_id": job_id, "contact_ids": contact_ids})


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


def start_company_research(store: Store, company_id: int, focus: str | None = None) -> str:
    """Start deep research of one company (costs 1 deep search)."""
    return queue(store, OpKind.START_COMPANY_RESEARCH, {"company_id": company_id, "focus": focus})
