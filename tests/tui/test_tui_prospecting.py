"""The prospecting screens driven with keys on the real app over a real store.

Where a flow needs the service, the test plays the sync engine's part through the store's
own outcome API (`mark_in_flight` / `mark_done` / `record_job`), as `test_tui_flows` does;
the instant lookup, which is online-only, talks to the real sandbox in-process. The
deterministic prospecting data lives in support/prospecting.py (the snapshots use it too).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

import support.tui_wire_data as W
from support.cockpit import (
    LookupSync,
    Opened,
    cockpit,
    deliver,
    keys_missing_from_key_bar,
    settings,
    status_text,
    text_of,
)
from support.prospecting import (
    FOUND,
    PEOPLE,
    TEMPLATE_ID,
    job_key,
    record_long_run,
    sandbox_client,
)
from support.tui_wire_data import KESTREL_COMPANY
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.tui.app import WarmlineApp
from warmline.tui.screens.dialogs import ConfirmDialog, LineDialog
from warmline.tui.screens.prospecting.company import CompanyScreen, ContactScreen
from warmline.tui.screens.prospecting.directory import CompaniesScreen, ContactsScreen
from warmline.tui.screens.prospecting.export import ExportDialog, default_path
from warmline.tui.screens.prospecting.hub import ProspectingScreen
from warmline.tui.screens.prospecting.lookup import LookupScreen
from warmline.tui.screens.prospecting.people import FoundContactsScreen
from warmline.tui.screens.prospecting.research import RunResultsScreen, TemplatesScreen
from warmline.tui.screens.prospecting.searches import DeepSearchDialog, FoundCompaniesScreen
from warmline.tui.widgets.key_bar import KeyBar
from warmline.tui.widgets.section_list import SectionList
from warmline.tui.widgets.toggles import ClearRadioButton
from warmline.tui.widgets.virtual_list import VirtualList


@pytest.fixture
def service(tmp_path: Path) -> Iterator[ServiceClient]:
    yield from sandbox_client(tmp_path)


@pytest.fixture
def exhausted_service(tmp_path: Path) -> Iterator[ServiceClient]:
    yield from sandbox_client(tmp_path, instant_lookups=0)


# --- flows --------------------------------------------------------------------------------------


async def test_every_prospecting_screen_opens_by_key_and_escape_goes_back(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        for key, screen_type in (
            ("P", ProspectingScreen), ("C", CompaniesScreen), ("K", ContactsScreen), ("T", TemplatesScreen),
        ):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen_type)
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, CompaniesScreen)
        await pilot.press("I")
        await pilot.pause()
        assert isinstance(app.screen, LookupScreen)
        app.screen.query_one("#lookup-table").focus()
        await pilot.press("F")
        await pilot.pause()
        assert isinstance(app.screen, DeepSearchDialog)
        await pilot.press("escape", "X")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)


async def test_palette_offers_the_prospecting_commands(prospect_store: Store) -> None:
    from warmline.tui.palette import ScreenActions

    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        titles = [title for title, _, _ in ScreenActions(app.screen)._commands()]
        for title in ("Prospecting", "Companies", "Contacts", "Company lookup", "Company deep search",
                      "Research templates", "Export leads, companies or contacts"):
            assert title in titles


async def test_companies_page_from_the_cache_filter_mark_and_add_as_cold(prospect_store: Store) -> None:
    """Of the marked companies, one is a lead already (Kestrel, warm): the question leaves
    it out by name, and only the other is queued. Offered "Add 2 companies", the rep was
    sending one the service has as a lead (the sandbox skips it; another service may
    refuse the whole request)."""
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C")
        await pilot.pause()
        companies = app.screen.query_one(VirtualList)
        assert companies.row_count == len(W.COMPANIES) + len(FOUND)
        assert companies.current.name == W.HOSTILE_MARKUP  # by name: "[" sorts before letters
        await pilot.press("slash", *"zahnarzt", "enter")
        await pilot.pause()
        assert companies.row_count == 1 and companies.current.name == "Zahnarzt Praxis Isar"
        await pilot.press("space")
        await pilot.press("slash", "end", "ctrl+u", *"kestrel", "enter")
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert "2 marked" in text_of(app, "#screen-title")
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        question = app.screen.query_one("#confirm-question").render().plain
        assert question.startswith("Add 1 company to outreach as a cold lead?\nZahnarzt Praxis Isar\n"), question
        assert "Left out, already a lead: Kestrel Analytics" in question
        await pilot.press("y")
        await pilot.pause()
    (op,) = prospect_store.outbox_rows()
    assert op.kind == "add_to_outreach"
    assert op.payload == {"company_ids": [901], "lead_status": "cold"}


async def test_marked_companies_that_are_all_leads_are_not_offered(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C")
        await pilot.pause()
        for name in ("fjord", "kestrel"):
            await pilot.press("slash", "end", "ctrl+u", *name, "enter", "space")
            await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)
        said = [str(n.message) for n in app._notifications]
    assert said[-1] == (
        "The 2 marked companies are already leads; change a lead's status on its page."
    ), said
    assert not prospect_store.outbox_rows()


async def test_company_page_shows_custom_fields_research_and_people_and_removes_a_lead(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(KESTREL_COMPANY))
        await pilot.pause()
        fields = text_of(app, "#company-fields")
        assert "ICP fit: 91" in fields and "Hiring roles: Data engineer; AE" in fields
        research = text_of(app, "#company-research")
        assert "Kestrel sells analytics" in research and "• Opened a Warsaw office" in research
        people = text_of(app, "#company-contacts")
        assert "People (2)" in people and "Dana Kivi" in people
        assert "warm lead" in text_of(app, "#company-outreach")  # lead 103 is warm
        await pilot.press("c")  # already a lead: nothing is queued
        await pilot.pause()
        assert not prospect_store.outbox_rows()
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        (op,) = prospect_store.outbox_rows()
        assert op.kind == "remove_lead" and op.lead_id == 103


async def test_contact_search_from_a_company_costs_a_deep_search_and_queues_offline(prospect_store: Store) -> None:
    prospect_store.set_state("online", False)
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(500))
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "This uses 1 deep search from your plan." in app.screen.query("Static").first().render().plain
        await pilot.press("y")
        await pilot.pause()
        (op,) = prospect_store.outbox_rows()
        assert op.kind == "start_contact_search" and op.payload["company_id"] == 500
        assert "last search queued" in text_of(app, "#company-contacts")


async def test_people_found_grouped_by_role_marked_added_and_skips_explained(prospect_store: Store) -> None:
    opened = Opened()
    app = cockpit(prospect_store, opener=opened)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(KESTREL_COMPANY))
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, FoundContactsScreen)
        table = app.screen.query_one("#people-table", SectionList)
        first_cells = [table.cells_at(i)[2].plain for i in range(table.row_count)]
        assert first_cells == [
            "Decision-makers (2)", "Dana Kivi", "Jon Berg", "Champions (1)", "Ilkka Saari",
            "Influencers (1)", "Mira [bold red]Markup[/] Industries",  # literal; whole when the column has room
        ]
        people = app.screen

        def in_contacts() -> dict[str, str]:
            table = people.query_one("#people-table", SectionList)
            return {table.cells_at(i)[2].plain: table.cells_at(i)[1].plain for i in range(table.row_count)
                    if not table.cells_at(i)[2].plain.endswith(")")}

        # Dana and Ilkka are cached contacts of Kestrel's already
        assert in_contacts() == {"Dana Kivi": "yes", "Jon Berg": "", "Ilkka Saari": "yes", "Mira [bold red]Markup[/] Industries": ""}

        def on_row() -> str:
            table = people.query_one("#people-table", SectionList)
            return table.cells_at(table.cursor)[2].plain

        assert on_row() == "Dana Kivi"  # headings never take the cursor, not even the first one
        await pilot.press("space", "space")  # Dana, then Jon: each mark moves on to the next person
        assert on_row() == "Ilkka Saari"  # past the Champions heading
        await pilot.press("k")
        assert on_row() == "Jon Berg"
        await pilot.press("j", "o")  # Ilkka's profile
        await pilot.press("j")
        assert on_row().startswith("Mira")
        await pilot.press("o")  # Mira's javascript: link is not opened
        await pilot.press("g")
        assert on_row() == "Dana Kivi"
        await pilot.press("G", "k", "k")
        assert on_row() == "Jon Berg"
        await pilot.pause()
        assert opened.urls == ["https://social.example/ilkka"]
        await pilot.press("a")
        await pilot.pause()
        question = app.screen.query("Static").first().render().plain
        assert "Add 2 people to your contacts?" in question and "Adding 2 contacts uses contact capacity" in question
        await pilot.press("y")
        await pilot.pause()
        (op,) = prospect_store.outbox_rows()
        assert op.payload == {"job_id": 41, "contact_ids": [7001, 7004]}
        assert "queued" in text_of(app, "#people-result")
        deliver(prospect_store, op.op_id, {
            "success": True, "added": 1, "skipped": 1, "contacts": [PEOPLE[3]],
            "skipped_ids": [{"id": 7001, "reason": "duplicate"}],
        })
        app.poll_status()
        await pilot.pause()
        result = text_of(app, "#people-result")
        assert "Added 1, skipped 1." in result and "skipped Dana Kivi: already in your contacts" in result
        assert in_contacts()["Jon Berg"] == "yes"  # the contact the service made, once it is cached


async def test_deep_search_dialog_counts_validates_and_starts(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("F")
        await pilot.pause()
        assert "This uses 1 deep search from your plan." in text_of(app, "#deep-cost")
        await pilot.press(*"dx")
        await pilot.pause()
        assert text_of(app, "#deep-count") == "2/1000"
        await pilot.press("enter")
        await pilot.pause()
        assert "at least 3" in text_of(app, "#dialog-error")
        await pilot.press(*" in Bavaria", "tab", "end", "ctrl+u", *"500", "enter")
        await pilot.pause()
        assert "Max results must be" in text_of(app, "#dialog-error") and "100" in text_of(app, "#dialog-error")
        await pilot.press("backspace", "backspace", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, DeepSearchDialog)
    (op,) = prospect_store.outbox_rows()
    assert op.kind == "start_deep_search" and op.payload == {"query": "dx in Bavaria", "max_results": 5}


async def test_deep_search_started_offline_is_queued_not_running(prospect_store: Store) -> None:
    prospect_store.set_state("online", False)
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "1 job running" in status_text(app)  # the fixture's deep search 32
        await pilot.press("F")
        await pilot.pause()
        await pilot.press(*"dx in Bavaria", "enter")
        await pilot.pause()
        notes = [str(n.message) for n in app._notifications]
        assert any("The deep search is queued; starts when online." in note for note in notes), notes
        assert not any("is starting" in note for note in notes)
        app.poll_status()
        await pilot.pause()
        status = status_text(app)
        assert "1 job running" in status and "1 job queued" in status
        await pilot.press("J")
        await pilot.pause()
        table = app.screen.query_one("#jobs-table")
        row = [cell.plain for cell in table.get_row_at(0)]
        assert row[1] == "dx in Bavaria" and row[2] == "queued (offline)" and row[5] == "queued; starts when online"


async def test_job_monitor_names_a_research_runs_template_and_what_a_generation_produced(prospect_store: Store) -> None:
    prospect_store.record_job("recommendations", 103, {"status": "completed", "recommendations": [{"id": 1}, {"id": 2}]}, lead_id=103)
    prospect_store.record_job("recommendations", 104, {"status": "pending"}, lead_id=104)
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("J")
        await pilot.pause()
        table = app.screen.query_one("#jobs-table")
        rows = {(r := [cell.plain for cell in table.get_row_at(i)])[0] + " " + r[2]: r for i in range(table.row_count)}
        assert rows["Research run completed"][1] == "ICP fit · 2 companies"
        assert rows["Recs completed"][5] == "2 recommendations"
        assert rows["Recs pending"][5] == "in progress"


async def test_hub_lists_searches_and_opens_what_they_found(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("P")
        await pilot.pause()
        table = app.screen.query_one("#prospecting-table")
        kinds = [table.get_row_at(i)[0].plain for i in range(table.row_count)]
        assert kinds == ["Deep search", "Research run", "Research", "People search", "Deep search"]
        await pilot.press("enter")  # still running
        await pilot.pause()
        assert isinstance(app.screen, ProspectingScreen)
        await pilot.press("j", "enter")
        await pilot.pause()
        assert isinstance(app.screen, RunResultsScreen)
        body = text_of(app, "#run-results-body")  # highest ICP fit first
        assert "Kestrel Analytics" in body and "ICP fit: 91" in body and "Hiring roles: Data engineer; AE" in body
        await pilot.press("j")
        await pilot.pause()
        body = text_of(app, "#run-results-body")
        assert "Northwind Logistics" in body and "ICP fit: 82" in body and "Uses SAP: yes" in body
        await pilot.press("escape", "G", "enter")
        await pilot.pause()
        assert isinstance(app.screen, FoundCompaniesScreen)
        table = app.screen.query_one("#found-table")
        assert table.get_row_at(0)[6].plain == "dental-bavaria"  # AI tag, after Lead
        await pilot.press("space", "space", "w", "y")
        await pilot.pause()
    (op,) = prospect_store.outbox_rows()
    assert op.payload == {"company_ids": [901, 902], "lead_status": "warm"}


async def test_research_run_over_marked_companies_says_its_cost(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C")
        await pilot.pause()
        await pilot.press("space", "space", "space", "t")
        await pilot.pause()
        assert isinstance(app.screen, TemplatesScreen)
        assert "to run over 3" in text_of(app, "#screen-title")
        assert "Uses SAP · uses_sap · boolean" in text_of(app, "#template-fields")
        await pilot.press("enter")
        await pilot.pause()
        question = app.screen.query("Static").first().render().plain
        assert "over 3 companies" in question and "This uses 3 company enrichments" in question
        await pilot.press("y")
        await pilot.pause()
    (op,) = prospect_store.outbox_rows()
    assert op.kind == "start_research_run"
    # the first three by name: the hostile "[bold red]..." name sorts first
    assert op.payload == {"company_ids": [504, 502, 902], "template_id": TEMPLATE_ID}


async def test_no_templates_says_how_to_get_them_in_the_cockpits_keys(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("T")
        await pilot.pause()
        assert isinstance(app.screen, TemplatesScreen)
        empty = text_of(app, "#templates-empty")
        assert "They come with the next sync (Y syncs now)" in empty
        assert "warmline" not in empty  # no shell command inside the cockpit


async def test_research_run_from_the_palette_names_its_companies(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("T", "j", "enter")
        await pilot.pause()
        assert isinstance(app.screen, LineDialog)
        await pilot.press(*"nowhere", "enter")
        await pilot.pause()
        # in the cockpit's words: no command line to run from here
        assert text_of(app, "#dialog-error") == "No cached company matches 'nowhere'; the company list (C) shows yours"
        await pilot.press("end", "ctrl+u", *"kestrel, 500", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
    (op,) = prospect_store.outbox_rows()
    assert op.payload["company_ids"] == [503, 500] and op.payload["template_id"] != TEMPLATE_ID


async def test_research_run_names_every_company_it_cannot_find_and_runs_each_once(prospect_store: Store) -> None:
    """Two mistakes in the list are said together (one correction, not two), and a company
    named twice (by name and by id) is run, and paid for, once."""
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("T", "j", "enter")
        await pilot.pause()
        await pilot.press(*"nowhere, kestrel, zilch", "enter")
        await pilot.pause()
        assert text_of(app, "#dialog-error") == (
            "No cached company matches 'nowhere'; no cached company matches 'zilch'; "
            "the company list (C) shows yours")
        await pilot.press("end", "ctrl+u", *"kestrel, 503, 500", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
    (op,) = prospect_store.outbox_rows()
    assert op.payload["company_ids"] == [503, 500]


async def test_contacts_browser_and_a_contact(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("K")
        await pilot.pause()
        contacts = app.screen.query_one(VirtualList)
        assert contacts.row_count == 2
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ContactScreen)
        info = text_of(app, "#contact-info")
        assert "Company: Kestrel Analytics" in info and "Email: dana@kestrel.example" in info


async def test_lookup_online_shows_scores_saves_and_adds_saved_results(store: Store, service: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        assert "This uses 1 instant lookup from your plan." in text_of(app, "#lookup-cost")
        app.screen.query_one("#lookup-save").focus()
        await pilot.press("space")  # save results
        await pilot.pause()
        assert "saved-company limit" in text_of(app, "#lookup-cost")
        app.screen.query_one("#lookup-query").focus()
        await pilot.press(*"logistics software", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        summary = text_of(app, "#lookup-summary")
        assert "results" in summary and "saved" in summary
        table = app.screen.query_one("#lookup-table")
        assert table.row_count > 0
        score = table.get_row_at(0)[1].plain
        assert 0 <= float(score) <= 1
        assert table.get_row_at(0)[2].plain == "✓"
        table.focus()
        await pilot.press("space", "space", "c", "y")
        await pilot.pause()
    (op,) = store.outbox_rows()
    assert op.kind == "add_to_outreach" and len(op.payload["company_ids"]) == 2
    assert all(store.get_company(cid) is not None for cid in op.payload["company_ids"])


async def test_an_answered_lookup_takes_the_keyboard_to_its_results(store: Store, service: ServiceClient) -> None:
    """Marking and saving are letters, which a field takes as text: the results take the
    keyboard once they arrive, `/` goes back to the query. Not while the rep is typing other
    criteria: keys meant for the field must not save or add anything."""
    app = cockpit(store, sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", *"logistics software", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#lookup-table")
        assert table.row_count > 1 and app.focused is table
        await pilot.press("space")
        await pilot.pause()
        assert len(screen.selection) == 1
        await pilot.press("slash")
        await pilot.pause()
        query = screen.query_one("#lookup-query")
        assert app.focused is query and query.value == "logistics software"
        await pilot.press("end", *" nordics")  # the query is selected whole: end keeps it
        # The answer to the criteria as they were sent arrives now:
        screen._show_result(screen.criteria, screen.answer, typed=screen.criteria)
        await pilot.pause()
        assert app.focused is query and query.value == "logistics software nordics"


async def test_lookup_plan_limit_is_said_plainly(store: Store, exhausted_service: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(exhausted_service))
    async with exhausted_service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", *"dental", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        summary = text_of(app, "#lookup-summary")
        assert summary.startswith("Plan limit: ") and "instant_lookups" in summary


async def test_enter_on_the_save_checkbox_looks_up_and_leaves_it_ticked(store: Store, service: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", *"logistics software")
        app.screen.query_one("#lookup-save").focus()
        await pilot.press("space", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.query_one("#lookup-save").value is True
        assert app.screen.query_one("#lookup-table").row_count > 0
        answer = app.screen.answer
        assert answer is not None and answer["saved_count"] + answer["quota_limited"] > 0  # looked up with saving on
        app.screen.query_one("#lookup-broaden").focus()
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.query_one("#lookup-broaden").value is False


async def _service_domains(service: ServiceClient) -> set[str]:
    page = await service.list_companies(per_page=100)
    assert page.pagination is None or page.pagination.total <= 100
    return {str(c.domain) for c in page.items}


def _unsaved_rows(app: Any) -> list[int]:
    companies = app.screen.answer["companies"]
    return [i for i, c in enumerate(companies) if c["saved_company_id"] is None]


async def test_marked_results_alone_are_saved_after_the_cost_is_shown(store: Store, service: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", *"logistics software", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        first, _, third, *rest = _unsaved_rows(app)
        assert rest, "the lookup should find more unsaved results than the two marked"
        table = app.screen.query_one("#lookup-table")
        table.focus()
        table.move_cursor(row=first)
        await pilot.press("space")
        table.move_cursor(row=third)
        await pilot.press("space", "c")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)  # not saved yet: nothing can go into outreach
        assert "s saves the 2 not saved yet (2 company slots)" in text_of(app, "#lookup-summary")
        before = await _service_domains(service)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        question = str(app.screen.query_one("Static").render())
        assert "Save the 2 marked to your company list?" in question
        assert "Saves 2 companies: uses 2 of your plan's saved-company slots (no instant lookup)." in question
        assert await _service_domains(service) == before  # nothing spent before the yes
        await pilot.press("y")
        await app.workers.wait_for_complete()
        await pilot.pause()
        companies = app.screen.answer["companies"]
        marked = {companies[first]["domain"], companies[third]["domain"]}
        assert await _service_domains(service) - before == marked
        assert [companies[i]["saved_company_id"] is not None for i in (first, third)] == [True, True]
        assert all(companies[i]["saved_company_id"] is None for i in rest)
        assert [table.get_row_at(i)[2].plain for i in (first, third)] == ["✓", "✓"]
        assert all(store.get_company(companies[i]["saved_company_id"]) is not None for i in (first, third))
        cached = store.cached_lookup(app.screen.criteria)
        assert cached is not None and cached["companies"][first]["saved_company_id"] == companies[first]["saved_company_id"]
        await pilot.press("c", "y")  # the marks stay: the saved pair goes into outreach
        await pilot.pause()
    (op,) = store.outbox_rows()
    assert op.payload["company_ids"] == [companies[first]["saved_company_id"], companies[third]["saved_company_id"]]


async def test_save_top_n_asks_for_n_then_shows_the_cost(store: Store, service: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", *"logistics software", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        companies = app.screen.answer["companies"]
        earlier = [c["saved_company_id"] for c in companies]
        waiting = [i for i in range(3) if companies[i]["saved_company_id"] is None]
        assert len(companies) > 3 and waiting
        app.screen.query_one("#lookup-table").focus()
        await pilot.press("N")
        await pilot.pause()
        assert isinstance(app.screen, LineDialog)
        await pilot.press(*"999", "enter")
        await pilot.pause()
        assert "Give a number from 1 to" in text_of(app, "#dialog-error")
        await pilot.press("ctrl+u", "3", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        question = str(app.screen.query_one("Static").render())
        assert "Save the top 3 to your company list?" in question
        assert f"uses {len(waiting)} of your plan's saved-company slots" in question
        before = await _service_domains(service)
        await pilot.press("y")
        await app.workers.wait_for_complete()
        await pilot.pause()
        companies = app.screen.answer["companies"]
        assert await _service_domains(service) - before == {companies[i]["domain"] for i in waiting}
        assert all(c["saved_company_id"] is not None for c in companies[:3])
        assert [c["saved_company_id"] for c in companies[3:]] == earlier[3:]


async def test_lookup_offline_offers_cached_answers(store: Store) -> None:
    criteria = {"query": "dental clinics", "industries": [], "countries": ["Germany"], "regions": [], "broaden_search": False}
    store.save_lookup(criteria, {"companies": [{"name": "Isar Dental", "domain": "isar.example", "similarity_score": 0.91,
                                                "saved_company_id": None}], "total": 1, "saved_count": 0, "quota_limited": 0})
    store.set_state("online", False)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        assert "Offline" in text_of(app, "#lookup-cost")
        await pilot.press(*"logistics", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        summary = text_of(app, "#lookup-summary")
        assert "Offline: an instant lookup needs the service." in summary and "“dental clinics” · Germany" in summary
        await pilot.press("end", "ctrl+u", *"dental clinics", "tab", "tab", *"Germany", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "cached answer from" in text_of(app, "#lookup-summary")
        assert app.screen.query_one("#lookup-table").get_row_at(0)[4].plain == "Isar Dental"  # after Lead


async def test_an_earlier_lookup_is_picked_from_the_cache_without_spending_one(store: Store) -> None:
    criteria = {"query": None, "industries": ["Dental"], "countries": ["Germany", "Austria"], "regions": [],
                "broaden_search": False}
    store.save_lookup(criteria, {"companies": [{"name": "Isar Dental", "domain": "isar.example", "saved_company_id": 777}],
                                 "total": 1, "saved_count": 1, "quota_limited": 0})
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", "ctrl+r")
        await pilot.pause()
        assert "Dental · Germany, Austria" in app.screen.query_one("#earlier-table").get_row_at(0)[0].plain
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LookupScreen)
        assert app.screen.query_one("#lookup-countries").value == "Germany, Austria"
        assert "cached answer from" in text_of(app, "#lookup-summary")
        app.screen.query_one("#lookup-table").focus()
        await pilot.press("c", "y")
        await pilot.pause()
    (op,) = store.outbox_rows()
    assert op.payload == {"company_ids": [777], "lead_status": "cold"}


def _known_names(store: Store) -> None:
    store.upsert_companies([
        {"id": 701, "name": "Brew Co", "industry": "Food & Beverage", "country": "Germany", "region": "Bavaria"},
        {"id": 702, "name": "Haul AB", "industry": "Logistics", "country": "Sweden", "region": "Stockholm"},
    ])


async def type_in_filter(app: WarmlineApp, pilot: Pilot[None], name: str, typed: str) -> Input:
    """Type into the lookup's `name` filter and wait for its completion to be worked out."""
    field = app.screen.query_one(f"#lookup-{name}", Input)
    field.focus()
    await pilot.press(*typed)
    await app.workers.wait_for_complete()
    await pilot.pause()
    return field


