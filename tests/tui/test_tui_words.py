"""Words the rep reads say what happened and name the keys that really work; at 80 columns
the figures and the status line stay in sight (issue 23, items 9 and 10)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._toast import Toast

import support.tui_wire_data as W
from support.cockpit import cockpit, text_of
from support.tui_wire_data import KESTREL
from support.waiting import until
from warmline.config import Config
from warmline.store import Store
from warmline.tui.screens.dialogs import ActivityDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen, deal_saved
from warmline.tui.screens.prospecting.hub import ProspectingScreen
from warmline.tui.widgets.status_line import StatusLine

REPO = Path(__file__).resolve().parents[2]


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def test_a_deal_change_not_delivered_says_queued() -> None:
    changes = {"deal_value": 48000.0, "deal_currency": "EUR"}
    assert deal_saved(changes, "EUR") == "Deal saved: 48,000 EUR."
    assert deal_saved(changes, "EUR", queued=True) == "Deal queued: 48,000 EUR; sent when back online."
    assert deal_saved({}, "", queued=True) == "Deal queued with no currency; sent when back online."


async def test_the_deal_notice_says_queued_while_offline(store: Store) -> None:
    store.set_state("online", False)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        app.screen.query_one("#deal-value").value = "48000"
        app.screen.query_one("#deal-currency").value = "EUR"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        assert "Deal queued: 48,000 EUR; sent when back online." in notices(app)


async def test_the_log_form_names_the_key_that_adds_a_contact(empty_store: Store) -> None:
    empty_store.upsert_leads(W.lead_items())
    empty_store.upsert_lead_detail({**W.lead_detail(0), "contacts": []})
    for keymap, key in (({}, "A"), ({"detail.add_contact": "ctrl+k"}, "ctrl+k")):
        app = cockpit(empty_store, config=Config(keymap=keymap))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.open_lead(100)
            await pilot.pause()
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, ActivityDialog)
            hint = " ".join(" ".join(str(w.render()) for w in app.screen.query(".dialog-hint")).split())
            assert f"({key} on the lead adds one)" in hint, hint


async def test_the_prospecting_title_counts_one_search_in_the_singular(store: Store) -> None:
    store.record_job("deep_search", 31, {"job_id": 31, "status": "running", "query": "dental clinics"})
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("P")
        await pilot.pause()
        assert isinstance(app.screen, ProspectingScreen)
        title = text_of(app, "#screen-title")
        assert "1 search or run" in title and "searches" not in title


async def test_completing_a_card_says_its_sibling_went_with_it(store: Store) -> None:
    first, sibling = W.recommendation(0, 0), W.recommendation(0, 1)
    sibling = {**sibling, "target_url": first["target_url"]}
    store.upsert_recommendations(100, {"recommendations": [first, sibling], "count": 2})
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        # said as what the completion does, not as done: the undo window is open and
        # nothing has reached the service yet
        assert ("1 other card on the same post goes with it: the service dismisses it with this completion."
                in notices(app))


async def test_completing_a_lone_card_says_nothing_extra(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert not [n for n in notices(app) if "same post" in n]


async def test_the_triage_header_keeps_the_total_at_80_columns(store: Store) -> None:
    store.upsert_lead_detail({**W.lead_detail(0), "rec_progress": {"completed": 140, "dismissed": 98, "total": 272}})
    app = cockpit(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        total = store.recommendation_progress().total
        assert total >= 272
        header = app.screen.query_one("#recs-progress-text")
        lines = [strip.text for strip in header.render_lines(header.region.reset_offset)]
        assert f"of {total}" in " ".join(lines), lines


async def test_a_notice_never_covers_the_status_line(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.notify("A notice of several words that takes two lines at this width, or even three.")
        await until(lambda: list(app.screen.query(Toast)), pilot=pilot)
        status = app.screen.query_one(StatusLine).region
        toasts = list(app.screen.query(Toast))
        assert all(not toast.region.overlaps(status) for toast in toasts)


def test_dev_demo_installs_only_the_demo_extra() -> None:
    script = (REPO / "dev").read_text(encoding="utf-8")
    demo = script.split("    demo)", 1)[1].split(";;", 1)[0]
    test = script.split("    test)", 1)[1].split(";;", 1)[0]
    assert "setup demo\n" in demo
    assert "setup demo,test\n" in test
    assert '".[demo,test]"' not in script


def test_the_readme_says_the_cache_once_in_its_item() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    item = readme.split("- The cache:", 1)[1].split("\n- ", 1)[0]
    assert "The cache" not in item
