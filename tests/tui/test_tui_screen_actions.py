"""Every action of a screen has a key that works from anywhere on it, or at least a name in
the palette: the lead page's row keys need no Tab, `?` lists them wherever the focus is,
and ctrl+p offers each action of every screen (shown in the key bar or not) that makes
sense now."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.binding import Binding
from textual.command import CommandList
from textual.widgets import DataTable

from support.cockpit import cockpit
from support.prospecting import fill_prospecting
from support.tui_wire_data import KESTREL, lead_detail, lead_items
from support.waiting import until
from warmline.store import Store
from warmline.tui.palette import ScreenActions
from warmline.tui.screens.help import HelpScreen
from warmline.tui.screens.lead_detail import (
    CompetitorsTable,
    ContactsTable,
    LeadDetailScreen,
    SourcesTable,
)
from warmline.tui.screens.outbox import OutboxScreen


def contact(store: Store, first_name: str):
    return next(c for c in store.lead_detail(KESTREL).contacts if c.first_name == first_name)


def kinds(store: Store) -> list[str]:
    return [op.kind for op in store.outbox_rows()]


def offered(app) -> dict[str, str]:
    """What the palette offers on the current screen: each title with its key hint."""
    provider = ScreenActions(app.screen)
    return {title: help_text for title, help_text, _ in provider._commands()}


async def open_kestrel(app, pilot) -> LeadDetailScreen:
    await pilot.pause()
    app.open_lead(KESTREL)
    await pilot.pause()
    assert isinstance(app.screen, LeadDetailScreen)
    return app.screen


async def test_p_pins_the_highlighted_contact_without_tabbing_to_the_table(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_kestrel(app, pilot)
        assert not isinstance(app.focused, DataTable)  # the page opens on its left column
        assert contact(store, "Dana").is_selected
        await pilot.press("p")  # Dana is the contacts table's highlighted row
        await pilot.pause()
        assert not contact(store, "Dana").is_selected
        assert kinds(store) == ["pin_contact"]

        await pilot.press("2")  # one key to the contacts table, to pick another contact
        await pilot.pause()
        assert isinstance(app.focused, ContactsTable)
        await pilot.press("j", "p")
        await pilot.pause()
        assert contact(store, "Ola").is_selected

        screen.query_one("#detail-left").focus()
        await pilot.press("space", "s")  # the sources' and the competitors' keys, from anywhere
        await pilot.pause()
        detail = store.lead_detail(KESTREL)
        assert not detail.monitoring_pages[0].is_selected and detail.competitors[0].scan_queued

        await pilot.press("3", "p")  # in the competitors table `p` pins the competitor
        await pilot.pause()
        assert isinstance(app.focused, CompetitorsTable)
        assert not store.lead_detail(KESTREL).competitors[0].is_pinned
        assert contact(store, "Ola").is_selected
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.focused, SourcesTable)
        assert kinds(store) == [
            "pin_contact",
            "pin_contact",
            "toggle_monitoring_page",
            "scan_competitor",
            "pin_competitor",
        ]


async def test_the_key_bar_shows_what_p_does_where_the_focus_is(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_kestrel(app, pilot)
        bar = screen.query_one("KeyBar").render().plain
        assert bar.startswith(" esc Back  a Log activity  n Note  p Pin/unpin contact ")
        await pilot.press("3")
        await pilot.pause()
        assert (
            screen.query_one("KeyBar")
            .render()
            .plain.startswith(" p Pin/unpin competitor  esc Back ")
        )
        headings = [
            screen.query_one(f"#heading-{name}").render().plain
            for name in ("sources", "contacts", "competitors")
        ]
        assert [heading[:4] for heading in headings] == ["[1] ", "[2] ", "[3] "]


async def test_help_lists_the_row_keys_wherever_the_focus_is(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_kestrel(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        ids = {entry.binding_id: entry for entry in app.screen._entries}
        for binding_id, keys in (
            ("detail.pin_contact", ("p",)),
            ("detail.toggle_source", ("space",)),
            ("detail.scan_competitor", ("s",)),
            ("detail.go_contacts", ("2",)),
        ):
            assert ids[binding_id].keys == keys and ids[binding_id].where == "", binding_id
        assert ids["detail.pin_competitor"].where == "in the competitors table"
        console = Console(width=100, color_system=None)
        with console.capture() as drawn:
            console.print(app.screen._body())
        assert "Pin/unpin competitor (in the competitors table)" in drawn.get()

        await pilot.press("escape", "3", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        ids = {entry.binding_id: entry for entry in app.screen._entries}
        assert ids["detail.pin_competitor"].where == ""
        assert ids["detail.pin_contact"].where == "not in the competitors table"


async def test_the_palette_offers_and_runs_the_row_actions_of_the_lead_page(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_kestrel(app, pilot)
        commands = offered(app)
        assert commands["Pin/unpin contact"] == "key: p"
        assert commands["Pin/unpin competitor"] == "key: p (in the competitors table)"
        assert commands["Go to contacts"] == "key: 2"
        assert commands["Source on/off"] == "key: space"  # not in the key bar, still offered
        assert "palette" not in commands
        await pilot.press("ctrl+p", *"pin/unpin comp")

        def first_hit() -> str:
            hits = app.screen.query(CommandList)
            return (
                str(hits.first().get_option_at_index(0).prompt)
                if hits and hits.first().option_count
                else ""
            )

        await until(
            lambda: "Pin/unpin competitor" in first_hit(),
            pilot=pilot,
            what="the palette offering the pin",
        )
        await pilot.press("enter")
        await until(
            lambda: not store.lead_detail(KESTREL).competitors[0].is_pinned,
            pilot=pilot,
            what="the competitor unpinned from the palette",
        )
        assert isinstance(app.screen, LeadDetailScreen) and not isinstance(
            app.focused, CompetitorsTable
        )
        assert kinds(store) == ["pin_competitor"]


async def test_the_palette_leaves_out_what_makes_no_sense_now(empty_store: Store) -> None:
    empty_store.upsert_leads(lead_items())
    empty_store.upsert_lead_detail({**lead_detail(0), "contacts": []})
    assert empty_store.lead_detail(100).contacts == []
    app = cockpit(empty_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_lead(100)  # no key contacts: nothing to pin
        await pilot.pause()
        commands = offered(app)
        assert "Pin/unpin contact" not in commands and "Pin/unpin competitor" in commands
        app.open_lead(999)  # not in the cache: only the way back
        await pilot.pause()
        commands = offered(app)
        assert "Back" in commands
        assert not {"Log activity", "Pin/unpin contact", "Source on/off", "Go to contacts"} & set(
            commands
        )
        app.action_open("outbox")
        await pilot.pause()
        assert isinstance(app.screen, OutboxScreen)
        assert "Retry" not in offered(app)  # nothing failed


async def test_the_palette_offers_the_outboxs_retry_with_its_key(store: Store) -> None:
    failed = store.enqueue(
        "change_lead_status", {"lead_id": 101, "lead_status": "warm"}, lead_id=101
    )
    store.mark_failed(failed, "Outreach lead not found")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, OutboxScreen)
        commands = offered(app)
        assert commands["Retry"] == "key: R" and commands["Discard"] == "key: D"
        assert "Recs" in commands  # the keys that work everywhere too


async def test_the_palette_offers_what_is_typed_into_on_a_form_screen(store: Store) -> None:
    """On the lookup screen the focus is in the search field, which takes the letters; the
    palette still offers the screen's letter keys, saying where they work."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("I")
        await pilot.pause()
        commands = offered(app)
        assert commands["Save all results"] == "key: S (not while typing in a field)"
        assert commands["Earlier lookups"] == "key: ^r"


SCREENS = [
    "today",
    "leads",
    "recommendations",
    "jobs",
    "outbox",
    "prospecting",
    "companies",
    "contacts",
    "research",
    "lookup",
    "export",
]


@pytest.mark.parametrize("name", [*SCREENS, "lead"])
async def test_every_action_of_every_screen_that_makes_sense_now_is_in_the_palette(
    store: Store, name: str
) -> None:
    """One provider for every screen: each of the screen's own bindings whose action is
    enabled (`check_action`) is offered by its description, shown in the key bar or not.
    The store holds a job and templates, so their screens have a row to act on."""
    fill_prospecting(store)
    failed = store.enqueue(
        "change_lead_status", {"lead_id": 101, "lead_status": "warm"}, lead_id=101
    )
    store.mark_failed(failed, "Outreach lead not found")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if name == "lead":
            app.open_lead(KESTREL)
        else:
            app.action_open(name)
        await pilot.pause()
        screen = app.screen
        expected = {
            binding.description
            for binding in Binding.make_bindings(type(screen).BINDINGS)
            if binding.description and app._check_action_state(binding.action, screen) is True
        }
        assert expected, name
        missing = expected - set(offered(app))
        assert not missing, (name, missing)
