"""Closing the cockpit: nothing that runs late (the status timer, a worker's last call)
touches screens that are gone."""

from __future__ import annotations

from datetime import UTC

import support.tui_wire_data as W
from warmline.store import Store
from warmline.tui.app import WarmlineApp
from warmline.tui.widgets.status_line import StatusLine


async def test_the_status_poll_after_the_screens_are_gone_does_nothing(store: Store) -> None:
    """Textual's shutdown removes the screens before it stops the app's timers, so the
    status poll (a timer) could fire with no screen left: `ScreenStackError`, a traceback on
    quit (seen as a failed test on a loaded machine). The state it met is the one after
    the shutdown; the poll must leave it alone."""
    app = WarmlineApp(store, clock=lambda: W.NOW, zone=UTC, opener=lambda url: True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.query(StatusLine)
        before = app.sync_status
    assert not app.screen_stack and not app.is_running

    app.poll_status()  # what the timer calls; raised ScreenStackError here

    assert app.sync_status is before
