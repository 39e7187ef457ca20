"""The cursor stays on the lead the rep is on (issue 23, item 5).

Before: on the lead list sorted by last activity, logging an activity on the lead at row
9 moved it to the top and the cursor followed it there, so `esc`, `↓`, `enter` opened the
lead that had been at the top (not the one after it, as the rep saw the list); a lead more
than a page away was not followed at all, and the cursor stayed on the row, now another
lead. And a burst `j j enter` on Today opened the row the cursor was on before the burst:
the priority `enter` ran before the table had handled the two moves.

Now a re-sort holds the order the rep sees (the rows' values refresh in place) until the
rep moves; the move goes by that order, and then the list re-sorts with the cursor on the
lead it moved to. Keys are handled in the order typed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual._xterm_parser import XTermParser

import support.tui_wire_data as W
from support.bursts import type_fast
from support.cockpit import cockpit, settings
from support.store_data import lead_item
from support.waiting import until
from warmline.actions import log_activity
from warmline.store import Store
from warmline.store.followups import FollowUps
from warmline.store.rows import LeadRow
from warmline.tui.app import WarmlineApp
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.today import TodayScreen
from warmline.tui.widgets.section_list import SectionList
from warmline.tui.widgets.virtual_list import VirtualList

LEADS = 300  # three pages of the list: a lead can move further than the page around it


@pytest.fixture
def many(empty_store: Store) -> Store:
    """Leads 1..300, lead n last touched n hours ago: by last activity, lead n is row n-1."""
    empty_store.upsert_leads(
        [
            lead_item(n, f"Lead {n:03}", last_activity_at=(W.NOW - timedelta(hours=n)).isoformat())
            for n in range(1, LEADS + 1)
        ]
    )
    empty_store.set_state("online", True)
    return empty_store


def lead_list(app: WarmlineApp) -> VirtualList[LeadRow]:
    screen = app.screen
    assert isinstance(screen, LeadListScreen)
    return screen.lead_list


def current_id(app: WarmlineApp) -> int | None:
    lead = lead_list(app).current
    return lead.id if lead is not None else None


def on_screen(app: WarmlineApp) -> bool:
    """Whether the cursor's row is among the rows drawn."""
    shown = lead_list(app)
    top = int(shown.scroll_offset.y)
    return top <= shown.cursor < top + shown.scrollable_content_region.height - 1


async def by_activity_at(app: WarmlineApp, pilot: Any, row: int) -> None:
    screen = app.screen
    assert isinstance(screen, LeadListScreen)
    screen.show_view(None, "activity")
    await until(lambda: lead_list(app).counted, pilot=pilot, what="the count")
    lead_list(app).cursor = row
    await pilot.pause()
    assert current_id(app) == row + 1


async def open_log_and_come_back(app: WarmlineApp, pilot: Any, lead_id: int) -> None:
    """enter, `a`, a description, ctrl+s, esc: as the rep did it."""
    await pilot.press("enter")
    await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="the lead page")
    assert isinstance(app.screen, LeadDetailScreen) and app.screen.lead_id == lead_id
    await pilot.press("a")
    await pilot.pause()
    await pilot.press(*"called about pricing", "ctrl+s")
    await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="back on the lead page")
    await pilot.press("escape")
    await until(lambda: isinstance(app.screen, LeadListScreen), pilot=pilot, what="the list")


async def opened_after(app: WarmlineApp, pilot: Any, *keys: str) -> int:
    await pilot.press(*keys)
    await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="a lead page")
    assert isinstance(app.screen, LeadDetailScreen)
    return app.screen.lead_id


@pytest.mark.parametrize("row", [9, 150], ids=["same page", "pages away"])
async def test_esc_down_enter_opens_the_next_lead_in_the_order_the_rep_saw(many: Store, row: int) -> None:
    app = cockpit(many)
    async with app.run_test(size=(120, 40)) as pilot:
        await by_activity_at(app, pilot, row)
        lead = row + 1
        await open_log_and_come_back(app, pilot, lead)
        assert many.lead_page(sort="activity", limit=1)[0].id == lead  # the list did re-sort
        assert current_id(app) == lead
        assert on_screen(app)
        assert await opened_after(app, pilot, "down", "enter") == lead + 1


