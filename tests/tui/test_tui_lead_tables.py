"""The lead page's tables size their columns from their content (issue 13): the contacts'
Role and the sources' Type stay whole at 80 and 120 columns, also after pinning, and no
table scrolls sideways."""

from __future__ import annotations

import pytest

from support.cockpit import cockpit
from support.store_data import detail_item
from support.tables import cell_texts, no_horizontal_scroll
from support.tui_wire_data import KESTREL
from support.waiting import until
from warmline.store import Store
from warmline.tui.screens.lead_detail import ContactsTable, LeadDetailScreen, SourcesTable
from warmline.vocabulary import source_name

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
        assert cell_texts(sources, 3) == ["Contact's social", "Blog", "Careers"]  # in words
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


def test_source_types_are_named_in_words_and_an_unknown_one_kept() -> None:
    assert [source_name(t) for t in ("blog", "careers", "press", "company_social", "contact_social")] == [
        "Blog", "Careers", "Press", "Company social", "Contact's social",
    ]
    assert source_name("company_page") == "Company page"
    assert source_name("rss_feed") == "rss_feed"  # the service's own word, not a guess
    assert source_name(None) == "" and source_name("") == ""


async def test_the_sources_table_names_types_and_shows_an_unknown_one_sanitised(store: Store) -> None:
    detail = detail_item(1, company_name="Acme")
    detail["monitoring_pages"] = [
        {"id": 11, "url": "https://acme.example/x", "label": "Acme on X", "page_type": "company_social",
         "score": 9, "is_selected": True, "last_checked_at": None},
        {"id": 12, "url": "https://acme.example/feed", "label": "Feed", "page_type": "rss\x1b[31m_feed\x07",
         "score": 5, "is_selected": False, "last_checked_at": None},
    ]
    store.upsert_lead_detail(detail)
    app = cockpit(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_lead(1)
        await until(
            lambda: isinstance(app.screen, LeadDetailScreen) and app.screen.query(SourcesTable),
            pilot=pilot,
        )
        sources = app.screen.query_one(SourcesTable)
        await until(lambda: sources.row_count == 2, pilot=pilot)
        assert cell_texts(sources, 3) == ["Company social", "rss_feed"]  # controls stripped
        assert no_horizontal_scroll(sources)
