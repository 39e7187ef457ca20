"""The research results screen: a long run sorted by its score (highest first), `s` cycling
the orders, companies marked with space and added to outreach with c / w."""

from __future__ import annotations

import pytest

import support.tui_wire_data as W
from support.cockpit import cockpit, text_of
from support.prospecting import LONG_RUN_SCORES, fill_prospecting, record_long_run
from support.tables import cell_texts, no_horizontal_scroll
from support.waiting import until
from warmline.store import Store
from warmline.store.outreach import outreach_status
from warmline.store.research_results import CompanyResult
from warmline.tui.safe import safe_text
from warmline.tui.screens.dialogs import ConfirmDialog
from warmline.tui.screens.prospecting.company import CompanyScreen
from warmline.tui.screens.prospecting.research import (
    FIELD_ORDER,
    NAME_ORDER,
    RUN_ORDER,
    ResultOrder,
    RunResultsScreen,
    sort_results,
)
from warmline.tui.widgets.tables import RowTable

SCORES = LONG_RUN_SCORES


@pytest.fixture
def long_run(store: Store) -> int:
    fill_prospecting(store)
    return record_long_run(store)


def names(app) -> list[str]:  # type: ignore[no-untyped-def]
    table = app.screen.query_one("#run-results-table")
    return [table.get_row_at(row)[2].plain for row in range(table.row_count)]


def company(company_id: int) -> str:
    """The company's name as the table shows it (service text made safe)."""
    return safe_text(W.COMPANIES[company_id - 500][0])


async def test_results_come_highest_score_first_and_s_cycles_the_orders(
    store: Store, long_run: int
) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunResultsScreen(long_run))
        await pilot.pause()
        by_score = sorted(SCORES, key=lambda c: -SCORES[c])
        # the nameless result scores 99; 999 has no score, so it comes last
        assert names(app) == ["unknown company", *(company(c) for c in by_score), "company 999"]
        title = text_of(app, "#screen-title")
        assert "13 companies · 0 marked · by ICP fit (high first)" in title
        assert "ICP fit: 99" in text_of(app, "#run-results-body")
        table = app.screen.query_one("#run-results-table")
        assert [c.label.plain for c in table.columns.values()] == ["", "Lead", "Company", "ICP fit", "crm"]

        await pilot.press("s")
        await pilot.pause()
        assert "in run order" in text_of(app, "#screen-title")
        assert names(app) == [*(company(c) for c in SCORES), "company 999", "unknown company"]

        await pilot.press("s")
        await pilot.pause()
        assert "by name" in text_of(app, "#screen-title")
        shown = names(app)
        assert shown[:-2] == sorted((company(c) for c in SCORES), key=str.casefold)
        assert shown[-2:] == ["company 999", "unknown company"]  # not cached, no name: last

        await pilot.press("s")
        await pilot.pause()
        assert "by crm (A-Z)" in text_of(app, "#screen-title")
        assert names(app)[:4] == [company(502), company(503), company(500), "company 999"]

        await pilot.press("s")  # back to the score
        await pilot.pause()
        assert "by ICP fit (high first)" in text_of(app, "#screen-title")


