"""Creating, changing and deleting companies and contacts: one core for the CLI and the cockpit.

These are online-only operations, like instant lookup: the rep wants the service's record
(its id, its normalised fields) at once, so nothing is queued. Offline, the client raises
`OfflineError` before anything is sent and the caller says so plainly. The cache follows
the service: the record the service answers is written into it, and a deleted record is
removed from it, so lists and pages can refresh from the cache afterwards.

Never imports Textual or Rich.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from warmline.api.errors import InputError, UnreadAnswerError
from warmline.api.limits import check_web_address
from warmline.numbers import number
from warmline.record_kinds import Entity, record_kind
from warmline.store import Store
from warmline.sync.requests import dump

if TYPE_CHECKING:
    from warmline.api import ServiceClient

# How a custom field of each schema type is written as one line of text (the wire's types:
# text, number, boolean, date, url, list). A type the schema names but we do not know is text.
CUSTOM_FIELD_FORMATS: dict[str, str] = {
    "text": "text",
    "number": "number",
    "boolean": "boolean: yes or no",
    "date": "date: YYYY-MM-DD",
    "url": "url: https://...",
    "list": "list: items separated by ;",
}
LIST_SEPARATOR = ";"
TRUE_WORDS = ("yes", "true")
FALSE_WORDS = ("no", "false")


def custom_field_format(field: Mapping[str, Any]) -> str:
    """How a value of this schema field is typed (`number`, `boolean: yes or no`, ...)."""
    return CUSTOM_FIELD_FORMATS.get(field.get("type") or "text", "text")


def custom_text(value: Any) -> str:
    """A custom field value as one line of text, the inverse of `custom_value`, so a value
    shown in a form and left alone reads back as the same text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return TRUE_WORDS[0] if value else FALSE_WORDS[0]
    if isinstance(value, list):
        return f"{LIST_SEPARATOR} ".join(custom_text(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def custom_value(field: Mapping[str, Any], text: str) -> Any:
    """One line of text as the value of a custom field of the schema, by the field's type;
    empty text is None (no value). Raises `InputError` naming the field and what it takes."""
    text = text.strip()
    if not text:
        return None
    kind = field.get("type") or "text"
    key = str(field["key"])
    label = f"{field.get('name') or key} ({key})"
    if kind == "number":
        return _number(key, label, text)
    if kind == "boolean":
        if text.lower() in TRUE_WORDS or text.lower() in FALSE_WORDS:
            return text.lower() in TRUE_WORDS
        raise InputError(key, f"{label} must be yes or no (got {text!r})")
    if kind == "date":
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            raise InputError(key, f"{label} must be a date as YYYY-MM-DD (got {text!r})") from None
    if kind == "url":
        return check_web_address(key, text, label)
    if kind == "list":
        return [item.strip() for item in text.split(LIST_SEPARATOR) if item.strip()]
    return text


def _number(key: str, label: str, text: str) -> int | float:
    """A whole number stays whole (42, not 42.0); infinities, NaN and digits other than
    ASCII 0-9 are not numbers here (`warmline.numbers`)."""
    value = number(text)
    if value is None:
        raise InputError(key, f"{label} must be a number (got {text!r})")
    return value


async def save_record(
    store: Store,
    client: ServiceClient,
    entity: Entity,
    fields: Mapping[str, Any],
    record_id: int | None = None,
    *,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """Create a record (`record_id` None) or change the given fields of one; returns the
    service's record as stored in the cache.

    On update, `custom_fields` are merged onto the service's current values, since the
    service replaces the whole mapping and a form or command names only some of them.
    """
    kind = record_kind(entity)
    body = kind.check(fields, record_id is None)
    key = idempotency_key or str(uuid.uuid4())
    try:
        if record_id is None:
            answer = await kind.create(client, body, key)
        else:
            if "custom_fields" in body:
                current = await kind.fetch(client, record_id)
                body["custom_fields"] = {**current.custom_fields, **body["custom_fields"]}
            answer = await kind.update(client, record_id, body, key)
        record = dump(answer)
    except UnreadAnswerError as exc:  # a 2xx without the record: done, read it back below
        record = {"id": _answer_id(exc.body)} if _answer_id(exc.body) is not None else {}
    if any(name not in record for name in body if name not in ("tags", "custom_fields")):
        # A sparse answer ("Company created", an id at most): the record as the service
        # now has it, so the cache never stores a blank where the rep typed a value.
        found = record.get("id", record_id)
        if not isinstance(found, int):
            raise UnreadAnswerError(
                f"The service saved the {kind.noun} but did not say its id; "
                f"`warmline {entity} --refresh` lists it", None,
            )
        record = dump(await kind.fetch(client, found))
    kind.upsert(store, [record])
    return record


def _answer_id(body: object) -> int | None:
    """The record id a minimal answer carries (`{success, message, id}` or under `data`)."""
    for holder in (body, body.get("data") if isinstance(body, Mapping) else None):
        if isinstance(holder, Mapping):
            value = holder.get("id")
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    return None


async def delete_record(
    store: Store, client: ServiceClient, entity: Entity, record_id: int, *, idempotency_key: str | None = None
) -> None:
    """Delete a record on the service, then from the cache (only once the service agreed)."""
    kind = record_kind(entity)
    await kind.delete(client, record_id, idempotency_key or str(uuid.uuid4()))
    kind.forget(store, [record_id])


# --- a lead's contacts: pick one of the company's, or describe a new one --------------------

COMPANY_CONTACTS_SHOWN = 500
"""At most this many of a company's cached contacts are offered (its contact capacity is
far smaller on every plan)."""


@dataclass(frozen=True)
class ContactChoice:
    """A contact the rep may pin on a lead: one of the lead's, or a cached contact of its
    company that the lead's cached detail does not list yet."""

    contact_id: int
    name: str
    title: str
    role: str
    email: str
    pinned: bool

    def matches(self, text: str) -> bool:
        """Whether every word typed appears in the name, title, role or email."""
        haystack = f"{self.name} {self.title} {self.role} {self.email}".casefold()
        return all(word in haystack for word in text.casefold().split())


def contact_choices(store: Store, lead_id: int) -> list[ContactChoice]:
    """The contacts a rep can pin on the lead, pinned first then by name: the lead's own
    contacts, then the company's cached contacts the lead's detail does not list yet."""
    detail = store.lead_detail(lead_id)
    if detail is None:
        return []
    choices = {
        c.contact_id: ContactChoice(c.contact_id, c.name or f"contact {c.contact_id}", c.title or "", c.role or "",
                                    c.email or "", c.is_selected)
        for c in detail.contacts
    }
    company_id = detail.lead.company_id
    if company_id is not None:
        for row in store.contacts_page("", company_id=company_id, limit=COMPANY_CONTACTS_SHOWN):
            choices.setdefault(row.id, ContactChoice(row.id, row.name or f"contact {row.id}", row.title or "",
                                                     row.role or "", row.email or "", False))
    return sorted(choices.values(), key=lambda c: (not c.pinned, c.name.casefold(), c.contact_id))


def new_contact_prefill(text: str) -> dict[str, str]:
    """A new contact's name and title from what the rep typed while looking for them:
    "Dana Berg, VP Ops" is first name Dana, last name Berg, title VP Ops."""
    name, _, title = text.partition(",")
    first, _, last = name.strip().partition(" ")
    return {"first_name": first.strip(), "last_name": last.strip(), "title": title.strip()}


def new_contact_fields(company_id: int | None, values: Mapping[str, str]) -> dict[str, Any]:
    """The body of a new contact of the lead's company from the form's values (empty ones
    left out), checked against the spec's limits: raises `InputError` naming the field."""
    fields: dict[str, Any] = {key: value.strip() for key, value in values.items() if value.strip()}
    if "role" in fields:
        fields["role"] = fields["role"].lower().replace(" ", "-").replace("_", "-")
    if company_id is not None:
        fields["company_id"] = company_id
    return record_kind("contacts").check(fields, True)
