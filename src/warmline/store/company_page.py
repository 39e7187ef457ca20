"""A saved company's page in one read: the record, whether it is in outreach, its custom
fields by the schema, its latest deep research (with the findings) and contact search,
and its first people.

Read in one transaction so that the sections agree with each other. The cockpit's company
page renders it; `warmline companies research` prints the same findings (`findings_of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warmline.ops.kinds import JobKind
from warmline.store.custom_fields import FieldValue, field_schema, labelled_fields, text_of
from warmline.store.rows import CompanyRow, ContactRow, Job, LeadRow
from warmline.store.values import JsonMap

if TYPE_CHECKING:
    from warmline.store import Store

CONTACTS_SHOWN = 20


@dataclass(frozen=True)
class Source:
    """A web page a deep research cites."""

    title: str
    url: str


@dataclass(frozen=True)
class ResearchFindings:
    """What a completed deep research of a company found. `raw` is the service's answer as
    it came (the command line's `--json` prints it whole)."""

    summary: str | None
    key_facts: tuple[str, ...]
    sources: tuple[Source, ...]
    raw: JsonMap


@dataclass(frozen=True)
class CompanyPage:
    """Everything the company page shows. `lead` is the lead it is in outreach as (None:
    not a lead, or its removal is queued); `research` the latest deep research job and
    `findings` what it found once completed; `contact_search` the latest contact search;
    `contacts` the first `CONTACTS_SHOWN` saved people by name, of `contact_total`."""

    company: CompanyRow
    lead: LeadRow | None
    fields: tuple[FieldValue, ...]
    research: Job | None
    findings: ResearchFindings | None
    contact_search: Job | None
    contacts: tuple[ContactRow, ...]
    contact_total: int


def findings_of(job: Job) -> ResearchFindings | None:
    """The findings of a completed deep research; None while it runs, or when it found nothing."""
    results = (job.raw or {}).get("results")
    if job.status != "completed" or not isinstance(results, Mapping):
        return None
    summary = results.get("summary")
    return ResearchFindings(
        summary=text_of(summary) if summary else None,
        key_facts=tuple(text_of(fact) for fact in results.get("key_facts") or []),
        sources=tuple(
            Source(text_of(source.get("title") or ""), text_of(source.get("url") or ""))
            for source in results.get("sources") or []
            if isinstance(source, Mapping)
        ),
        raw=dict(results),
    )


def company_page(store: Store, company_id: int, contacts_shown: int = CONTACTS_SHOWN) -> CompanyPage | None:
    """The page of a cached company; None when the cache does not hold it (deleted, or not
    synced yet)."""
    with store.read():
        company = store.get_company(company_id)
        if company is None:
            return None
        lead_id = store.lead_of_company(company_id)
        lead = store.get_lead(lead_id) if lead_id is not None else None
        fields = labelled_fields(company.custom_fields, field_schema(store, "companies"))
        research = store.latest_job(JobKind.COMPANY_RESEARCH, company_id)
        search = store.latest_job(JobKind.CONTACT_SEARCH, company_id)
        contacts = store.contacts_page(company_id=company_id, limit=contacts_shown)
        total = store.contact_count(company_id=company_id) if len(contacts) == contacts_shown else len(contacts)
    return CompanyPage(
        company=company,
        lead=lead,
        fields=fields,
        research=research,
        findings=findings_of(research) if research is not None else None,
        contact_search=search,
        contacts=tuple(contacts),
        contact_total=total,
    )
