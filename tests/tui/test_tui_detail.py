"""Every action of the lead detail screen, from its key to its local effect and queued op."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from textual.widgets import Input, Select, Static

import support.tui_wire_data as W
from support.cockpit import cockpit, fill, settings, text_of
from support.tui_wire_data import KESTREL
from warmline.store import Store
from warmline.tui.screens.dialogs import ConfirmDialog, DealDialog, LineDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen

FJORD = 101  # cold
QUIET = 106  # no recommendations


async def open_detail(app, pilot, lead_id: int) -> LeadDetailScreen:
    await pilot.pause()
    app.open_lead(lead_id)
    await pilot.pause()
    assert isinstance(app.screen, LeadDetailScreen)
    return app.screen


def kinds(store: Store) -> list[str]:
    return [op.kind for op in store.outbox_rows()]


async def test_status_target_scan_and_generation_keys(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot, FJORD)
        await pilot.press("w")
        await pilot.pause()
        assert store.get_lead(FJORD).lead_status == "warm"
        assert "· warm" in screen.query_one("#screen-title").render().plain
        await pilot.press("w")
        await pilot.pause()
        assert kinds(store) == ["change_lead_status"]

        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, LineDialog)
        app.screen.query_one(Input).value = "150"
        await pilot.press("enter")
        await pilot.pause()
        assert "Target score must be" in app.screen.query_one("#dialog-error").render().plain
        app.screen.query_one(Input).value = "45"
        await pilot.press("enter")
        await pilot.pause()
        assert store.get_lead(FJORD).target_score == 45
        assert store.get_lead(FJORD).ready
        assert "ready for outreach" in screen.query_one("#screen-title").render().plain

        await pilot.press("S", "R")
        await pilot.pause()
        assert kinds(store) == ["change_lead_status", "set_target_score", "start_signal_scan", "generate_recommendations"]
        assert "Signal scan: queued" in text_of(app, "#detail-score")
        # the empty section no longer offers R while a generation waits or runs
        recs = text_of(app, "#detail-recs")
        assert "being generated" in recs and "R generates" not in recs


@pytest.mark.parametrize(("key", "kind", "what"), [
    ("S", "start_signal_scan", "A signal scan of Fjord Freight AB is still under way (queued)."),
    ("R", "generate_recommendations", "A recommendation generation of Fjord Freight AB is still under way (queued)."),
])
async def test_a_second_scan_or_generation_while_one_is_under_way_is_asked_first(
    store: Store, key: str, kind: str, what: str
) -> None:
    """A second `S` (or `R`) pressed by habit sent a second start; now it asks, and `n`
    sends nothing more, `y` a second one."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, FJORD)
        await pilot.press(key)
        await pilot.pause()
        assert kinds(store) == [kind]
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert text_of(app, "#confirm-question") == what + "\nStart another one anyway?"
        await pilot.press("n")
        await pilot.pause()
        assert kinds(store) == [kind]
        await pilot.press(key, "y")
        await pilot.pause()
        assert kinds(store) == [kind, kind]


@pytest.mark.parametrize(("pages", "scan", "why"), [
    ([], False, "has no monitoring sources yet (S runs a signal scan)"),
    ("all off", False, "has no monitoring source turned on (space turns one on in [1] Monitoring sources)"),
    ([], True, "has no monitoring sources yet (its signal scan is still under way)"),
])
async def test_generating_with_no_source_turned_on_is_asked_first(
    store: Store, pages: Any, scan: bool, why: str
) -> None:
    """The service generates from the lead's enabled sources only: with none in the loaded
    detail, `R` found nothing and looked broken. It now says why and asks."""
    detail = W.lead_detail(3)
    detail["monitoring_pages"] = (
        [{**page, "is_selected": False} for page in detail["monitoring_pages"]] if pages == "all off" else pages)
    store.upsert_lead_detail(detail)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, KESTREL)
        if scan:
            await pilot.press("S")
            await pilot.pause()
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert text_of(app, "#confirm-question") == (
            f"Kestrel Analytics {why}, and recommendations are generated from those turned on.\nGenerate anyway?")
        await pilot.press("n")
        await pilot.pause()
        assert "generate_recommendations" not in kinds(store)
        await pilot.press("R", "y")
        await pilot.pause()
        assert kinds(store)[-1] == "generate_recommendations"


