"""Contract: health, companies and contacts, client against sandbox."""

from __future__ import annotations

import pytest

from support.contract import API_KEY, Sandbox, new_company, new_lead
from warmline.api import ServiceClient
from warmline.api.errors import AuthError, ConflictError, NotFoundError
from warmline_sandbox.contacts import FIELDS_TABLE as CONTACT_FIELDS_TABLE
from warmline_sandbox.records import ensure_field

FIELD_TYPES = {"text", "number", "boolean", "date", "url", "list"}


async def test_health_reports_status_and_whether_a_key_was_checked(sandbox: Sandbox) -> None:
    health = await sandbox.client().health()
    assert (health.status, health.version, health.authenticated) == ("ok", "1.0", True)
    assert health.time == sandbox.clock.now()

    anonymous = await sandbox.client(key=None).health()
    assert anonymous.status == "ok" and anonymous.authenticated is False
    assert "authorization" not in sandbox.transport.exchanges[-1].request_headers


async def test_an_invalid_key_is_refused_on_health_and_on_operations(sandbox: Sandbox) -> None:
    stranger = sandbox.client(key="wl-not-a-registered-key")
    for call in (stranger.health(), stranger.list_companies(), stranger.get_lead(1)):
        with pytest.raises(AuthError) as caught:
            await call
        assert caught.value.status == 401
        assert caught.value.message == "Invalid or missing API key"
    assert "wl-not-a-registered-key" not in repr(stranger)


async def test_company_create_get_update_delete(client: ServiceClient) -> None:
    created = await client.create_company(
        {
            "name": "Nordlicht Logistics",
            "domain": "nordlicht.example",
            "industry": "Logistics",
            "country": "Germany",
            "size": "51-200",
            "tags": ["q4-target"],
            "custom_fields": {"icp_fit_score": 7},
        }
    )
    assert created.id > 0 and created.name == "Nordlicht Logistics"
    assert created.source == "manual" and created.ai_tag is None
    assert created.tags == ["q4-target"] and created.custom_fields == {"icp_fit_score": 7}
    assert created.created_at is not None and created.created_at.tzinfo is not None

    fetched = await client.get_company(created.id)
    assert fetched.model_dump() == created.model_dump()

    updated = await client.update_company(
        created.id, {"industry": "Freight", "custom_fields": {"uses_crm": True}}
    )
    assert updated.industry == "Freight"
    assert (updated.name, updated.domain, updated.country) == (
        "Nordlicht Logistics",
        "nordlicht.example",
        "Germany",
    )
    assert updated.custom_fields == {"icp_fit_score": 7, "uses_crm": True}
    assert (await client.company_tags(created.id)) == ["q4-target"]

    deleted = await client.delete_company(created.id)
    assert (deleted.id, deleted.deleted) == (created.id, True)
    with pytest.raises(NotFoundError, match="^Company not found$"):
        await client.get_company(created.id)
    with pytest.raises(NotFoundError, match="^Company not found$"):
        await client.company_tags(created.id)
    with pytest.raises(NotFoundError, match="^Company not found$"):
        await client.update_company(created.id, {"industry": "Rail"})
    with pytest.raises(NotFoundError, match="^Company not found$"):
        await client.delete_company(created.id)


async def test_company_list_pages_and_filters(client: ServiceClient) -> None:
    ids = [
        await new_company(client, f"Kestrel Freight {n}", industry="Logistics", tags=["kestrel"])
        for n in range(3)
    ]
    first = await client.list_companies(1, 2, tag="kestrel")
    second = await client.list_companies(2, 2, tag="kestrel")
    assert (first.pagination.page, first.pagination.per_page) == (1, 2)
    assert (first.pagination.total, first.pagination.total_pages) == (3, 2)
    assert first.has_next and not second.has_next
    assert sorted(c.id for c in first.items + second.items) == sorted(ids)

    found = await client.list_companies(search="KESTREL FREIGHT 1")
    assert [c.id for c in found.items] == [ids[1]]
    logistics = await client.list_companies(per_page=200, industry="Logistics", tag="kestrel")
    assert {c.id for c in logistics.items} == set(ids)
    assert (await client.list_companies(tag="no-such-tag")).items == []

    everything = await client.list_companies(per_page=50)
    assert everything.pagination.total is not None and everything.pagination.total >= 3
    assert len(everything.items) == min(50, everything.pagination.total)


async def test_company_field_schema_is_typed(client: ServiceClient) -> None:
    fields = await client.company_fields()
    assert fields, "the seeded research templates declare company custom fields"
    assert len({f.key for f in fields}) == len(fields)
    assert all(f.name and f.type in FIELD_TYPES for f in fields)


async def test_a_company_in_outreach_cannot_be_deleted(client: ServiceClient) -> None:
    lead = await new_lead(client, "Held Company")
    with pytest.raises(ConflictError) as caught:
        await client.delete_company(lead.company_id)
    assert caught.value.status == 409
    assert (await client.get_company(lead.company_id)).id == lead.company_id


async def test_contact_create_get_update_delete(client: ServiceClient) -> None:
    company_id = await new_company(client, "Contact Home")
    created = await client.create_contact(
        {
            "company_id": company_id,
            "first_name": "Dana",
            "last_name": "Berg",
            "email": "dana@contact-home.example",
            "title": "VP Operations",
            "role": "decision-maker",
            "social_url": "https://social.example/dana",
            "tags": ["met-at-expo"],
            "custom_fields": {"favourite_channel": "phone"},
        }
    )
    assert created.full_name == "Dana Berg" and created.company_id == company_id
    assert created.role == "decision-maker" and created.tags == ["met-at-expo"]
    assert created.custom_fields == {"favourite_channel": "phone"}

    assert (await client.get_contact(created.id)).model_dump() == created.model_dump()
    updated = await client.update_contact(created.id, {"title": "COO", "phone": "+49 30 1234"})
    assert (updated.title, updated.phone, updated.email) == (
        "COO",
        "+49 30 1234",
        "dana@contact-home.example",
    )
    assert (await client.contact_tags(created.id)) == ["met-at-expo"]

    by_company = await client.list_contacts(company_id=company_id)
    assert [c.id for c in by_company.items] == [created.id]
    assert by_company.pagination.total == 1
    by_tag = await client.list_contacts(tag="met-at-expo")
    assert created.id in {c.id for c in by_tag.items}
    assert created.id in {c.id for c in (await client.list_contacts(search="dana@contact-home")).items}

    deleted = await client.delete_contact(created.id)
    assert (deleted.id, deleted.deleted) == (created.id, True)
    with pytest.raises(NotFoundError, match="^Contact not found$"):
        await client.get_contact(created.id)
    with pytest.raises(NotFoundError, match="^Contact not found$"):
        await client.contact_tags(created.id)


async def test_contact_field_schema_is_typed(sandbox: Sandbox) -> None:
    with sandbox.app.state.db.transaction() as conn:
        ensure_field(conn, CONTACT_FIELDS_TABLE, "linkedin_followers", "LinkedIn followers", "number")
        ensure_field(conn, CONTACT_FIELDS_TABLE, "met_at", "Met at", "text")
    fields = await sandbox.client(API_KEY).contact_fields()
    assert [(f.key, f.name, f.type) for f in fields] == [
        ("linkedin_followers", "LinkedIn followers", "number"),
        ("met_at", "Met at", "text"),
    ]
