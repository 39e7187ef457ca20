"""Snapshots of the prospecting screens at 120x40 and 80x24: full, empty, offline and
plan-limit states, on the deterministic data of `test_tui_prospecting` (fixed clock,
zone and seed). Update with `pytest tests/tui/test_tui_prospecting_snapshots.py
--snapshot-update` after looking at the report of the differences.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.cockpit import LookupSync, cockpit, deliver
from support.prospecting import job_key, record_long_run, sandbox_client
from support.tui_wire_data import KESTREL_COMPANY
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.tui.screens.prospecting.company import CompanyScreen
from warmline.tui.screens.prospecting.people import FoundContactsScreen
from warmline.tui.screens.prospecting.research import RunResultsScreen
from warmline.tui.screens.prospecting.searches import FoundCompaniesScreen

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]


@pytest.fixture
def offline_store(prospect_store: Store) -> Store:
    prospect_store.set_state("online", False)
    return prospect_store


@pytest.fixture
def service(tmp_path: Path) -> Iterator[ServiceClient]:
    yield from sandbox_client(tmp_path)


@pytest.fixture
def exhausted_service(tmp_path: Path) -> Iterator[ServiceClient]:
    yield from sandbox_client(tmp_path, instant_lookups=0)


def pushing(app, make_screen):  # type: ignore[no-untyped-def]
    """A `run_before` that opens a screen built from the app's store."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app.push_screen(make_screen(app.store))
        await pilot.pause()

    return run_before


def looking_up(*keys: str):  # type: ignore[no-untyped-def]
    """A `run_before` that opens the lookup, types `keys` and waits for the answer."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("I", *keys)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_prospecting_hub(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["P"])


@pytest.mark.parametrize("size", SIZES)
def test_prospecting_hub_empty(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["P"])


@pytest.mark.parametrize("size", SIZES)
def test_companies(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["C", "space", "j", "space"])


@pytest.mark.parametrize("size", SIZES)
def test_companies_filter_without_match(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["C", "slash", *"zzz"])


@pytest.mark.parametrize("size", SIZES)
def test_companies_empty(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["C"])


@pytest.mark.parametrize("size", SIZES)
def test_company_page(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    assert snap_compare(app, terminal_size=size, run_before=pushing(app, lambda s: CompanyScreen(KESTREL_COMPANY)))


@pytest.mark.parametrize("size", SIZES)
def test_company_page_not_searched_not_a_lead(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    assert snap_compare(app, terminal_size=size, run_before=pushing(app, lambda s: CompanyScreen(901)))


@pytest.mark.parametrize("size", SIZES)
def test_contacts(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["K"])


@pytest.mark.parametrize("size", SIZES)
def test_people_found(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    screen = pushing(app, lambda s: FoundContactsScreen(job_key(s, "contact_search")))
    assert snap_compare(app, terminal_size=size, run_before=screen, press=["space", "space"])


@pytest.mark.parametrize("size", SIZES)
def test_people_added_with_a_skip_explained(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app.push_screen(FoundContactsScreen(job_key(prospect_store, "contact_search")))
        await pilot.pause()
        await pilot.press("space", "space", "a", "y")
        (op,) = prospect_store.outbox_rows()
        deliver(prospect_store, op.op_id, {
            "success": True, "added": 1, "skipped": 1, "contacts": [],
            "skipped_ids": [{"id": 7004, "reason": "limit"}],
        })
        app.poll_status()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_companies_found_by_a_deep_search(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    screen = pushing(app, lambda s: FoundCompaniesScreen(job_key(s, "deep_search")))
    assert snap_compare(app, terminal_size=size, run_before=screen, press=["space"])


@pytest.mark.parametrize("size", SIZES)
def test_deep_search_dialog(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["F", *"dental clinics in Bavaria"])


@pytest.mark.parametrize("size", SIZES)
def test_deep_search_dialog_offline(snap_compare, offline_store: Store, size) -> None:
    assert snap_compare(cockpit(offline_store), terminal_size=size, press=["F"])


@pytest.mark.parametrize("size", SIZES)
def test_research_templates(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["C", "space", "space", "t"])


@pytest.mark.parametrize("size", SIZES)
def test_research_templates_empty(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["T"])


@pytest.mark.parametrize("size", SIZES)
def test_research_run_cost_question(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["C", "space", "space", "t", "enter"])


@pytest.mark.parametrize("size", SIZES)
def test_research_results(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    screen = pushing(app, lambda s: RunResultsScreen(job_key(s, "research_run")))
    assert snap_compare(app, terminal_size=size, run_before=screen)


@pytest.mark.parametrize("size", SIZES)
def test_research_results_long_run_marked(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    run = record_long_run(prospect_store)
    screen = pushing(app, lambda s: RunResultsScreen(run))
    assert snap_compare(app, terminal_size=size, run_before=screen, press=["j", "space", "space"])


@pytest.mark.parametrize("size", SIZES)
def test_lookup_form(snap_compare, prospect_store: Store, size) -> None:
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["I"])


def typing_in(field: str, *keys: str):  # type: ignore[no-untyped-def]
    """A `run_before` that opens the lookup and types `keys` into one of its fields."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("I")
        pilot.app.screen.query_one(field).focus()
        await pilot.press(*keys)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_lookup_completes_a_filter(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    assert snap_compare(app, terminal_size=size, run_before=typing_in("#lookup-industries", *"Fin"))


@pytest.mark.parametrize("size", SIZES)
def test_lookup_asks_about_an_unknown_keyword(snap_compare, prospect_store: Store, size) -> None:
    app = cockpit(prospect_store)
    assert snap_compare(app, terminal_size=size, run_before=typing_in("#lookup-countries", *"Swedn", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_lookup_results(snap_compare, store: Store, service: ServiceClient, size) -> None:
    app = cockpit(store, sync=LookupSync(service))
    assert snap_compare(app, terminal_size=size, run_before=looking_up(*"logistics software", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_lookup_plan_limit(snap_compare, store: Store, exhausted_service: ServiceClient, size) -> None:
    app = cockpit(store, sync=LookupSync(exhausted_service))
    assert snap_compare(app, terminal_size=size, run_before=looking_up(*"dental", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_lookup_offline_lists_cached_lookups(snap_compare, offline_store: Store, size) -> None:
    offline_store.save_lookup(
        {"query": "dental clinics", "industries": [], "countries": ["Germany"], "regions": [], "broaden_search": False},
        {"companies": [], "total": 0, "saved_count": 0, "quota_limited": 0},
    )
    assert snap_compare(cockpit(offline_store), terminal_size=size, run_before=looking_up(*"logistics", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_export_dialog(snap_compare, prospect_store: Store, monkeypatch: pytest.MonkeyPatch, size) -> None:
    monkeypatch.setenv("HOME", "/home/rep")  # no Documents folder there: the home folder
    monkeypatch.setenv("XDG_CONFIG_HOME", "/home/rep/.config")
    assert snap_compare(cockpit(prospect_store), terminal_size=size, press=["X"])
