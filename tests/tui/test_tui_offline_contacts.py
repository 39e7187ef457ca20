"""A contact met at the show, added offline from a lead's page (issue 23, items 6 and 7):
the new-contact form starts on an empty field with nothing selected and role one Tab away;
the contact is queued under a local id, shown pending and pinned at once; when the service
is back it is delivered, gets its real id, and the pin lands on it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.widgets import Input

from support.cockpit import cockpit
from support.sync_helpers import KEY, FakeClock, make_sandbox
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.tui.screens.contact_pick import ContactPickDialog, NewContactDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen

LEAD = 1


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(tmp_path: Path, clock: FakeClock) -> Iterator[Any]:
    app = make_sandbox(tmp_path / "sandbox.sqlite3", clock)
    yield app
    app.state.db.close()


@pytest.fixture
async def client(service: Any, clock: FakeClock) -> AsyncIterator[ServiceClient]:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    transport = httpx.ASGITransport(app=service)
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=clock) as client:
        yield client


@pytest.fixture
async def engine(tmp_path: Path, client: ServiceClient, clock: FakeClock) -> AsyncIterator[SyncEngine]:
    store = Store(tmp_path / "cache.sqlite3", clock=clock)
    engine = SyncEngine(store, client, clock=clock, rng=random.Random(1), blocking=run_inline)
    assert await engine.refresh_leads()
    store.set_state("online", False)  # then the wifi went
    yield engine
    store.close()


def contact_rows(app: Any) -> list[str]:
    table = app.screen.query_one("#detail-contacts")
    return [" ".join(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


def key_contacts(service: Any) -> set[int]:
    with service.state.db.read() as conn:
        rows = conn.execute("SELECT contact_id FROM outreach_key_contacts WHERE lead_id = ?", (LEAD,)).fetchall()
    return {row[0] for row in rows}


async def open_new_contact_form(app: Any, pilot: Any, typed: str) -> NewContactDialog:
    app.open_lead(LEAD)
    await pilot.pause()
    assert isinstance(app.screen, LeadDetailScreen)
    await pilot.press("A")
    await pilot.pause()
    assert isinstance(app.screen, ContactPickDialog)
    assert "offline: queued" in str(app.screen.query_one("#pick-options").get_option_at_index(
        app.screen.query_one("#pick-options").option_count - 1).prompt)
    await pilot.press(*typed, "enter")
    await pilot.pause()
    assert isinstance(app.screen, NewContactDialog)
    return app.screen


async def test_the_form_starts_on_an_empty_field_and_role_is_one_tab_away(engine: SyncEngine) -> None:
    app = cockpit(engine.store)
    async with app.run_test(size=(120, 40)) as pilot:
        form = await open_new_contact_form(app, pilot, "Lukas")
        first = form.query_one("#field-first_name", Input)
        assert first.value == "Lukas" and not first.has_focus
        assert app.focused is form.query_one("#field-last_name", Input)  # the first empty field
        await pilot.press(*"Brandt", "tab", *"champion")
        assert form.query_one("#field-role", Input).value == "champion"
        assert first.value == "Lukas"  # never replaced by what was typed next
        await pilot.press("shift+tab", "shift+tab", "x")
        assert first.value == "Lukasx"  # coming back selects nothing: typing appends


async def test_a_contact_added_offline_is_pending_pinned_and_delivered_with_its_real_id(
    engine: SyncEngine, service: Any
) -> None:
    store = engine.store
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_new_contact_form(app, pilot, "Lukas Brandt")
        form = app.screen
        assert app.focused is form.query_one("#field-role", Input)  # names typed: role is next
        await pilot.press(*"champion", "tab")
        await pilot.pause()
        await pilot.press(*"Head of Ops", "tab")
        await pilot.pause()
        await pilot.press(*"lukas@show.example")
        values = form.values()
        assert (values["role"], values["title"], values["email"]) == ("champion", "Head of Ops", "lukas@show.example")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen), app.screen.query_one("#dialog-error").render()
        kinds = [op.kind for op in store.outbox_rows()]
        assert kinds == ["create_contact", "pin_contact"]
        (create, pin) = store.outbox_rows()
        local = create.payload["local_id"]
        assert local < 0 and pin.payload["contact_id"] == local
        row = next(r for r in contact_rows(app) if "Lukas Brandt" in r)
        assert "★" in row and "(pending)" in row
        assert any("Lukas Brandt added offline (pending)" in str(n.message) for n in app._notifications)

        # The service is back: the next pass delivers the contact, then the pin.
        store.release_own_holds()
        report = await engine.flush(ignore_backoff=True)
        assert report.delivered == 2
        remote = store.get_op(create.op_id).result["contact"]["id"]
        assert remote > 0 and store.get_op(pin.op_id).payload["contact_id"] == remote
        assert remote in key_contacts(service)
        app.screen.reload()
        await pilot.pause()
        row = next(r for r in contact_rows(app) if "Lukas Brandt" in r)
        assert "★" in row and "(pending)" not in row
        detail = store.lead_detail(LEAD)
        assert detail is not None and {c.contact_id for c in detail.contacts if c.is_selected} >= {remote}
        assert all(c.contact_id > 0 for c in detail.contacts)
