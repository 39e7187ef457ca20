"""Job kinds in the job monitor and the prospecting hub: short names from one table, whole
at 80 and 120 columns (issue 13: "Company dee…" at 80 columns), the full name kept for
sentences."""

from __future__ import annotations

import pytest

from support.cockpit import cockpit
from support.prospecting import fill_prospecting
from support.tables import cell_texts, no_horizontal_scroll
from support.tui_wire_data import KESTREL
from support.waiting import until
from warmline.store import Store
from warmline.tui.screens.jobs import JobsScreen
from warmline.tui.screens.prospecting.hub import ProspectingScreen
from warmline.tui.widgets.tables import RowTable
from warmline.vocabulary import KIND_NAMES, KIND_WIDTH, kind_label, kind_short

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]


def test_every_kind_has_a_short_name_for_the_column_and_a_full_one_for_sentences() -> None:
    assert (
        kind_short("deep_search") == "Deep search"
        and kind_label("deep_search") == "Company deep search"
    )
    assert kind_short("contact_search") == "People search"
    assert kind_short("recommendations") == kind_short("generate_recommendations") == "Recs"
    assert KIND_WIDTH == max(len(name.short) for name in KIND_NAMES.values()) <= 13
    assert kind_short("brand_new_kind") == kind_label("brand_new_kind") == "Brand new kind"


def fill_every_kind(store: Store) -> None:
    """The prospecting jobs plus a signal scan and a recommendations job on a lead."""
    fill_prospecting(store)
    store.record_job(
        "signal_scan", 81, {"job_id": 81, "status": "running", "progress": 10}, lead_id=KESTREL
    )
    store.record_job(
        "recommendations",
        82,
        {"job_id": 82, "status": "completed", "recommendations": []},
        lead_id=KESTREL,
    )


@pytest.mark.parametrize("size", SIZES)
async def test_kinds_are_whole_in_the_job_monitor_and_the_hub(store: Store, size) -> None:
    fill_every_kind(store)
    app = cockpit(store)
    async with app.run_test(size=size) as pilot:
        await pilot.press("J")
        await until(lambda: isinstance(app.screen, JobsScreen), pilot=pilot)
        jobs = app.screen.query_one("#jobs-table", RowTable)
        await until(lambda: jobs.row_count == 7 and jobs.column_widths, pilot=pilot)
        assert sorted(set(cell_texts(jobs, 0))) == [
            "Deep search",
            "People search",
            "Recs",
            "Research",
            "Research run",
            "Signal scan",
        ]  # none cut with an ellipsis
        assert no_horizontal_scroll(jobs)
        await pilot.press("P")
        await until(lambda: isinstance(app.screen, ProspectingScreen), pilot=pilot)
        hub = app.screen.query_one("#prospecting-table", RowTable)
        await until(lambda: hub.row_count == 5 and hub.column_widths, pilot=pilot)
        assert sorted(set(cell_texts(hub, 0))) == [
            "Deep search",
            "People search",
            "Research",
            "Research run",
        ]
        assert no_horizontal_scroll(hub)
        hub.move_cursor(row=cell_texts(hub, 0).index("Deep search"), animate=False)
        await pilot.press("enter")  # the running deep search: a sentence keeps the full name
        await until(
            lambda: any(
                "Company deep search is running" in str(n.message) for n in app._notifications
            ),
            pilot=pilot,
        )
