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
import math
import uuid
from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from warmline.api import limits
from warmline.api.errors import InputError
from warmline.store import Store
from warmline.sync.requests import dump

if TYPE_CHECKING:
    from warmline.api import ServiceClient

Entity = Literal["companies", "contacts"]
NOUNS: dict[str, str] = {"companies": "company", "contacts": "contact"}


def noun(entity: str) -> str:
    """`company` or `contact`: the client's and store's method names are built from it."""
    if entity not in NOUNS:
        raise ValueError(f"entity must be one of {', '.join(NOUNS)} (got {entity!r})")
    return NOUNS[entity]


def check_fields(entity: str, fields: Mapping[str, Any], *, creating: bool) -> dict[str, Any]:
    """The body to send, checked against the spec's limits before any request.

    Raises `InputError` naming the field (a company needs a `name` of 1-200 characters; a
    new contact a `first_name` or a `last_name`), so a form can point at what to fix.
    """
    check = limits.check_company_fields if noun(entity) == "company" else limits.check_contact_fields
    return check(dict(fields), creating=creating)


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
        parts = urlsplit(text)
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
            raise InputError(key, f"{label} must be a web address starting with https:// or http:// (got {text!r})")
        return text
    if kind == "list":
        return [item.strip() for item in text.split(LIST_SEPARATOR) if item.strip()]
    return text


def _number(key: str, label: str, text: str) -> int | float:
    """A whole number stays whole (42, not 42.0); infinities and NaN are not numbers here."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise InputError(key, f"{label} must be a number (got {text!r})")
    return number


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
    name = noun(entity)
    body = check_fields(entity, fields, creating=record_id is None)
    key = idempotency_key or str(uuid.uuid4())
    if record_id is None:
        answer = await getattr(client, f"create_{name}")(body, idempotency_key=key)
    else:
        if "custom_fields" in body:
            current = await getattr(client, f"get_{name}")(record_id)
            body["custom_fields"] = {**current.custom_fields, **body["custom_fields"]}
        answer = await getattr(client, f"update_{name}")(record_id, body, idempotency_key=key)
    record = dump(answer)
    getattr(store, f"upsert_{entity}")([record])
    return record


async def delete_record(
    store: Store, client: ServiceClient, entity: Entity, record_id: int, *, idempotency_key: str | None = None
) -> None:
    """Delete a record on the service, then from the cache (only once the service agreed)."""
    name = noun(entity)
    key = idempotency_key or str(uuid.uuid4())
    await getattr(client, f"delete_{name}")(record_id, idempotency_key=key)
    getattr(store, f"delete_{entity}")([record_id])
