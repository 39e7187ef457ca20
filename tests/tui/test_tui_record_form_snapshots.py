"""Snapshot of a company's edit form with two custom fields, at 120x40 and 80x24, scrolled
to the custom fields (labels with their types, values filled in, the help line saying
how an emptied field is treated). Update with `--snapshot-update` after looking at it."""

from __future__ import annotations

import pytest

from support.cockpit import cockpit
from warmline.store import Store
from warmline.tui.screens.prospecting.company import CompanyScreen

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]
COMPANY = 800


@pytest.fixture
def form_store(store: Store) -> Store:
    store.upsert_field_schemas("companies", [
        {"key": "icp_fit", "name": "ICP fit", "type": "number"},
        {"key": "hiring", "name": "Hiring roles", "type": "list"},
    ])
    store.upsert_companies([{
        "id": COMPANY, "name": "Kestrel Analytics", "domain": "kestrel.example", "industry": "Software",
        "country": "Finland", "size": "51-200", "tags": ["nordics"],
        "custom_fields": {"icp_fit": 91, "hiring": ["Data engineer", "AE"]},
    }])
    return store


@pytest.mark.parametrize("size", SIZES)
def test_company_edit_form_with_custom_fields(snap_compare, form_store: Store, size) -> None:
    app = cockpit(form_store)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app.push_screen(CompanyScreen(COMPANY))
        await pilot.pause()

    # e opens the form; nine tabs pass the company's own fields and ICP fit, so the form
    # scrolls to its end with both custom fields in view (the last one focused).
    keys = ["e", *["tab"] * 9]
    assert snap_compare(app, terminal_size=size, run_before=run_before, press=keys)
