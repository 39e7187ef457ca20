"""Companies: CRUD, list with filters and pagination, custom field schema, tags."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Field

from warmline_sandbox import companies, jobs
from warmline_sandbox import limits as L
from warmline_sandbox.deps import Ctx
from warmline_sandbox.errors import ApiError, conflict, not_found
from warmline_sandbox.pagination import PageQuery, paginated
from warmline_sandbox.params import IdPath
from warmline_sandbox.records import field_schema
from warmline_sandbox.routes.records import RecordBody

router = APIRouter(tags=["companies"])

# Jobs whose completion adds or changes companies: finish them before reading companies.
COMPANY_JOB_KINDS = ("deep_search", "research_run")


class CompanyUpdate(RecordBody):
    name: Annotated[str, Field(min_length=1, max_length=L.COMPANY_FIELD_MAX_CHARS["name"])] | None = None
    domain: Annotated[str, Field(max_length=L.COMPANY_FIELD_MAX_CHARS["domain"])] | None = None
    industry: Annotated[str, Field(max_length=L.COMPANY_FIELD_MAX_CHARS["industry"])] | None = None
    country: Annotated[str, Field(max_length=L.COMPANY_FIELD_MAX_CHARS["country"])] | None = None
    region: Annotated[str, Field(max_length=L.COMPANY_FIELD_MAX_CHARS["region"])] | None = None
    size: Annotated[str, Field(max_length=L.COMPANY_FIELD_MAX_CHARS["size"])] | None = None
    description: Annotated[str, Field(max_length=L.COMPANY_FIELD_MAX_CHARS["description"])] | None = None


class CompanyCreate(CompanyUpdate):
    name: Annotated[str, Field(min_length=1, max_length=L.COMPANY_FIELD_MAX_CHARS["name"])]


def _found(company: dict[str, Any] | None) -> dict[str, Any]:
    if company is None:
        raise not_found(companies.COMPANY_NOT_FOUND)
    return company


@router.get("/v1/companies", summary="List companies with pagination and filtering")
def list_companies(
    ctx: Ctx,
    page: PageQuery,
    search: Annotated[str | None, Query(max_length=L.FILTER_MAX_CHARS, description="name or domain contains")] = None,
    industry: Annotated[str | None, Query(max_length=L.FILTER_MAX_CHARS)] = None,
    country: Annotated[str | None, Query(max_length=L.FILTER_MAX_CHARS)] = None,
    tag: Annotated[str | None, Query(max_length=L.TAG_MAX_CHARS)] = None,
) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        jobs.finish_due(conn, ctx.clock, COMPANY_JOB_KINDS)
        items, total = companies.list_companies(
            conn, offset=page.offset, limit=page.per_page, search=search, industry=industry, country=country, tag=tag
        )
    return paginated(items, page, total)


@router.get("/v1/companies/fields", summary="List the company custom field schema")
def company_fields(ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as conn:
        return {"success": True, "data": field_schema(conn, companies.FIELDS_TABLE)}


@router.get("/v1/companies/{company_id}", summary="Get one company")
def get_company(company_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        jobs.finish_due(conn, ctx.clock, COMPANY_JOB_KINDS)
        return {"success": True, "data": _found(companies.get_company(conn, company_id))}


@router.get("/v1/companies/{company_id}/tags", summary="Get a company's tags")
def company_tags(company_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        jobs.finish_due(conn, ctx.clock, COMPANY_JOB_KINDS)
        return {"success": True, "data": _found(companies.get_company(conn, company_id))["tags"]}


@router.post("/v1/companies", status_code=201, summary="Create a company")
def create_company(body: CompanyCreate, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        company = companies.create_company(conn, body.changes(), now=ctx.clock.now(), api_key=ctx.api_key)
    return {"success": True, "data": company}


@router.put("/v1/companies/{company_id}", summary="Update a company (only the given fields)")
def update_company(
    company_id: IdPath, body: CompanyUpdate, ctx: Ctx
) -> dict[str, Any]:
    changes = body.changes()
    if changes.get("name", "") is None:
        raise ApiError(400, "Validation failed", errors=[{"field": "name", "message": "name cannot be null"}])
    with ctx.db.transaction() as conn:
        company = companies.update_company(conn, company_id, changes, now=ctx.clock.now())
    return {"success": True, "data": _found(company)}


@router.delete("/v1/companies/{company_id}", summary="Delete a company")
def delete_company(company_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    try:
        with ctx.db.transaction() as conn:
            deleted = companies.delete_company(conn, company_id)
    except sqlite3.IntegrityError as exc:
        raise conflict("Company is in outreach; remove its lead first") from exc
    if not deleted:
        raise not_found(companies.COMPANY_NOT_FOUND)
    return {"success": True, "data": {"id": company_id, "deleted": True}}