async def test_a_reload_under_the_cursor_holds_the_order_until_the_rep_moves(many: Store) -> None:
    app = cockpit(many)
    async with app.run_test(size=(120, 40)) as pilot:
        await by_activity_at(app, pilot, 5)
        app.poll_status()
        app.perform(log_activity, 6, "called from the command line")  # lead 6 goes to the top
        app.poll_status()  # what the one-second poll does when the cache changed
        await pilot.pause()
        shown = lead_list(app)
        assert current_id(app) == 6 and shown.cursor == 5 and on_screen(app)
        assert shown.item_at(0) is not None and shown.item_at(0).id == 1  # the order the rep saw...
        assert shown.current is not None and shown.current.activity_count == 1  # ...with fresh values
        await pilot.press("down")
        assert current_id(app) == 7  # the next one as shown, and now the list re-sorts under it
        assert shown.item_at(0) is not None and shown.item_at(0).id == 6
        assert shown.cursor == 6 and on_screen(app)


async def test_a_score_change_far_down_keeps_the_cursor_on_its_lead(many: Store) -> None:
    app = cockpit(many)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, LeadListScreen)
        screen.show_view(None, "score")
        await until(lambda: lead_list(app).counted, pilot=pilot, what="the count")
        lead_list(app).cursor = 200
        await pilot.pause()
        lead = current_id(app)
        assert lead is not None
        app.poll_status()
        many.upsert_leads([lead_item(lead, f"Lead {lead:03}", warming_score=99)])  # a sync: now first
        app.poll_status()
        await pilot.pause()
        assert current_id(app) == lead and on_screen(app)
        await pilot.press("up")
        assert current_id(app) is not None and current_id(app) != lead
        moved_to = current_id(app)
        await pilot.press("down")  # in the re-sorted list, the lead it moved to is first
        assert current_id(app) != moved_to


async def test_j_j_enter_in_a_burst_opens_the_third_lead(many: Store) -> None:
    app = cockpit(many)
    async with app.run_test(size=(120, 40)) as pilot:
        await by_activity_at(app, pilot, 0)
        type_fast(app, "j", "j", "enter")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="a lead page")
        assert isinstance(app.screen, LeadDetailScreen) and app.screen.lead_id == 3


def test_textual_reads_a_line_feed_as_ctrl_j() -> None:
    """Why the next test types ctrl+j: Enter typed while `warmline` starts, before the
    cockpit has put the terminal in raw mode, reaches it as a line feed (the line mode's
    ICRNL), and Textual's parser reads that as ctrl+j, a carriage return as Enter."""
    parser = XTermParser()
    assert [event.key for event in parser.feed("\n") if isinstance(event, events.Key)] == ["ctrl+j"]
    assert [event.key for event in parser.feed("\r") if isinstance(event, events.Key)] == ["enter"]


async def test_j_and_enter_typed_ahead_open_the_second_lead(many: Store) -> None:
    """Before: `L j Enter` typed at once after `warmline` opened the list, moved, and the
    Enter did nothing (seen in tmux). The cockpit reads the line feed as Enter."""
    app = cockpit(many)
    async with app.run_test(size=(120, 40)) as pilot:
        await by_activity_at(app, pilot, 0)
        type_fast(app, "j", "ctrl+j")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="a lead page")
        assert isinstance(app.screen, LeadDetailScreen) and app.screen.lead_id == 2


async def test_j_j_enter_pressed_at_once_opens_the_third_lead(many: Store) -> None:
    app = cockpit(many)
    async with app.run_test(size=(120, 40)) as pilot:
        await by_activity_at(app, pilot, 0)
        assert await opened_after(app, pilot, "j", "j", "enter") == 3


@pytest.fixture
def due_today(store: Store, tmp_path: Path) -> Iterator[FollowUps]:
    """Four follow-ups due today, one row each on Today."""
    kept = FollowUps(tmp_path / "followups")
    for lead in (100, 101, 102, 103):
        kept.add(lead, W.COMPANIES[lead - 100][0], f"call back {lead}", W.NOW.date())
    yield kept
    kept.close()


@pytest.mark.parametrize("burst", [True, False], ids=["burst", "press"])
async def test_j_j_enter_on_today_opens_the_third_row(store: Store, due_today: FollowUps, burst: bool) -> None:
    app = cockpit(store, config=settings(start_screen="today"), followups=due_today)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, TodayScreen)
        table = screen.query_one("#today-table", SectionList)
        keys = table.keys
        first = next(key for key in keys if key is not None and key.startswith("followup:"))
        table.move_to(keys.index(first))
        await pilot.pause()
        rows = [key for key in keys if key is not None and key.startswith("followup:")]
        third = screen._rows[rows[2]].lead
        assert third is not None
        if burst:
            type_fast(app, "j", "j", "enter")
        else:
            await pilot.press("j", "j", "enter")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="a lead page")
        assert isinstance(app.screen, LeadDetailScreen) and app.screen.lead_id == third[0]
