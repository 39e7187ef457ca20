"""Creating, editing and deleting companies and contacts from the cockpit (n, e, D), against
the in-process sandbox; the lists and pages redraw from the cache afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from support.cockpit import LookupSync, cockpit, settings, text_of
from support.prospecting import sandbox_client
from warmline.api import ServiceClient
from warmline.api.errors import ConflictError, NotFoundError
from warmline.store import Store
from warmline.tui.screens.dialogs import ConfirmDialog, LineDialog
from warmline.tui.screens.prospecting.company import CompanyScreen, ContactScreen
from warmline.tui.screens.prospecting.directory import CompaniesScreen, ContactsScreen


@pytest.fixture
def online(tmp_path: Path) -> Iterator[ServiceClient]:
    yield from sandbox_client(tmp_path)


def notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def settle(app: Any, pilot: Any) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_a_company_is_created_edited_and_deleted_from_the_list(store: Store, online: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C")
        await pilot.pause()
        assert isinstance(app.screen, CompaniesScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, LineDialog)
        await pilot.press(*"Zephyr Tools", "tab", *"zephyr.example", "tab", "tab", "tab", "tab", "tab", "tab",
                          *"nordics, saas", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, CompaniesScreen)
        (created,) = store.companies_page("Zephyr")
        assert created.domain == "zephyr.example" and created.tags == ["nordics", "saas"]
        assert any("Created company Zephyr Tools" in n for n in notes(app))
        app.screen.query_one("#record-filter").value = "Zephyr"  # the list shows it
        await pilot.pause()
        assert app.screen.record_list.current.id == created.id

        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, LineDialog)
        await pilot.press("tab", "tab", *"Logistics", "enter")
        await settle(app, pilot)
        assert store.get_company(created.id).industry == "Logistics"
        assert (await online.get_company(created.id)).industry == "Logistics"

        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "Zephyr Tools" in app.screen.query_one("Static").render().plain
        await pilot.press("y")
        await settle(app, pilot)
        assert store.get_company(created.id) is None
        assert app.screen.record_list.row_count == 0
        with pytest.raises(NotFoundError):
            await online.get_company(created.id)


async def test_a_missing_name_keeps_the_form_open_and_sends_nothing(store: Store, online: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "n", "tab", *"nameless.example", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, LineDialog)
        assert app.screen.query_one("#dialog-error").render().plain == "Name must not be empty"
    assert store.company_count() == 0


async def test_offline_a_delete_says_so_and_changes_nothing(store: Store) -> None:
    store.upsert_companies([{"id": 41, "name": "Cached Co"}])
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "D", "y")
        await settle(app, pilot)
        assert any(n.startswith("Offline: deleting Cached Co (company 41)") for n in notes(app))
    assert store.company_count() == 1 and store.get_company(41) is not None


async def test_offline_a_new_company_is_queued_and_listed_pending(store: Store) -> None:
    """Issue 23 (item 6): a company made by hand offline is queued under a local id,
    listed as pending, and changed only through the outbox until delivered."""
    store.upsert_companies([{"id": 41, "name": "Cached Co"}])
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "n", *"Offline Co", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, CompaniesScreen)
        (op,) = store.outbox_rows()
        assert op.kind == "create_company" and op.payload["local_id"] < 0
        assert op.payload["name"] == "Offline Co"
        assert any("Offline: company Offline Co added (pending)" in n for n in notes(app))
        app.screen.query_one("#record-filter").value = "Offline"
        await pilot.pause()
        assert app.screen.record_list.current.id == op.payload["local_id"]
        cells = app.screen.formatter().cells(app.screen.record_list.current)
        assert "Offline Co (pending)" in ["".join(segment.text for segment in cell) for cell in cells]
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, CompaniesScreen)
        # The outbox's key, as the rep has it (it read "o", which is not the outbox's key).
        assert any(n.endswith("change or discard its create in the outbox (O); it can be edited here once the "
                              "service has it.") for n in notes(app)), notes(app)


async def test_a_company_page_edits_and_deletes_its_company(store: Store, online: ServiceClient) -> None:
    app = cockpit(store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "n", *"Page Co", "ctrl+s")
        await settle(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)
        company_id = app.screen.company_id
        await pilot.press("e", "tab", *"page.example", "enter")
        await settle(app, pilot)
        assert store.get_company(company_id).domain == "page.example"
        await pilot.press("delete", "y")
        await settle(app, pilot)
        assert isinstance(app.screen, CompaniesScreen)
        assert store.get_company(company_id) is None


async def test_a_contact_is_created_from_the_list_and_edited_and_deleted_on_its_page(
    store: Store, online: ServiceClient
) -> None:
    app = cockpit(store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("K", "n", *"Ada", "tab", *"Lovelace", "tab", *"ada@example.com", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, ContactsScreen)
        (contact,) = store.contacts_page()
        assert contact.name == "Ada Lovelace" and contact.email == "ada@example.com"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ContactScreen)
        await pilot.press("e", "tab", "tab", "tab", *"CTO", "enter")
        await settle(app, pilot)
        assert "Title: CTO" in text_of(app, "#contact-info")
        await pilot.press("D", "y")
        await settle(app, pilot)
        assert isinstance(app.screen, ContactsScreen)
        assert store.contact_count() == 0


async def test_deleting_a_company_in_outreach_is_refused_in_plain_words(store: Store, online: ServiceClient) -> None:
    """The refusal names the key that removes the company from outreach, as the rep's keymap
    has it on the company's page."""
    app = cockpit(store, sync=LookupSync(online), config=settings(keymap={"company.remove_lead": "ctrl+r"}))
    async with online, app.run_test(size=(120, 40)) as pilot:
        created = await online.create_company({"name": "Lead Co"})
        await online.add_leads([created.id], "cold")
        store.upsert_companies([created.model_dump(mode="json")])
        await pilot.press("C", "D", "y")
        await settle(app, pilot)
        refusal = next(n for n in notes(app) if n.startswith("The service refused deleting Lead Co"))
        assert refusal.endswith("A company in outreach must be removed from outreach (ctrl+r on its page) first.")
        assert store.get_company(created.id) is not None


