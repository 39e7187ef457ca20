"""Creating, changing and deleting companies and contacts: one core for the CLI and the cockpit.

These are online-only operations, like instant lookup: the rep wants the service's record
(its id, its normalised fields) at once, so nothing is queued. Offline, the client raises
`OfflineError` before anything is sent and the caller says so plainly. The cache follows
the service: the record the service answers is written into it, and a deleted record is
removed from it, so lists and pages can refresh from the cache afterwards.

Never imports Textual or Rich.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, Literal

from warmline.api import limits
from warmline.store import Store
from warmline.sync.requests import dump

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


async def save_record(
    store: Store,
    client: Any,
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
    store: Store, client: Any, entity: Entity, record_id: int, *, idempotency_key: str | None = None
) -> None:
    """Delete a record on the service, then from the cache (only once the service agreed)."""
    name = noun(entity)
    key = idempotency_key or str(uuid.uuid4())
    await getattr(client, f"delete_{name}")(record_id, idempotency_key=key)
    getattr(store, f"delete_{entity}")([record_id])
