"""The deal form offers a real currency, not a grey placeholder that saves nothing, and
the notice after saving names the currency saved."""

from __future__ import annotations

from textual.widgets import Input, Select

import support.tui_wire_data as W
from support.cockpit import cockpit
from support.tui_wire_data import KESTREL
from warmline import actions
from warmline.store import Store
from warmline.tui.screens.dialogs import DealDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen

KESTREL_INDEX = KESTREL - 100


def without_a_deal(store: Store) -> None:
    """Kestrel (warm) as the service has it before any deal was entered."""
    store.upsert_lead_detail({**W.lead_detail(KESTREL_INDEX), "deal_value": None, "deal_currency": None})


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def open_deal_form(app, pilot) -> DealDialog:
    app.open_lead(KESTREL)
    await pilot.pause()
    assert isinstance(app.screen, LeadDetailScreen)
    await pilot.press("d")
    await pilot.pause()
    assert isinstance(app.screen, DealDialog)
    return app.screen


def test_no_deal_currency_in_an_empty_cache(empty_store: Store) -> None:
    assert empty_store.last_deal_currency() is None


def test_last_deal_currency_prefers_the_reps_newest_change(store: Store) -> None:
    assert store.last_deal_currency() == "EUR"  # what the cached deals use
    actions.update_deal(store, KESTREL, deal_value=9000.0, deal_currency="SEK")
    actions.update_deal(store, KESTREL, won=True)  # a change without a currency does not count
    assert store.last_deal_currency() == "SEK"


async def test_the_form_prefills_the_last_currency_and_saves_it(store: Store) -> None:
    without_a_deal(store)
    actions.update_deal(store, 100, deal_value=5000.0, deal_currency="USD")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_deal_form(app, pilot)
        currency = dialog.query_one("#deal-currency", Input)
        assert currency.value == "USD"  # a value, not a placeholder
        dialog.query_one("#deal-value", Input).value = "12000"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        op = store.outbox_rows()[-1]
        assert (op.kind, op.lead_id) == ("update_deal", KESTREL)
        assert op.payload["deal_value"] == 12000 and op.payload["deal_currency"] == "USD"
        assert "Deal saved: 12,000 USD." in notices(app)


async def test_a_lead_keeps_its_own_currency_and_the_notice_names_it(store: Store) -> None:
    actions.update_deal(store, 100, deal_value=5000.0, deal_currency="USD")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_deal_form(app, pilot)
        assert dialog.query_one("#deal-currency", Input).value == "EUR"
        dialog.query_one("#deal-outcome", Select).value = "won"
        await pilot.press("ctrl+s")
        await pilot.pause()
        op = store.outbox_rows()[-1]
        assert op.payload["won"] is True and "deal_currency" not in op.payload
        assert "Deal saved, currency EUR." in notices(app)


async def test_with_no_currency_known_the_form_says_none_and_saves_none(empty_store: Store) -> None:
    store = empty_store
    store.upsert_leads(W.lead_items())
    without_a_deal(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_deal_form(app, pilot)
        currency = dialog.query_one("#deal-currency", Input)
        assert currency.value == "" and currency.placeholder == "none"
        dialog.query_one("#deal-value", Input).value = "800"
        await pilot.press("ctrl+s")
        await pilot.pause()
        (op,) = store.outbox_rows()
        assert op.payload["deal_value"] == 800 and "deal_currency" not in op.payload
        assert "Deal saved with no currency." in notices(app)


async def test_won_alone_does_not_send_the_offered_currency(store: Store) -> None:
    without_a_deal(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_deal_form(app, pilot)
        assert dialog.query_one("#deal-currency", Input).value == "EUR"
        dialog.query_one("#deal-outcome", Select).value = "won"
        await pilot.press("ctrl+s")
        await pilot.pause()
        (op,) = store.outbox_rows()
        assert op.payload["won"] is True and "deal_currency" not in op.payload
        assert "Deal saved with no currency." in notices(app)


def outcome_shown(dialog: DealDialog) -> str:
    """What the outcome control reads as on screen, as plain text."""
    return str(dialog.query_one("#deal-outcome #label").render())


async def test_the_outcome_reads_as_a_word_and_is_chosen_with_keys(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_deal_form(app, pilot)
        assert "Open" in outcome_shown(dialog)
        await pilot.press("tab", "tab")  # value, currency, outcome
        assert app.focused is dialog.query_one("#deal-outcome")
        await pilot.press("enter", "down", "down", "enter")
        await pilot.pause()
        assert dialog.outcome == "lost"
        assert "Lost" in outcome_shown(dialog) and "Won" not in outcome_shown(dialog)
        dialog.query_one("#deal-reason", Input).value = "No budget"
        await pilot.press("ctrl+s")
        await pilot.pause()
        (op,) = store.outbox_rows()
        assert op.payload["lost"] is True and op.payload["closed_reason"] == "No budget"
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_deal_form(app, pilot)  # the queued change shows as the lead's state
        assert dialog.outcome == "lost" and "Lost" in outcome_shown(dialog)
