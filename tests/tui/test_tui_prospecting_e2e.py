"""The rep's prospecting afternoon in the cockpit, against the in-process sandbox through
the real sync engine: deep search -> two found companies into outreach as cold leads ->
contact search on one -> two people added -> research run -> custom fields on its page.

The engine is driven by hand (flush, poll) instead of its scheduler, so the test decides
when the service is talked to; everything else is the real app, store, engine and server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from textual.pilot import Pilot

import support.tui_wire_data as W
from support.cockpit import LookupSync, cockpit, text_of
from support.waiting import until
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.tui.screens.prospecting.company import CompanyScreen
from warmline.tui.screens.prospecting.people import FoundContactsScreen
from warmline.tui.screens.prospecting.searches import FoundCompaniesScreen
from warmline.tui.widgets.section_list import SectionList
from warmline_sandbox.app import create_app
from warmline_sandbox.settings import DEFAULT_QUOTAS, SandboxSettings

KEY = "prospecting-e2e-key"


class HandDriven(LookupSync):
    """The cockpit's sync handle over a real engine whose scheduler never starts."""

    def __init__(self, engine: SyncEngine) -> None:
        super().__init__(engine.client)
        self.engine = engine


@pytest.fixture
async def engine(tmp_path: Path, empty_store: Store, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SyncEngine]:
    monkeypatch.setattr("warmline.sync.jobs.POLL_MIN", 0.02)
    monkeypatch.setattr("warmline.sync.jobs.POLL_MAX", 0.04)
    settings = SandboxSettings(
        db_path=tmp_path / "sandbox.sqlite3", api_keys=[KEY], seed=7, companies=200, leads=0,
        job_seconds=0.2, quotas=dict(DEFAULT_QUOTAS),
    )
    app = create_app(settings)
    async with ServiceClient("http://127.0.0.1", KEY, transport=httpx.ASGITransport(app=app)) as client:
        yield SyncEngine(empty_store, client, blocking=run_inline)
    app.state.db.close()


async def settle(engine: SyncEngine, store: Store, pilot: Pilot) -> None:
    """Deliver what is queued and poll until no job runs (the sandbox's jobs take 0.2 s)."""
    await engine.flush(ignore_backoff=True)

    async def finished() -> bool:
        if store.jobs(active_only=True):
            await engine.poll_jobs()
        return not store.jobs(active_only=True)

    await until(finished, step=0.03, what="every job finished")
    await engine.flush(ignore_backoff=True)
    pilot.app.poll_status()
    await pilot.pause()


async def test_deep_search_to_leads_people_and_research(empty_store: Store, engine: SyncEngine) -> None:
    store = empty_store
    store.set_state("online", True)
    store.set_state("last_sync_at", W.NOW.timestamp())
    app = cockpit(store, sync=HandDriven(engine))
    async with app.run_test(size=(120, 40)) as pilot:
        # Deep search: 4 companies.
        await pilot.press("F", *"dental clinics", "tab", "end", "ctrl+u", "4", "enter")
        await settle(engine, store, pilot)
        await pilot.press("P", "enter")
        await pilot.pause()
        assert isinstance(app.screen, FoundCompaniesScreen)
        found = app.screen.query_one("#found-table")
        assert found.row_count >= 2
        assert all(found.get_row_at(i)[6].plain for i in range(found.row_count))  # each with its AI tag

        # Two of them into outreach as cold leads.
        await pilot.press("space", "space", "c", "y")
        await settle(engine, store, pilot)
        leads = store.lead_page(status="cold")
        assert len(leads) == 2

        # A contact search on the first; two people added.
        await pilot.press("g", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)
        company_id = app.screen.company_id
        assert company_id in {lead.company_id for lead in leads}
        assert "cold lead" in text_of(app, "#company-outreach")
        await pilot.press("s", "y")
        await settle(engine, store, pilot)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, FoundContactsScreen)
        people = app.screen
        assert len(people.found) >= 2
        table = people.query_one("#people-table", SectionList)
        person_rows = [i for i in range(table.row_count) if not table.is_heading(i)]
        for row in person_rows[:2]:
            table.move_to(row)
            await pilot.press("space")
        assert len(people.selection) == 2
        await pilot.press("a", "y")
        await settle(engine, store, pilot)
        assert "Added 2, skipped 0." in people.query_one("#people-result").render().plain
        assert store.contact_count(company_id=company_id) == 2

        # A research run over it; its page shows the extracted values.
        await engine.refresh_directory()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("t", "enter", "y")
        await settle(engine, store, pilot)
        (run,) = [job for job in store.jobs() if job.kind == "research_run"]
        assert run.status == "completed" and run.params["company_ids"] == [company_id]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)
        fields = text_of(app, "#company-fields")
        assert "none yet" not in fields
        assert store.get_company(company_id).custom_fields
