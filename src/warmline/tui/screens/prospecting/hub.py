"""Prospecting (P): the searches and research started so far, and the keys to start more.

Enter on a finished one opens what it found: the companies of a deep search (to add to
outreach), the people of a contact search (to add to contacts), a company's research, or
the values a research run extracted.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from warmline.tui.columns import Column
from warmline.tui.job_cells import (
    kind_column,
    progress_cell,
    result_cell,
    status_cell,
    subject,
)
from warmline.tui.safe import safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.jobs import results_screen
from warmline.tui.timefmt import relative
from warmline.tui.widgets.tables import RowTable, has_rows
from warmline.vocabulary import kind_label, kind_short

PROSPECTING_KINDS = ("deep_search", "contact_search", "company_research", "research_run")


class ProspectingScreen(CockpitScreen):
    """Searches and research runs, newest first, with the keys that start them."""

    DEFAULT_CSS = """
    ProspectingScreen #prospecting-table { height: 1fr; }
    """

    SCREEN_TITLE = "Prospecting"

    BINDINGS = [
        Binding("i", "app.open('lookup')", "Lookup", id="prospecting.lookup"),
        Binding("f", "app.open('deep_search')", "Deep search", id="prospecting.deep_search"),
        Binding("t", "app.open('research')", "Templates", id="prospecting.research"),
        Binding("x", "app.open('export')", "Export", id="prospecting.export"),
        # A priority key, so the key bar shows it (the table's own enter is hidden there).
        Binding("enter", "open_results", "Results", priority=True, id="prospecting.open"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter leaves the key bar while there is no row to open."""
        return has_rows(self) if action == "open_results" else True

    def compose_body(self) -> ComposeResult:
        yield RowTable((kind_column(), Column("About"), "Status", "Started", "Progress", Column("Result")), id="prospecting-table")
        yield Static(id="prospecting-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#prospecting-table", RowTable).focus()

    def on_data_table_row_selected(self) -> None:
        self.action_open_results()

    def reload(self) -> None:
        store = self.cockpit.store
        jobs = [job for job in store.jobs() if job.kind in PROSPECTING_KINDS]
        now, zone = self.cockpit.clock(), self.cockpit.zone
        table = self.query_one("#prospecting-table", RowTable)
        table.fill([
            (str(job.key), [
                Text(kind_short(job.kind)),
                subject(job, store),
                status_cell(job),
                Text(relative(job.created_at, now, zone)),
                progress_cell(job),
                result_cell(job),
            ])
            for job in jobs
        ])
        running = sum(1 for job in jobs if job.active)
        started = "1 search or run" if len(jobs) == 1 else f"{len(jobs)} searches and runs"
        self.set_title_text(Text(f"Prospecting · {started} · {running} not finished", style="bold"))
        table.display = bool(jobs)
        empty = self.query_one("#prospecting-empty", Static)
        empty.display = not jobs
        key = self.key
        empty.update(Text(
            f"Nothing started yet. {key('prospecting.lookup')} looks companies up at once (1 instant lookup); "
            f"{key('prospecting.deep_search')} starts a deep search; {key('app.companies')} lists saved companies "
            "(enter opens one, to find its people, research it or run a template); "
            f"{key('prospecting.research')} lists research templates; "
            f"{key('prospecting.export')} exports leads, companies or contacts."
        ))

    def action_open_results(self) -> None:
        key = self.query_one("#prospecting-table", RowTable).current_key
        job = self.cockpit.store.get_job(int(key)) if key is not None else None
        if job is None:
            return
        if job.status != "completed" and job.kind != "company_research":  # its company page shows it at once
            reason = f": {safe_text(job.error)}" if job.error else "; results come when it completes"
            self.cockpit.notify_plain(f"{kind_label(job.kind)} is {safe_text(job.status)}{reason}.")
            return
        self.app.push_screen(results_screen(job))
