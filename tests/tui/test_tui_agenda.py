"""The agenda (`W` from anywhere): every open follow-up under the day a rep plans by, with
Today's follow-up keys (done, snooze, open), reached from every screen and from Today's
"Next 7 days" row; its empty state, a rep with 500 follow-ups, its place off the first
frame's path, and snapshots at 120x40 and 80x24.

The seed's clock is Sunday 22 Nov 2026: tomorrow is Monday 23, "This week" has nothing
left, "Next week" is Tuesday 24 to Sunday 29 (Monday being tomorrow), later is after."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from textual.widgets import Static

import support.tui_wire_data as W
from support.cockpit import cockpit, settings, text_of
from support.waiting import until
from warmline.store import Store
from warmline.store.followups import FollowUps
from warmline.tui.app import WarmlineApp
from warmline.tui.screens.agenda import AgendaScreen
from warmline.tui.screens.follow_up_dialogs import SnoozeDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.widgets.section_list import SectionList

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]
TODAY = W.NOW.date()  # a Sunday
KESTREL, NORTHWIND, DENTAL = 103, 100, 102


@pytest.fixture
def followups(tmp_path: Path) -> Iterator[FollowUps]:
    kept = FollowUps(tmp_path / "followups")
    yield kept
    kept.close()


def seed_week(followups: FollowUps) -> None:
    """One follow-up under each heading but "This week" (none is left on a Sunday), and a
    done one that the agenda leaves out."""
    for lead, company, text, days in (
        (NORTHWIND, "Northwind Logistics", "Send the case study", -2),
        (KESTREL, "Kestrel Analytics", "Wants pricing by Friday", 0),
        (DENTAL, "Dental Bavaria GmbH", "Call her Monday", 1),
        (KESTREL, "Kestrel Analytics", "Demo for the board", 4),
        (NORTHWIND, "Northwind Logistics", "Check in after the fair", 5),
        (DENTAL, "Dental Bavaria GmbH", "Renewal talk in January", 45),
    ):
        followups.add(lead, company, text, TODAY + timedelta(days=days))
    done = followups.add(KESTREL, "Kestrel Analytics", "Already done", TODAY + timedelta(days=2))
    followups.done(done.id)


def agenda_cockpit(store: Store, followups: FollowUps) -> WarmlineApp:
    return cockpit(store, config=settings(start_screen="today"), followups=followups)


def table(app: WarmlineApp) -> SectionList:
    return app.screen.query_one("#agenda-table", SectionList)


def rows(app: WarmlineApp) -> list[str]:
    shown = table(app)
    return [" ".join(cell.plain for cell in shown.cells_at(i)).strip() for i in range(shown.row_count)]


async def open_agenda(app: WarmlineApp, pilot) -> None:
    await pilot.press("W")
    await until(lambda: isinstance(app.screen, AgendaScreen), pilot=pilot, what="the agenda")
    await pilot.pause()


async def test_the_agenda_groups_every_open_follow_up_by_day(store: Store, followups: FollowUps) -> None:
    seed_week(followups)
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_agenda(app, pilot)
        assert rows(app) == [
            "Overdue (1)",
            "! Northwind Logistics Send the case study overdue · Fri 20 Nov",
            "Today (1)",
            "• Kestrel Analytics Wants pricing by Friday today",
            "Tomorrow (1)",
            "• Dental Bavaria GmbH Call her Monday Mon 23 Nov",
            "Next week (2)",
            "• Kestrel Analytics Demo for the board Thu 26 Nov",
            "• Northwind Logistics Check in after the fair Fri 27 Nov",
            "Later (1)",
            "• Dental Bavaria GmbH Renewal talk in January Wed 6 Jan 2027",
        ]
        title = text_of(app, "#screen-title")
        assert "Agenda · Sun 22 Nov · 6 open follow-ups · 1 overdue" in title
        assert table(app).current_key == "followup:1"  # the first row, past the heading


async def test_a_follow_up_on_a_removed_lead_says_so(store: Store, followups: FollowUps) -> None:
    """A lead the service removed (or that the last lead list no longer had) keeps its
    local follow-ups, which Today and the agenda listed as if nothing had happened; now
    they say "(removed)" where the lead is named, as the lead's page does."""
    followups.add(999, "Gone GmbH", "Call about the renewal", TODAY)
    followups.add(DENTAL, "Dental Bavaria GmbH", "Call her Monday", TODAY + timedelta(days=1))
    followups.add(KESTREL, "Kestrel Analytics", "Demo for the board", TODAY)
    store.mark_lead_gone(DENTAL, "Outreach lead not found")
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        today = app.screen.query_one("#today-table", SectionList)
        await until(lambda: today.row_count > 0, pilot=pilot)
        shown = [" ".join(cell.plain for cell in today.cells_at(i)).strip() for i in range(today.row_count)]
        assert "• Gone GmbH (removed) Call about the renewal today" in shown
        assert "• Kestrel Analytics Demo for the board today" in shown
        await open_agenda(app, pilot)
        assert rows(app) == [
            "Today (2)",
            "• Gone GmbH (removed) Call about the renewal today",
            "• Kestrel Analytics Demo for the board today",
            "Tomorrow (1)",
            "• Dental Bavaria GmbH (removed) Call her Monday Mon 23 Nov",
        ]


