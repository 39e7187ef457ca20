"""The week in review: what the rep did in a week, for a look back or a manager (V).

The figures (`warmline.review.words.figures`), a bar chart of activities per day by type
(`widgets.bar_chart`, our own), the score of the leads that moved most as Textual's own
`Sparkline`s with their dates, the leads that reached their target, moved to warm or went
cold, and the pending line: what the outbox still holds, so nobody reads the counts as
the service's. `[` and `]` move a week back and forth, `t` comes back to this week. The
weeks start on the rep's first work day; everything is read from the cache
(`warmline.review.build`), offline. `warmline report week` writes the same review as
Markdown, HTML, CSV or JSON.

Charts: Textual's `Sparkline` and a bar chart of our own rather than textual-plotext,
which would bring plotext (a plotting library) into the cockpit's dependencies and its
import time for two small charts a terminal draws well in block characters.

Not on the first frame's path: the app imports it when the rep first opens it (Today's
Monday row opens it through the app too).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Sparkline, Static

from warmline.review.build import build_review
from warmline.review.model import LeadMention, Review
from warmline.review.period import Period, week_starting
from warmline.review.words import (
    by_type_line,
    change,
    figures,
    money,
    pending_line,
    period_title,
    type_name,
)
from warmline.store.database import CacheUnusable
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.follow_up_actions import rep_now
from warmline.tui.widgets.bar_chart import Bar, BarChart

LISTED = 6
LABEL_WIDTH = len("Recommendations:")
"""Leads named under each heading on screen; the rest are counted."""

EMPTY_WEEK = "Nothing recorded this week."


class ReviewScreen(CockpitScreen):
    """A week's work from the cache; [ and ] move a week, t comes back to this one."""

    DEFAULT_CSS = """
    ReviewScreen #review-body { height: 1fr; padding: 0 1; }
    ReviewScreen .review-heading { text-style: bold; margin-top: 1; }
    ReviewScreen #review-pending { color: $warning; height: auto; padding: 0 1; }
    ReviewScreen #review-moves { height: auto; }
    ReviewScreen .review-move { height: 1; }
    ReviewScreen .review-move-name { width: 26; }
    ReviewScreen .review-move Sparkline { width: 14; height: 1; margin-right: 1; }
    ReviewScreen .review-move-words { width: 1fr; }
    """

    SCREEN_TITLE = "Week in review"
    AUTO_FOCUS = "#review-body"

    BINDINGS = [
        Binding("left_square_bracket", "week(-1)", "Week before", id="review.previous"),
        Binding("right_square_bracket", "week(1)", "Week after", id="review.next"),
        Binding("t", "this_week", "This week", id="review.this_week"),
    ]

    def __init__(self, weeks_back: int = 0) -> None:
        super().__init__()
        self.weeks_back = weeks_back
        self.review: Review | None = None
        """The week shown, once read (None while the first read runs)."""
        self._reads = 0

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="review-body"):
            yield Static(id="review-summary")
            yield Static("Activities per day", classes="review-heading", id="review-chart-heading")
            yield BarChart(id="review-chart")
            yield Static(
                "Score movement of the top leads",
                classes="review-heading",
                id="review-moves-heading",
            )
            yield Vertical(id="review-moves")
            yield Static(id="review-leads")
        yield Static(id="review-pending")

    def on_mount(self) -> None:
        self.reload()

    # -- reading ------------------------------------------------------------------------

    def period(self) -> Period:
        """The week shown: this week, `weeks_back` weeks ago (the rep's weeks)."""
        today = rep_now(self.cockpit).date()
        work_days = self.cockpit.config.work_days
        return week_starting(today - timedelta(days=7 * self.weeks_back), work_days)

    def reload(self) -> None:
        """Read the week in a worker thread (at 10,000 leads a week takes a good part of a
        second on a busy machine: bench/bench_report.py), and show it when read. The cache
        changing under the screen calls this again; a read overtaken by a newer one is
        dropped."""
        self._reads += 1
        period, now = self.period(), rep_now(self.cockpit)
        self._show_title(period, reading=True)
        self.run_worker(
            partial(self._read, self._reads, period, now), thread=True, group="review-read"
        )

    def _read(self, read: int, period: Period, now: datetime) -> None:
        """In the worker: the review, from the cache and the follow-ups file; a follow-ups
        file that cannot be read leaves follow-ups uncounted and says so."""
        cockpit = self.cockpit
        follow_ups = cockpit.followups
        cold_after_days = cockpit.config.cold_after_days
        try:
            review = build_review(
                cockpit.store, period, now=now, cold_after_days=cold_after_days, follow_ups=follow_ups
            )
        except CacheUnusable as problem:
            if follow_ups is None or problem.path != follow_ups.path:
                raise
            self.app.call_from_thread(
                cockpit.notify_plain, f"Follow-ups not counted: {problem}", severity="error", timeout=30
            )
            review = build_review(cockpit.store, period, now=now, cold_after_days=cold_after_days)
        self.app.call_from_thread(self._loaded, read, review)

    def _loaded(self, read: int, review: Review) -> None:
        if read != self._reads or not self.is_attached:
            return  # a newer read is on its way, or the screen has gone
        self.review = review
        self._show(review)

    def _show_title(self, period: Period, *, reading: bool = False) -> None:
        heading = Text(period_title(period), style="bold", no_wrap=True, overflow="ellipsis")
        if self.weeks_back == 0:
            heading.append(" · this week")
        if reading:
            heading.append(" · reading…", style="dim")
        self.set_title_text(heading)

    def _show(self, review: Review) -> None:
        self._show_title(review.period)
        self.query_one("#review-summary", Static).update(_summary(review))
        has_activity = bool(review.activities)
        for selector in ("#review-chart-heading", "#review-chart"):
            self.query_one(selector).display = has_activity
        self.query_one("#review-chart", BarChart).show(
            [Bar(f"{d.day:%a %d}", d.by_type) for d in review.days],
            [safe_text(type_name(name)) for name in review.types],
        )
        self._show_moves(review)
        self.query_one("#review-leads", Static).update(_leads(review))
        self.query_one("#review-pending", Static).update(Text(pending_line(review, by_kind=False)))
        self.refresh_bindings()

    def _show_moves(self, review: Review) -> None:
        box = self.query_one("#review-moves", Vertical)
        box.remove_children()
        self.query_one("#review-moves-heading").display = bool(review.scores)
        box.display = bool(review.scores)
        rows = []
        for move in review.scores:
            dates = (
                f"{move.points[0].day:%a %d} to {move.points[-1].day:%a %d}" if move.points else ""
            )
            words = Text(
                f"{move.start} → {move.end} ({change(move.change)}), target {move.target} · {dates}"
            )
            rows.append(
                Horizontal(
                    Static(plain(move.company), classes="review-move-name"),
                    Sparkline([p.score for p in move.points], summary_function=max),
                    Static(words, classes="review-move-words"),
                    classes="review-move",
                )
            )
        box.mount_all(rows)

    # -- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No week after this one (its days have not happened): "Week after" leaves the key
        bar there, as "This week" does on this week."""
        if (action == "week" and parameters == (1,)) or action == "this_week":
            return self.weeks_back > 0
        return True

    def action_week(self, steps: int) -> None:
        self.show_week(self.weeks_back - steps)

    def action_this_week(self) -> None:
        self.show_week(0)

    def show_week(self, weeks_back: int) -> None:
        """Show the week `weeks_back` weeks before this one (never one to come)."""
        self.weeks_back = max(0, weeks_back)
        self.reload()


def _summary(review: Review) -> Group:
    """The figures by group, one line each, and the activities by type: a label column and
    a value column, so that a line too long for the screen goes on under its values."""
    rows: dict[str, list[str]] = {}
    for figure in figures(review):
        rows.setdefault(f"{figure.group}:", []).append(figure.words())
    if review.activities:
        rows["By type:"] = [safe_text(by_type_line(review))]
    for name, deals in (("opened", review.opened), ("won", review.won), ("lost", review.lost)):
        if deals.count:
            rows[f"Deals {name}:"] = [safe_text(money(deals.values))]
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=LABEL_WIDTH, no_wrap=True, style="bold")
    grid.add_column(ratio=1)
    for label, parts in rows.items():
        grid.add_row(label, " · ".join(parts))
    return Group(Text(EMPTY_WEEK, style="italic"), grid) if review.is_empty else Group(grid)


def _leads(review: Review) -> Text:
    """The leads that moved, named (the first few of each)."""
    text = Text()
    for heading, mentions in (
        ("Reached their target", review.reached),
        ("Moved cold to warm", review.warmed),
        ("Went cold", review.went_cold),
    ):
        if mentions:
            if text:
                text.append("\n")
            text.append(f"{heading} ({len(mentions)}): ", style="bold")
            text.append_text(_names(mentions))
    return text


def _names(mentions: tuple[LeadMention, ...]) -> Text:
    names = Text(", ").join(plain(m.company) for m in mentions[:LISTED])
    more = len(mentions) - LISTED
    if more > 0:
        names.append(f", and {more} more")
    return names
