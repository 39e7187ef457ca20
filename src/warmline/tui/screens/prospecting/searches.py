"""Company deep search: the start form (with its cost, queued when offline) and, once the
job has completed, the companies it found (with their AI tag) to add to outreach."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Label, Static

from warmline import actions
from warmline.numbers import whole_number
from warmline.prospecting import DEEP_SEARCH, cost_notice
from warmline.store.outreach import outreach_status
from warmline.tui.columns import Column
from warmline.tui.safe import plain
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.dialogs import FormDialog, send_binding
from warmline.tui.screens.prospecting.common import (
    LEAD_COLUMN,
    Selection,
    add_to_outreach,
    lead_cell,
    mark,
    reachable,
    start_job,
)
from warmline.tui.screens.prospecting.company import CompanyScreen
from warmline.tui.widgets.tables import RowTable, has_rows

QUERY_MAX = 1000
DEFAULT_TARGET = "20"


class DeepSearchDialog(FormDialog):
    """What to search for and how many companies; enter starts it (or queues it offline)."""

    BINDINGS = [send_binding("Start")]

    def __init__(self) -> None:
        super().__init__(Text("Company deep search"), self._start, hint="enter or {send} start · {cancel} cancel")

    def compose_fields(self) -> ComposeResult:
        yield Label("What companies? (3-1000 characters)")
        yield Input(placeholder="e.g. dental clinics in Bavaria", id="deep-query", max_length=QUERY_MAX)
        yield Static(Text(f"0/{QUERY_MAX}", style="dim"), id="deep-count", classes="dialog-hint")
        yield Label("How many companies (1-100)")
        yield Input(DEFAULT_TARGET, id="deep-max", restrict=r"[0-9]*", max_length=3)
        yield Static(id="deep-cost", classes="dialog-hint")

    def on_mount(self) -> None:
        cost = Text(cost_notice(DEEP_SEARCH), style="bold")
        if not reachable(self.cockpit):
            cost.append(" Offline: it is queued and starts when you are back online.", style="yellow")
        self.query_one("#deep-cost", Static).update(cost)
        self.query_one("#deep-query", Input).focus()

    @on(Input.Changed, "#deep-query")
    def _count(self, event: Input.Changed) -> None:
        self.query_one("#deep-count", Static).update(Text(f"{len(event.value.strip())}/{QUERY_MAX}", style="dim"))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_send()

    def values(self) -> dict[str, str]:
        return {
            "query": self.query_one("#deep-query", Input).value.strip(),
            "max_results": self.query_one("#deep-max", Input).value.strip(),
        }

    def _start(self, values: dict[str, str]) -> str | None:
        how_many = whole_number(values["max_results"])
        if how_many is None:
            return "how many companies must be a whole number between 1 and 100"
        return start_job(self.cockpit, "deep search", actions.start_deep_search, values["query"], how_many)


class FoundCompaniesScreen(CockpitScreen):
    """The companies a deep search saved; space marks, c / w add them to outreach."""

    DEFAULT_CSS = """
    FoundCompaniesScreen #found-table { height: 1fr; }
    """

    SCREEN_TITLE = "Companies found"

    BINDINGS = [
        Binding("space", "toggle_mark", "Mark", id="found.mark"),
        Binding("c", "add('cold')", "Add as cold", id="found.cold"),
        Binding("w", "add('warm')", "Add as warm", id="found.warm"),
        # A priority key, so the key bar shows it (the table's own enter is hidden there).
        Binding("enter", "open_company", "Open", priority=True, id="found.open"),
    ]

    def __init__(self, job_key: int) -> None:
        super().__init__()
        self.job_key = job_key
        self.selection = Selection()
        self.found: dict[str, dict[str, Any]] = {}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter leaves the key bar while there is no row to open."""
        return has_rows(self) if action == "open_company" else True

    def compose_body(self) -> ComposeResult:
        yield RowTable(
            ("", LEAD_COLUMN, Column("Company"), Column("Domain"), Column("Industry"), Column("Country", min_width=7), Column("AI tag")),
            id="found-table",
        )
        yield Static(id="found-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#found-table", RowTable).focus()

    def on_data_table_row_selected(self) -> None:
        self.action_open_company()

    def reload(self) -> None:
        job = self.cockpit.store.get_job(self.job_key)
        companies = [c for c in ((job.raw or {}).get("companies") or []) if isinstance(c, dict)] if job else []
        self.found = {str(c["id"]): c for c in companies if c.get("id") is not None}
        title = Text(no_wrap=True).append("Companies found", style="bold")
        if job is not None:
            title.append(" for ")
            title.append_text(plain((job.params or {}).get("query") or (job.raw or {}).get("query") or "", "italic"))
        title.append(f" · {len(self.found)} · {len(self.selection)} marked")
        self.set_title_text(title)
        table = self.query_one("#found-table", RowTable)
        leads = outreach_status(self.cockpit.store, (int(key) for key in self.found if key.isdigit()))
        table.fill([
            (key, [
                mark(key in self.selection),
                lead_cell(leads.get(int(key)) if key.isdigit() else None),
                plain(c.get("name") or "?", "bold"),
                plain(c.get("domain") or "", "dim"),
                plain(c.get("industry") or ""),
                plain(c.get("country") or ""),
                plain(c.get("ai_tag") or "", "italic"),
            ])
            for key, c in self.found.items()
        ])
        table.display = bool(self.found)
        empty = self.query_one("#found-empty", Static)
        empty.display = not self.found
        empty.update(Text("This search has found no companies (yet)."))

    def _current(self) -> tuple[str, dict[str, Any]] | None:
        key = self.query_one("#found-table", RowTable).current_key
        return (key, self.found[key]) if key in self.found else None

    def action_toggle_mark(self) -> None:
        current = self._current()
        if current is not None:
            self.selection.toggle(current[0], str(current[1].get("name") or "?"))
            self.reload()
            self.query_one("#found-table", RowTable).action_cursor_down()

    def action_add(self, status: str) -> None:
        if len(self.selection):
            ids, labels = [int(k) for k in self.selection.keys], self.selection.labels
        else:
            current = self._current()
            ids, labels = ([int(current[0])], [str(current[1].get("name"))]) if current else ([], [])
        add_to_outreach(self.cockpit, ids, labels, status)

    def action_open_company(self) -> None:
        current = self._current()
        if current is not None:
            self.app.push_screen(CompanyScreen(int(current[0])))
