"""Deterministic prospecting data (saved companies, people, templates, finished jobs) for the
prospecting screens' flows and snapshots, and an in-process sandbox for the online-only lookup."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from warmline.api import ServiceClient
from warmline.store import Store
from warmline_sandbox.app import create_app
from warmline_sandbox.settings import DEFAULT_QUOTAS, SandboxSettings

from . import tui_wire_data as W
from .tui_wire_data import KESTREL_COMPANY

TEMPLATE_ID = "7b1f6c1e-3c0a-4a57-9d51-0c6f4c7e2a11"
SANDBOX_KEY = "prospecting-tui-key"

FIELD_SCHEMA = [
    {"key": "icp_fit", "name": "ICP fit", "type": "number"},
    {"key": "uses_sap", "name": "Uses SAP", "type": "boolean"},
    {"key": "hiring", "name": "Hiring roles", "type": "list"},
]
TEMPLATES = [
    {"id": TEMPLATE_ID, "name": "ICP fit", "description": "How well the company fits our ideal customer",
     "fields": FIELD_SCHEMA, "created_at": W.ts(timedelta(days=40))},
    {"id": "0c2d9a8e-55f4-4f0b-8f3e-2e9b1b7c6d20", "name": "Tech stack", "description": None,
     "fields": [{"key": "crm", "name": "CRM", "type": "text"}], "created_at": W.ts(timedelta(days=20))},
]
PEOPLE = [
    {"id": 7001, "first_name": "Dana", "last_name": "Kivi", "title": "VP Operations", "role": "decision-maker",
     "email": "dana@kestrel.example", "social_url": "https://social.example/dana", "company_id": KESTREL_COMPANY},
    {"id": 7002, "first_name": "Ilkka", "last_name": "Saari", "title": "Head of Data", "role": "champion",
     "email": "ilkka@kestrel.example", "social_url": "https://social.example/ilkka", "company_id": KESTREL_COMPANY},
    {"id": 7003, "first_name": "Mira", "last_name": W.HOSTILE_MARKUP, "title": "Analyst", "role": "influencer",
     "email": None, "social_url": "javascript:alert(1)", "company_id": KESTREL_COMPANY},
    {"id": 7004, "first_name": "Jon", "last_name": "Berg", "title": "CFO", "role": "decision-maker",
     "email": "jon@kestrel.example", "social_url": None, "company_id": KESTREL_COMPANY},
]


def company(index: int) -> dict[str, Any]:
    name, domain, industry, country = W.COMPANIES[index]
    return {
        "id": 500 + index, "name": name, "domain": domain, "industry": industry, "country": country,
        "region": None, "size": "51-200", "description": f"{name} does {industry.lower()}.",
        "tags": ["nordics"] if index % 2 else [], "custom_fields": {"icp_fit": 60 + index} if index < 3 else {},
        "source": "lookup" if index % 2 else "manual", "ai_tag": None,
    }


def found_company(company_id: int, name: str, domain: str) -> dict[str, Any]:
    return {"id": company_id, "name": name, "domain": domain, "industry": "Healthcare", "country": "Germany",
            "source": "deep_search", "ai_tag": "dental-bavaria", "tags": [], "custom_fields": {}}


FOUND = [
    found_company(901, "Zahnarzt Praxis Isar", "isar-dental.example"),
    found_company(902, "Dentalzentrum Allgäu", "allgaeu-dental.example"),
    found_company(903, "Lächeln Regensburg", "laecheln.example"),
]


def fill_prospecting(store: Store, *, jobs: bool = True) -> None:
    """Saved companies (the leads' ones), contacts, field schema, templates, and finished jobs."""
    store.upsert_companies([company(i) for i in range(len(W.COMPANIES))])
    store.upsert_field_schemas("companies", FIELD_SCHEMA)
    store.upsert_contacts([{k: v for k, v in p.items()} for p in PEOPLE[:2]])
    store.upsert_templates(TEMPLATES)
    if not jobs:
        return
    store.record_job("deep_search", 31, {
        "job_id": 31, "status": "completed", "query": "dental clinics in Bavaria", "target_count": 20,
        "progress": 100, "found_count": 3, "created_at": W.ts(timedelta(hours=3)),
        "completed_at": W.ts(timedelta(hours=2, minutes=55)), "companies": FOUND,
    })
    store.record_job("contact_search", 41, {
        "job_id": 41, "status": "completed", "company_id": KESTREL_COMPANY, "progress": 100,
        "created_at": W.ts(timedelta(hours=2)), "completed_at": W.ts(timedelta(hours=1, minutes=58)),
        "contacts": PEOPLE,
    }, company_id=KESTREL_COMPANY)
    store.record_job("company_research", 51, {
        "search_id": 51, "company_id": KESTREL_COMPANY, "status": "completed", "progress": 100,
        "created_at": W.ts(timedelta(hours=1)), "completed_at": W.ts(timedelta(minutes=50)),
        "results": {"summary": "Kestrel sells analytics to Nordic retailers.",
                    "key_facts": ["Opened a Warsaw office", "Series B in 2025"],
                    "sources": [{"title": "Press release", "url": "https://kestrel.example/press"}]},
    }, company_id=KESTREL_COMPANY)
    store.record_job("research_run", "run-61", {
        "run_id": "run-61", "status": "completed", "template_id": TEMPLATE_ID, "company_ids": [500, 503],
        "progress": 100, "created_at": W.ts(timedelta(minutes=30)), "completed_at": W.ts(timedelta(minutes=25)),
        "results": [{"company_id": 500, "fields": {"icp_fit": 82, "uses_sap": True}},
                    {"company_id": 503, "fields": {"icp_fit": 91, "hiring": ["Data engineer", "AE"]}}],
    })
    store.record_job("deep_search", 32, {
        "job_id": 32, "status": "running", "query": "logistics SaaS in the Nordics", "target_count": 5,
        "progress": 40, "found_count": 1, "created_at": W.ts(timedelta(minutes=3)), "companies": [],
    })


LONG_RUN_SCORES = {500: 82, 501: 45, 502: 97, 503: 91, 504: 12, 505: 60, 506: 73, 507: 55, 508: 88, 509: 30, 510: 64}
"""ICP fit per company in `record_long_run`."""
LONG_RUN_CRM = {500: "Salesforce", 502: "HubSpot", 503: "Pipedrive"}


def record_long_run(store: Store) -> int:
    """A finished "ICP fit" run over eleven cached companies (scores `LONG_RUN_SCORES`, some
    with a CRM), one company the cache does not hold (999, no score) and one result naming
    no company (score 99); its job key."""
    results: list[dict[str, Any]] = [
        {"company_id": company_id,
         "fields": {"icp_fit": score, **({"crm": LONG_RUN_CRM[company_id]} if company_id in LONG_RUN_CRM else {})}}
        for company_id, score in LONG_RUN_SCORES.items()
    ]
    results += [{"company_id": 999, "fields": {"crm": "Zoho"}}, {"fields": {"icp_fit": 99}}]
    store.record_job("research_run", "run-70", {
        "run_id": "run-70", "status": "completed", "template_id": TEMPLATE_ID, "company_ids": [*LONG_RUN_SCORES, 999],
        "progress": 100, "created_at": W.ts(timedelta(minutes=20)), "completed_at": W.ts(timedelta(minutes=10)),
        "results": results,
    })
    return next(job.key for job in store.jobs() if job.remote_id == "run-70")


def job_key(store: Store, kind: str) -> int:
    return next(job.key for job in store.jobs() if job.kind == kind and job.status == "completed")


def sandbox_client(tmp_path: Path, **quotas: int) -> Iterator[ServiceClient]:
    """A client of a small sandbox app in-process (jobs take 0.2 s), closed after the test."""
    settings = SandboxSettings(
        db_path=tmp_path / "sandbox.sqlite3", api_keys=[SANDBOX_KEY], seed=11, companies=300, leads=0,
        job_seconds=0.2, quotas={**DEFAULT_QUOTAS, **quotas},
    )
    app = create_app(settings)
    yield ServiceClient("http://127.0.0.1", SANDBOX_KEY, transport=httpx.ASGITransport(app=app))
    app.state.db.close()
