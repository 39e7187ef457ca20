"""Companies and contacts as two kinds of one record: every call that differs between
them, named once, so that the cockpit's lists and forms and the CLI's record commands run
one code path for both (`warmline.records` creates, changes and deletes through it).

Light to import: the command line lists the cache with it without loading the HTTP client
(the service's types are annotations only; the spec's field checks load it when called).
Never imports Textual or Rich.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, TypeVar

from warmline.store.rows import CompanyRow, ContactRow

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.api.models import Company, Contact, CustomField
    from warmline.store import Store
    from warmline.sync.refresh import Refresher

Entity = Literal["companies", "contacts"]
Row = TypeVar("Row", CompanyRow, ContactRow)
Model = TypeVar("Model", "Company", "Contact")


@dataclass(frozen=True)
class RecordKind(Generic[Row, Model]):
    """Companies or contacts: every call that differs between the two, named once, so that
    the cockpit's forms and lists and the CLI's record commands share one code path.

    The service's calls take the client (and an idempotency key where they change
    something); the cache's take the store; `refresh_all` fetches the whole list into the
    cache (`warmline companies --refresh`).
    """

    entity: Entity
    noun: str
    check: Callable[[Mapping[str, Any], bool], dict[str, Any]]
    """The body to send (fields, creating), checked against the spec's limits before any
    request: raises `InputError` naming the field (a company needs a `name` of 1-200
    characters; a new contact a `first_name` or a `last_name`), so a form can point at
    what to fix."""
    # the service
    create: Callable[[ServiceClient, Mapping[str, Any], str], Awaitable[Model]]
    fetch: Callable[[ServiceClient, int], Awaitable[Model]]
    update: Callable[[ServiceClient, int, Mapping[str, Any], str], Awaitable[Model]]
    delete: Callable[[ServiceClient, int, str], Awaitable[object]]
    field_schema: Callable[[ServiceClient], Awaitable[list[CustomField]]]
    tags: Callable[[ServiceClient, int], Awaitable[list[str]]]
    refresh_all: Callable[[Refresher], Awaitable[int]]
    # the cache
    cached: Callable[[Store, int], Row | None]
    page: Callable[[Store, str, int, int], Sequence[Row]]
    """One page of the cached list by name (text, offset, limit), `text` matching the name
    or the domain (email)."""
    count: Callable[[Store, str], int]
    upsert: Callable[[Store, Iterable[Mapping[str, Any]]], int]
    forget: Callable[[Store, Iterable[int]], None]


def _check_company(fields: Mapping[str, Any], creating: bool) -> dict[str, Any]:
    # deferred: command line (the api package loads the HTTP client)
    from warmline.api import limits

    return limits.check_company_fields(dict(fields), creating=creating)


def _check_contact(fields: Mapping[str, Any], creating: bool) -> dict[str, Any]:
    # deferred: command line (the api package loads the HTTP client)
    from warmline.api import limits

    return limits.check_contact_fields(dict(fields), creating=creating)


COMPANY_RECORDS: RecordKind[CompanyRow, Company] = RecordKind(
    entity="companies",
    noun="company",
    check=_check_company,
    create=lambda client, body, key: client.create_company(body, idempotency_key=key),
    fetch=lambda client, record_id: client.get_company(record_id),
    update=lambda client, record_id, body, key: client.update_company(record_id, body, idempotency_key=key),
    delete=lambda client, record_id, key: client.delete_company(record_id, idempotency_key=key),
    field_schema=lambda client: client.company_fields(),
    tags=lambda client, record_id: client.company_tags(record_id),
    refresh_all=lambda refresher: refresher.companies(),
    cached=lambda store, record_id: store.get_company(record_id),
    page=lambda store, text, offset, limit: store.companies_page(text, offset=offset, limit=limit),
    count=lambda store, text: store.company_count(text),
    upsert=lambda store, items: store.upsert_companies(items),
    forget=lambda store, ids: store.delete_companies(ids),
)
CONTACT_RECORDS: RecordKind[ContactRow, Contact] = RecordKind(
    entity="contacts",
    noun="contact",
    check=_check_contact,
    create=lambda client, body, key: client.create_contact(body, idempotency_key=key),
    fetch=lambda client, record_id: client.get_contact(record_id),
    update=lambda client, record_id, body, key: client.update_contact(record_id, body, idempotency_key=key),
    delete=lambda client, record_id, key: client.delete_contact(record_id, idempotency_key=key),
    field_schema=lambda client: client.contact_fields(),
    tags=lambda client, record_id: client.contact_tags(record_id),
    refresh_all=lambda refresher: refresher.contacts(),
    cached=lambda store, record_id: store.get_contact(record_id),
    page=lambda store, text, offset, limit: store.contacts_page(text, offset=offset, limit=limit),
    count=lambda store, text: store.contact_count(text),
    upsert=lambda store, items: store.upsert_contacts(items),
    forget=lambda store, ids: store.delete_contacts(ids),
)
AnyRecordKind: TypeAlias = "RecordKind[CompanyRow, Company] | RecordKind[ContactRow, Contact]"
RECORD_KINDS: dict[Entity, AnyRecordKind] = {"companies": COMPANY_RECORDS, "contacts": CONTACT_RECORDS}


def record_kind(entity: Entity) -> AnyRecordKind:
    """The record kind of `companies` or `contacts`; anything else is a programming error."""
    if entity not in RECORD_KINDS:
        raise ValueError(f"entity must be one of {', '.join(RECORD_KINDS)} (got {entity!r})")
    return RECORD_KINDS[entity]
