"""The whole client against every dialect the sandbox speaks (docs/wire.md, "Dialects we accept").

Each dialect is another faithful reading of the spec's "not shown" places: other paging,
no `data` wrapper, sparse answers, other words, other names, other error statuses, one
research family, a cold-only default list. In each: sync reads every lead, company and
contact; a lead's detail keeps what the list said; every outreach op is delivered, shows on
the server exactly once, and none stays queued or fails; and the prospecting flows (lookup,
deep search to completion, contact search and add, a research run, records create, read,
edit and delete) work. The server is checked through its own database, not through the
client under test.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from support.dialects import World, make_world
from warmline import actions
from warmline.records import delete_record, save_record
from warmline.store import Store

DIALECTS = [
    "standard",
    "page-limit",
    "offset",
    "cursor",
    "link",
    "bare",
    "sparse",
    "words",
    "names",
    "errors",
    "overview-only",
    "detailed-only",
    "cold-default",
    "all",
]


@pytest.fixture(params=DIALECTS)
async def world(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[World]:
    async with make_world(tmp_path, request.param) as made:
        yield made


def _cached_ids(store: Store, table: str) -> set[int]:
    return {row["id"] for row in store.rows(f"SELECT id FROM {table}")}


async def test_sync_reads_every_record_and_a_detail_keeps_what_the_list_said(world: World) -> None:
    assert await world.engine.refresh_leads() is not None
    assert await world.engine.refresh_directory()
    server_leads = {row[0] for row in world.server("SELECT id FROM outreach_leads")}
    assert {"cold", "warm"} <= {row[0] for row in world.server("SELECT lead_status FROM outreach_leads")}
    assert _cached_ids(world.store, "leads") == server_leads
    assert _cached_ids(world.store, "companies") == {row[0] for row in world.server("SELECT id FROM companies")}
    assert _cached_ids(world.store, "contacts") == {row[0] for row in world.server("SELECT id FROM contacts")}
    for lead_id in sorted(server_leads):
        assert await world.engine.refresh_lead(lead_id)
        lead = world.store.get_lead(lead_id)
        assert lead is not None
        name = world.one(
            "SELECT c.name FROM outreach_leads l JOIN companies c ON c.id = l.company_id WHERE l.id = ?", (lead_id,)
        )
        target = world.one("SELECT target_score FROM outreach_leads WHERE id = ?", (lead_id,))
        assert (lead.company_name, lead.target_score) == (name, target), world.dialect
    # A second read of the list (sparse or not) blanks nothing the details said.
    await world.engine.refresh_leads()
    assert all(world.store.get_lead(i).company_name for i in server_leads)  # type: ignore[union-attr]
    domains = world.store.rows("SELECT domain FROM companies WHERE domain IS NOT NULL")
    assert domains, "the company domain is read under whatever name the dialect gives it"


async def test_every_outreach_op_is_delivered_once_and_shows_on_the_server(world: World) -> None:
    store, engine = world.store, world.engine
    await engine.refresh_leads()
    await engine.refresh_recommendations()
    leads = world.server("SELECT id, lead_status FROM outreach_leads ORDER BY id")
    cold = next(row[0] for row in leads if row[1] == "cold")
    warm = next(row[0] for row in leads if row[1] == "warm")
    with_pages = world.one("SELECT lead_id FROM outreach_pages ORDER BY lead_id LIMIT 1")
    with_recs = world.one("SELECT lead_id FROM outreach_recommendations WHERE status = 'active' GROUP BY lead_id HAVING count(*) >= 2 LIMIT 1")
    assert with_pages is not None and with_recs is not None, "the seed has scanned leads with cards"
    for lead_id in {cold, warm, with_pages, with_recs}:
        await engine.refresh_lead(lead_id)
    spare = next(row[0] for row in leads if row[0] not in {cold, warm, with_pages, with_recs})

    actions.log_activity(store, cold, "Called Dana about the pilot")
    actions.add_note(store, cold, "Prefers email in the morning")
    actions.set_target_score(store, cold, 61)
    actions.add_competitor(store, cold, "Rival GmbH", "rival.example")
    actions.change_lead_status(store, cold, "warm")
    actions.update_deal(store, warm, deal_value=48_000.0, deal_currency="EUR")
    page_id, was = world.server("SELECT id, is_selected FROM outreach_pages WHERE lead_id = ? ORDER BY id", (with_pages,))[0]
    actions.toggle_monitoring_page(store, with_pages, page_id, not was)
    contact = store.lead_detail(with_recs) or store.lead_detail(with_pages)
    assert contact is not None and contact.contacts, "a scanned lead has key contacts"
    key = contact.contacts[0]
    actions.pin_contact(store, contact.lead.id, key.contact_id, not key.is_selected)
    cards = [row[0] for row in world.server(
        "SELECT id FROM outreach_recommendations WHERE lead_id = ? AND status = 'active' ORDER BY id", (with_recs,))]
    complete_id = cards[0]
    sibling_url = world.one("SELECT target_url FROM outreach_recommendations WHERE id = ?", (complete_id,))
    dismiss_id = next(c for c in cards[1:] if world.one(
        "SELECT target_url FROM outreach_recommendations WHERE id = ?", (c,)) != sibling_url)
    actions.complete_recommendation(store, complete_id)
    actions.dismiss_recommendation(store, dismiss_id)
    actions.generate_recommendations(store, with_pages)
    actions.start_signal_scan(store, warm)
    actions.remove_leads(store, [spare])
    newcomer = world.one("SELECT id FROM companies WHERE id NOT IN (SELECT company_id FROM outreach_leads) ORDER BY id")
    actions.add_to_outreach(store, [newcomer], "cold")
    await world.deliver()

    competitor = world.one("SELECT id FROM outreach_competitors WHERE lead_id = ? AND name = 'Rival GmbH'", (cold,))
    assert competitor is not None
    await engine.refresh_lead(cold)
    actions.scan_competitor(store, cold, competitor)
    actions.pin_competitor(store, cold, competitor, True)
    await world.deliver()

    assert [op for op in world.ops() if op[1] != "done"] == [], world.dialect
    assert world.server("SELECT description FROM outreach_touchpoints WHERE lead_id = ? AND description = ?",
                        (cold, "Called Dana about the pilot")) != []
    assert len(world.server("SELECT 1 FROM outreach_touchpoints WHERE description = 'Called Dana about the pilot'")) == 1
    assert len(world.server("SELECT 1 FROM outreach_notes WHERE content = 'Prefers email in the morning'")) == 1
    assert world.server("SELECT target_score, lead_status FROM outreach_leads WHERE id = ?", (cold,))[0][:] == (61, "warm")
    assert world.server("SELECT deal_value, deal_currency FROM outreach_leads WHERE id = ?", (warm,))[0][:] == (48_000.0, "EUR")
    assert world.one("SELECT is_selected FROM outreach_pages WHERE id = ?", (page_id,)) == int(not was)
    pinned = world.one("SELECT count(*) FROM outreach_key_contacts WHERE lead_id = ? AND contact_id = ?",
                       (contact.lead.id, key.contact_id))
    assert pinned == int(not key.is_selected)
    assert world.one("SELECT status FROM outreach_recommendations WHERE id = ?", (complete_id,)) == "completed"
    assert world.one("SELECT status FROM outreach_recommendations WHERE id = ?", (dismiss_id,)) == "dismissed"
    assert world.one("SELECT count(*) FROM outreach_leads WHERE id = ?", (spare,)) == 0
    assert world.one("SELECT lead_status FROM outreach_leads WHERE company_id = ?", (newcomer,)) == "cold"
    rival = world.server("SELECT count(*), max(is_pinned), max(last_scanned_at) FROM outreach_competitors WHERE name = 'Rival GmbH'")[0]
    assert rival[0] == 1 and rival[1] == 1 and rival[2] is not None
    await engine.refresh_leads()
    assert newcomer in {lead.company_id for lead in store.lead_page(limit=100)}
    # What the rep sees agrees: the cache holds the server's records, nothing pending.
    detail = store.lead_detail(cold)
    assert detail is not None and detail.lead.lead_status == "warm" and detail.lead.target_score == 61
    assert [n.content for n in detail.notes if n.content == "Prefers email in the morning"]
    assert [c for c in detail.competitors if c.name == "Rival GmbH" and c.is_pinned]


async def test_prospecting_and_records_work_in_every_dialect(world: World) -> None:
    store, engine, client = world.store, world.engine, world.client
    await engine.refresh_directory()
    found = await client.lookup_companies("logistics software for retailers")
    assert found.companies and all(result.name for result in found.companies)

    actions.start_deep_search(store, "food producers in Germany", 3)
    await world.deliver()
    job = await world.until_done("deep_search")
    assert job.status == "completed", (world.dialect, job.status, job.error)
    assert re.fullmatch(r"\d+ compan(y|ies) found", job.result_summary or ""), (world.dialect, job.result_summary)
    await engine.refresh_directory()
    assert _cached_ids(store, "companies") == {row[0] for row in world.server("SELECT id FROM companies")}

    company_id = world.one("SELECT id FROM companies ORDER BY id LIMIT 1")
    actions.start_contact_search(store, company_id)
    await world.deliver()
    search = await world.until_done("contact_search")
    assert search.status == "completed", (world.dialect, search.status, search.error)
    people = store.found_contacts(search.key)
    assert people
    contacts_before = world.one("SELECT count(*) FROM contacts")
    actions.add_found_contacts(store, int(str(search.remote_id)), [people[0]["id"]])
    await world.deliver()
    assert world.one("SELECT count(*) FROM contacts") == contacts_before + 1

    template = world.server("SELECT name FROM research_templates ORDER BY name LIMIT 1")[0][0]
    actions.start_research_run(store, [company_id], template_name=template)
    await world.deliver()
    run = await world.until_done("research_run")
    assert run.status == "completed", (world.dialect, run.status, run.error)

    made = await save_record(store, client, "companies", {"name": "Dialect Test Co", "domain": "dialect-test.example"})
    made_id = int(made["id"])
    assert world.one("SELECT name FROM companies WHERE id = ?", (made_id,)) == "Dialect Test Co"
    assert store.rows("SELECT name FROM companies WHERE id = ?", (made_id,))[0]["name"] == "Dialect Test Co"
    await save_record(store, client, "companies", {"industry": "Food"}, made_id)
    assert world.one("SELECT industry FROM companies WHERE id = ?", (made_id,)) == "Food"
    assert store.rows("SELECT name FROM companies WHERE id = ?", (made_id,))[0]["name"] == "Dialect Test Co"
    person = await save_record(store, client, "contacts", {"first_name": "Lukas", "last_name": "Brandt",
                                                          "company_id": made_id, "title": "Head of Ops"})
    person_id = int(person["id"])
    assert store.rows("SELECT title FROM contacts WHERE id = ?", (person_id,))[0]["title"] == "Head of Ops"
    await delete_record(store, client, "contacts", person_id)
    await delete_record(store, client, "companies", made_id)
    assert world.one("SELECT count(*) FROM companies WHERE id = ?", (made_id,)) == 0
    assert world.one("SELECT count(*) FROM contacts WHERE id = ?", (person_id,)) == 0


def test_the_dialects_tested_are_the_sandbox_catalogue() -> None:
    from warmline_sandbox.dialects import DIALECTS as CATALOGUE

    assert set(DIALECTS) == (set(CATALOGUE) - {"request-names"}) | {"all"}
