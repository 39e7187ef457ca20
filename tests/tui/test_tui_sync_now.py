"""Sync now (issue 23, item 4) and the honest status line (item 3), as the rep sees them."""

from __future__ import annotations

import asyncio
from datetime import UTC

from textual.command import CommandList

from support.cockpit import RecordingSync, cockpit, status_text
from support.waiting import until
from warmline.store import Store
from warmline.sync.engine import PassReport
from warmline.sync.flush import FlushReport
from warmline.sync.status import Connection, StatusBoard
from warmline.tui.status import sync_result


async def test_the_key_runs_one_pass_from_any_screen(store: Store) -> None:
    sync = RecordingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")  # the outbox: any screen will do
        await pilot.press("Y")
        await until(lambda: sync.passes == 1, pilot=pilot)
        await until(lambda: any("Synced" in n.message for n in app._notifications), pilot=pilot)
        assert sync.passes == 1


async def test_the_status_line_says_syncing_until_the_pass_ends(store: Store) -> None:
    """With the step the pass is on, once it names one ("⟳ syncing: reading leads…")."""
    sync = RecordingSync()
    sync.pass_gate = asyncio.Event()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("Y")
        await until(lambda: "syncing…" in status_text(app), pilot=pilot)
        await pilot.press("Y")  # a second press while the pass runs
        await pilot.pause()
        assert sync.passes == 1
        assert any("already running" in n.message for n in app._notifications)
        StatusBoard(store).update(step="reading leads")  # as the engine's pass names its step
        app.poll_status()
        await until(lambda: "⟳ syncing: reading leads…" in status_text(app), pilot=pilot)
        sync.pass_gate.set()
        await until(lambda: "syncing" not in status_text(app), pilot=pilot)
        assert "online" in status_text(app)


async def test_sync_now_offline_says_so(store: Store) -> None:
    sync = RecordingSync()
    sync.pass_report = PassReport(reachable=False, offline_error="connection refused")
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("Y")
        await until(lambda: any("offline" in n.message for n in app._notifications), pilot=pilot)


async def test_the_palette_offers_sync_now(store: Store) -> None:
    sync = RecordingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.press(*"Sync now")

        def offered() -> bool:
            hits = app.screen.query(CommandList)
            return bool(hits and hits.first().option_count and "Sync now" in str(hits.first().get_option_at_index(0).prompt))

        await until(offered, pilot=pilot, step=0.05)
        await pilot.press("enter")
        await until(lambda: sync.passes == 1, pilot=pilot)


async def test_a_refusal_followed_by_offline_shows_offline_not_the_key(store: Store) -> None:
    """The cache as a refusal then a lost connection leave it (any process's engine):
    the line says offline, never "API key refused"."""
    board = StatusBoard(store)
    connection = Connection(None, board)  # type: ignore[arg-type]  # the client is not used here
    connection.refused_key("HTTP 401: Invalid API key")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: "API key refused" in status_text(app), pilot=pilot)
        connection.lost("connection refused")
        app.poll_status()
        await until(lambda: "offline" in status_text(app), pilot=pilot)
        assert "API key" not in status_text(app)


def test_a_pass_with_problems_names_the_reps_outbox_key() -> None:
    report = PassReport(reachable=True, flush=FlushReport(delivered=1, failed=2), leads_refreshed=1)
    said = sync_result(report, UTC, outbox_key="f5").text
    assert said == "Synced: 1 action sent, 1 lead read, 2 problems: see the outbox (f5) and the status line."
