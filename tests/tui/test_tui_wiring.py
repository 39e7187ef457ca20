"""Loose ends of the cockpit wired up: search results open where the rep can act on them,
a lead leaves outreach from the list or its page, and a confirmation always shows its
question. Driven with keys on the real app over a real store, no network."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rich.text import Text
from textual.containers import Vertical
from textual.widgets import Static

import support.tui_wire_data as W
from support.cockpit import RecordingSync, cockpit
from support.prospecting import fill_prospecting
from support.tui_wire_data import KESTREL
from warmline.store import Store
from warmline.tui.safe import safe_text
from warmline.tui.screens.dialogs import ConfirmDialog
from warmline.tui.screens.jobs import JobResultScreen, JobsScreen
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.prospecting.company import CompanyScreen
from warmline.tui.screens.prospecting.people import FoundContactsScreen
from warmline.tui.screens.prospecting.research import RunResultsScreen
from warmline.tui.screens.prospecting.searches import FoundCompaniesScreen
from warmline.tui.widgets.tables import RowTable
from warmline.tui.widgets.virtual_list import VirtualList

COMPANY = 503
FOUND = [
    {"id": 901, "name": "Tundra Routing AS", "domain": "tundra.example", "industry": "Logistics", "country": "Norway"},
    {"id": 902, "name": W.HOSTILE_MARKUP, "domain": "m.example", "industry": "Software", "country": "Sweden"},
]
PEOPLE = [
    {"id": 7001, "first_name": "Dana", "last_name": "Kivi", "title": "VP Operations", "role": "decision-maker",
     "email": "dana@kestrel.example", "company_id": COMPANY},
]
TIMES = {"created_at": W.ts(timedelta(hours=2)), "completed_at": W.ts(timedelta(hours=1))}
LIMIT = "Plan limit reached: 50 of 50 used"


def outcome(status: str, finds: str, found: list) -> dict:
    """A job's final fields: its finds when completed, the service's error when failed."""
    if status == "failed":
        return {"status": status, finds: [], "error": LIMIT, **TIMES}
    return {"status": status, finds: found, **TIMES}


def record_deep_search(store: Store, status: str) -> None:
    store.record_job("deep_search", 11, {
        "job_id": 11, "query": "logistics SaaS in the Nordics", "target_count": 5, "progress": 100,
        **outcome(status, "companies", FOUND),
    })


def record_contact_search(store: Store, status: str) -> None:
    store.record_job("contact_search", 5, {
        "job_id": 5, "company_id": COMPANY, "progress": 100, **outcome(status, "contacts", PEOPLE),
    }, company_id=COMPANY)


def record_signal_scan(store: Store, status: str) -> None:
    store.record_job("signal_scan", 77, {
        "job_id": 77, "lead_id": KESTREL, "status": status, "progress": 100, "monitoring_pages_found": 7, **TIMES,
    }, lead_id=KESTREL)


def plain_text(widget: Static) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def open_only_job(app, pilot) -> None:
    await pilot.pause()
    await pilot.press("J")
    await pilot.pause()
    assert isinstance(app.screen, JobsScreen)
    await pilot.press("enter")
    await pilot.pause()


# -- job monitor: a finished search opens where its finds can be acted on ----------------------


async def test_enter_on_a_completed_deep_search_opens_the_companies_found(store: Store) -> None:
    record_deep_search(store, "completed")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_only_job(app, pilot)
        assert isinstance(app.screen, FoundCompaniesScreen)
        assert app.screen.job_key == store.jobs()[0].key
        assert set(app.screen.found) == {"901", "902"}
        await pilot.press("space")  # the rep can act on the finds: mark one
        await pilot.pause()
        assert len(app.screen.selection) == 1
        await pilot.press("escape")
        assert isinstance(app.screen, JobsScreen)


async def test_enter_on_a_completed_contact_search_opens_the_people_found(store: Store) -> None:
    record_contact_search(store, "completed")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_only_job(app, pilot)
        assert isinstance(app.screen, FoundContactsScreen)
        assert app.screen.job_key == store.jobs()[0].key
        assert set(app.screen.found) == {"7001"}


async def test_enter_on_a_research_run_or_a_company_research_opens_where_the_hub_opens_it(store: Store) -> None:
    """Found in tmux: the job monitor opened a finished research run as raw text ("company
    67: hiring_departments=['Operations', 'Finance']") where the prospecting hub opened its
    results table; the two now share `results_screen`. A company's deep research opens the
    company's page, which shows it."""
    fill_prospecting(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        for kind, expected in (("research_run", RunResultsScreen), ("company_research", CompanyScreen)):
            job = next(job for job in store.jobs() if job.kind == kind)
            for opener in ("J", "P"):
                await pilot.press(opener)
                await pilot.pause()
                table = app.screen.query_one(RowTable)
                table.move_cursor(row=table.get_row_index(str(job.key)))
                await pilot.press("enter")
                await pilot.pause()
                assert isinstance(app.screen, expected), (kind, opener)
                await pilot.press("escape", "escape")
                await pilot.pause()


@pytest.mark.parametrize(
    ("record", "status", "shown"),
    [
        (record_deep_search, "failed", LIMIT),  # a failed search: its error is what there is to read
        (record_contact_search, "failed", LIMIT),
        (record_signal_scan, "completed", "7"),  # other kinds keep the generic view
    ],
)
async def test_other_finished_jobs_keep_the_generic_results_view(store: Store, record, status: str, shown: str) -> None:
    record(store, status)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_only_job(app, pilot)
        assert isinstance(app.screen, JobResultScreen)
        assert shown in plain_text(app.screen.query_one("#job-result-body", Static))


async def test_enter_on_a_running_search_says_results_come_later(store: Store) -> None:
    record_deep_search(store, "running")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_only_job(app, pilot)
        assert isinstance(app.screen, JobsScreen)


# -- removing a lead from outreach -------------------------------------------------------------


def removals(store: Store) -> list[int | None]:
    return [op.lead_id for op in store.outbox_rows() if op.kind == "remove_lead"]


def question_of(app) -> str:
    assert isinstance(app.screen, ConfirmDialog)
    return plain_text(app.screen.query(Static).first())


async def test_D_on_the_lead_list_asks_naming_the_company_then_removes_it(store: Store) -> None:
    sync = RecordingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        leads = app.screen.query_one(VirtualList)
        lead = leads.current
        await pilot.press("D")
        await pilot.pause()
        assert safe_text(lead.company_name) in question_of(app)  # the first lead's name is hostile
        assert "\x1b" not in question_of(app)
        assert "signal slot" in question_of(app)
        await pilot.press("n")  # declined: nothing queued, nothing woken
        await pilot.pause()
        assert isinstance(app.screen, LeadListScreen)
        assert removals(store) == [] and sync.wakes == 0
        await pilot.press("D", "y")
        await pilot.pause()
        assert isinstance(app.screen, LeadListScreen)
        assert removals(store) == [lead.id]
        assert sync.wakes == 1
        assert leads.row_count == len(W.COMPANIES) - 1
        assert lead.id not in {leads.item_at(i).id for i in range(leads.row_count)}


async def test_D_on_a_lead_page_removes_it_offline_and_goes_back(store: Store) -> None:
    store.set_state("online", False)
    sync = RecordingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
        assert "Kestrel Analytics" in question_of(app)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, LeadListScreen)  # the page of a lead out of outreach closes
        assert removals(store) == [KESTREL]
        assert sync.wakes == 1
        leads = app.screen.query_one(VirtualList)
        assert KESTREL not in {leads.item_at(i).id for i in range(leads.row_count)}


async def test_escape_on_the_question_keeps_the_lead_page(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("D", "escape")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        assert removals(store) == []


# -- the confirmation dialog shows its question -----------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_confirmation_box_is_wide_enough_for_its_question(store: Store, size) -> None:
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.push_screen(ConfirmDialog(Text("Discard this note? It was never sent.")))
        await pilot.pause()
        box = app.screen.query_one(Vertical)
        question = app.screen.query(Static).first()
        assert box.size.width >= min(60, size[0] // 2)
        assert question.size.width > 0 and question.size.height >= 1
        assert "Discard this note?" in plain_text(question)
