"""The triage card's hints name the rep's keys, remapped ones too: the empty queue's
"R on its page" names the lead page's key (a screen that is not open), and the card that
was handled elsewhere names the keys that move on."""

from __future__ import annotations

import support.tui_wire_data as W
from support.cockpit import cockpit, settings, text_of
from warmline.store import Store
from warmline.tui.screens.recommendations import RecommendationsScreen

KEYMAP = {
    "detail.generate": "G",
    "screen.back": "ctrl+b",
    "recommendations.complete": "1",
    "recommendations.dismiss": "2",
    "recommendations.skip": "3",
}


async def test_an_empty_queue_names_the_keys_as_remapped(empty_store: Store) -> None:
    app = cockpit(empty_store, config=settings(keymap=KEYMAP))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RecommendationsScreen)
        said = text_of(app, "#recs-body")
        assert "Generate new ones on a lead (G on its page), or press ctrl+b to go back." in said


async def test_a_card_handled_elsewhere_names_the_keys_that_move_on(store: Store) -> None:
    app = cockpit(store, config=settings(keymap=KEYMAP))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        shown = app.screen.current
        others = [
            rec for rec in W.recommendations_response(shown.lead_id - 100)["recommendations"] if rec["id"] != shown.id
        ]
        store.upsert_recommendations(shown.lead_id, {"recommendations": others, "count": len(others)})
        app.poll_status()
        await pilot.pause()
        assert "handled elsewhere meanwhile" in text_of(app, "#recs-body")
        assert "1, 2 or 3 moves on." in text_of(app, "#recs-body")
