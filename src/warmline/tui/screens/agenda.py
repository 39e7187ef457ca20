"""The agenda: the rep's open follow-ups for the days ahead, by the days a rep plans by.

"What do I have next week?" answered in the cockpit: every open follow-up under one of
`AGENDA_GROUPS` (overdue first, then today, tomorrow, the rest of this week, next week,
later), each heading with its count. The keys are Today's for follow-ups
(`FOLLOW_UP_BINDINGS`: x done, z a day, Z a day / a week / a date, f one more on the same
lead) and enter opens the lead, so a rep who learnt them on Today knows them here. One key
reaches it from every screen (`app.agenda`), and Today's "Next 7 days" row opens it.

A rep with hundreds of follow-ups: the agenda reads them in one indexed query of the
follow-ups file (`followups_open_due`) and lays them in one table; a reload after done or
snooze keeps the cursor on the row below the one that left.

Not on the first frame's path: the app imports it when the rep first opens it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from itertools import groupby
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from warmline.named_tuple import NamedTuple
from warmline.store.database import CacheUnusable
from warmline.store.followups import AGENDA_GROUPS, AgendaGroup, FollowUp, agenda_group
from warmline.store.today import unlisted_leads
from warmline.tui.columns import Column
from warmline.tui.safe import plain
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.follow_up_actions import FOLLOW_UP_BINDINGS, FollowUpActions, rep_now
from warmline.tui.screens.follow_up_words import day_text, due_cell, lead_cell
from warmline.tui.screens.today_sections import open_lead
from warmline.tui.widgets.section_list import Rows, SectionList
from warmline.tui.widgets.virtual_list import VirtualList

if TYPE_CHECKING:
    from datetime import date

HEADING = SectionList.HEADING_PREFIX


def empty_agenda(key: Callable[[str], str]) -> str:
    """What the agenda says with nothing ahead, with the rep's keys."""
    return (
        "No follow-ups ahead.\n\n"
        'A follow-up is kept when an activity or a note names a day ("wants pricing by Friday", '
        f'"call her Monday"), or add one by hand with {key("followups.add")} on a lead\'s page or on Today.\n\n'
        f"{key('app.today')} goes back to Today, {key('app.leads')} opens the lead list."
    )


def _key_bar(binding: Binding) -> Binding:
    """A follow-up key as the agenda's key bar shows it: x and Z, as on Today (the others
    in help and the palette)."""
    if binding.action == "follow_up_snooze_menu":
        return replace(binding, description="Snooze follow-up")
    return binding if binding.action == "follow_up_done" else replace(binding, show=False)


class AgendaDay(NamedTuple):
    """One heading of the agenda and the follow-ups under it, earliest first."""

    group: AgendaGroup
    follow_ups: tuple[FollowUp, ...]


def agenda_days(follow_ups: list[FollowUp], today: date) -> list[AgendaDay]:
    """The open follow-ups (by day due, as `FollowUps.list` gives them) under their
    headings, in `AGENDA_GROUPS`' order; headings with none left out."""
    grouped = {
        group: tuple(items)
        for group, items in groupby(follow_ups, key=lambda item: agenda_group(item.due_on, today))
    }
    return [AgendaDay(group, grouped[group]) for group in AGENDA_GROUPS if group in grouped]


