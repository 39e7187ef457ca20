"""A saved contact's page in one read: the record, the name of its company, and its
custom fields by the schema."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warmline.store.custom_fields import FieldValue, field_schema, labelled_fields
from warmline.store.rows import ContactRow

if TYPE_CHECKING:
    from warmline.store import Store


@dataclass(frozen=True)
class ContactPage:
    """What the contact page shows; `company_name` is None when its company is not cached."""

    contact: ContactRow
    company_name: str | None
    fields: tuple[FieldValue, ...]


def contact_page(store: Store, contact_id: int) -> ContactPage | None:
    """The page of a cached contact; None when the cache does not hold it."""
    with store.read():
        contact = store.get_contact(contact_id)
        if contact is None:
            return None
        company = store.get_company(contact.company_id) if contact.company_id is not None else None
        fields = labelled_fields(contact.custom_fields, field_schema(store, "contacts")) if contact.custom_fields else ()
    return ContactPage(contact, company.name if company is not None else None, fields)
