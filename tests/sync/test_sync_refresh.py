"""Refresh: the lead list, the recommendation queue, the directory, one lead's detail."""

from __future__ import annotations

from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

LEAD = 1


async def test_the_lead_list_replaces_the_cached_one(engine: SyncEngine, store: Store) -> None:
    store.upsert_leads([{"id": 777, "company_name": "Gone Ltd", "lead_status": "cold"}])
    assert await engine.refresh_leads() == 4
    assert store.get_lead(777) is None  # the server no longer lists it
    assert store.lead_count() == 4


async def test_the_recommendation_queue_spans_leads(engine: SyncEngine, store: Store, client: ServiceClient) -> None:
    read = await engine.refresh_recommendations()
    expected = set()
    for row in store.lead_page():
        expected |= {r.id for r in (await client.get_recommendations(row.id)).recommendations}
    assert read and {r.id for r in store.active_recommendations()} == expected


async def test_opening_a_lead_brings_its_detail_and_notes(engine: SyncEngine, store: Store, client: ServiceClient) -> None:
    assert store.lead_detail(LEAD).detail_fetched_at is None
    assert await engine.refresh_lead(LEAD)
    detail = store.lead_detail(LEAD)
    server_notes = await client.list_notes(LEAD)
    assert detail.detail_fetched_at is not None
    assert {n.id for n in detail.notes} == {n.id for n in server_notes}


async def test_the_directory_keeps_the_server_s_list(engine: SyncEngine, store: Store, client: ServiceClient) -> None:
    store.upsert_companies([{"id": 99_999, "name": "Deleted on the server"}])
    assert await engine.refresh_directory()
    total = (await client.list_companies(1, 200)).pagination.total
    assert store.company_count() == total and store.get_company(99_999) is None
    assert store.templates() and store.field_schemas("companies")


async def test_a_pending_note_survives_a_refresh(engine: SyncEngine, store: Store) -> None:
    store.enqueue("add_note", {"lead_id": LEAD, "content": "Not sent yet"}, LEAD)
    await engine.refresh_lead(LEAD)
    await engine.refresh_leads()
    notes = store.lead_detail(LEAD).notes
    assert [n.content for n in notes if n.id is None] == ["Not sent yet"]
