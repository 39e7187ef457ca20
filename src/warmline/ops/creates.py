"""Records made offline: `create_contact` and `create_company`. The record shows at once under a local id (a
negative number, never a service id; its effect is a `LocalRecord`), ops may name it (a
pin, an activity with it), and the service's id takes its place everywhere when the create
is delivered (`warmline.store.effects`); their validation, requests, probes and `OpSpec`s.
A contact may name a company made offline (its `company_id` a local id): it waits for the
company's create and is sent with the service's id.

Reconciliation of a create whose answer was lost: the request carries the op id as its
Idempotency-Key, so a service that keeps keys answers the resend with the same contact;
one that does not is probed first. The contact is ours when the service has a contact of
the same company with the same names and email, made at or after our first send, that no
other of our creates owns. Only then is it adopted; otherwise the create is sent again.
A company is ours when the service has one of the same name and domain, made at or after
our first send, that no other of our creates of companies owns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from warmline.api import limits
from warmline.api.errors import BadResponseError, InputError, UnreadAnswerError
from warmline.ops.confirmation import Check, Verdict, record_of
from warmline.ops.effects import LocalRecord, Reconcile
from warmline.ops.facts import CacheFacts
from warmline.ops.matching import oldest_match, since
from warmline.ops.op import Answer, Op
from warmline.ops.parts import dump, probe_of, request_of
from warmline.ops.spec import OpSpec
from warmline.ops.validation import optional_record_id

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient
    from warmline.api.models import Company, Contact


class CreateContact(TypedDict):
    """The contact's fields as sent, and the local id it carries until the service's."""

    local_id: int
    first_name: NotRequired[str]
    last_name: NotRequired[str]
    email: NotRequired[str]
    title: NotRequired[str]
    role: NotRequired[str]
    company_id: NotRequired[int]
    social_url: NotRequired[str]
    phone: NotRequired[str]


LOCAL_FIELD = "local_id"
"""The payload's field holding the local id: kept in the outbox, never sent."""

_MATCHED = ("first_name", "last_name", "email", "company_id")
"""What a probe compares: a contact made with other names, email or company is not ours."""


