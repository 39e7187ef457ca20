"""The lead page's tables size their columns from their content (issue 13): the contacts'
Role and the sources' Type stay whole at 80 and 120 columns, also after pinning, and no
table scrolls sideways."""

from __future__ import annotations

import pytest

from support.cockpit import cockpit
from support.tables import cell_texts, no_horizontal_scroll
from support.tui_wire_data import KESTREL
from support.waiting import until
from warmline.store import Store
from warmline.tui.screens.lead_detail import ContactsTable, LeadDetailScreen, SourcesTable

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]


@pytest.mark.parametrize("size", SIZES)
async def test_lead_page_contacts_and_sources_keep_role_and_type_whole(store: Store, size) -> None:
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await until(
            lambda: isinstance(app.screen, LeadDetailScreen) and app.screen.query(ContactsTable),
            pilot=pilot,
        )
        contacts = app.screen.query_one(ContactsTable)
        sources = app.screen.query_one(SourcesTable)
        await until(lambda: contacts.row_count == 2 and contacts.column_widths, pilot=pilot)
        assert cell_texts(contacts, 3) == ["decision-maker", "champion"]  # not `champi` / `decisi`
        assert "contact_social" in cell_texts(sources, 3)
        assert no_horizontal_scroll(contacts) and no_horizontal_scroll(sources)
        contacts.focus()
        await pilot.press("p")  # pinning adds a pending marker to the name: the role stays whole
        await until(
            lambda: (
                "pending" in "".join(cell_texts(contacts, 1)) or "…" in cell_texts(contacts, 1)[0]
            ),
            pilot=pilot,
        )
        assert cell_texts(contacts, 3) == ["decision-maker", "champion"]
        assert no_horizontal_scroll(contacts)
