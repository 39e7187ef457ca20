"""Snapshots of every screen at 120x40 and 80x24, with full, empty, offline and error states.

Data is deterministic (fixed clock, zone and seed data), so a changed snapshot is a
changed screen. Update with `pytest tests/tui --snapshot-update` after looking at the
report of the differences.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from textual.command import CommandList

import support.tui_wire_data as W
from support.cockpit import cockpit, fill, settings
from support.waiting import until
from warmline.store import Store

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]


def queue_ops(store: Store) -> None:
    """Two pending actions (one offline note, one activity) and one the server refused."""
    store.enqueue("add_note", {"lead_id": 100, "content": "Call back after the board meeting"}, lead_id=100)
    store.enqueue(
        "log_activity", {"lead_id": 103, "description": "Spoke with Dana, wants pricing by Friday", "contact_id": None},
        lead_id=103, meta={"guessed_type": "call"},
    )
    failed = store.enqueue("change_lead_status", {"lead_id": 101, "lead_status": "warm"}, lead_id=101)
    store.mark_failed(failed, "Outreach lead not found")


def record_jobs(store: Store) -> None:
    store.record_job("deep_search", 17, {
        "job_id": 17, "status": "running", "query": "dental clinics in Bavaria", "target_count": 20,
        "progress": 40, "found_count": 8, "created_at": W.ts(timedelta(minutes=3)), "companies": [],
    })
    store.record_job("deep_search", 11, {
        "job_id": 11, "status": "completed", "query": "logistics SaaS in the Nordics", "target_count": 5,
        "progress": 100, "found_count": 2, "created_at": W.ts(timedelta(hours=9)),
        "completed_at": W.ts(timedelta(hours=8, minutes=50)),
        "companies": [
            {"id": 901, "name": "Tundra Routing AS", "domain": "tundra.example", "industry": "Logistics", "country": "Norway", "ai_tag": "logistics-saas"},
            {"id": 902, "name": W.HOSTILE_MARKUP, "domain": "m.example", "industry": "Software", "country": "Sweden", "ai_tag": "logistics-saas"},
        ],
    })
    store.record_job("contact_search", 5, {
        "job_id": 5, "status": "failed", "company_id": 500, "progress": 60, "created_at": W.ts(timedelta(hours=2)),
        "completed_at": W.ts(timedelta(hours=1)), "error": "Plan limit reached: contact_capacity (50 of 50 used)", "contacts": [],
    }, company_id=500)


@pytest.fixture
def offline_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "offline.sqlite3", clock=lambda: W.NOW.timestamp())
    fill(store, online=False)
    queue_ops(store)
    return store


@pytest.mark.parametrize("size", SIZES)
def test_lead_list(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_lead_list_offline_with_pending_and_failed(snap_compare, offline_store: Store, size) -> None:
    assert snap_compare(cockpit(offline_store), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_lead_list_empty_cache(snap_compare, empty_store: Store, size) -> None:
    assert snap_compare(cockpit(empty_store), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_lead_list_filter_without_match(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["slash", *"zzz"])


@pytest.mark.parametrize("size", SIZES)
def test_lead_list_warm_tab_sorted_by_score(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["2", "s"])


@pytest.mark.parametrize("size", SIZES)
def test_lead_detail(snap_compare, store: Store, size) -> None:
    app = cockpit(store)
    assert snap_compare(app, terminal_size=size, run_before=lambda pilot: app.open_lead(103))


@pytest.mark.parametrize("size", SIZES)
def test_lead_detail_with_pending_items_offline(snap_compare, offline_store: Store, size) -> None:
    app = cockpit(offline_store)
    assert snap_compare(app, terminal_size=size, run_before=lambda pilot: app.open_lead(103))


@pytest.mark.parametrize("size", SIZES)
def test_lead_detail_of_a_removed_lead(snap_compare, store: Store, size) -> None:
    app = cockpit(store)
    assert snap_compare(app, terminal_size=size, run_before=lambda pilot: app.open_lead(999))


@pytest.mark.parametrize("size", SIZES)
def test_recommendations_queue(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["r"])


@pytest.mark.parametrize("size", SIZES)
def test_recommendations_queue_empty(snap_compare, empty_store: Store, size) -> None:
    assert snap_compare(cockpit(empty_store), terminal_size=size, press=["r"])


@pytest.mark.parametrize("size", SIZES)
def test_job_monitor(snap_compare, store: Store, size) -> None:
    record_jobs(store)
    assert snap_compare(cockpit(store), terminal_size=size, press=["J"])


@pytest.mark.parametrize("size", SIZES)
def test_job_monitor_empty(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["J"])


@pytest.mark.parametrize("size", SIZES)
def test_job_results(snap_compare, store: Store, size) -> None:
    record_jobs(store)
    assert snap_compare(cockpit(store), terminal_size=size, press=["J", "G", "enter"])


@pytest.mark.parametrize("size", SIZES)
def test_job_results_of_a_failed_search(snap_compare, store: Store, size) -> None:
    """The generic results view: a finished job's kind, times and the service's error."""
    record_jobs(store)
    assert snap_compare(cockpit(store), terminal_size=size, press=["J", "j", "enter"])


@pytest.mark.parametrize("size", SIZES)
def test_outbox_with_a_failure(snap_compare, offline_store: Store, size) -> None:
    assert snap_compare(cockpit(offline_store), terminal_size=size, press=["O"])


@pytest.mark.parametrize("size", SIZES)
def test_outbox_empty(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["O"])


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store), terminal_size=size, press=["question_mark"])


@pytest.mark.parametrize("size", SIZES)
def test_first_run_screen(snap_compare, size) -> None:
    app = cockpit(None, config_path=Path("/home/rep/.config/warmline/config.toml"))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_light_theme(snap_compare, store: Store, size) -> None:
    assert snap_compare(cockpit(store, config=settings(theme="warmline-light")), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_log_activity_form_shows_the_guess(snap_compare, store: Store, size) -> None:
    app = cockpit(store)

    async def type_activity(pilot) -> None:
        app.open_lead(103)
        await pilot.pause()
        await pilot.press("a", *"Spoke with Dana (VP Ops), wants pricing by Friday")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=type_activity)


@pytest.mark.parametrize("size", SIZES)
def test_deal_form(snap_compare, store: Store, size) -> None:
    app = cockpit(store)

    async def open_deal(pilot) -> None:
        app.open_lead(103)
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=open_deal)


@pytest.mark.parametrize("size", SIZES)
def test_outbox_discard_confirmation(snap_compare, offline_store: Store, size) -> None:
    assert snap_compare(cockpit(offline_store), terminal_size=size, press=["O", "D"])


@pytest.mark.parametrize("size", SIZES)
def test_command_palette(snap_compare, store: Store, size) -> None:
    app = cockpit(store)

    async def search(pilot) -> None:
        await pilot.press("ctrl+p", *"warm")

        def three_hits() -> bool:  # the palette searches in the background
            hits = app.screen.query(CommandList)
            return bool(hits and hits.first().option_count == 3)

        await until(three_hits, pilot=pilot, step=0.05, what="three hits in the palette")

    assert snap_compare(app, terminal_size=size, run_before=search)