def valid_create_contact(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    local_id = p.get(LOCAL_FIELD)
    if not isinstance(local_id, int) or isinstance(local_id, bool) or local_id >= 0:
        raise InputError(LOCAL_FIELD, f"a contact made offline needs a negative local id (got {local_id!r})")
    company_id = optional_record_id(cache, "company_id", p.get("company_id"))  # may be a company made offline
    fields = {k: v for k, v in p.items() if k not in (LOCAL_FIELD, "company_id")}
    body = limits.check_contact_fields(fields, creating=True)
    return {LOCAL_FIELD: local_id, **body, **({} if company_id is None else {"company_id": company_id})}


def body_of(p: Mapping[str, Any]) -> dict[str, Any]:
    """The request's body: the payload without its local id."""
    return {key: value for key, value in p.items() if key != LOCAL_FIELD}


async def send_create_contact(client: ServiceClient, p: CreateContact, key: str) -> Answer:
    """Create the contact; a sparse 2xx (no record) is read back by the id it names, else
    found as a probe would find it. Without an id there is nothing to put for the local one,
    so such an answer counts as lost (the op is reconciled, never marked done blind)."""
    try:
        return {"contact": dump(await client.create_contact(body_of(p), idempotency_key=key))}
    except UnreadAnswerError as exc:
        said = _answer_id(exc.body)
        if said is not None:
            return {"contact": dump(await client.get_contact(said))}
        raise BadResponseError(f"the service saved the contact but did not say its id ({exc})") from exc


def _answer_id(body: object) -> int | None:
    for holder in (body, body.get("data") if isinstance(body, Mapping) else None):
        if isinstance(holder, Mapping):
            value = holder.get("id")
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
    return None


def _owned(cache: CacheFacts, op: Op, answer_key: str = "contact") -> set[int]:
    """Service ids our other creates of the same kind were given (delivered or adopted)."""
    owned: set[int] = set()
    for result in cache.other_done_results(None, op.kind, op.op_id):
        record = result.get(answer_key)
        if isinstance(record, Mapping) and isinstance(record.get("id"), int):
            owned.add(record["id"])
    return owned


def _same(contact: Contact, p: CreateContact) -> bool:
    wanted: Mapping[str, object] = p
    return all((getattr(contact, name) or None) == (wanted.get(name) or None) for name in _MATCHED)


async def probe_create_contact(client: ServiceClient, cache: CacheFacts, op: Op, p: CreateContact) -> Answer | None:
    words = p.get("email") or " ".join(part for part in (p.get("first_name"), p.get("last_name")) if part)
    page = await client.list_contacts(1, limits.PER_PAGE_MAX, search=words or None, company_id=p.get("company_id"))
    match = oldest_match(page.items, lambda c: _same(c, p), _owned(cache, op), since(client, op))
    if match is None:
        return None
    return {"contact": dump(match), "reconciled": True}


def _has_id(op: Op, answer: Answer) -> Verdict:
    record = record_of(answer, "contact")
    return True if record is not None and isinstance(record.get("id"), int) else None


def _has_company_id(op: Op, answer: Answer) -> Verdict:
    record = record_of(answer, "company")
    return True if record is not None and isinstance(record.get("id"), int) else None


CONTACT_MADE = LocalRecord("contacts", "contact_id", "contact")


CREATE_CONTACT_SPEC = OpSpec(
    payload=CreateContact,
    validate=valid_create_contact,
    editable=("first_name", "last_name", "email", "title", "role"),
    derive_meta=None,
    effect=CONTACT_MADE,
    reconcile=Reconcile.KEYED,
    send=request_of(send_create_contact),
    annotate_late=False,
    probe=probe_of(probe_create_contact),
    confirm=Check(_has_id, None, "", "", None),
    done_if_card_gone=False,
)


# --- create_company ------------------------------------------------------------------------------


class CreateCompany(TypedDict):
    """The company's fields as sent, and the local id it carries until the service's."""

    local_id: int
    name: str
    domain: NotRequired[str]
    industry: NotRequired[str]
    country: NotRequired[str]
    region: NotRequired[str]
    size: NotRequired[str]
    description: NotRequired[str]
    tags: NotRequired[list[str]]
    custom_fields: NotRequired[dict[str, Any]]


def valid_create_company(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    local_id = p.get(LOCAL_FIELD)
    if not isinstance(local_id, int) or isinstance(local_id, bool) or local_id >= 0:
        raise InputError(LOCAL_FIELD, f"a company made offline needs a negative local id (got {local_id!r})")
    body = limits.check_company_fields(body_of(p), creating=True)
    return {LOCAL_FIELD: local_id, **body}


async def send_create_company(client: ServiceClient, p: CreateCompany, key: str) -> Answer:
    """Create the company; a sparse 2xx is read back by the id it names, else it counts as
    lost (reconciled by the probe, never marked done without an id to substitute)."""
    try:
        return {"company": dump(await client.create_company(body_of(p), idempotency_key=key))}
    except UnreadAnswerError as exc:
        said = _answer_id(exc.body)
        if said is not None:
            return {"company": dump(await client.get_company(said))}
        raise BadResponseError(f"the service saved the company but did not say its id ({exc})") from exc


def _same_company(company: Company, p: CreateCompany) -> bool:
    return company.name.strip().lower() == p["name"].strip().lower() and (
        (company.domain or "").lower() == (p.get("domain") or "").lower()
    )


async def probe_create_company(client: ServiceClient, cache: CacheFacts, op: Op, p: CreateCompany) -> Answer | None:
    page = await client.list_companies(1, limits.PER_PAGE_MAX, search=p["name"])
    owned = _owned(cache, op, "company")
    match = oldest_match(page.items, lambda c: _same_company(c, p), owned, since(client, op))
    if match is None:
        return None
    return {"company": dump(match), "reconciled": True}


COMPANY_MADE = LocalRecord("companies", "company_id", "company")


CREATE_COMPANY_SPEC = OpSpec(
    payload=CreateCompany,
    validate=valid_create_company,
    editable=("name", "domain", "industry", "country", "region", "size", "description"),
    derive_meta=None,
    effect=COMPANY_MADE,
    reconcile=Reconcile.KEYED,
    send=request_of(send_create_company),
    annotate_late=False,
    probe=probe_of(probe_create_company),
    confirm=Check(_has_company_id, None, "", "", None),
    done_if_card_gone=False,
)
