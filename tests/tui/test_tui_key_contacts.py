"""Adding a key contact from the lead's page (pick a cached contact of the company, or create
one on the service) and logging an activity with a contact, driven with keys on the real app
over a real store; creating a contact goes to the in-process sandbox."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select

import support.tui_wire_data as W
from support.cockpit import LookupSync, cockpit
from support.prospecting import sandbox_client
from support.tui_wire_data import KESTREL, KESTREL_COMPANY
from support.waiting import until
from warmline import actions
from warmline.api import ServiceClient
from warmline.api.errors import InputError
from warmline.store import Store
from warmline.tui.screens.contact_pick import ContactPickDialog
from warmline.tui.screens.dialogs import ActivityDialog, LineDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen

DANA = 9030  # Kestrel's pinned contact (Dana Berg, VP Operations)
OLA = 9031  # Kestrel's other contact, not pinned
SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]

MIA = 9100  # a contact of Kestrel's company cached from the contacts list, not on the lead's detail


@pytest.fixture
def online(tmp_path: Path) -> Iterator[ServiceClient]:
    yield from sandbox_client(tmp_path)


@pytest.fixture
def company_store(store: Store) -> Store:
    """Kestrel's company has a contact the lead's cached detail does not list yet."""
    store.upsert_contacts(
        [
            {
                "id": MIA,
                "company_id": KESTREL_COMPANY,
                "first_name": "Mia",
                "last_name": "Lind",
                "title": "CFO",
                "role": "influencer",
                "email": "mia@kestrel.example",
            }
        ]
    )
    return store


def notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


def pinned(store: Store, lead_id: int) -> set[int]:
    detail = store.lead_detail(lead_id)
    assert detail is not None
    return {c.contact_id for c in detail.contacts if c.is_selected}


def options_of(app: Any) -> str:
    """The picker's lines, as the rep reads them."""
    listing = app.screen.query_one("#pick-options")
    return "\n".join(
        listing.get_option_at_index(i).prompt.plain for i in range(listing.option_count)
    )


