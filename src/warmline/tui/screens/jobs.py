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
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen
from warmline.tui.timefmt import elapsed, local_datetime, relative
from warmline.tui.widgets.tables import RowTable
from warmline.vocabulary import KIND_WIDTH, kind_label, kind_short

if TYPE_CHECKING:
    from warmline.store import Job, Store

FINISHED = ("completed", "failed")
SEARCH_KINDS = ("deep_search", "contact_search")
"""Jobs whose finds the rep acts on in a prospecting screen rather than only reads."""
STATUS_STYLES = {"completed": "green", "failed": "bold red", "queued": "yellow", "pending": "yellow", "running": "cyan"}


def kind_column() -> Column:
    """The Kind column of a jobs table: flexible, never narrower than the longest known kind."""
    return Column("Kind", min_width=KIND_WIDTH)


def subject(job: Job, store: Store) -> Text:
    """What the job is about: the query, the lead's or company's name, or the companies."""
    params = job.params or {}
    if job.kind == "research_run":
        return _research_subject(job, store)
    for key in ("query", "template_name", "focus"):
        if params.get(key):
            return plain(params[key])
    if job.lead_id is not None:
        lead = store.get_lead(job.lead_id)
        return plain(lead.company_name if lead is not None else f"lead {job.lead_id}")
    if job.company_id is not None:
        company = store.get_company(job.company_id)
        return plain(company.name if company is not None else f"company {job.company_id}")
    companies = params.get("company_ids")
    if companies:
        return Text(f"{len(companies)} companies")
    return Text("")


def _research_subject(job: Job, store: Store) -> Text:
    """A research run is about its template (by name, as the rep picked it) and its companies."""
    params = job.params or {}
    name = params.get("template_name")
    template_id = params.get("template_id") or (job.raw or {}).get("template_id")
    if not name and template_id:
        template = store.find_template(str(template_id))
        name = template.name if template is not None else f"template {template_id}"
    text = plain(name or "unknown template")
    companies = params.get("company_ids")
    if companies:
        text.append(f" · {len(companies)} compan{'y' if len(companies) == 1 else 'ies'}")
    return text


def progress_cell(job: Job, width: int = 8) -> Text:
    if job.status == "completed":
        return Text("done", style="green")
    if job.progress is None:
        return Text("-", style="dim")
    value = max(0, min(100, int(job.progress)))
    filled = round(value * width / 100)
    return Text("█" * filled + "░" * (width - filled) + f" {value:>3}%")


def result_cell(job: Job) -> Text:
    """The summary or the error (the table cuts it to its column; enter shows it whole)."""
    if not job.error and not job.result_summary:
        return outcome_words(job)
    return plain(job.error or job.result_summary or "", "red" if job.error else "")


def outcome_words(job: Job) -> Text:
    """What a job without a summary produced: its count when the answer kept one (a
    recommendations job's list), else where it stands, so Result is never blank."""
    raw = job.raw or {}
    if job.kind in ("recommendations", "generate_recommendations") and isinstance(raw.get("recommendations"), list):
        count = len(raw["recommendations"])
        return Text(f"{count} recommendation{'' if count == 1 else 's'}")
    if job.status == "completed":
        return Text("finished", style="dim")
    if job.status == "failed":
        return Text("failed; the service gave no reason", style="red")
    if job.remote_id is None:
        return Text("queued; starts when online" if job.queued_offline else "queued; not sent yet", style="dim")
    return Text("in progress", style="dim")


def status_cell(job: Job) -> Text:
    status = job.status or "unknown"
    text = Text().append_text(plain(status, STATUS_STYLES.get(status, "")))
    if job.queued_offline and status == "queued":
        text.append(" (offline)", style="dim")
    return text


class JobsScreen(CockpitScreen):
    """All jobs, newest first; refreshed as sync polls them."""

    CSS_PATH = STYLES / "jobs.tcss"  # loaded when the screen is first shown, not at start-up

    SCREEN_TITLE = "Jobs"

    BINDINGS = [Binding("enter", "open_job", "Results", id="jobs.open")]

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
    """Where a finished job's results are shown: a completed search opens the prospecting
    screen the rep can act on (mark, add to outreach); anything else, and a failed search
    (whose error is what there is to read), the generic results view."""
    if job.status == "completed" and job.kind in SEARCH_KINDS:
        # Today, the first screen, names jobs with this module's words; so these screens,
        # deferred: first frame (they load the actions, and with them the HTTP stack)
        from warmline.tui.screens.prospecting.people import FoundContactsScreen
        from warmline.tui.screens.prospecting.searches import FoundCompaniesScreen

        screens: dict[str, Callable[[int], CockpitScreen]] = {
            "deep_search": FoundCompaniesScreen, "contact_search": FoundContactsScreen
        }
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