class AgendaScreen(FollowUpActions, CockpitScreen):
    """The rep's open follow-ups by day; enter opens the lead, x / z / Z / f as on Today."""

    DEFAULT_CSS = """
    AgendaScreen #agenda-table { height: 1fr; }
    """

    SCREEN_TITLE = "Agenda"
    AUTO_FOCUS = "#agenda-table"

    BINDINGS = [
        Binding("enter", "open_row", "Open lead", priority=True, id="agenda.open"),
        *(_key_bar(binding) for binding in FOLLOW_UP_BINDINGS),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._follow_ups: dict[str, FollowUp] = {}
        """The rows under the headings, by their key in the table."""
        self.problem: str | None = None

    def compose_body(self) -> ComposeResult:
        yield SectionList(("", Column("Lead", min_width=16), Column("What"), "When"), id="agenda-table")
        yield Static(id="agenda-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.reload()

    @property
    def table(self) -> SectionList:
        return self.query_one("#agenda-table", SectionList)

    def _read(self, today: date) -> list[FollowUp]:
        """Every open follow-up; a follow-ups file that cannot be read is said once and
        shows as none."""
        followups = self.cockpit.followups
        if followups is None:
            self.problem = "follow-ups need a cache file on disk; this cockpit has none"
            return []
        try:
            found = followups.list("open", today=today)
        except CacheUnusable as problem:
            if self.problem != str(problem):
                self.cockpit.notify_plain(
                    f"Follow-ups not shown: {problem}", severity="error", timeout=30
                )
            self.problem = str(problem)
            return []
        self.problem = None
        return found

    def reload(self) -> None:
        today = rep_now(self.cockpit).date()
        days = agenda_days(self._read(today), today)
        self._follow_ups = {_key(item): item for day in days for item in day.follow_ups}
        self._show_title(days, today)
        table = self.table
        empty = self.query_one("#agenda-empty", Static)
        table.display = bool(days)
        empty.display = not days
        if not days:
            empty.update(Text(self.problem or empty_agenda(self.key)))
        unlisted = unlisted_leads(self.cockpit.store, (item.lead_id for day in days for item in day.follow_ups))
        table.fill(_table_rows(days, today, unlisted))
        self.refresh_bindings()

    def _show_title(self, days: list[AgendaDay], today: date) -> None:
        title = Text(no_wrap=True)
        title.append("Agenda", style="bold")
        title.append(f" · {day_text(today)}")
        total = sum(len(day.follow_ups) for day in days)
        title.append(f" · {total} open follow-up{'' if total == 1 else 's'}")
        overdue = next((len(day.follow_ups) for day in days if day.group == "Overdue"), 0)
        if overdue:
            title.append(f" · {overdue} overdue", style="bold red")
        self.set_title_text(title)

    # -- the row under the cursor -------------------------------------------------------

    def _follow_up(self) -> FollowUp | None:
        key = self.table.current_key if self.table.display else None
        return self._follow_ups.get(key) if key is not None else None

    def _follow_up_lead(self) -> tuple[int, str] | None:
        follow_up = self._follow_up()
        return None if follow_up is None else (follow_up.lead_id, follow_up.company)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The row keys leave the key bar when the agenda is empty."""
        if action in (
            "open_row", "follow_up_done", "follow_up_snooze", "follow_up_snooze_menu", "add_follow_up",
        ):  # fmt: skip
            return bool(self._follow_ups)
        return True

    def on_virtual_list_selected(self, event: VirtualList.Selected) -> None:
        event.stop()
        self.action_open_row()

    def action_open_row(self) -> None:
        """The page of the lead the follow-up is about."""
        follow_up = self._follow_up()
        if follow_up is not None:
            open_lead(self.cockpit, follow_up.lead_id)


def _key(follow_up: FollowUp) -> str:
    return f"followup:{follow_up.id}"


def _table_rows(days: list[AgendaDay], today: date, unlisted: Collection[int]) -> Rows:
    """Each heading with its count, then its follow-ups: an overdue one marked `!`."""
    rows: Rows = []
    for day in days:
        style = "bold red underline" if day.group == "Overdue" else "bold underline"
        heading = [Text(""), Text(f"{day.group} ({len(day.follow_ups)})", style=style), Text(""), Text("")]
        rows.append((HEADING + day.group, heading))
        for item in day.follow_ups:
            mark = Text("!", style="bold red") if day.group == "Overdue" else Text("•", style="bold")
            cells = [mark, lead_cell(item, unlisted), plain(item.text), due_cell(item, today)]
            rows.append((_key(item), cells))
    return rows