async def test_marked_results_go_to_outreach_in_the_order_marked(
    store: Store, long_run: int
) -> None:
    store.forget_leads([102, 103])  # 502 and 503 are no leads here: a lead's company is left out
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunResultsScreen(long_run))
        await pilot.pause()
        await pilot.press("space")  # the nameless result cannot be added
        await pilot.pause()
        assert any("cannot be added" in str(n.message) for n in app._notifications)
        await pilot.press("j", "space", "space")  # 502 (97) and 503 (91)
        await pilot.pause()
        assert "2 marked" in text_of(app, "#screen-title")
        table = app.screen.query_one("#run-results-table")
        assert [table.get_row_at(row)[0].plain for row in range(4)] == [" ", "●", "●", " "]
        await pilot.press("k", "k", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CompanyScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")  # marks survive a new order
        await pilot.pause()
        assert "2 marked" in text_of(app, "#screen-title")
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
    (op,) = store.outbox_rows()
    assert op.kind == "add_to_outreach"
    assert op.payload == {"company_ids": [502, 503], "lead_status": "warm"}


async def test_without_marks_c_adds_the_highlighted_company(store: Store, long_run: int) -> None:
    store.forget_leads([102])  # 502 is no lead here: a lead's company is left out
    app = cockpit(store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(RunResultsScreen(long_run))
        await pilot.pause()
        await pilot.press("j", "c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
    (op,) = store.outbox_rows()
    assert op.payload == {"company_ids": [502], "lead_status": "cold"}


def test_sorting_keeps_ties_in_run_order_and_missing_values_last() -> None:
    rows = [
        CompanyResult(1, "b", {"fit": 5, "note": "x"}),
        CompanyResult(2, "A", {"fit": None}),
        CompanyResult(3, None, {"fit": 7}),
        CompanyResult(4, "c", {"fit": 5.5, "note": "W"}),
        CompanyResult(5, "d", {"fit": 5}),
    ]
    fit = ResultOrder(FIELD_ORDER, "Fit", "fit", numeric=True)
    assert [r.company_id for r in sort_results(rows, fit)] == [3, 4, 1, 5, 2]
    note = ResultOrder(FIELD_ORDER, "Note", "note")
    assert [r.company_id for r in sort_results(rows, note)] == [4, 1, 2, 3, 5]
    assert [r.company_id for r in sort_results(rows, ResultOrder(NAME_ORDER, "company"))] == [
        2,
        1,
        4,
        5,
        3,
    ]
    assert [r.company_id for r in sort_results(rows, ResultOrder(RUN_ORDER, "run order"))] == [
        1,
        2,
        3,
        4,
        5,
    ]


async def test_a_field_name_from_the_service_is_shown_literally_as_a_column_title(
    store: Store,
) -> None:
    fill_prospecting(store)
    store.record_job(
        "research_run",
        "run-71",
        {
            "run_id": "run-71",
            "status": "completed",
            "company_ids": [500],
            "results": [
                {"company_id": 500, "fields": {W.HOSTILE_MARKUP: 3, W.HOSTILE_ESCAPE: "x"}}
            ],
        },
    )
    key = next(job.key for job in store.jobs() if job.remote_id == "run-71")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunResultsScreen(key))
        await pilot.pause()
        table = app.screen.query_one("#run-results-table")
        titles = [c.label.plain for c in table.columns.values()]
        assert W.HOSTILE_MARKUP in titles and safe_text(W.HOSTILE_ESCAPE) in titles
        assert not any("\x1b" in title for title in titles)


@pytest.mark.parametrize("size", [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")])
async def test_results_mark_companies_in_outreach_and_fit_the_width(
    store: Store, long_run: int, size
) -> None:
    # the same Lead column as found companies and lookup: the read model's cold/warm mark
    in_outreach = outreach_status(store, [*SCORES, 999])
    assert set(in_outreach.values()) == {"cold", "warm"}  # 999 is not cached: no lead
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        app.push_screen(RunResultsScreen(long_run))
        await until(
            lambda: isinstance(app.screen, RunResultsScreen) and app.screen.query("#run-results-body"),
            pilot=pilot,
        )
        table = app.screen.query_one("#run-results-table", RowTable)
        await until(lambda: table.row_count == 13 and table.column_widths, pilot=pilot)
        marks = dict(zip(names(app), cell_texts(table, 1), strict=True))
        assert marks == {
            **{company(c): in_outreach.get(c, "") for c in SCORES},
            "company 999": "",
            "unknown company": "",
        }
        assert no_horizontal_scroll(table)
        if size[0] == 120:  # room for every name: the flexible Company column cuts none
            assert not any(name.endswith("…") for name in names(app))


async def test_long_texts_share_the_width_with_the_company_name(store: Store) -> None:
    """A run of long texts (summaries, links: five fields, as the demo's "Hiring signals")
    fits 120 columns without cutting the companies' names down to make room for them."""
    fill_prospecting(store)
    long = {"summary": "s" * 70, "careers_page_url": "https://example.test/" + "c" * 50, "departments": "d" * 60,
            "last_funding_date": "2026-10-28"}
    store.record_job("research_run", "run-80", {
        "run_id": "run-80", "status": "completed", "template_id": "t-long", "progress": 100,
        "results": [{"company_id": company_id, "fields": {**long, "open_roles": 12}} for company_id in (500, 501, 503)],
    })
    key = next(job.key for job in store.jobs() if job.remote_id == "run-80")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(RunResultsScreen(key))
        await until(lambda: isinstance(app.screen, RunResultsScreen) and app.screen.query("#run-results-table"),
                    pilot=pilot)
        table = app.screen.query_one("#run-results-table", RowTable)
        await until(lambda: table.row_count == 3 and table.column_widths, pilot=pilot)
        await until(lambda: no_horizontal_scroll(table), pilot=pilot)
        # every column shares the width: a name keeps 16 letters at least (it kept 7 and
        # "…" while the texts took their whole 24 each)
        for shown, whole in zip(sorted(names(app)), sorted(company(c) for c in (500, 501, 503)), strict=True):
            assert shown == whole or (shown.endswith("…") and whole.startswith(shown[:-1]) and len(shown) >= 17)
