"""Keys typed right after `a` go into the activity form, in order (issue 21, item 10).

Pilot's `press` waits for the app to go idle after each key, which hides the race: a rep
types faster than the form mounts. `type_fast` hands every key to the driver at once, as
a terminal delivers a burst, and the test then waits for what it expects to see.

Before: "fast-1" typed at once after `a` was lost (the keys went to the lead page's
widget), and `a fast-1 ctrl+s a fast-2 ctrl+s` queued nothing or one merged activity.
"""

from __future__ import annotations

from textual.widgets import TextArea

from support.bursts import type_fast
from support.cockpit import cockpit
from support.waiting import until
from warmline.store import Store
from warmline.tui.screens.dialogs import ActivityDialog, TextDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen

LEAD = 100


def queued(store: Store, kind: str) -> list[str]:
    return [op.payload.get("description") or op.payload.get("content") for op in store.outbox_rows() if op.kind == kind]


async def test_text_typed_right_after_a_lands_in_the_form(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(LEAD)
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="the lead page")
        type_fast(app, "a", *"fast-1")
        await until(lambda: isinstance(app.screen, ActivityDialog), pilot=pilot, what="the form")
        area = app.screen.query_one("#dialog-text", TextArea)
        await until(lambda: area.text == "fast-1", pilot=pilot, what=f"the typed text (have {area.text!r})")
        assert app.focused is area


async def test_two_activities_typed_fast_stay_two(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(LEAD)
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="the lead page")
        type_fast(app, "a", *"fast-1", "ctrl+s", "a", *"fast-2", "ctrl+s")
        await until(lambda: len(queued(store, "log_activity")) == 2 and isinstance(app.screen, LeadDetailScreen),
                    pilot=pilot, what=f"two activities (have {queued(store, 'log_activity')})")
        assert queued(store, "log_activity") == ["fast-1", "fast-2"]


async def test_a_note_and_an_escape_typed_fast_keep_their_order(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(LEAD)
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="the lead page")
        type_fast(app, "a", *"dropped", "escape", "n", *"kept note", "ctrl+s")
        await until(lambda: len(queued(store, "add_note")) == 1 and isinstance(app.screen, LeadDetailScreen),
                    pilot=pilot, what="the note")
        assert queued(store, "add_note") == ["kept note"] and queued(store, "log_activity") == []
        type_fast(app, "n", *"slow one")  # and typing after the form is open still works as before
        await until(lambda: isinstance(app.screen, TextDialog), pilot=pilot, what="the note form")
        await pilot.press(*"!")
        area = app.screen.query_one("#dialog-text", TextArea)
        await until(lambda: area.text == "slow one!", pilot=pilot, what=f"the text (have {area.text!r})")
