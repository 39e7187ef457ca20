"""The job monitor: every long-running piece of work, queued, running or finished.

Deep searches, contact searches, research runs, signal scans and recommendation
generation all live in the store's jobs table (a start made offline is there as
"queued"); sync polls them. Enter on a finished job shows what it found.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from warmline.tui.columns import Column
from warmline.tui.feed import mark_jobs_seen
from warmline.tui.job_cells import kind_column, progress_cell, result_cell, status_cell, subject
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen
from warmline.tui.timefmt import elapsed, local_datetime, relative
from warmline.tui.widgets.tables import RowTable, has_rows
from warmline.vocabulary import kind_label, kind_short

if TYPE_CHECKING:
    from warmline.store import Job, Store

FINISHED = ("completed", "failed")
"""Jobs whose finds the rep acts on in a prospecting screen rather than only reads."""
class JobsScreen(CockpitScreen):
    """All jobs, newest first; refreshed as sync polls them."""

    CSS_PATH = STYLES / "jobs.tcss"  # loaded when the screen is first shown, not at start-up

    SCREEN_TITLE = "Jobs"

    BINDINGS = [
        # A priority key, so the key bar shows it (the table's own enter is hidden there).
        Binding("enter", "open_job", "Results", priority=True, id="jobs.open"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter leaves the key bar while there is no row to open."""
        return has_rows(self) if action == "open_job" else True

    def compose_body(self) -> ComposeResult:
        yield RowTable((kind_column(), Column("About"), "Status", "Elapsed", "Progress", Column("Result")), id="jobs-table")
        yield Static(id="jobs-empty", classes="empty-state")

    def on_mount(self) -> None:
        table = self.query_one("#jobs-table", RowTable)
        self.reload()
        table.focus()
        mark_jobs_seen(self.cockpit.store, self.cockpit.clock)
        self.cockpit.poll_status()

    def on_data_table_row_selected(self) -> None:
        self.action_open_job()

    def reload(self) -> None:
        if self.is_current and self.cockpit.sync_status.finished_jobs:  # finished while watched
            mark_jobs_seen(self.cockpit.store, self.cockpit.clock)
            self.cockpit.poll_status()
        jobs = list(self.cockpit.store.jobs())
        table = self.query_one("#jobs-table", RowTable)
        now = self.cockpit.clock()
        table.fill([
            (
                str(job.key),
                [
                    Text(kind_short(job.kind)),
                    subject(job, self.cockpit.store),
                    status_cell(job),
                    Text(elapsed(job.created_at, job.completed_at, now)),
                    progress_cell(job),
                    result_cell(job),
                ],
            )
            for job in jobs
        ])
        running = sum(1 for job in jobs if job.status not in FINISHED)
        self.set_title_text(Text(f"Jobs · {len(jobs)} · {running} not finished", style="bold"))
        table.display = bool(jobs)
        empty = self.query_one("#jobs-empty", Static)
        empty.display = not jobs
        empty.update(Text(
            "No jobs yet. Deep searches, contact searches, research runs, signal scans (S on a lead) "
            "and recommendation generation (R on a lead) show up here with their progress."
        ))

    def action_open_job(self) -> None:
        key = self.query_one("#jobs-table", RowTable).current_key
        if key is None:
            return
        job = self.cockpit.store.get_job(int(key))
        if job is None:
            return
        if job.status not in FINISHED:
            self.cockpit.notify_plain(f"{kind_label(job.kind)} is {safe_text(job.status)}; results come when it completes.")
            return
        self.app.push_screen(results_screen(job))