@pytest.mark.parametrize("start", ["today", "leads", "lead page"])
async def test_one_key_reaches_it_from_every_screen(
    store: Store, followups: FollowUps, start: str
) -> None:
    seed_week(followups)
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if start == "leads":
            await pilot.press("L")
            await until(lambda: isinstance(app.screen, LeadListScreen), pilot=pilot, what="leads")
        elif start == "lead page":
            app.open_lead(KESTREL)
            await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="lead")
        await open_agenda(app, pilot)
        await pilot.press("escape")  # back where the rep came from
        await until(lambda: not isinstance(app.screen, AgendaScreen), pilot=pilot, what="back")


async def test_today_counts_the_next_7_days_and_its_row_opens_the_agenda(
    store: Store, followups: FollowUps
) -> None:
    seed_week(followups)
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        today = app.screen.query_one("#today-table", SectionList)
        shown = [" ".join(c.plain for c in today.cells_at(i)).strip() for i in range(today.row_count)]
        assert "Next 7 days (3) W: the agenda" in shown  # Mon, Thu, Fri; not today's, not January's
        assert "» Mon: 1 · Thu: 1 · Fri: 1 enter or W: the agenda" in shown
        today.move_to(today.index_of_key("agenda:week"))
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, AgendaScreen), pilot=pilot, what="the agenda")


async def test_done_snooze_and_open_as_on_today(store: Store, followups: FollowUps) -> None:
    seed_week(followups)
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_agenda(app, pilot)
        await pilot.press("x")  # the overdue one
        await until(lambda: followups.get(1).done, pilot=pilot, what="done")
        await pilot.pause()
        assert "Overdue (1)" not in rows(app)
        assert table(app).current_key == "followup:2"  # the row that came next
        await pilot.press("z")  # today's, to tomorrow
        await pilot.pause()
        assert followups.get(2).snoozed_until == TODAY + timedelta(days=1)
        assert "Tomorrow (2)" in rows(app)
        picked = app.screen._follow_up()
        assert picked is not None
        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot, what="snooze dialog")
        await pilot.press("2")  # a week, from the day it is due now (tomorrow)
        await until(lambda: isinstance(app.screen, AgendaScreen), pilot=pilot, what="back")
        assert followups.get(picked.id).snoozed_until == picked.due_on + timedelta(days=7)
        follow_up = app.screen._follow_up()
        assert follow_up is not None
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot, what="lead page")
        assert app.screen.lead_id == follow_up.lead_id


async def test_an_empty_agenda_says_how_a_follow_up_is_made(store: Store, followups: FollowUps) -> None:
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_agenda(app, pilot)
        assert not table(app).display
        empty = text_of(app, "#agenda-empty")
        assert empty.startswith("No follow-ups ahead.") and "by hand with f on a lead's page" in empty
        assert empty.endswith("H goes back to Today, L opens the lead list.")
        assert "0 open follow-ups" in text_of(app, "#screen-title")
        followups.add(KESTREL, "Kestrel Analytics", "Added from a shell", TODAY + timedelta(days=3))
        await until(lambda: table(app).display, pilot=pilot, what="the agenda following the file")


async def test_a_rep_with_500_follow_ups(store: Store, followups: FollowUps) -> None:
    for n in range(500):
        followups.add(KESTREL, "Kestrel Analytics", f"Promise {n}", TODAY + timedelta(days=n % 90 - 10))
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_agenda(app, pilot)
        headings = [row for row in rows(app) if row.endswith(")")]
        assert sum(int(h.split("(")[1].rstrip(")")) for h in headings) == 500
        assert headings[0].startswith("Overdue (") and headings[-1].startswith("Later (")
        await pilot.press("G")
        last = table(app).current_key
        assert last is not None and last.startswith("followup:")
        await pilot.press("x")
        await until(lambda: followups.get(int(last.split(":")[1])).done, pilot=pilot, what="done")
        assert "499 open follow-ups" in text_of(app, "#screen-title")


def test_the_agenda_is_not_on_the_first_frame_s_path() -> None:
    code = (
        "import json, sys\n"
        "import warmline.launch, warmline.cockpit, warmline.tui.app, warmline.tui.screens.today\n"
        "print(json.dumps('warmline.tui.screens.agenda' in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) is False


@pytest.mark.parametrize("size", SIZES)
def test_agenda(snap_compare, store: Store, followups: FollowUps, size) -> None:
    seed_week(followups)
    assert snap_compare(agenda_cockpit(store, followups), terminal_size=size, press=["W"])


async def test_a_snooze_puts_a_follow_up_off_never_forward(store: Store, followups: FollowUps) -> None:
    """Before: `z` on Thursday's "Demo for the board", seen on a Sunday, made it due on
    Monday (the next working day after today), and the dialog offered "a week" as next
    Sunday: snoozing brought it forward. A day and a week now count from its own day while
    that is still ahead."""
    seed_week(followups)
    demo = next(f for f in followups.list(today=TODAY) if f.text == "Demo for the board")
    thursday = demo.due_on
    assert thursday.weekday() == 3 and thursday > TODAY
    app = agenda_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_agenda(app, pilot)
        table(app).move_to(table(app).index_of_key(f"followup:{demo.id}"))
        await pilot.pause()
        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot, what="snooze dialog")
        choices = " ".join(str(widget.render()) for widget in app.screen.query(Static))
        assert "a day (Fri 27 Nov)" in choices and "a week (Thu 3 Dec)" in choices, choices
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, AgendaScreen), pilot=pilot, what="back")
        await pilot.press("z")
        await until(lambda: followups.get(demo.id).due_on != thursday, pilot=pilot, what="the snooze")
        assert followups.get(demo.id).due_on == thursday + timedelta(days=1)  # Friday, not Monday