async def test_filters_complete_the_keyword_after_the_last_comma(store: Store) -> None:
    _known_names(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        industries = await type_in_filter(app, pilot, "industries", "Logistics, fo")
        assert industries._suggestion == "Logistics, Food & Beverage"
        await pilot.press("right")
        assert industries.value == "Logistics, Food & Beverage"
        regions = await type_in_filter(app, pilot, "regions", "bav")
        assert regions._suggestion == "Bavaria"


async def test_tab_takes_a_shown_completion_and_moves_on_without_one(store: Store) -> None:
    """The grey completion is taken with tab, as a shell does (right arrow too); tab with
    nothing shown moves to the next field as everywhere else."""
    _known_names(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        industries = await type_in_filter(app, pilot, "industries", "fo")
        await pilot.press("tab")
        assert industries.value == "Food & Beverage"
        assert app.focused is industries  # taken, still here: ", " adds another
        await pilot.press("tab")
        assert app.focused is app.screen.query_one("#lookup-countries")
        assert industries.value == "Food & Beverage"
        assert "tab takes a suggested name" in text_of(app, "#lookup-summary")


async def test_an_unknown_keyword_is_asked_about_before_a_lookup_is_spent(store: Store, service: ServiceClient) -> None:
    _known_names(store)
    app = cockpit(store, sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        app.screen.query_one("#lookup-industries").focus()
        await pilot.press(*"Fod & Beverage", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert text_of(app, "#lookup-summary") == (
            "no industry named 'Fod & Beverage'; did you mean Food & Beverage? (enter again looks up as typed)"
        )
        assert app.screen.answer is None and store.cached_lookup(app.screen._form_criteria()) is None
        await pilot.press("enter")  # the same criteria again: sent as typed
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.answer is not None
        assert store.cached_lookup(app.screen._form_criteria()) is not None


def _cached_answer(store: Store) -> None:
    criteria = {"query": None, "industries": ["Dental"], "countries": ["Germany"], "regions": [], "broaden_search": False}
    store.save_lookup(criteria, {"companies": [{"name": "Isar Dental", "domain": "isar.example", "saved_company_id": 9501},
                                               {"name": "Elbe Dental", "domain": "elbe.example", "saved_company_id": 9502}],
                                 "total": 2, "saved_count": 0, "quota_limited": 0})


async def test_the_lead_column_shows_a_queued_add_at_once(store: Store) -> None:
    _cached_answer(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", "ctrl+r", "enter")
        await pilot.pause()
        table = app.screen.query_one("#lookup-table")
        table.focus()
        assert table.get_row_at(0)[3].plain == ""
        await pilot.press("c", "y")
        await pilot.pause()
        assert table.get_row_at(0)[3].plain == "cold (queued)"
        assert table.get_row_at(1)[3].plain == ""


async def test_marking_says_it_moves_down(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        (binding,) = [b for b in app.screen.BINDINGS if getattr(b, "id", None) == "lookup.mark"]
        assert binding.description == "Mark and move down"


async def test_the_header_counts_the_saved_rows_and_says_what_save_results_does(store: Store) -> None:
    _cached_answer(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", "ctrl+r", "enter")
        await pilot.pause()
        summary = text_of(app, "#lookup-summary")
        assert "2 results · 2 saved" in summary and "0 saved" not in summary
        app.screen.query_one("#lookup-save").focus()
        await pilot.press("space")
        await pilot.pause()
        assert app.screen.query_one("#lookup-save").value is True
        assert "Save results is ticked: the next lookup saves what it finds" in text_of(app, "#lookup-summary")


async def test_export_from_the_palette_writes_the_file(prospect_store: Store, tmp_path: Path) -> None:
    target = tmp_path / "warm.json"
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("X")
        await pilot.pause()
        dialog = app.screen
        assert app.focused is dialog.query_one("#export-path")  # the path first (issue 23)
        dialog.query_one("#export-kind").focus()
        await pilot.press("tab", "right", "enter", "tab", "right", "right", "enter")  # json, warm
        await pilot.pause()
        assert dialog.query_one("#export-path").value.endswith("warm-leads.json")
        dialog.query_one("#export-path").value = str(tmp_path / "missing" / "x.csv")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "There is no folder" in text_of(app, "#dialog-error")
        dialog.query_one("#export-path").value = str(target)
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
    rows = json.loads(target.read_text())
    assert rows and {row["lead_status"] for row in rows} == {"warm"}


def test_the_export_goes_to_documents_else_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ".config"))
    monkeypatch.chdir("/")
    assert default_path("leads", "csv", "warm") == str(tmp_path / "warm-leads.csv")
    (tmp_path / "Documents").mkdir()
    assert default_path("companies", "json", "all") == str(tmp_path / "Documents" / "companies.json")


async def test_contact_search_job_for_the_unsearched_company_is_explained(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(500))
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)


def test_data_is_consistent(prospect_store: Store) -> None:
    assert job_key(prospect_store, "contact_search") is not None
    assert prospect_store.get_company(901).ai_tag == "dental-bavaria"


@pytest.mark.slow
async def test_companies_list_pages_100k_rows_from_the_cache(empty_store: Store) -> None:
    empty_store.upsert_companies(
        {"id": i, "name": f"Company {i:06d}", "domain": f"c{i}.example", "industry": "Software", "country": "Norway"}
        for i in range(1, 100_001)
    )
    pages: list[tuple[int, int]] = []
    page = empty_store.companies_page

    def counting_page(text: str = "", offset: int = 0, limit: int = 200) -> Any:
        pages.append((offset, limit))
        return page(text, offset=offset, limit=limit)

    empty_store.companies_page = counting_page  # type: ignore[method-assign]
    app = cockpit(empty_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C")
        await pilot.pause()
        companies = app.screen.query_one(VirtualList)
        await pilot.pause(VirtualList.count_delay * 2)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert companies.counted and companies.row_count == 100_000
        assert "100,000 shown" in text_of(app, "#screen-title")
        await pilot.press("G")
        await pilot.pause()
        assert companies.current.name == "Company 100000"
        await pilot.press("slash", *"company 09999", "enter")
        await pilot.pause()
        assert [c.name for c in companies.source.rows(0, 20)][:2] == ["Company 099990", "Company 099991"]
    assert len(pages) < 30 and all(limit <= 100 for _, limit in pages)


async def test_help_lists_each_prospecting_screens_own_keys(prospect_store: Store) -> None:
    from warmline.tui.screens.help import HelpScreen

    app = cockpit(prospect_store)
    screens = [
        (lambda: ProspectingScreen(), {"Lookup", "Deep search", "Templates", "Export"}),
        (lambda: CompaniesScreen(), {"Mark", "Add as cold", "Add as warm", "Research run", "Filter"}),
        (lambda: CompanyScreen(KESTREL_COMPANY), {"Find people", "People found", "Deep research", "Remove from outreach"}),
        (lambda: FoundContactsScreen(job_key(prospect_store, "contact_search")), {"Mark", "Add marked", "Open profile"}),
        (lambda: FoundCompaniesScreen(job_key(prospect_store, "deep_search")), {"Mark", "Add as cold", "Add as warm"}),
        (lambda: ContactsScreen(), {"Filter"}),
    ]
    async with app.run_test(size=(120, 40)) as pilot:
        for make, described in screens:
            app.push_screen(make())
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            shown = {entry.description for entry in app.screen._entries}
            assert described <= shown and "Prospecting" in shown
            await pilot.press("escape", "escape")
            await pilot.pause()


async def test_the_results_screens_show_their_keys_enter_included(prospect_store: Store) -> None:
    """As every screen (test_tui_shell): enter ("Open"), which the focused table's hidden
    enter kept off the key bar, is there with the rest."""
    app = cockpit(prospect_store)
    screens = [
        lambda: FoundContactsScreen(job_key(prospect_store, "contact_search")),
        lambda: FoundCompaniesScreen(job_key(prospect_store, "deep_search")),
        lambda: RunResultsScreen(record_long_run(prospect_store)),
    ]
    async with app.run_test(size=(260, 30)) as pilot:
        for make in screens:
            app.push_screen(make())
            await pilot.pause()
            assert keys_missing_from_key_bar(app) == [], type(app.screen).__name__
            await pilot.press("escape")
            await pilot.pause()


async def test_the_contacts_list_says_which_company_each_contact_is_at(prospect_store: Store) -> None:
    """Found in tmux: 190 contacts by name, title, role and email, and no word of their
    companies. The company column names each; a contact of a company the cache does not
    hold, or of none, has an empty cell."""
    kestrel = prospect_store.get_company(KESTREL_COMPANY)
    assert kestrel is not None
    prospect_store.upsert_contacts([
        {"id": 7101, "first_name": "Nils", "last_name": "Lost", "title": "CTO", "company_id": 999_999},
        {"id": 7102, "first_name": "Olga", "last_name": "Alone", "title": "CEO", "company_id": None},
    ])
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(ContactsScreen())
        await pilot.pause()
        records = app.screen.query_one("#record-list", VirtualList)
        header, *rows = [records.render_line(y).text for y in range(records.row_count + 1)]
    assert header.split()[:3] == ["Name", "Company", "Title"]
    company, title = header.index("Company"), header.index("Title")
    cells = {row[:company].strip(): (row[company:title].strip(), row[title:].split()[0]) for row in rows}
    assert cells["Dana Kivi"] == (kestrel.name, "VP")
    assert cells["Ilkka Saari"] == (kestrel.name, "Head")
    assert cells["Nils Lost"] == ("", "CTO")
    assert cells["Olga Alone"] == ("", "CEO")


@pytest.mark.parametrize(("key", "dialog", "label"), [("X", ExportDialog, "Export"), ("F", DeepSearchDialog, "Start")])
async def test_a_form_names_its_send_key_for_what_it_does(prospect_store: Store, key: str, dialog, label: str) -> None:
    """The export dialog's key bar said "^s Send" for writing a file; it and the deep search
    say what ctrl+s does there (the binding keeps its id, so a rep's keymap still applies)."""
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, dialog)
        shown = app.screen.query_one(KeyBar).render().plain
        assert shown.startswith(f" ^s {label}  esc Cancel ") and "Send" not in shown


@pytest.mark.parametrize(
    ("reply", "heading"),
    [
        (lambda r: (_ for _ in ()).throw(httpx.RemoteProtocolError("Server disconnected", request=r)),
         "The lookup got no answer: "),
        (lambda r: httpx.Response(500, json={"success": False, "message": "Internal error", "errors": None}),
         "The lookup failed: "),
        (lambda r: httpx.Response(400, json={"success": False, "message": "Validation failed", "errors": None}),
         "The service refused the lookup: "),
    ],
    ids=["no answer", "500", "400"],
)
async def test_a_failed_lookup_says_whether_the_service_refused_it(store: Store, reply, heading: str) -> None:
    """A lost answer or a 5xx is not a refusal: "The service refused the lookup" was shown
    for a dropped connection too."""
    client = ServiceClient("http://127.0.0.1:9", "k", transport=httpx.MockTransport(reply))
    app = cockpit(store, sync=LookupSync(client))
    async with client, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I", *"dental", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert text_of(app, "#lookup-summary").startswith(heading)


async def test_a_box_or_option_that_is_off_shows_no_mark(store: Store, service: ServiceClient) -> None:
    """Textual draws an unticked box as "▐X▌" with the X in a dim colour, which read as
    ticked: a rep saw "Save results" ticked over "0 saved" (issue 23). The state must read
    in plain text: no colour, a screen capture, a colour-blind rep."""
    app = cockpit(store, sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        save = app.screen.query_one("#lookup-save")
        assert text_of(app, "#lookup-save").startswith("▐ ▌ Save results")
        save.focus()
        await pilot.press("space")
        await pilot.pause()
        assert text_of(app, "#lookup-save").startswith("▐X▌ Save results")
        await pilot.press("escape", "escape", "X")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        options = [str(button.render()).rstrip() for button in app.screen.query(ClearRadioButton)]
        assert options[:3] == ["▐●▌ leads", "▐ ▌ companies", "▐ ▌ contacts"]
        app.screen.query_one("#export-kind").focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        options = [str(button.render()).rstrip() for button in app.screen.query(ClearRadioButton)]
        assert options[:3] == ["▐ ▌ leads", "▐●▌ companies", "▐ ▌ contacts"]


async def test_the_keys_prospecting_names_are_the_reps_own(prospect_store: Store, service: ServiceClient) -> None:
    keymap = {"prospecting.lookup": "l", "lookup.mark": "m", "lookup.save_marked": "v", "lookup.cold": "1",
              "company.cold": "2", "company.remove_lead": "X"}
    app = cockpit(prospect_store, config=settings(keymap=keymap), sync=LookupSync(service))
    async with service, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("P")
        await pilot.pause()
        assert text_of(app, "#prospecting-empty").startswith("Nothing started yet. l looks companies up")
        await pilot.press("l")
        await pilot.pause()
        intro = text_of(app, "#lookup-summary")
        assert "Mark results with m: v saves the marked" in intro and "with 1 (cold)" in intro
        app.push_screen(CompanyScreen(KESTREL_COMPANY))
        await pilot.pause()
        assert "X removes it from outreach" in text_of(app, "#company-outreach")  # a warm lead


async def test_a_short_filter_on_companies_says_it_reads_the_start_of_names(prospect_store: Store) -> None:
    """As the lead list says it (tests/tui/test_tui_flows.py)."""
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "slash", *"zq")
        await pilot.pause()
        records = app.screen.query_one("#record-list", VirtualList)
        assert "".join(segment.text for segment in records.render_line(1)).startswith("No company's name starts with “zq”; a third letter searches inside")


async def test_notices_count_in_words_and_name_the_reps_keys(prospect_store: Store) -> None:
    """"Queued 1 as cold leads; they appear in the lead list (L)", "Follow it in the job
    monitor (J) or prospecting (P)" and "the outbox (O)" wrote their keys out, whatever
    the keymap said."""
    keymap = {"app.leads": "f2", "app.jobs": "f3", "app.prospecting": "f4", "app.outbox": "f5"}
    app = cockpit(prospect_store, config=settings(keymap=keymap))
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(901))  # found by a deep search: not a lead yet
        await pilot.pause()
        await pilot.press("c", "y")
        await pilot.pause()
        await pilot.press("s", "y")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
    assert "Queued 1 company as a cold lead; it appears in the lead list (f2)." in said
    assert any(line.endswith("Follow it in the job monitor (f3) or prospecting (f4).") for line in said), said
    assert any(line.startswith("Nothing to undo") and line.endswith("in the outbox (f5).") for line in said), said


async def test_people_found_before_any_search_names_the_search_key(prospect_store: Store) -> None:
    app = cockpit(prospect_store, config=settings(keymap={"company.contact_search": "f6"}))
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(901))
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
    assert "Zahnarzt Praxis Isar: has not been searched yet (f6 searches)." in said, said


async def test_export_offers_what_the_screen_under_it_lists(prospect_store: Store) -> None:
    """X on the warm leads offers the warm leads (the rep's 17:30 export), on the companies
    the companies; elsewhere all leads, as before."""
    def chosen(app) -> tuple[str, str, bool, str]:
        screen = app.screen
        assert isinstance(screen, ExportDialog)
        values = screen.values()
        return values["kind"], values["status"], screen.query_one("#export-status").disabled, Path(values["path"]).name

    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2", "X")  # the lead list, its warm tab
        await pilot.pause()
        assert chosen(app) == ("leads", "warm", False, "warm-leads.csv")
        await pilot.press("escape", "C", "X")
        await pilot.pause()
        assert chosen(app) == ("companies", "all", True, "companies.csv")
        await pilot.press("escape", "K", "X")
        await pilot.pause()
        assert chosen(app) == ("contacts", "all", True, "contacts.csv")
        await pilot.press("escape", "P", "x")
        await pilot.pause()
        assert chosen(app) == ("leads", "all", False, "leads.csv")