def contact_rows(app: Any) -> list[str]:
    table = app.screen.query_one("#detail-contacts")
    return [" ".join(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


async def open_picker(app: Any, pilot: Any, lead_id: int = KESTREL) -> ContactPickDialog:
    await pilot.pause()
    app.open_lead(lead_id)
    await pilot.pause()
    assert isinstance(app.screen, LeadDetailScreen)
    await pilot.press("A")
    await pilot.pause()
    assert isinstance(app.screen, ContactPickDialog)
    return app.screen


async def test_a_cached_contact_of_the_company_is_picked_by_typing_and_pinned(
    company_store: Store,
) -> None:
    app = cockpit(company_store)
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await open_picker(app, pilot)
        options = options_of(app)
        assert (
            "Dana Berg · VP Operations · decision-maker" in options and "pinned already" in options
        )
        assert "Mia Lind · CFO" in options and "+ New contact" in options
        await pilot.press(*"lind")
        await pilot.pause()
        assert picker.query_one("#pick-options").option_count == 2  # Mia, then "New contact: lind"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        (op,) = company_store.outbox_rows()
        assert op.kind == "pin_contact"
        assert op.payload == {"lead_id": KESTREL, "contact_id": MIA, "is_selected": True}
        assert pinned(company_store, KESTREL) == {DANA, MIA}
        assert any("★ Mia Lind" in row for row in contact_rows(app))
        assert any("Mia Lind pinned as a key contact of Kestrel Analytics" in n for n in notes(app))


async def test_arrows_choose_among_the_lead_contacts_and_a_pinned_one_is_not_pinned_again(
    store: Store,
) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_picker(app, pilot)
        await pilot.press("enter")  # the first line: Dana, pinned already
        await pilot.pause()
        assert store.outbox_rows() == []
        assert any("Dana Berg is already a pinned key contact" in n for n in notes(app))
        await pilot.press("A", "down", "enter")  # Ola
        await pilot.pause()
        assert pinned(store, KESTREL) == {DANA, OLA}


async def test_a_new_contact_offline_is_queued_and_pinned_under_a_local_id(
    store: Store,
) -> None:
    """Issue 23 (item 6): offline, the new contact is queued (no longer refused)."""
    store.set_state("online", False)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_picker(app, pilot)
        await pilot.press(*"Dana Kim, VP Ops")
        await pilot.pause()
        assert "+ New contact: Dana Kim, VP Ops (offline: queued, sent at the next sync)" in options_of(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LineDialog)
        shown = {
            name: app.screen.query_one(f"#field-{name}", Input).value
            for name in ("first_name", "last_name", "title")
        }
        assert shown == {"first_name": "Dana", "last_name": "Kim", "title": "VP Ops"}
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        create, pin = store.outbox_rows()
        assert (create.kind, pin.kind) == ("create_contact", "pin_contact")
        assert pin.payload["contact_id"] == create.payload["local_id"] < 0
        assert any("★ Dana Kim (pendin" in row for row in contact_rows(app)), contact_rows(app)


async def test_a_new_contact_is_created_on_the_service_for_the_company_and_pinned(
    store: Store, online: ServiceClient
) -> None:
    async with online:
        company = await online.create_company(
            {"name": "Kestrel Analytics", "domain": "kestrel.example"}
        )
        detail = W.lead_detail(3)
        store.upsert_leads([{**W.lead_item(3), "company_id": company.id}])
        store.upsert_lead_detail(
            {**detail, "company_id": company.id, "company": {**detail["company"], "id": company.id}}
        )
        app = cockpit(store, sync=LookupSync(online))
        async with app.run_test(size=(120, 40)) as pilot:
            await open_picker(app, pilot)
            await pilot.press(*"Dana Kim, VP Ops", "enter")
            await pilot.pause()
            assert isinstance(app.screen, LineDialog)
            # Names and title typed: the form starts on role (issue 23, item 7).
            await pilot.press(*"decision maker", "tab", "tab", *"dana.kim@kestrel.example", "ctrl+s")
            await until(lambda: store.outbox_rows(), pilot=pilot, what="the pin queued")
            (op,) = store.outbox_rows()
            new_id = op.payload["contact_id"]
            created = await online.get_contact(new_id)
            assert (
                created.first_name,
                created.last_name,
                created.title,
                created.role,
                created.company_id,
            ) == ("Dana", "Kim", "VP Ops", "decision-maker", company.id)
            assert op.kind == "pin_contact" and op.payload["is_selected"] is True
            assert new_id in pinned(store, KESTREL)
            await until(
                lambda: any("★ Dana Kim" in row for row in contact_rows(app)),
                pilot=pilot,
                what="the new contact pinned on the page",
            )
            assert any(f"Created contact Dana Kim ({new_id})" in n for n in notes(app))


async def test_an_activity_is_logged_with_one_of_the_lead_contacts(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("a", *"Call with Ola about the pilot")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ActivityDialog)
        await pilot.press("tab")  # from the text to the contact
        assert dialog.focused is dialog.query_one("#activity-contact", Select)
        await pilot.press("enter", "down", "down", "enter")  # No contact, Dana, Ola
        await pilot.pause()
        assert dialog.contact_id == OLA
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        (op,) = store.outbox_rows()
        assert op.kind == "log_activity"
        assert op.payload == {
            "lead_id": KESTREL,
            "description": "Call with Ola about the pilot",
            "contact_id": OLA,
        }


async def test_an_activity_without_a_contact_sends_none(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("a", *"Sent the deck", "ctrl+s")
        await pilot.pause()
        (op,) = store.outbox_rows()
        assert op.payload["contact_id"] is None


def test_pinning_a_company_contact_is_undone_exactly_and_another_company_s_contact_is_refused(
    company_store: Store,
) -> None:
    op_id = actions.pin_company_contact(company_store, KESTREL, MIA)
    assert pinned(company_store, KESTREL) == {DANA, MIA}
    actions.undo(company_store, op_id)
    detail = company_store.lead_detail(KESTREL)
    assert detail is not None
    assert {c.contact_id: c.is_selected for c in detail.contacts} == {
        DANA: True,
        OLA: False,
        MIA: False,
    }
    company_store.upsert_contacts(
        [{"id": 9200, "company_id": KESTREL_COMPANY + 1, "first_name": "Other"}]
    )
    with pytest.raises(InputError, match="not a cached contact of lead 103's company"):
        actions.pin_company_contact(company_store, KESTREL, 9200)
    assert company_store.outbox_rows() == [] and MIA not in pinned(company_store, KESTREL)


@pytest.mark.parametrize("size", SIZES)
def test_contact_picker(snap_compare, company_store: Store, size) -> None:
    app = cockpit(company_store)

    async def open_it(pilot) -> None:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=open_it)
