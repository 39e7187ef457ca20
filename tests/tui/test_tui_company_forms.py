"""The company page's removal question (the cockpit's one lead-removal question) and the
org's custom fields in the company and contact forms, driven with keys on the real app over
a real store; record calls go to the in-process sandbox."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Label

import support.tui_wire_data as W
from support.cockpit import LookupSync, cockpit, settings, status_text, text_of
from support.prospecting import sandbox_client
from support.tui_wire_data import KESTREL_COMPANY
from warmline.api import ServiceClient
from warmline.api.errors import InputError
from warmline.records import custom_text, custom_value
from warmline.store import Store
from warmline.tui.safe import safe_text
from warmline.tui.screens.dialogs import ConfirmDialog, LineDialog
from warmline.tui.screens.prospecting.company import CompanyScreen, ContactScreen
from warmline.tui.screens.prospecting.directory import CompaniesScreen

STANDARD_COMPANY_INPUTS = 8  # name, domain, industry, country, region, size, description, tags
COMPANY_SCHEMA = [
    {"key": "icp_fit", "name": "ICP fit", "type": "number"},
    {"key": "uses_sap", "name": "Uses SAP", "type": "boolean"},
    {"key": "hiring", "name": "Hiring roles", "type": "list"},
]
CONTACT_SCHEMA = [{"key": "met_on", "name": "Met on", "type": "date"}]


@pytest.fixture
def online(tmp_path: Path) -> Iterator[ServiceClient]:
    yield from sandbox_client(tmp_path)


@pytest.fixture
def schema_store(store: Store) -> Store:
    store.upsert_field_schemas("companies", COMPANY_SCHEMA)
    store.upsert_field_schemas("contacts", CONTACT_SCHEMA)
    return store


def notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


def question_of(app: Any) -> str:
    assert isinstance(app.screen, ConfirmDialog)
    return app.screen.query("Static").first().render().plain


def form_labels(app: Any) -> list[str]:
    return [str(label.render()) for label in app.screen.query(Label)]


def form_error(app: Any) -> str:
    return text_of(app, "#dialog-error")


async def settle(app: Any, pilot: Any) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def to_custom_fields(pilot: Any) -> None:
    """Move the focus from the form's first input to its first custom field."""
    await pilot.press(*["tab"] * STANDARD_COMPANY_INPUTS)


# --- removing the company's lead from outreach ---------------------------------------------------


async def test_D_on_a_company_page_asks_the_lead_removal_question_word_for_word(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(KESTREL_COMPANY))
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
        assert question_of(app) == (
            "Remove Kestrel Analytics from outreach?\n"
            "If a signal scan was started for it, its site signal slot is freed."
        )


async def test_the_question_shows_a_hostile_company_name_literally(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        for company_id, name in ((504, W.HOSTILE_MARKUP), (505, W.HOSTILE_ESCAPE)):
            app.push_screen(CompanyScreen(company_id))
            await pilot.pause()
            await pilot.press("D")
            await pilot.pause()
            question = question_of(app)
            assert question.startswith(f"Remove {safe_text(name)} from outreach?")
            assert "\x1b" not in question
            await pilot.press("escape", "escape")
            await pilot.pause()


async def test_escape_keeps_the_lead_and_queues_nothing(prospect_store: Store) -> None:
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(KESTREL_COMPANY))
        await pilot.pause()
        await pilot.press("D", "escape")
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)
        assert prospect_store.outbox_rows() == []
        assert app.screen.lead_id() == 103
        assert "warm lead" in text_of(app, "#company-outreach")


async def test_yes_queues_the_removal_says_so_and_redraws_the_page(prospect_store: Store) -> None:
    prospect_store.set_state("online", False)  # queued like every change, offline too
    app = cockpit(prospect_store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(KESTREL_COMPANY))
        await pilot.pause()
        await pilot.press("D", "y")
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)
        (op,) = prospect_store.outbox_rows()
        assert op.kind == "remove_lead" and op.lead_id == 103
        assert "Kestrel Analytics removed from outreach; the service is told at the next sync (u undoes it within 5 s)." in notes(app)
        assert "not a lead" in text_of(app, "#company-outreach")
        await pilot.press("D")  # no longer a lead: nothing to ask
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)
        assert "Kestrel Analytics is not in outreach." in notes(app)


# --- custom fields in the record forms -------------------------------------------------------------


async def test_without_custom_fields_the_form_has_only_the_record_fields(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "n")
        await pilot.pause()
        assert isinstance(app.screen, LineDialog)
        assert len(app.screen.query(Input)) == STANDARD_COMPANY_INPUTS
        assert text_of(app, ".dialog-hint") == "enter or ctrl+s send · esc cancel"