async def test_no_recommendations_names_the_reps_generate_key_or_the_running_generation(store: Store) -> None:
    app = cockpit(store, config=settings(keymap={"detail.generate": "g"}))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, QUIET)
        assert "none; g generates new ones from enabled sources" in text_of(app, "#detail-recs")
        store.record_job("recommendations", 7, {"status": "running", "progress": 20}, lead_id=QUIET)
        app.screen.reload()
        await pilot.pause()
        recs = text_of(app, "#detail-recs")
        assert "being generated" in recs and "generates new ones" not in recs


async def test_every_key_the_page_names_is_the_reps_own(store: Store) -> None:
    """With the keys remapped, the page's hints name the new keys, never the defaults."""
    keymap = {"detail.toggle_source": "o",
              "detail.pin_contact": "P", "detail.add_competitor": "C", "detail.scan_competitor": "k",
              "detail.pin_competitor": "K", "detail.go_sources": "7", "detail.go_competitors": "9"}
    app = cockpit(store, config=settings(keymap=keymap))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, FJORD)
        assert text_of(app, "#heading-sources").startswith("[7] Monitoring sources")
        assert "o: on/off" in text_of(app, "#heading-sources")
        assert "P: pin/unpin" in text_of(app, "#heading-contacts")
        competitors = text_of(app, "#heading-competitors")
        assert competitors.startswith("[9] Competitors") and "C add · k scan · K pin" in competitors


async def test_deal_editor_sets_value_currency_and_lost_reason(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot, KESTREL)
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, DealDialog)
        dialog.query_one("#deal-value", Input).value = "31,500"
        dialog.query_one("#deal-outcome", Select).value = "lost"
        dialog.query_one("#deal-reason", Input).value = "Chose a competitor"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        (op,) = store.outbox_rows()
        assert op.kind == "update_deal"
        assert op.payload["deal_value"] == 31500
        assert op.payload["lost"] is True and op.payload["closed_reason"] == "Chose a competitor"
        deal = " ".join(text_of(app, "#detail-deal").split())  # as read, across a wrap
        assert "31,500 EUR" in deal and "lost" in deal and "Chose a competitor" in deal


async def save_deal_value(pilot: Any, typed: str) -> None:
    """On a lead's page: open the deal form, type `typed` as the value, send."""
    await pilot.press("d")
    await pilot.pause()
    pilot.app.screen.query_one("#deal-value", Input).value = typed
    await pilot.press("ctrl+s")
    await pilot.pause()


async def test_deal_on_a_cold_lead_is_refused_in_the_form(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, FJORD)
        await save_deal_value(pilot, "1000")
        assert isinstance(app.screen, DealDialog)
        assert "warm leads" in app.screen.query_one("#dialog-error").render().plain
        assert store.outbox_rows() == []


async def test_a_deal_with_cents_shows_them(store: Store) -> None:
    """1,234.50 read "1,235 EUR" on the lead page and in the notice: the cents were rounded
    away there, while the week in review wrote 90,500.00 for a whole amount (`amounts`)."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot, KESTREL)
        await save_deal_value(pilot, "1234.50")
        assert app.screen is screen
        assert "1,234.50 EUR" in text_of(app, "#detail-deal")


@pytest.mark.parametrize(("typed", "value"), [("1.500,00", 1500), ("24k", 24000), ("24,50", 24.5), ("24 000", 24000)])
async def test_a_deal_value_is_read_as_the_rep_writes_amounts(store: Store, typed: str, value: float) -> None:
    """German "1.500,00" was sent as 1.5 and "24,50" as 2450: every comma was dropped."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot, KESTREL)
        await save_deal_value(pilot, typed)
        assert app.screen is screen
    (op,) = store.outbox_rows()
    assert op.payload["deal_value"] == value


async def test_the_deal_form_offers_a_large_value_as_it_is_shown(store: Store) -> None:
    """A 1.5 million deal came back into the form as "1.5e+06" (`:g`), which no rep writes
    and the form itself would refuse once edited."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, KESTREL)
        await save_deal_value(pilot, "1.5m")
        await pilot.press("d")
        await pilot.pause()
        assert app.screen.query_one("#deal-value", Input).value == "1,500,000"
        await pilot.press("ctrl+s")  # unchanged: nothing more is sent
        await pilot.pause()
    assert [op.payload["deal_value"] for op in store.outbox_rows()] == [1500000]


@pytest.mark.parametrize(("typed", "said"), [("-5", "Deal value must be 0 or more (got -5)"),
                                             ("1e400", "Deal value must be an amount such as 24000, 24,000.50 or 24k"),
                                             ("12,34,567", "Deal value must be an amount such as 24000, 24,000.50 or 24k"),
                                             ("1.2.3", "Deal value must be an amount such as 24000, 24,000.50 or 24k")])
async def test_a_bad_deal_value_is_refused_in_the_reps_words(store: Store, typed: str, said: str) -> None:
    """The spec's limits name the API's field ("deal_value must be ..."); the form says
    "Deal value", as its label does."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, KESTREL)
        await save_deal_value(pilot, typed)
        assert isinstance(app.screen, DealDialog)
        assert app.screen.query_one("#dialog-error").render().plain == said
        assert store.outbox_rows() == []


