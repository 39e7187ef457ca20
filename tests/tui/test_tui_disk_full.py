"""A full disk under the running cockpit (issue 21, item 8).

Before, ctrl+s in the log form, or one dismiss, on a full disk closed the cockpit with
"damaged or not a Warmline cache" and what the rep had typed was gone. Now the form stays
open with its text and says "the disk is full: free space and press ctrl+s again"; a
one-key decision says so in a notification; the cockpit goes on, and once there is room
the same ctrl+s sends. The disk is simulated (support.disk_full).
"""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from support.cockpit import cockpit, text_of
from support.disk_full import FULL, IO_ERROR, READ_ONLY, refuse_writes
from support.tui_wire_data import KESTREL
from warmline.store import Store
from warmline.tui.screens.dialogs import TextDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.recommendations import RecommendationsScreen

TYPED = "Called Dana about pricing"


def notifications(app: object) -> list[str]:
    return [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]


async def test_ctrl_s_on_a_full_disk_keeps_the_form_and_its_text(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("a", *TYPED)
        await pilot.pause()
        refused = refuse_writes(store, FULL)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert refused.refused  # the write reached the disk, which refused it
        assert isinstance(app.screen, TextDialog)
        assert app.screen.query_one("#dialog-text", TextArea).text == TYPED
        assert text_of(app, "#dialog-error") == "The disk is full: free space and press ctrl+s again"
        assert app.is_running and app.cache_error is None
        assert store.outbox_rows() == []

        store.conn = refused._conn  # space was freed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        (op,) = store.outbox_rows()
        assert op.kind == "log_activity"
        assert TYPED in text_of(app, "#detail-activity")


@pytest.mark.parametrize(("message", "words"), [(READ_ONLY, "No permission"), (IO_ERROR, "I/O error")])
async def test_the_form_says_which_way_the_disk_refused(store: Store, message: str, words: str) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("n", *"Budget approved")
        refuse_writes(store, message)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TextDialog)
        error = text_of(app, "#dialog-error")
        assert words in error and "press ctrl+s again" in error and "cache reset" not in error
        assert app.is_running and app.cache_error is None


async def test_a_dismiss_on_a_full_disk_is_told_and_the_recommendation_stays(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RecommendationsScreen)
        first = screen.current
        assert first is not None
        refuse_writes(store, FULL)
        await pilot.press("x")
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and app.cache_error is None
        assert app.screen is screen
        assert any("the disk is full: free space and try again" in said for said in notifications(app))
        assert first.id in [rec.id for rec in store.active_recommendations()]  # still to triage
        assert store.outbox_rows() == []
