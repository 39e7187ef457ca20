"""Contact search: start, poll, add found people to the contact list.

The add endpoint answers errors in the spec's short `{error}` shape.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from warmline_sandbox import contact_search, jobs
from warmline_sandbox import limits as L
from warmline_sandbox.contacts import Role
from warmline_sandbox.deps import Ctx
from warmline_sandbox.errors import ApiError, not_found, short_errors
from warmline_sandbox.params import Id, IdPath

router = APIRouter(tags=["contact search"])


class ContactSearchBody(BaseModel):
    company_id: Id
    roles: Annotated[list[Role], Field(max_length=3)] = []


class AddContactsBody(BaseModel):
    contact_ids: Annotated[list[Id], Field(max_length=L.IDS_PER_REQUEST_MAX)]


@router.post("/v1/contacts/search", status_code=201, summary="Start a contact search for a company (1 deep search)")
def start_contact_search(body: ContactSearchBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return contact_search.start(
            conn, body.company_id, list(body.roles), api_key=ctx.api_key, clock=ctx.clock,
            seconds=ctx.settings.job_seconds, seed=ctx.settings.seed,
        )


@router.get("/v1/contacts/search/{job_id}", summary="Poll a contact search")
def poll_contact_search(job_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        job = jobs.observe(conn, job_id, ctx.clock, kind="contact_search")
        if job is None:
            raise not_found(contact_search.JOB_NOT_FOUND)
        return contact_search.view(conn, job)


@router.post(short_errors("/v1/contacts/search/{job_id}/add"), summary="Add found contacts to the contact list")
def add_found_contacts(job_id: IdPath, body: AddContactsBody, ctx: Ctx) -> dict[str, Any]:
    if not body.contact_ids:
        raise ApiError(400, "contact_ids must not be empty", shape="short")
    with ctx.db.transaction() as conn:
        job = jobs.observe(conn, job_id, ctx.clock, kind="contact_search")
        if job is None:
            raise not_found(contact_search.JOB_NOT_FOUND, shape="short")
        return contact_search.add(conn, job, body.contact_ids, api_key=ctx.api_key, now=ctx.clock.now())
