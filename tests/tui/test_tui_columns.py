"""Column widths from content and the width there is: fixed columns keep their width, the
flexible text columns share the rest, nothing hides behind a horizontal scrollbar at 80 or
120 columns, and the widths follow a resize (issue 13)."""

from __future__ import annotations

import pytest
from rich.markup import escape
from rich.text import Text
from textual.app import App, ComposeResult

from support.cockpit import cockpit
from support.prospecting import fill_prospecting, job_key
from support.tables import cell_texts, drawn_lines, no_horizontal_scroll
from support.tui_wire_data import KESTREL_COMPANY
from support.waiting import until
from warmline.store import Store
from warmline.store.outreach import outreach_status
from warmline.tui.columns import Column, share, widths
from warmline.tui.screens.jobs import JobsScreen
from warmline.tui.screens.outbox import OutboxScreen
from warmline.tui.screens.prospecting.common import found_by
from warmline.tui.screens.prospecting.directory import CompaniesScreen
from warmline.tui.screens.prospecting.lookup import LookupScreen
from warmline.tui.screens.prospecting.people import FoundContactsScreen
from warmline.tui.screens.prospecting.searches import FoundCompaniesScreen
from warmline.tui.widgets.section_list import SectionList
from warmline.tui.widgets.tables import RowTable
from warmline.tui.widgets.virtual_list import VirtualList

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]


def test_share_keeps_fixed_and_short_columns_and_splits_the_rest() -> None:
    # everything fits: every column as wide as its content
    assert share([3, 10, 14], [False, True, True], 40, [8, 8, 8]) == [3, 10, 14]
    # too little room: the fixed column keeps 3, the short flexible one (6 < 12) keeps its
    # width, the two long ones split the 24 left evenly
    assert share([3, 6, 30, 40], [False, True, True, True], 33, [8, 8, 8, 8]) == [3, 6, 12, 12]
    # never below the minimum (or the content, when it is shorter)
    assert share([3, 30, 4], [False, True, True], 10, [8, 8, 8]) == [3, 8, 4]


def test_a_column_cut_last_keeps_its_content_before_the_others_share() -> None:
    """At 80 columns the contacts list cut every column to an even 15 cells: "Adrienne
    Aguil…" beside a cut email. The name (the row's identity) now keeps its width as long
    as the others still get their minimum; the rest is shared as before."""
    # room 60: the name wants 20 and gets it; the others split the 40 left
    assert share([20, 22, 25, 30], [True] * 4, 60, [14, 12, 12, 14], first=[True, False, False, False]) == [
        20, 13, 13, 14,
    ]
    # too little room for all of it: the name gets what the others' minimums leave
    assert share([30, 22, 25, 30], [True] * 4, 52, [14, 12, 12, 14], first=[True, False, False, False]) == [
        14, 12, 12, 14,
    ]
    # everything fits: as without it
    assert share([10, 9, 8, 7], [True] * 4, 60, [8] * 4, first=[True, False, False, False]) == [10, 9, 8, 7]


def test_list_columns_from_content_or_in_proportion() -> None:
    columns = (
        Column("", 1),
        Column("Name", 0, min_width=10),
        Column("Email", 0, min_width=10),
        Column("Role", 6),
    )
    # declared only: the flexible columns split what is left in proportion to their minimum
    assert widths(columns, 40) == [1, 15, 15, 6]
    # measured: a short name keeps its width and the email takes the rest
    assert widths(columns, 40, [1, 9, 40, 4]) == [1, 9, 21, 6]


def test_found_by_is_said_in_words() -> None:
    assert [found_by(s) for s in ("deep_search", "lookup", "manual", "web_import", None)] == [
        "Deep search",
        "Lookup",
        "By hand",
        "Web import",
        "",
    ]


