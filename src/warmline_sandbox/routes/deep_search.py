"""Company deep search (detailed paths) and per-company deep research (overview paths)."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from warmline_sandbox import companies, deep_search, jobs
from warmline_sandbox import limits as L
from warmline_sandbox.deps import Ctx
from warmline_sandbox.errors import not_found
from warmline_sandbox.params import IdPath

router = APIRouter(tags=["deep search"])


class DeepSearchBody(BaseModel):
    query: Annotated[str, Field(min_length=L.QUERY_MIN_CHARS, max_length=L.DEEP_SEARCH_QUERY_MAX_CHARS)]
    max_results: Annotated[int, Field(ge=1, le=L.DEEP_SEARCH_MAX_RESULTS)] = 20


class CompanyResearchBody(BaseModel):
    focus: Annotated[str, Field(max_length=L.FOCUS_MAX_CHARS)] | None = None


@router.post("/v1/companies/deep-search", status_code=201, summary="Start a company deep search (1 deep search)")
def start_deep_search(body: DeepSearchBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return deep_search.start(
            conn, body.query, body.max_results, api_key=ctx.api_key, clock=ctx.clock, seconds=ctx.settings.job_seconds
        )


@router.get("/v1/companies/deep-search/{job_id}", summary="Poll a company deep search")
def poll_deep_search(job_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        job = jobs.observe(conn, job_id, ctx.clock, kind="deep_search")
        if job is None:
            raise not_found(deep_search.JOB_NOT_FOUND)
        return deep_search.view(conn, job)


@router.post("/v1/companies/{company_id}/deep-search", status_code=201,
             summary="Start deep research of one company (1 deep search)")
def start_company_research(company_id: IdPath, ctx: Ctx, body: CompanyResearchBody | None = None) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        _require_company(conn, company_id)
        return deep_search.start_research(
            conn, company_id, body.focus if body else None,
            api_key=ctx.api_key, clock=ctx.clock, seconds=ctx.settings.job_seconds,
        )


@router.get("/v1/companies/{company_id}/deep-search/{search_id}", summary="Get a company deep research's results")
def poll_company_research(company_id: IdPath, search_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        _require_company(conn, company_id)
        job = jobs.observe(conn, search_id, ctx.clock, kind="company_research")
        if job is None or job["params"]["company_id"] != company_id:
            raise not_found(deep_search.JOB_NOT_FOUND)
        return deep_search.research_view(job)


def _require_company(conn: sqlite3.Connection, company_id: int) -> None:
    """The path names a company first: an unknown one is `Company not found`, as on every
    `/v1/companies/:id` path, before its searches are looked at (then `Job not found`)."""
    if companies.get_company(conn, company_id) is None:
        raise not_found(companies.COMPANY_NOT_FOUND)
