"""Today: the cockpit's start screen, the rep's morning on one page (REP-DAY.md, 08:55).

Sections in the order a rep works: the jobs that finished since the cockpit was last
closed, the leads that reached their target score since yesterday, warm leads going cold,
the follow-ups due today or overdue, the recommendations waiting (by priority) and the
failed ops. Each heading carries its count; every row opens its screen with enter; the
counts follow the cache as sync brings news (the app calls `reload` when the cache
changes, `WarmlineApp.poll_status`). It reads one model, `warmline.store.today`, which
`warmline today` prints too.

Start-up: this screen paints first, so it loads nothing more than the lead list does;
the screens its rows open, the follow-up actions and the date dialog load when used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from warmline.store import CacheUnusable
from warmline.store.today import TodayPage, today_page
from warmline.tui.columns import Column
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.follow_up_actions import FOLLOW_UP_BINDINGS, FollowUpActions
from warmline.tui.screens.follow_up_words import day_text
from warmline.tui.screens.today_sections import SECTIONS, Section, TodayRow, TodayView
from warmline.tui.widgets.section_list import Rows, SectionList
from warmline.tui.widgets.virtual_list import VirtualList

if TYPE_CHECKING:
    from warmline.store.followups import FollowUp

HEADING = SectionList.HEADING_PREFIX


def empty_day(key: Callable[[str], str]) -> str:
    """What Today says with nothing in it, and where to go instead (the rep's keys)."""
    return (
        "Nothing for today: no follow-ups due, no finished jobs, no lead ready for outreach or "
        "going cold, no recommendations waiting, no failed ops.\n\n"
        f"{key('app.leads')} opens the lead list, {key('app.prospecting')} prospecting (find new companies), "
        f"{key('app.jobs')} the job monitor, {key('app.outbox')} the outbox."
    )


def _on_today(binding: Binding) -> Binding:
    """A follow-up key as Today's key bar shows it: x and Z (as "Snooze follow-up": its
    dialog offers a day too), the others in help and the palette only."""
    if binding.action == "follow_up_snooze_menu":
        return replace(binding, description="Snooze follow-up")
    return binding if binding.action == "follow_up_done" else replace(binding, show=False)


class TodayScreen(FollowUpActions, CockpitScreen):
    """What happened since the rep last looked and what to do now; enter opens a row."""

    DEFAULT_CSS = """
    TodayScreen #today-table { height: 1fr; }
    """

    SCREEN_TITLE = "Today"
    AUTO_FOCUS = "#today-table"

    BINDINGS = [
        Binding("L", "app.open('leads')", "Leads", id="today.leads"),
        # A priority key, so the key bar shows it (the table's own enter is hidden there).
        Binding("enter", "open_row", "Open", priority=True, id="today.open"),
        # The shared follow-up keys (x done, z a day, Z a day / a week / a date, f add by
        # hand); the key bar keeps room for the app's keys with x and Z only (? lists all).
        *(_on_today(binding) for binding in FOLLOW_UP_BINDINGS),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.page: TodayPage | None = None
        self.follow_ups_problem: str | None = None
        self._rows: dict[str, TodayRow] = {}
        """The rows under the headings, by their key in the table."""

    def compose_body(self) -> ComposeResult:
        yield SectionList(("", Column("What", min_width=16), Column("Detail"), "When"), id="today-table")
        yield Static(id="today-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.reload()

    @property
    def table(self) -> SectionList:
        return self.query_one("#today-table", SectionList)

    # -- reading ------------------------------------------------------------------------

    def _read(self) -> TodayPage:
        """Today's page; a follow-ups file that cannot be read leaves that section out and
        says why, instead of taking the whole screen down."""
        cockpit = self.cockpit
        now = cockpit.clock().astimezone(cockpit.zone)
        try:
            page = today_page(cockpit.store, now, cockpit.config.cold_after_days, cockpit.followups)
            self.follow_ups_problem = None
        except CacheUnusable as problem:
            if cockpit.followups is None or problem.path != cockpit.followups.path:
                raise
            if self.follow_ups_problem != str(problem):  # said once, not at every reload
                cockpit.notify_plain(
                    f"Follow-ups not shown: {problem}", severity="error", timeout=30
                )
            self.follow_ups_problem = str(problem)
            page = today_page(cockpit.store, now, cockpit.config.cold_after_days, None)
        return page

    def reload(self) -> None:
        page = self.page = self._read()
        cockpit = self.cockpit
        view = TodayView(
            page,
            cockpit.store,
            cockpit.clock(),
            cockpit.zone,
            cockpit.config.cold_after_days,
            follow_ups_unreadable=self.follow_ups_problem is not None,
            key=self.key,
            work_days=cockpit.config.work_days,
        )
        sections = [shown for section in SECTIONS if (shown := section(view)) is not None]
        self._rows = {row.key: row for section in sections for row in section.rows}
        self._show_title(page)
        table = self.table
        empty = self.query_one("#today-empty", Static)
        quiet = page.is_empty and not any(section.name == "review" for section in sections)
        table.display = not quiet
        empty.display = quiet
        if quiet:
            empty.update(Text(empty_day(self.key)))
        table.fill([] if quiet else _table_rows(sections))
        self.refresh_bindings()

    def _show_title(self, page: TodayPage) -> None:
        title = Text(no_wrap=True)
        title.append("Today", style="bold")
        title.append(f" · {day_text(page.today.date())}")
        if page.is_empty:
            title.append(" · nothing to see")
        else:
            title.append(
                f" · {len(page.follow_ups)} follow-up{'' if len(page.follow_ups) == 1 else 's'} due"
            )
            if page.failed_ops:
                title.append(f" · {len(page.failed_ops)} failed", style="bold red")
        self.set_title_text(title)

    # -- the row under the cursor -------------------------------------------------------

    def current(self) -> TodayRow | None:
        """The highlighted row (None on an empty day)."""
        key = self.table.current_key if self.table.display else None
        return self._rows.get(key) if key is not None else None

    def _follow_up(self) -> FollowUp | None:
        """The highlighted follow-up, if a follow-up is highlighted."""
        row = self.current()
        return row.follow_up if row is not None else None

    def _follow_up_to_act_on(self, binding_id: str, does: str) -> FollowUp | None:
        """Off a follow-up (Today opens on its first row, a finished job), a follow-up key
        highlights the first follow-up due and says so: its key was only dimmed, and did
        nothing, on a screen whose follow-ups are what the rep came for at 08:55."""
        follow_up = self._follow_up()
        if follow_up is not None:
            return follow_up
        first = next(((key, row.follow_up) for key, row in self._rows.items() if row.follow_up is not None), None)
        if first is not None:
            key, found = first
            self.table.move_to(self.table.index_of_key(key))
            self.cockpit.notify_plain(
                f"The first follow-up due is highlighted ({found.company}): {self.key(binding_id)} again {does}."
            )
        return None

    def _follow_up_lead(self) -> tuple[int, str] | None:
        """The lead of the highlighted row (a ready or quiet lead, or a follow-up's) and
        its company's name."""
        row = self.current()
        return row.lead if row is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys with nothing to act on leave the key bar: Open on an empty day, the
        follow-up keys when none is due (dimmed while another row is highlighted; adding
        one, while the row is not a lead's); escape shows only when Today was opened over
        another screen."""
        if action == "back":  # the start screen has nothing under it to go back to
            return len(self.app.screen_stack) > 1
        if action == "open_row":
            return bool(self._rows)
        if action in ("follow_up_done", "follow_up_snooze", "follow_up_snooze_menu"):
            # off a follow-up, the key highlights the first one (`_follow_up_to_act_on`)
            return any(row.follow_up is not None for row in self._rows.values())
        if action == "add_follow_up":
            if not any(row.lead is not None for row in self._rows.values()):
                return False
            return True if self._follow_up_lead() is not None else None
        return True

    def on_virtual_list_highlighted(self, event: VirtualList.Highlighted) -> None:
        self.refresh_bindings()

    def on_virtual_list_selected(self, event: VirtualList.Selected) -> None:
        event.stop()
        self.action_open_row()

    # -- keys ---------------------------------------------------------------------------

    def action_open_row(self) -> None:
        """Open the row's screen: a job's results, a lead's page (ready, going cold, or the
        lead a follow-up is about), the triage queue, or the outbox on the failed op."""
        row = self.current()
        if row is not None:
            row.open(self.cockpit)


def _table_rows(sections: list[Section]) -> Rows:
    """The table's rows: each section's heading, then its rows."""
    rows: Rows = []
    for section in sections:
        style = "bold underline" if section.total else "dim"
        heading = [
            Text(""),
            Text(f"{section.title} ({section.total})", style=style),
            Text(section.note, style="dim"),
            Text(""),
        ]
        rows.append((HEADING + section.name, heading))
        rows.extend((row.key, row.cells) for row in section.rows)
    return rows
