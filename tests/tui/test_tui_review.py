"""The week in review in the cockpit: opened with V from any screen and from Today's Monday
row, moved a week with [ and ], back to this week with t, the empty week, the pending
line, hostile names shown as text, and snapshots at 120x40 and 80x24 (support.review_week:
a Berlin rep, read on Monday 23 November 2026 at 09:00)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Sparkline, Static

import support.review_week as R
from support.cockpit import Clipboard, Opened, settings
from support.waiting import until
from warmline.store import Store
from warmline.store.followups import FollowUps
from warmline.tui.app import WarmlineApp
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.review import EMPTY_WEEK, ReviewScreen
from warmline.tui.screens.today import TodayScreen
from warmline.tui.widgets.section_list import SectionList

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]


@pytest.fixture
def week(tmp_path: Path) -> Iterator[tuple[Store, FollowUps]]:
    store, follow_ups = R.open_week(tmp_path)
    yield store, follow_ups
    follow_ups.close()
    store.close()


def review_cockpit(week: tuple[Store, FollowUps], now: datetime = R.NOW, **fields: Any) -> WarmlineApp:
    store, follow_ups = week
    fields.setdefault("cold_after_days", R.COLD_AFTER_DAYS)
    return WarmlineApp(
        store, clock=lambda: now, zone=R.BERLIN, config=settings(**fields), followups=follow_ups,
        opener=Opened(), clipboard=Clipboard(),
    )  # fmt: skip


def shown(app: WarmlineApp, selector: str) -> str:
    """What a widget shows, line by line as drawn (the summary is a grid, not one text)."""
    return "\n".join(lines_of(app, selector))


def lines_of(app: WarmlineApp, selector: str) -> list[str]:
    widget = app.screen.query_one(selector, Static)
    return ["".join(s.text for s in widget.render_line(y)).rstrip() for y in range(widget.size.height)]


def title(app: WarmlineApp) -> str:
    return str(app.screen.query_one("#screen-title").render())


async def shows(app: WarmlineApp, pilot: Any, week: str) -> None:
    """Wait until the review screen shows `week`, read (the screen reads in a thread)."""

    def read() -> bool:
        screen = app.screen
        return isinstance(screen, ReviewScreen) and screen.review is not None and screen.review.period.week == week

    await until(read, pilot=pilot, what=f"the review of {week}")


async def open_review(app: WarmlineApp, pilot: Any, week: str = "2026-W48") -> ReviewScreen:
    await pilot.press("V")
    await shows(app, pilot, week)
    assert isinstance(app.screen, ReviewScreen)
    return app.screen


async def test_v_opens_this_week_and_brackets_move_a_week(week: tuple[Store, FollowUps]) -> None:
    app = review_cockpit(week)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, LeadListScreen)
        screen = await open_review(app, pilot)
        assert "2026-W48" in title(app) and "this week" in title(app)
        assert "1 activity logged" in shown(app, "#review-summary")
        await pilot.press("left_square_bracket")
        await shows(app, pilot, "2026-W47")
        summary = shown(app, "#review-summary")
        assert "6 activities logged · 2 notes written" in summary
        assert "3 made · 1 done · 1 overdue" in summary and "1 opened · 1 won · 1 lost" in summary
        assert len(screen.query(Sparkline)) == 2
        assert "Alpha GmbH" in shown(app, "#review-leads") and "Gamma Oy" in shown(app, "#review-leads")
        assert "7 actions still in the outbox" in shown(app, "#review-pending")
        await pilot.press("right_square_bracket")
        await shows(app, pilot, "2026-W48")
        await pilot.press("right_square_bracket")  # no week to come: nothing happens
        await pilot.pause()
        assert screen.weeks_back == 0
        await pilot.press("left_square_bracket", "left_square_bracket", "t")
        await shows(app, pilot, "2026-W48")
        assert "this week" in title(app) and screen.weeks_back == 0


async def test_an_empty_week_says_so_and_still_says_what_is_pending(week: tuple[Store, FollowUps]) -> None:
    app = review_cockpit(week)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(app, pilot)
        screen.show_week(10)
        await shows(app, pilot, "2026-W38")
        assert EMPTY_WEEK in shown(app, "#review-summary")
        await until(lambda: not screen.query(Sparkline), pilot=pilot, what="no sparkline left")
        assert not screen.query_one("#review-chart").display
        assert "7 actions still in the outbox" in shown(app, "#review-pending")


async def test_hostile_names_are_text(week: tuple[Store, FollowUps]) -> None:
    """A company named with Rich markup, HTML and an escape: shown as written (the escape
    taken out), styled by nothing it holds."""
    app = review_cockpit(week)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(app, pilot)
        screen.show_week(1)
        await shows(app, pilot, "2026-W47")
        shown_leads = screen.query_one("#review-leads", Static).render()
        assert '=HYPERLINK("https://evil.example") <b>Zeta</b> [bold red]&[/] **Co**' in shown_leads.plain
        assert "\x1b" not in shown_leads.plain
        assert len(shown_leads.spans) == 3, "the three headings are bold; the name styles nothing"


async def test_todays_monday_row_opens_last_week(week: tuple[Store, FollowUps]) -> None:
    app = review_cockpit(week, start_screen="today")
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, TodayScreen)
        table = app.screen.query_one("#today-table", SectionList)
        await until(lambda: table.row_count > 0, pilot=pilot, what="Today's rows")
        first = [" ".join(c.plain for c in table.cells_at(k)).strip() for k in range(2)]
        assert "Week in review (1)" in first[0] and "Last week in review" in first[1]
        table.move_to(1)
        await pilot.press("enter")
        await shows(app, pilot, "2026-W47")


async def test_no_review_row_on_other_days(week: tuple[Store, FollowUps]) -> None:
    tuesday = datetime(2026, 11, 24, 9, 0, tzinfo=R.BERLIN)
    app = review_cockpit(week, now=tuesday, start_screen="today")
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one("#today-table", SectionList)
        await until(lambda: table.row_count > 0, pilot=pilot, what="Today's rows")
        rows = [" ".join(c.plain for c in table.cells_at(k)) for k in range(table.row_count)]
        assert not any("review" in row.lower() for row in rows)


async def test_a_sunday_to_thursday_rep_sees_the_row_on_sunday(week: tuple[Store, FollowUps]) -> None:
    sunday = datetime(2026, 11, 22, 9, 0, tzinfo=R.BERLIN)
    app = review_cockpit(week, now=sunday, start_screen="today", work_days=(6, 0, 1, 2, 3))
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one("#today-table", SectionList)
        await until(lambda: table.row_count > 0, pilot=pilot, what="Today's rows")
        assert "Last week in review" in " ".join(c.plain for c in table.cells_at(1))


async def test_a_long_figure_line_wraps_under_its_values_not_its_label(week: tuple[Store, FollowUps]) -> None:
    """At 80 columns "Leads: 21 touched · ... · 1 went cold" went on at the left edge,
    under "Leads:"; the rest of a line now starts under the first value."""
    app = review_cockpit(week)
    async with app.run_test(size=(60, 30)) as pilot:
        await open_review(app, pilot)
        await pilot.press("left_square_bracket")
        await shows(app, pilot, "2026-W47")
        lines = lines_of(app, "#review-summary")
    labels = [line for line in lines if line[:1].strip()]
    assert [line.split(":")[0] for line in labels][:2] == ["Activity", "Leads"], lines
    values_at = labels[0].index("6 activities")
    continued = [line for line in lines if not line[:1].strip()]
    assert continued, lines  # something did wrap at this width
    assert all(len(line) - len(line.lstrip()) == values_at for line in continued), lines


def weeks_back(count: int, week: str) -> Any:
    """A snapshot's steps: open the review, go `count` weeks back, wait until it is read."""

    async def steps(pilot: Any) -> None:
        await open_review(pilot.app, pilot)
        await pilot.press(*["left_square_bracket"] * count)
        await shows(pilot.app, pilot, week)
        await pilot.pause()

    return steps


@pytest.mark.parametrize("size", SIZES)
def test_review(snap_compare, week: tuple[Store, FollowUps], size) -> None:
    assert snap_compare(review_cockpit(week), terminal_size=size, run_before=weeks_back(1, "2026-W47"))


@pytest.mark.parametrize("size", SIZES)
def test_review_empty_week(snap_compare, week: tuple[Store, FollowUps], size) -> None:
    assert snap_compare(review_cockpit(week), terminal_size=size, run_before=weeks_back(10, "2026-W38"))