async def test_table_keys_toggle_source_pin_contact_and_competitor(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot, KESTREL)
        sources = screen.query_one("#detail-sources")
        sources.focus()
        await pilot.pause()
        first = store.lead_detail(KESTREL).monitoring_pages[0]
        await pilot.press("space")
        await pilot.pause()
        page = next(p for p in store.lead_detail(KESTREL).monitoring_pages if p.id == first.id)
        assert page.is_selected is (not first.is_selected)

        screen.query_one("#detail-contacts").focus()
        await pilot.press("j", "p")
        await pilot.pause()
        ola = next(c for c in store.lead_detail(KESTREL).contacts if c.first_name == "Ola")
        assert ola.is_selected

        screen.query_one("#detail-competitors").focus()
        await pilot.press("p", "s")
        await pilot.pause()
        rival = store.lead_detail(KESTREL).competitors[0]
        assert not rival.is_pinned and rival.scan_queued
        assert kinds(store) == ["toggle_monitoring_page", "pin_contact", "pin_competitor", "scan_competitor"]


async def test_add_competitor_and_note(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot, KESTREL)
        await pilot.press("plus")
        await pilot.pause()
        inputs = app.screen.query(Input)
        inputs[0].value = "Polar Shipping"
        inputs[1].value = "polar.example"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Polar Shipping" in str(screen.query_one("#detail-competitors").get_row_at(1)[1])
        screen.query_one("#detail-competitors").focus()
        await pilot.press("j", "p")
        await pilot.pause()
        assert any("still being added" in str(n.message) for n in app._notifications)

        await pilot.press("n", *"Wants a pilot in Q1")
        await pilot.press("ctrl+s")
        await pilot.pause()
        notes = text_of(app, "#detail-notes")
        assert notes.index("Wants a pilot in Q1") < notes.index("Prefers email over calls")
        assert "(pending)" in notes
        assert kinds(store) == ["add_competitor", "add_note"]


async def test_a_lead_whose_detail_was_never_fetched_says_so(empty_store: Store) -> None:
    """Offline, a lead known only from the list must not look like a lead with no activity."""
    empty_store.upsert_leads(W.lead_items())  # the list only: no detail fetched yet
    app = cockpit(empty_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, KESTREL)  # 6 activities on the service
        assert "Details not loaded yet" in text_of(app, "#detail-company")
        activity = text_of(app, "#detail-activity")
        assert "6 more logged on the service, not loaded yet" in activity
        assert "No activity logged yet" not in activity
        for heading in ("#heading-sources", "#heading-contacts", "#heading-competitors", "#detail-notes"):
            assert "not loaded yet" in text_of(app, heading)
        await pilot.press("a", *"Called Dana about pricing", "ctrl+s")
        await pilot.pause()
        activity = text_of(app, "#detail-activity")
        assert "Called Dana about pricing" in activity
        assert "6 more logged on the service" in activity  # the queued one is not counted twice

    empty_store.upsert_lead_detail(W.lead_detail(3))
    app = cockpit(empty_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, KESTREL)
        assert "not loaded yet" not in text_of(app, "#detail-company")
        assert "not loaded yet" not in text_of(app, "#detail-activity")