async def test_a_new_company_is_sent_with_the_custom_fields_filled_in(
    schema_store: Store, online: ServiceClient
) -> None:
    app = cockpit(schema_store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("C", "n")
        await pilot.pause()
        labels = form_labels(app)
        assert labels[STANDARD_COMPANY_INPUTS:] == [
            "ICP fit (number)", "Uses SAP (boolean: yes or no)", "Hiring roles (list: items separated by ;)",
        ]
        assert "custom field left as shown is unchanged; emptied, it is cleared" in text_of(app, ".dialog-hint")
        await pilot.press(*"Custom Co")
        await to_custom_fields(pilot)
        await pilot.press(*"72", "tab", "tab", *"Data engineer; AE", "ctrl+s")  # Uses SAP left empty
        await settle(app, pilot)
        assert isinstance(app.screen, CompaniesScreen)
        (created,) = schema_store.companies_page("Custom Co")
        assert created.custom_fields == {"icp_fit": 72, "hiring": ["Data engineer", "AE"]}
        assert (await online.get_company(created.id)).custom_fields == created.custom_fields


async def test_editing_shows_the_values_and_sends_only_what_the_rep_changed(
    schema_store: Store, online: ServiceClient
) -> None:
    app = cockpit(schema_store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        saved = await online.create_company({
            "name": "Edit Co",
            "custom_fields": {"icp_fit": 70, "uses_sap": True, "hiring": ["AE"], "legacy": "kept"},
        })
        schema_store.upsert_companies([saved.model_dump(mode="json")])
        # Someone else changes a field after the cache was read: the form shows the old value.
        await online.update_company(saved.id, {"custom_fields": {"uses_sap": False}})
        app.push_screen(CompanyScreen(saved.id))
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        shown = {name: app.screen.query_one(f"#field-custom-{i}", Input).value
                 for i, name in enumerate(("icp_fit", "uses_sap", "hiring"))}
        assert shown == {"icp_fit": "70", "uses_sap": "yes", "hiring": "AE"}
        await to_custom_fields(pilot)  # a field's text is selected when tab reaches it
        await pilot.press(*"85", "tab", "tab", "backspace", "ctrl+s")  # Uses SAP left as shown, Hiring emptied
        await settle(app, pilot)
        assert isinstance(app.screen, CompanyScreen)
        service = (await online.get_company(saved.id)).custom_fields
        assert service == {"icp_fit": 85, "uses_sap": False, "hiring": None, "legacy": "kept"}
        assert schema_store.get_company(saved.id).custom_fields == service
        assert "ICP fit: 85" in text_of(app, "#company-fields")


async def test_a_bad_value_is_refused_in_the_form_and_nothing_is_sent(
    schema_store: Store, online: ServiceClient
) -> None:
    app = cockpit(schema_store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        saved = await online.create_company({"name": "Strict Co", "custom_fields": {"icp_fit": 70}})
        schema_store.upsert_companies([saved.model_dump(mode="json")])
        app.push_screen(CompanyScreen(saved.id))
        await pilot.pause()
        await pilot.press("e", "tab", *"strict.example")
        await to_custom_fields(pilot)  # from the domain: the second custom field, Uses SAP
        await pilot.press(*"perhaps", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, LineDialog)
        assert form_error(app) == "Uses SAP (uses_sap) must be yes or no (got 'perhaps')"
        remote = await online.get_company(saved.id)
        assert remote.domain is None and remote.custom_fields == {"icp_fit": 70}
        await pilot.press("ctrl+u", *"no", "ctrl+s")  # corrected: now it saves
        await settle(app, pilot)
        assert isinstance(app.screen, CompanyScreen)
        remote = await online.get_company(saved.id)
        assert remote.domain == "strict.example" and remote.custom_fields == {"icp_fit": 70, "uses_sap": False}


async def test_a_new_contact_takes_its_own_custom_fields(schema_store: Store, online: ServiceClient) -> None:
    app = cockpit(schema_store, sync=LookupSync(online))
    async with online, app.run_test(size=(120, 40)) as pilot:
        await pilot.press("K", "n", *"Ada")
        await pilot.press(*["tab"] * 8)  # first_name ... company_id, then the custom field
        assert form_labels(app)[-1] == "Met on (date: YYYY-MM-DD)"
        await pilot.press(*"14 March", "ctrl+s")
        await settle(app, pilot)
        assert form_error(app) == "Met on (met_on) must be a date as YYYY-MM-DD (got '14 March')"
        await pilot.press("ctrl+u", *"2026-03-14", "ctrl+s")
        await settle(app, pilot)
        (contact,) = schema_store.contacts_page()
        assert contact.custom_fields == {"met_on": "2026-03-14"}
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ContactScreen)
        assert "Met on: 2026-03-14" in text_of(app, "#contact-info")


# --- the core conversion the forms use ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        ("number", "42", 42),
        ("number", "4.5", 4.5),
        ("boolean", "Yes", True),
        ("boolean", "false", False),
        ("date", "2026-03-14", "2026-03-14"),
        ("url", "https://kestrel.example/pricing", "https://kestrel.example/pricing"),
        ("list", " a ;b;; ", ["a", "b"]),
        ("text", "  as typed  ", "as typed"),
        ("a type we do not know", "as typed", "as typed"),
        ("number", "", None),
    ],
)
def test_custom_value_reads_text_by_the_fields_type(kind: str, text: str, value: Any) -> None:
    field = {"key": "k", "name": "K", "type": kind}
    assert custom_value(field, text) == value
    if value is not None and kind != "text":
        assert custom_value(field, custom_text(value)) == value  # what a form shows reads back the same


@pytest.mark.parametrize(
    ("kind", "text"),
    [("number", "lots"), ("number", "nan"), ("number", "inf"), ("boolean", "maybe"), ("date", "14/03/2026"),
     ("url", "kestrel.example"), ("url", "javascript:alert(1)")],
)
def test_custom_value_refuses_text_its_type_does_not_take(kind: str, text: str) -> None:
    with pytest.raises(InputError) as refused:
        custom_value({"key": "k", "name": "K", "type": kind}, text)
    assert refused.value.field == "k" and repr(text) in str(refused.value)


async def test_the_undo_key_named_after_a_removal_is_the_reps_own(prospect_store: Store) -> None:
    app = cockpit(prospect_store, config=settings(keymap={"app.undo": "ctrl+z"}))
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(KESTREL_COMPANY))
        await pilot.pause()
        await pilot.press("D", "y")
        await pilot.pause()
        assert "(ctrl+z undoes it within 5 s)." in notes(app)[-1]
        app.poll_status()
        await pilot.pause()
        assert "ctrl+z undoes removal of Kestrel Analytics" in status_text(app)
