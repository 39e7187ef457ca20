"""A lead removed on the service, as the rep sees it: one notice naming the lead and how many
queued actions failed, the lead gone from the list, and its open page saying it was
removed and taking no more actions. The engine is stood in for by a handle that reports
the lead gone the way `SyncEngine.on_lead_gone` does, after the store marked the lead."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from textual.pilot import Pilot

from support.cockpit import RecordingSync, cockpit
from support.tui_wire_data import KESTREL
from warmline import actions
from warmline.store import Store
from warmline.tui.app import WarmlineApp
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.widgets.virtual_list import VirtualList

REASON = "Outreach lead not found"


class ChangingSync(RecordingSync):
    """A sync handle that reports a lead gone to the listeners the cockpit gave `on_lead_gone`."""

    def lead_gone(self, store: Store, lead_id: int) -> None:
        """What the engine does on "Outreach lead not found": mark, then tell."""
        store.mark_lead_gone(lead_id, REASON)
        for listener in self.listeners:
            listener(lead_id)


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_the_list_drops_the_lead_with_one_notice(store: Store) -> None:
    for text in ("Called Dana", "Sent the deck", "Booked a demo"):
        actions.log_activity(store, KESTREL, text)
    sync = ChangingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert sync.listeners  # the cockpit listens to the engine
        leads = app.screen.query_one(VirtualList)
        assert KESTREL in {leads.item_at(i).id for i in range(leads.row_count)}
        sync.lead_gone(store, KESTREL)
        await pilot.pause()
        assert notices(app).count(
            "Kestrel Analytics was removed on the service; 3 queued actions on it failed: see the outbox"
        ) == 1
        assert isinstance(app.screen, LeadListScreen)
        assert KESTREL not in {leads.item_at(i).id for i in range(leads.row_count)}


@asynccontextmanager
async def removed_while_open(store: Store) -> AsyncIterator[tuple[WarmlineApp, Pilot, LeadDetailScreen]]:
    """The cockpit on Kestrel's page, then Kestrel removed on the service."""
    sync = ChangingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await pilot.pause()
        page = app.screen
        assert isinstance(page, LeadDetailScreen) and page.check_action("add_note", ())
        sync.lead_gone(store, KESTREL)
        await pilot.pause()
        yield app, pilot, page


async def test_an_open_page_of_the_lead_says_it_was_removed(store: Store) -> None:
    async with removed_while_open(store) as (app, _pilot, page):
        assert "Kestrel Analytics was removed on the service" in notices(app)
        assert page.removed is not None and page.removed.company_name == "Kestrel Analytics"
        assert "removed on the service" in page.query_one("#screen-title").render().plain
        assert not page.check_action("add_note", ()) and not page.check_action("log_activity", ())


async def test_a_key_of_the_lead_pressed_on_its_removed_page_says_why_it_does_nothing(store: Store) -> None:
    """The keys leave the key bar, but a rep with `a` in their fingers pressed it and got no
    word at all: the press now says the lead takes no more actions, and acts on nothing."""
    async with removed_while_open(store) as (app, pilot, page):
        queued = store.outbox_counts()
        for key in ("a", "n", "w", "D", "p"):  # priority bindings, plain ones, a row's key
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is page, key  # no dialog opened
            assert notices(app) == [
                f"Kestrel Analytics was removed on the service ({REASON}): it takes no more actions."
            ], key
        assert store.outbox_counts() == queued
        app.clear_notifications()
        await pilot.press("question_mark")  # a key of the app's own still works
        await pilot.pause()
        assert app.screen is not page and notices(app) == []


async def test_a_key_of_the_lead_on_a_page_whose_lead_left_the_cache_says_so(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(KESTREL)
        await pilot.pause()
        page = app.screen
        assert isinstance(page, LeadDetailScreen)
        store.forget_leads([KESTREL])
        page.reload()
        await pilot.pause()
        assert page.query_one("#screen-title").render().plain == f"Kestrel Analytics (lead {KESTREL}, no longer cached)"
        app.clear_notifications()
        await pilot.press("a")
        await pilot.pause()
        assert app.screen is page
        assert notices(app) == ["Kestrel Analytics is not in the cache any more: it takes no actions."]