async def test_an_activity_and_a_note_delivered_late_show_both_times(tmp_path) -> None:
    """Logged offline at 08:20, delivered at 08:56: the lead page says so; an action still
    queued says in the outbox when it was logged."""
    moment = [W.NOW.timestamp() - 40 * 60]
    store = Store(tmp_path / "late.sqlite3", clock=lambda: moment[0])
    try:
        fill(store)
        activity = store.enqueue("log_activity", {"lead_id": KESTREL, "description": "Called from the train",
                                                  "contact_id": None}, lead_id=KESTREL, meta={"guessed_type": "call"})
        note = store.enqueue("add_note", {"lead_id": KESTREL, "content": "Budget signed off"}, lead_id=KESTREL)
        store.enqueue("add_note", {"lead_id": FJORD, "content": "Still queued"}, lead_id=FJORD)
        moment[0] = W.NOW.timestamp() - 4 * 60
        delivered = W.ts(timedelta(minutes=4))
        for op_id in (activity, note):
            store.mark_in_flight(op_id)
        store.mark_done(activity, {"touchpoint": {"id": 77_001, "description": "Called from the train",
                                                  "detected_type": "call", "bonus_points": 8, "created_at": delivered}})
        store.mark_done(note, {"note": {"id": 77_002, "content": "Budget signed off", "created_at": delivered}})

        app = cockpit(store)
        async with app.run_test(size=(160, 60)) as pilot:
            await open_detail(app, pilot, KESTREL)
            activity_text = text_of(app, "#detail-activity")
            line = next(row for row in activity_text.splitlines() if "Called from the train" in row)
            assert "40 min ago" in line  # when the rep did it, not when it arrived
            assert "logged 08:20, delivered 08:56" in line
            notes = text_of(app, "#detail-notes")
            assert "40 min ago · logged 08:20, delivered 08:56" in notes
            # Activities made elsewhere carry no such note.
            assert activity_text.count("delivered") == 1

            await pilot.press("escape", "O")
            await pilot.pause()
            row = app.screen.query_one("#outbox-table").get_row_at(0)
            assert "logged 08:20 · 40 min ago" in [cell.plain for cell in row]
    finally:
        store.close()


async def test_activity_lines_name_the_type_give_the_points_reason_and_hang_under_the_text(tmp_path) -> None:
    """At 80 columns a long activity wraps under its own text (not to column 0), its URL
    stays whole, the type reads as words, and the service's reason for the points shows."""
    url = "https://example.com/acme/renewal-pricing-2027"
    store = Store(tmp_path / "reason.sqlite3", clock=lambda: W.NOW.timestamp())
    try:
        fill(store)
        op = store.enqueue("log_activity", {"lead_id": KESTREL, "description": f"Messaged Dana the pricing page {url}",
                                            "contact_id": None}, lead_id=KESTREL, meta={"guessed_type": "email"})
        store.mark_in_flight(op)
        store.mark_done(op, {
            "touchpoint": {"id": 77_003, "description": f"Messaged Dana the pricing page {url} before Friday's call",
                           "detected_type": "professional_network_message", "bonus_points": 12,
                           "created_at": W.ts(timedelta(minutes=1))},
            "bonus_info": {"base_points": 10, "multiplier": 1.2, "total": 12,
                           "reason": "Message: 10 base points x 1.2 (next step scheduled)"},
        })
        app = cockpit(store)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_detail(app, pilot, KESTREL)
            lines = text_of(app, "#detail-activity").splitlines()
            start = next(i for i, line in enumerate(lines) if "LinkedIn message +12" in line)
            entry = [lines[start]]
            for line in lines[start + 1:]:
                if line[:11].strip():  # the next activity's time column
                    break
                entry.append(line)
            text = " ".join(line.strip() for line in entry)
            assert "professional_network_message" not in text
            assert "(Message: 10 base points x 1.2 (next step scheduled))" in text
            assert len(entry) > 1 and all(line.startswith(" " * 11) and line[11] != " " for line in entry[1:])
            assert sum(url in line for line in entry) == 1  # whole, on one line
    finally:
        store.close()


async def test_a_target_in_digits_python_cannot_read_gets_the_form_line(store: Store) -> None:
    """"²" and "٣" pass `str.isdigit()` (and `int()` reads "٣" as 3, refuses "²"): the form
    said nothing and tracebacked on "²", and would have set 3 for "٣". Both now get the
    form's own line and nothing is queued."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, FJORD)
        await pilot.press("t")
        await pilot.pause()
        for typed in ("²", "٣"):
            app.screen.query_one(Input).value = typed
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, LineDialog)
            assert "whole number" in app.screen.query_one("#dialog-error").render().plain
        assert kinds(store) == []


async def test_the_keys_a_form_and_a_question_name_are_the_reps_own(store: Store) -> None:
    keymap = {"dialog.send": "ctrl+g", "dialog.cancel": "ctrl+x", "confirm.yes": "o"}
    app = cockpit(store, config=settings(keymap=keymap))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot, KESTREL)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DealDialog)
        assert text_of(app, "#dialog-hint") == "ctrl+g send · ctrl+x cancel"
        await pilot.press("ctrl+x", "D")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "o yes · n no" in [str(static.render()) for static in app.screen.query(Static)]
