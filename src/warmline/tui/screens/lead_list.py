"""The lead list: cold / warm / all, sortable, filter-as-you-type, 100,000 rows smooth."""

from __future__ import annotations

from datetime import tzinfo
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input

from warmline.tui.charts import score_bar_segments
from warmline.tui.columns import Column, cell, header, line
from warmline.tui.lead_query import SORT_LABELS, LeadQuery, next_sort
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.timefmt import DatetimeClock, relative
from warmline.tui.widgets.text_line import TextLine
from warmline.tui.widgets.virtual_list import VirtualList, filter_miss

if TYPE_CHECKING:
    from textual.widgets import Input

    from warmline.store.rows import LeadRow

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


READY = Style(color="green", bold=True)
BOLD = Style(bold=True)
DIM = Style(dim=True)
STATUS_STYLES = {"warm": Style(color="cyan"), "cold": Style(color="blue")}


class LeadRowFormatter:
    """Draws one lead per line; relative times use the injected clock and zone."""

    def __init__(self, clock: DatetimeClock, zone: tzinfo) -> None:
        self._clock = clock
        self._zone = zone

    def header(self, width: int) -> list[Segment]:
        return header(LEAD_COLUMNS, width)

    def row(self, lead: LeadRow, width: int) -> list[Segment]:
        ready = lead.ready
        recs = lead.recommendation_count or 0
        cells = [
            cell(READY_MARK if ready else " ", READY if ready else None),
            cell(safe_text(lead.company_name), BOLD if ready else None),
            cell(safe_text(lead.lead_status), STATUS_STYLES.get(lead.lead_status)),
            score_bar_segments(lead.warming_score, lead.target_score, 10),
            cell(str(lead.activity_count or 0)),
            cell(str(recs), BOLD if recs else DIM),
            cell("on" if lead.monitoring_active else "off", None if lead.monitoring_active else DIM),
            cell(relative(lead.last_activity_at, self._clock(), self._zone), DIM),
        ]
        return line(LEAD_COLUMNS, cells, width)


class LeadListScreen(CockpitScreen):
    """The home screen; everything comes from the cache, nothing waits on the network."""

    # Its own rules, not cockpit.tcss's: parsed only once the lead list is used. DEFAULT_CSS,
    # not CSS_PATH, which Textual does not read for the start screen (`[ui] start_screen`).
    DEFAULT_CSS = """
    LeadListScreen #lead-tabs { height: 1; padding: 0 1; }
    LeadListScreen #lead-filter {
        border: none;
        height: 1;
        margin: 0;
        padding: 0 1;
        background: $panel;
    }
    LeadListScreen #lead-filter:focus { border: none; background: $primary 25%; }
    """

    SCREEN_TITLE = "Leads"
    AUTO_FOCUS = "#lead-list"  # focused before the first paint, so it is painted once

    BINDINGS = [
        Binding("1", "tab('cold')", "Cold", id="leads.cold"),
        Binding("2", "tab('warm')", "Warm", id="leads.warm"),
        Binding("3", "tab('all')", "All", id="leads.all"),
        Binding("s", "cycle_sort", "Sort", id="leads.sort"),
        Binding("slash", "filter", "Filter", id="leads.filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="leads.clear_filter"),
        Binding("D", "remove_lead", "Remove", id="leads.remove"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._status: str | None = None
        self._sort = "gap"
        self._text = ""

    def compose_body(self) -> ComposeResult:
        yield TextLine(id="lead-tabs")
        # Built with its query so the first layout already knows the rows: one paint.
        yield VirtualList(
            LeadRowFormatter(self.cockpit.clock, self.cockpit.zone),
            self._query(),
            empty_text=self._empty_text(),
            key=lambda lead: lead.id,
            id="lead-list",
        )

    def on_mount(self) -> None:
        self._show_tabs()
        self._show_title()

    @property
    def lead_list(self) -> VirtualList[LeadRow]:
        return self.query_one("#lead-list", VirtualList)

    def _query(self) -> LeadQuery:
        cockpit = self.cockpit
        return LeadQuery(cockpit.store, self._status, self._text, self._sort, counter=cockpit.reader)

    def _empty_text(self) -> Text:
        if self._text:
            return filter_miss(self._text, contains="No lead's company name matches",
                               starts="No lead's company name starts with")
        return Text("No leads here yet. Add companies to outreach (warmline outreach add), or sync.")

    def _apply_query(self) -> None:
        self.lead_list.set_empty_text(self._empty_text())
        self.lead_list.set_source(self._query())

    def _show_title(self) -> None:
        count = self.lead_list.row_count
        title = Text(no_wrap=True)
        title.append("Leads", style="bold")
        shown = f"{count:,}" if self.lead_list.counted else f"{count:,}+ (counting)"
        title.append(f" · {shown} shown · sorted by {SORT_LABELS[self._sort]}")
        if self._text:
            title.append(" · filter: ")
            title.append_text(plain(self._text, "italic"))
        self.set_title_text(title)

    def _show_tabs(self) -> None:
        tabs = Text(no_wrap=True)
        for status, label in TABS:
            style = "reverse bold" if status == self._status else "dim"
            tabs.append(f" {label} ", style=style)
            tabs.append(" ")
        tabs.append(f"   {READY_MARK} ready for outreach", style="green")
        self.query_one("#lead-tabs", TextLine).show(tabs)

    def reload(self) -> None:
        self.lead_list.reload(keep_cursor=True)

    def export_choice(self) -> tuple[str, str]:
        return ("leads", self._status or "all")

    @on(VirtualList.Counted, "#lead-list")
    def _counted(self) -> None:
        self._show_title()

    # -- keys -----------------------------------------------------------------------------

    def action_tab(self, status: str) -> None:
        self._status = None if status == "all" else status
        self._show_tabs()
        self._apply_query()

    def show_view(self, status: str | None, sort: str) -> None:
        """Switch to a tab ("cold", "warm", or None for all) and a sort (`LEAD_SORTS`): how
        Today's "more going cold" row opens the warm leads by last activity."""
        self._status, self._sort = status, sort
        self._show_tabs()
        self._apply_query()

    def action_cycle_sort(self) -> None:
        self._sort = next_sort(self._sort)
        self._apply_query()

    async def action_filter(self) -> None:
        """Show the filter field; it is mounted on first use, not at start-up (paint first)."""
        fields = self.query("#lead-filter")
        if fields:
            field = fields.first(Input)
        else:
            field = Input(placeholder="filter by company name", id="lead-filter")
            await self.mount(field, before=self.lead_list)
        field.remove_class("-hidden")
        field.focus()

    def action_clear_filter(self) -> None:
        fields = self.query("#lead-filter")
        if not fields or (fields.first().has_class("-hidden") and not self._text):
            return
        field = fields.first(Input)
        field.value = ""
        field.add_class("-hidden")
        self.lead_list.focus()

    def action_remove_lead(self) -> None:
        lead = self.lead_list.current
        if lead is not None:
            from warmline.tui.screens.dialogs import confirm_lead_removal  # deferred: first frame

            confirm_lead_removal(self.cockpit, lead.id, safe_text(lead.company_name), self.reload)

    # The filter field's messages, by handler name: `textual.widgets.Input` is imported
    # when the field is first shown, not before the first paint.
    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "lead-filter":
            self._text = event.value.strip()
            self._apply_query()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "lead-filter":
            self.lead_list.focus()

    @on(VirtualList.Selected, "#lead-list")
    def _open_lead(self, event: VirtualList.Selected) -> None:
        self.cockpit.open_lead(event.item.id)
