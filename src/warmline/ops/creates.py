"""Records made offline: `create_contact`. The contact shows at once under a local id (a
negative number, never a service id; its effect is a `LocalRecord`), ops may name it (a
pin, an activity with it), and the service's id takes its place everywhere when the create
is delivered (`warmline.store.effects`); its validation, request, probe and `OpSpec`.

Reconciliation of a create whose answer was lost: the request carries the op id as its
Idempotency-Key, so a service that keeps keys answers the resend with the same contact;
one that does not is probed first. The contact is ours when the service has a contact of
the same company with the same names and email, made at or after our first send, that no
other of our creates owns. Only then is it adopted; otherwise the create is sent again.
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

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient
    from warmline.api.models import Contact


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
    body = limits.check_contact_fields({k: v for k, v in p.items() if k != LOCAL_FIELD}, creating=True)
    return {LOCAL_FIELD: local_id, **body}


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


def _owned(cache: CacheFacts, op: Op) -> set[int]:
    """Service ids our other creates of contacts were given (delivered or adopted)."""
    owned: set[int] = set()
    for result in cache.other_done_results(None, op.kind, op.op_id):
        record = result.get("contact")
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