def results_screen(job: Job) -> CockpitScreen:
    """Where a job's results are shown, from the job monitor and the prospecting hub alike:
    a completed search or research run opens the prospecting screen the rep can act on
    (mark, add to outreach), a company's deep research the company's page (which shows
    it); anything else, and a failed search (whose error is what there is to read), the
    generic results view."""
    # Today, the first screen, names jobs with this module's words; so these screens,
    # deferred: first frame (they load the actions, and with them the HTTP stack)
    from warmline.tui.screens.prospecting.company import CompanyScreen
    from warmline.tui.screens.prospecting.people import FoundContactsScreen
    from warmline.tui.screens.prospecting.research import RunResultsScreen
    from warmline.tui.screens.prospecting.searches import FoundCompaniesScreen

    if job.kind == "company_research" and job.company_id is not None:
        return CompanyScreen(job.company_id)
    screens: dict[str, Callable[[int], CockpitScreen]] = {
        "deep_search": FoundCompaniesScreen, "contact_search": FoundContactsScreen, "research_run": RunResultsScreen,
    }
    if job.status == "completed" and job.kind in screens:
        return screens[job.kind](job.key)
    return JobResultScreen(job)


class JobResultScreen(CockpitScreen):
    """What a finished job found, from the server's final answer kept with the job."""

    SCREEN_TITLE = "Job results"

    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="job-result"):
            yield Static(id="job-result-body")

    def on_mount(self) -> None:
        job = self.job
        self.set_title_text(Text(f"{kind_label(job.kind)} · {safe_text(job.status)}", style="bold"))
        cockpit = self.cockpit
        self.query_one("#job-result-body", Static).update(job_result_text(job, cockpit.store, cockpit.clock(), cockpit.zone))
        self.query_one("#job-result").focus()


def job_result_text(job: Job, store: Store, now: datetime, zone: tzinfo) -> Text:
    """A readable account of a finished job: summary, error, then what it found."""
    text = Text()
    text.append("About: ", style="bold")
    text.append_text(subject(job, store))
    text.append(f"\nStarted {local_datetime(job.created_at, zone)} · finished {relative(job.completed_at, now, zone)}")
    if job.result_summary:
        text.append("\n\n")
        text.append_text(plain(job.result_summary, multiline=True))
    if job.error:
        text.append("\n\nError: ", style="bold red")
        text.append_text(plain(job.error, multiline=True))
    raw = job.raw or {}
    for heading, items, describe in (
        ("Companies found", raw.get("companies"), _company_line),
        ("People found", raw.get("contacts"), _contact_line),
        ("Research results", raw.get("results") if isinstance(raw.get("results"), list) else None, _research_line),
    ):
        if items:
            text.append(f"\n\n{heading} ({len(items)})\n", style="bold")
            for item in items:
                text.append("  ")
                text.append_text(describe(item))
                text.append("\n")
    results = raw.get("results")
    if isinstance(results, dict):
        if results.get("summary"):
            text.append("\n\nSummary\n", style="bold")
            text.append_text(plain(results["summary"], multiline=True))
        for fact in results.get("key_facts") or []:
            text.append("\n  • ")
            text.append_text(plain(fact))
    if raw.get("pages_found") is not None:
        text.append(f"\n\nMonitoring sources found: {safe_text(raw['pages_found'])}")
    return text


def _company_line(company: dict[str, Any]) -> Text:
    line = Text().append_text(plain(company.get("name") or "?", "bold"))
    for key in ("domain", "industry", "country", "ai_tag"):
        if company.get(key):
            line.append(" · ")
            line.append_text(plain(company[key]))
    return line


def _contact_line(contact: dict[str, Any]) -> Text:
    name = " ".join(str(contact.get(k) or "") for k in ("first_name", "last_name")).strip()
    line = Text().append_text(plain(name or "?", "bold"))
    for key in ("title", "role", "email"):
        if contact.get(key):
            line.append(" · ")
            line.append_text(plain(contact[key]))
    return line


def _research_line(result: dict[str, Any]) -> Text:
    line = Text().append(f"company {safe_text(result.get('company_id'))}: ", style="bold")
    fields = result.get("fields") or {}
    line.append_text(plain(", ".join(f"{k}={v}" for k, v in fields.items())))
    return line