async def test_jobs_result_shares_the_width_and_follows_a_resize(store: Store) -> None:
    fill_prospecting(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("J")
        await until(lambda: isinstance(app.screen, JobsScreen), pilot=pilot)
        table = app.screen.query_one("#jobs-table", RowTable)
        await until(lambda: table.row_count > 0 and table.column_widths, pilot=pilot)
        wide = table.column_widths
        assert wide[5] >= 20 and no_horizontal_scroll(table)
        await pilot.resize_terminal(80, 24)
        await until(
            lambda: table.column_widths != wide, pilot=pilot, what="the widths worked out again"
        )
        narrow = table.column_widths
        assert narrow[5] >= 10  # Result was cut to one character at 80 columns
        assert narrow[2:5] == wide[2:5]  # Status, Elapsed and Progress keep their content's width
        assert no_horizontal_scroll(table)
        assert any(
            text.endswith("…") for text in cell_texts(table, 5)
        )  # cut with an ellipsis, not hidden


@pytest.mark.parametrize("size", SIZES)
async def test_found_companies_show_which_are_in_outreach(store: Store, size) -> None:
    fill_prospecting(store)
    lead_of_found = 901
    store.upsert_leads(
        [
            {
                "id": 777,
                "company_id": lead_of_found,
                "company_name": "Zahnarzt Praxis Isar",
                "lead_status": "warm",
                "warming_score": 0,
                "target_score": 50,
            }
        ]
    )
    assert outreach_status(store, [901, 902, 903]) == {901: "warm"}
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        app.push_screen(FoundCompaniesScreen(job_key(store, "deep_search")))
        await pilot.pause()
        table = app.screen.query_one("#found-table", RowTable)
        await until(lambda: table.row_count == 3 and table.column_widths, pilot=pilot)
        assert sorted(cell_texts(table, 1)) == ["", "", "warm"]
        row = cell_texts(table, 1).index("warm")
        assert table.get_row_at(row)[3].plain.startswith("isar-dental.ex")
        assert no_horizontal_scroll(table)


@pytest.mark.parametrize("size", SIZES)
async def test_companies_list_says_found_by_apart_from_the_tag_and_marks_leads(
    store: Store, size
) -> None:
    fill_prospecting(store)
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        await pilot.press("C")
        await until(lambda: isinstance(app.screen, CompaniesScreen), pilot=pilot)
        records = app.screen.query_one("#record-list", VirtualList)
        await until(lambda: records.row_count > 0, pilot=pilot)
        width = records.scrollable_content_region.width
        lines = {}
        for index in range(records.row_count):
            company = records.item_at(index)
            text = "".join(s.text for s in app.screen.list_formatter.row(company, width))
            assert len(text) <= width  # nothing past the edge
            lines[company.id] = text
        header = "".join(s.text for s in app.screen.list_formatter.header(width))
        assert "Found by" in header and "Lead" in header
        kestrel = lines[KESTREL_COMPANY]
        assert " warm " in kestrel and "Lookup" in kestrel
        deep = [text for text in lines.values() if "Deep search" in text]
        assert len(deep) == 3 and not any(
            "dental-bavaria" in text or "deep_search" in text for text in deep
        )
        if size[0] == 120:  # room for the content: nothing cut
            assert all("…" not in text for text in lines.values())


@pytest.mark.parametrize("size", SIZES)
async def test_people_found_emails_and_names_use_the_width(store: Store, size) -> None:
    fill_prospecting(store)
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        app.push_screen(FoundContactsScreen(job_key(store, "contact_search")))
        await pilot.pause()
        table = app.screen.query_one("#people-table", SectionList)
        await until(lambda: table.row_count > 0, pilot=pilot)
        width = table.scrollable_content_region.width
        assert all(len(line) <= width for line in drawn_lines(table))  # nothing beyond the edge
        if size[0] == 120:  # was cut while 30 columns stayed empty
            assert any("dana@kestrel.example" in line for line in drawn_lines(table))
        else:
            assert sum(table.column_widths) + 2 * len(table.column_widths) >= width - 4


@pytest.mark.parametrize("size", SIZES)
async def test_lookup_results_mark_companies_in_outreach(store: Store, size) -> None:
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        await pilot.press("I")
        await until(lambda: isinstance(app.screen, LookupScreen), pilot=pilot)
        screen = app.screen
        screen.criteria = {"query": "analytics"}
        screen.answer = {
            "total": 2,
            "saved_count": 1,
            "companies": [
                {
                    "name": "Kestrel Analytics",
                    "domain": "kestrel.example",
                    "industry": "Software",
                    "country": "Finland",
                    "similarity_score": 0.91,
                    "saved_company_id": KESTREL_COMPANY,
                },
                {
                    "name": "A company with a rather long name for the column",
                    "domain": "a-very-long-domain-name.example",
                    "industry": "Software",
                    "country": "Finland",
                    "similarity_score": 0.5,
                },
            ],
        }
        screen._show_answer()
        table = screen.query_one("#lookup-table", RowTable)
        await until(lambda: table.row_count == 2 and table.column_widths, pilot=pilot)
        assert cell_texts(table, 3) == ["warm", ""]
        assert no_horizontal_scroll(table)
        if size[0] == 120:
            assert "a-very-long-domain-name.example" in cell_texts(table, 5)


@pytest.mark.parametrize("size", SIZES)
async def test_outbox_keeps_tries_and_queued_on_screen(store: Store, size) -> None:
    store.enqueue(
        "add_note",
        {"lead_id": 100, "content": "Call back after the board meeting, then send the deck"},
        lead_id=100,
    )
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        await pilot.press("O")
        await until(lambda: isinstance(app.screen, OutboxScreen), pilot=pilot)
        table = app.screen.query_one("#outbox-table", RowTable)
        await until(lambda: table.row_count == 1 and table.column_widths, pilot=pilot)
        assert no_horizontal_scroll(table)  # at 80 columns Tries and Queued were past the edge
        assert cell_texts(table, 4) == ["0"]
        assert cell_texts(table, 3)[0].startswith("Call back")


async def test_a_title_cut_to_its_column_says_so() -> None:
    """A column narrower than its title shows the title cut with an ellipsis, as its cells
    are ("Open role" read as a whole word at 80 columns); a title that fits is whole, and
    a service's name with markup in it stays literal."""
    class Narrow(App[None]):
        def compose(self) -> ComposeResult:
            yield RowTable(("", Column("Company", min_width=16), Column("Open roles", min_width=4),
                            Column(escape("[b]Tier[/b]"), min_width=4)), id="t")

    app = Narrow()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one("#t", RowTable)
        table.fill([("1", [Text("•"), Text("Arnold & Suarez Insurance"), Text("47"), Text("gold")])])
        await until(lambda: table.column_widths, pilot=pilot)
        titles = [column.label.plain for column in table.columns.values()]
        assert titles[1] == "Company" and titles[2].endswith("…") and titles[2].startswith("Open")
        assert titles[3].startswith("[b]")  # literal, not bold markup
