"""Contacts: CRUD, list with filters and pagination, custom field schema, tags."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Field, model_validator

from warmline_sandbox import companies, contacts
from warmline_sandbox import limits as L
from warmline_sandbox.contacts import Role
from warmline_sandbox.deps import Ctx
from warmline_sandbox.errors import bad_request, not_found
from warmline_sandbox.pagination import PageQuery, paginated
from warmline_sandbox.params import Id, IdPath
from warmline_sandbox.records import field_schema
from warmline_sandbox.routes.records import RecordBody

router = APIRouter(tags=["contacts"])


class ContactUpdate(RecordBody):
    company_id: Id | None = None
    first_name: Annotated[str, Field(max_length=L.CONTACT_FIELD_MAX_CHARS["first_name"])] | None = None
    last_name: Annotated[str, Field(max_length=L.CONTACT_FIELD_MAX_CHARS["last_name"])] | None = None
    email: Annotated[str, Field(max_length=L.CONTACT_FIELD_MAX_CHARS["email"])] | None = None
    title: Annotated[str, Field(max_length=L.CONTACT_FIELD_MAX_CHARS["title"])] | None = None
    role: Role | None = None
    social_url: Annotated[str, Field(max_length=L.CONTACT_FIELD_MAX_CHARS["social_url"])] | None = None
    phone: Annotated[str, Field(max_length=L.CONTACT_FIELD_MAX_CHARS["phone"])] | None = None


class ContactCreate(ContactUpdate):
    @model_validator(mode="after")
    def _needs_a_name(self) -> ContactCreate:
        if not (self.first_name or "").strip() and not (self.last_name or "").strip():
            raise ValueError("first_name or last_name is required")
        return self


def _found(contact: dict[str, Any] | None) -> dict[str, Any]:
    if contact is None:
        raise not_found(contacts.CONTACT_NOT_FOUND)
    return contact


def _check_company(conn: Any, company_id: int | None) -> None:
    if company_id is not None and companies.get_company(conn, company_id) is None:
        raise bad_request("company_id", companies.COMPANY_NOT_FOUND)


@router.get("/v1/contacts", summary="List contacts with pagination and filtering")
def list_contacts(
    ctx: Ctx,
    page: PageQuery,
    search: Annotated[str | None, Query(max_length=L.FILTER_MAX_CHARS, description="name, email or title contains")] = None,
    company_id: Annotated[int | None, Query(ge=1, le=L.ID_MAX)] = None,
    tag: Annotated[str | None, Query(max_length=L.TAG_MAX_CHARS)] = None,
) -> dict[str, Any]:
    with ctx.db.read() as conn:
        items, total = contacts.list_contacts(
            conn, offset=page.offset, limit=page.per_page, search=search, company_id=company_id, tag=tag
        )
    return paginated(items, page, total)


@router.get("/v1/contacts/fields", summary="List the contact custom field schema")
def contact_fields(ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as conn:
        return {"success": True, "data": field_schema(conn, contacts.FIELDS_TABLE)}


@router.get("/v1/contacts/{contact_id}", summary="Get one contact")
def get_contact(contact_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as conn:
        return {"success": True, "data": _found(contacts.get_contact(conn, contact_id))}


@router.get("/v1/contacts/{contact_id}/tags", summary="Get a contact's tags")
def contact_tags(contact_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as conn:
        return {"success": True, "data": _found(contacts.get_contact(conn, contact_id))["tags"]}


@router.post("/v1/contacts", status_code=201, summary="Create a contact")
def create_contact(body: ContactCreate, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        _check_company(conn, body.company_id)
        contact = contacts.create_contact(conn, body.changes(), now=ctx.clock.now(), api_key=ctx.api_key)
    return {"success": True, "data": contact}


@router.put("/v1/contacts/{contact_id}", summary="Update a contact (only the given fields)")
def update_contact(
    contact_id: IdPath, body: ContactUpdate, ctx: Ctx
) -> dict[str, Any]:
    changes = body.changes()
    with ctx.db.transaction() as conn:
        _found(contacts.get_contact(conn, contact_id))
        _check_company(conn, changes.get("company_id"))
        contact = contacts.update_contact(conn, contact_id, changes, now=ctx.clock.now())
    return {"success": True, "data": _found(contact)}


@router.delete("/v1/contacts/{contact_id}", summary="Delete a contact")
def delete_contact(contact_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        deleted = contacts.delete_contact(conn, contact_id)
    if not deleted:
        raise not_found(contacts.CONTACT_NOT_FOUND)
    return {"success": True, "data": {"id": contact_id, "deleted": True}}
