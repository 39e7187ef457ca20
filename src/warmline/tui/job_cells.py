"""What a job's row says: its kind, subject, progress, status and result, as cells.

Today names the jobs that finished since the rep last looked with these words, and Today
is the first screen; so they live apart from the job monitor's screen and its table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from warmline.tui.columns import Column
from warmline.tui.safe import plain
from warmline.vocabulary import KIND_WIDTH, plural

if TYPE_CHECKING:
    from warmline.store import Job, Store

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
    if isinstance(companies, list) and companies:
        return Text(plural(len(companies), "company", "companies"))
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