async def test_a_contact_the_service_will_not_delete_is_not_said_to_be_in_outreach(
    store: Store, online: ServiceClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A conflict on a contact (a record linked to it) is the service's own words; the
    company's hint about outreach would send the rep to the wrong page."""

    async def refuse(*_args: object, **_kwargs: object) -> None:
        raise ConflictError("The change conflicts with related records", status=409)

    app = cockpit(store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        created = await online.create_contact({"first_name": "Ada", "last_name": "Lovelace"})
        store.upsert_contacts([created.model_dump(mode="json")])
        monkeypatch.setattr(online, "delete_contact", refuse)
        await pilot.press("K", "D", "y")
        await settle(app, pilot)
        refusal = next(n for n in notes(app) if n.startswith("The service refused deleting"))
        assert refusal.endswith(": The change conflicts with related records.")
        assert store.contact_count() == 1


async def test_offline_a_new_contact_is_queued_and_listed_pending(store: Store) -> None:
    """Issue 23 (item 6): a contact made offline from the contacts list is queued under a
    local id, listed as pending, and changed only through the outbox until delivered."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("K")
        await pilot.pause()
        assert isinstance(app.screen, ContactsScreen)
        await pilot.press("n", *"Lukas", "tab", *"Brandt", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, ContactsScreen)
        (op,) = store.outbox_rows()
        assert op.kind == "create_contact" and op.payload["local_id"] < 0
        assert any("Offline: contact Lukas Brandt added (pending)" in n for n in notes(app))
        app.screen.query_one("#record-filter").value = "Lukas"
        await pilot.pause()
        assert app.screen.record_list.current.id == op.payload["local_id"]
        name_cell = app.screen.formatter().cells(app.screen.record_list.current)[0]
        assert "".join(segment.text for segment in name_cell) == "Lukas Brandt (pending)"
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ContactsScreen)
        assert any("is still queued (pending)" in n for n in notes(app))


@pytest.mark.parametrize(("typed", "said"), [
    ("kestrel", None),
    ("503", None),
    ("zzz", "no cached company matches 'zzz'"),
])  # fmt: skip
async def test_a_new_contacts_company_is_named_not_only_numbered(prospect_store: Store, typed: str, said: str | None) -> None:
    """The form asked for a "Company id", a number a rep never sees: the start of the
    company's name does, as on the command line (`resolve_company`)."""
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("K")
        await pilot.pause()
        await pilot.press("n", *"Lukas")
        await pilot.pause()
        app.screen.query_one("#field-company_id", Input).value = typed
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        if said is None:
            assert isinstance(app.screen, ContactsScreen)
            (op,) = prospect_store.outbox_rows()
            assert op.kind == "create_contact" and op.payload["company_id"] == 503
        else:
            assert isinstance(app.screen, LineDialog)
            assert said in app.screen.query_one("#dialog-error").render().plain.lower()
            assert not prospect_store.outbox_rows()
