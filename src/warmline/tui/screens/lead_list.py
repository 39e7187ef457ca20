"""The lead list: cold / warm / all, sortable, filter-as-you-type, 100,000 rows smooth."""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from warmline.tui.charts import is_ready, score_bar
from warmline.tui.columns import Column, header, line
from warmline.tui.safe import plain
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.sources import SORT_LABELS, LeadQuery, next_sort
from warmline.tui.timefmt import Clock, relative
from warmline.tui.widgets.virtual_list import VirtualList

READY_MARK = "★"
TABS = (("cold", "1 cold"), ("warm", "2 warm"), (None, "3 all"))

LEAD_COLUMNS = (
    Column("", 1),
    Column("Company", 0, min_width=12),
    Column("Status", 6),
    Column("Score / target", 19),
    Column("Acts", 4, "right"),
    Column("Recs", 4, "right"),
    Column("Mon", 3),
    Column("Last activity", 13),
)


class LeadRowFormatter:
    """Draws one lead per line; relative times use the injected clock and zone."""

    def __init__(self, clock: Clock, zone: tzinfo) -> None:
        self._clock = clock
        self._zone = zone

    def header(self, width: int) -> Text:
        return header(LEAD_COLUMNS, width)

    def row(self, lead: Any, width: int) -> Text:
        score, target = lead.warming_score, lead.target_score
        ready = is_ready(score, target)
        cells = [
            Text(READY_MARK if ready else " ", style="bold green" if ready else ""),
            plain(lead.company_name, "bold" if ready else ""),
            Text(lead.lead_status or "", style="cyan" if lead.lead_status == "warm" else "blue"),
            score_bar(score, target, 10),
            Text(str(lead.activity_count or 0)),
            Text(str(lead.recommendation_count or 0), style="bold" if lead.recommendation_count else "dim"),
            Text("on" if lead.monitoring_active else "off", style="" if lead.monitoring_active else "dim"),
            Text(relative(lead.last_activity_at, self._clock(), self._zone), style="dim"),
        ]
        return line(LEAD_COLUMNS, cells, width)


class LeadListScreen(CockpitScreen):
    """The home screen; everything comes from the cache, nothing waits on the network."""

    SCREEN_TITLE = "Leads"

    BINDINGS = [
        Binding("1", "tab('cold')", "Cold", id="leads.cold"),
        Binding("2", "tab('warm')", "Warm", id="leads.warm"),
        Binding("3", "tab('all')", "All", id="leads.all"),
        Binding("s", "cycle_sort", "Sort", id="leads.sort"),
        Binding("slash", "filter", "Filter", id="leads.filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="leads.clear_filter"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._status: str | None = None
        self._sort = "gap"
        self._text = ""

    def compose_body(self) -> ComposeResult:
        yield Static(id="lead-tabs")
        yield Input(placeholder="filter by company name", id="lead-filter", classes="-hidden")
        yield VirtualList(
            LeadRowFormatter(self.cockpit.clock, self.cockpit.zone),
            empty_text="No leads yet. Add companies to outreach, or run `warmline sync`.",
            id="lead-list",
        )

    def on_mount(self) -> None:
        self._apply_query()
        self.query_one(VirtualList).focus()

    @property
    def lead_list(self) -> VirtualList[Any]:
        return self.query_one("#lead-list", VirtualList)

    def _query(self) -> LeadQuery:
        return LeadQuery(self.cockpit.store, self._status, self._text, self._sort)

    def _apply_query(self) -> None:
        self.lead_list.set_source(self._query())
        if self._text:
            self.lead_list.set_empty_text(Text(f"No lead's company name matches “{self._text}”. Escape clears the filter."))
        else:
            self.lead_list.set_empty_text("No leads here yet. Add companies to outreach, or sync.")
        self._show_header()

    def _show_header(self) -> None:
        count = self.lead_list.row_count
        title = Text(no_wrap=True)
        title.append("Leads", style="bold")
        title.append(f" · {count:,} shown · sorted by {SORT_LABELS[self._sort]}")
        if self._text:
            title.append(" · filter: ")
            title.append_text(plain(self._text, "italic"))
        self.set_title_text(title)
        tabs = Text(no_wrap=True)
        for status, label in TABS:
            style = "reverse bold" if status == self._status else "dim"
            tabs.append(f" {label} ", style=style)
            tabs.append(" ")
        tabs.append(f"   {READY_MARK} ready for outreach", style="green")
        self.query_one("#lead-tabs", Static).update(tabs)

    def reload(self) -> None:
        self.lead_list.reload(keep_cursor=True)
        self._show_header()

    # -- keys -----------------------------------------------------------------------------

    def action_tab(self, status: str) -> None:
        self._status = None if status == "all" else status
        self._apply_query()

    def action_cycle_sort(self) -> None:
        self._sort = next_sort(self._sort)
        self._apply_query()

    def action_filter(self) -> None:
        field = self.query_one("#lead-filter", Input)
        field.remove_class("-hidden")
        field.focus()

    def action_clear_filter(self) -> None:
        field = self.query_one("#lead-filter", Input)
        if field.has_class("-hidden") and not self._text:
            return
        field.value = ""
        field.add_class("-hidden")
        self.lead_list.focus()

    @on(Input.Changed, "#lead-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._text = event.value.strip()
        self._apply_query()

    @on(Input.Submitted, "#lead-filter")
    def _filter_done(self) -> None:
        self.lead_list.focus()

    @on(VirtualList.Selected, "#lead-list")
    def _open_lead(self, event: VirtualList.Selected) -> None:
        self.cockpit.open_lead(event.item.id)
