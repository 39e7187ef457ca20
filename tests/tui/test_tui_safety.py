"""Service text is shown literally, never as markup or terminal control; the key never shows."""

from __future__ import annotations

import re

import pytest

import support.tui_wire_data as W
from support.cockpit import cockpit, text_of
from warmline.store import Store
from warmline.tui.widgets.virtual_list import VirtualList

MARKUP_LEAD = 100 + W.COMPANIES.index((W.HOSTILE_MARKUP, "markup.example", "Manufacturing", "Denmark"))
ESCAPE_LEAD = 100 + [c[0] for c in W.COMPANIES].index(W.HOSTILE_ESCAPE)
SECRET = "sk-live-7f3a9c-SECRET"


def list_lines(app) -> list[str]:
    widget = app.screen.query_one(VirtualList)
    return [
        "".join(segment.text for segment in widget.render_line(y))
        for y in range(widget.scrollable_content_region.height)
    ]


def segments_of(app) -> list:
    widget = app.screen.query_one(VirtualList)
    return [s for y in range(widget.scrollable_content_region.height) for s in widget.render_line(y)]


async def test_markup_in_a_company_name_shows_literally(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        lines = list_lines(app)
        assert any("[bold red]Markup[/] Industries" in line for line in lines)
        hostile = [s for s in segments_of(app) if "Markup" in s.text]
        assert hostile and all("[bold red]" in s.text for s in hostile)
        app.open_lead(MARKUP_LEAD)
        await pilot.pause()
        assert "[bold red]Markup[/] Industries" in app.screen.query_one("#screen-title").render().plain
        await pilot.press("r")
        await pilot.pause()
        for _ in range(10):
            if app.screen.current.lead_id == MARKUP_LEAD:
                break
            await pilot.press("space")
        card = app.screen.query_one("#recs-body").render().plain
        assert "[bold red]Markup[/] Industries" in card


async def test_escape_sequences_are_stripped_everywhere(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        lines = list_lines(app)
        assert any("Escape Red Co" in line for line in lines)
        assert not any("\x1b" in line or "\x07" in line for line in lines)
        app.open_lead(ESCAPE_LEAD)
        await pilot.pause()
        await pilot.press("n", *"ok")
        app.screen.query_one("#dialog-text").text = "Loud \x1b[31mred\x1b[0m note\x07 \x1b]0;title\x07end"
        await pilot.press("ctrl+s")
        await pilot.pause()
        notes = text_of(app, "#detail-notes")
        assert "Loud red note end" in notes
        svg = app.export_screenshot()
        assert "\x1b" not in svg and "\x07" not in svg
        assert "Escape Red Co" in app.screen.query_one("#screen-title").render().plain


@pytest.mark.parametrize("keys", [[], ["r"], ["J"], ["O"], ["question_mark"], ["ctrl+p"]])
async def test_the_api_key_never_reaches_the_screen(store: Store, monkeypatch, keys) -> None:
    monkeypatch.setenv("WARMLINE_API_KEY", SECRET)
    store.enqueue("add_note", {"lead_id": 100, "content": "hello"}, lead_id=100)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        screens = [app.export_screenshot()]
        app.open_lead(100)
        await pilot.pause()
        screens.append(app.export_screenshot())
    for svg in screens:
        assert SECRET not in svg
        assert not re.search(r"sk-live", svg)
