"""Research templates with their fields, a run of one over companies (its cost said
first: one company enrichment per company), and what a finished run extracted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from warmline import actions
from warmline.prospecting import RESEARCH_RUN, cost_notice, resolve_company
from warmline.store.custom_fields import labelled_fields
from warmline.store.research_results import run_results
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.dialogs import LineDialog
from warmline.tui.screens.prospecting.common import confirm, names_text, start_job
from warmline.tui.screens.prospecting.company import fields_text
from warmline.tui.screens.prospecting.directory import CompaniesScreen
from warmline.tui.widgets.tables import RowTable

if TYPE_CHECKING:
    from textual.screen import Screen

    from warmline.prospecting import CompanyRef
    from warmline.store.rows import ResearchTemplate


def template_fields_text(template: ResearchTemplate) -> Text:
    """A template's data points: name, key and type, one a line."""
    text = Text().append_text(plain(template.name, "bold"))
    if template.description:
        text.append("\n")
        text.append_text(plain(template.description, "dim", multiline=True))
    text.append(f"\n\nFields ({len(template.fields)})", style="bold")
    for field in template.fields:
        text.append("\n  ")
        text.append_text(plain(field.get("name") or field.get("key") or "?"))
        text.append(" · ")
        text.append_text(plain(field.get("key") or "", "dim"))
        text.append(" · ")
        text.append_text(plain(field.get("type") or "?", "italic"))
    return text


def marked_companies(screen_stack: Sequence[Screen[object]]) -> tuple[list[int], list[str]]:
    """The companies marked in an open company list, if the rep came from one."""
    for screen in reversed(screen_stack):
        if isinstance(screen, CompaniesScreen) and len(screen.selection):
            return [int(k) for k in screen.selection.keys], screen.selection.labels
    return [], []


class TemplatesScreen(CockpitScreen):
    """The organization's research templates; enter runs the highlighted one."""

    DEFAULT_CSS = """
    TemplatesScreen #templates-table { height: auto; max-height: 50%; }
    TemplatesScreen #template-detail { height: 1fr; padding: 0 1; border-top: solid $primary; }
    """

    SCREEN_TITLE = "Research templates"

    BINDINGS = [Binding("enter", "run", "Run over companies", id="research.run")]

    def __init__(self, company_ids: list[int] | None = None, labels: list[str] | None = None) -> None:
        super().__init__()
        self.company_ids = list(company_ids or [])
        self.labels = list(labels or [])
        self.templates: list[ResearchTemplate] = []

    def compose_body(self) -> ComposeResult:
        yield RowTable(("Template", "Fields", "Description"), id="templates-table")
        with VerticalScroll(id="template-detail"):
            yield Static(id="template-fields")
        yield Static(id="templates-empty", classes="empty-state")

    def on_mount(self) -> None:
        if not self.company_ids:
            self.company_ids, self.labels = marked_companies(self.app.screen_stack)
        self.reload()
        self.query_one("#templates-table", RowTable).focus()

    def reload(self) -> None:
        self.templates = self.cockpit.store.templates()
        table = self.query_one("#templates-table", RowTable)
        table.fill([
            (t.id, [plain(t.name, "bold"), Text(str(len(t.fields))), plain(t.description or "", "dim")])
            for t in self.templates
        ])
        title = Text(no_wrap=True).append(f"Research templates · {len(self.templates)}", style="bold")
        if self.company_ids:
            title.append(f" · to run over {len(self.company_ids)}: ")
            title.append_text(names_text(self.labels, 3))
        self.set_title_text(title)
        table.display = bool(self.templates)
        self.query_one("#template-detail").display = bool(self.templates)
        empty = self.query_one("#templates-empty", Static)
        empty.display = not self.templates
        empty.update(Text(
            "No research templates in the cache. They come with the next sync of the directory "
            "(or `warmline research templates --refresh`); templates are made in the service's web app."
        ))
        self._show_fields()

    def on_data_table_row_highlighted(self) -> None:
        self._show_fields()

    def on_data_table_row_selected(self) -> None:
        self.action_run()

    @property
    def current(self) -> ResearchTemplate | None:
        key = self.query_one("#templates-table", RowTable).current_key
        return next((t for t in self.templates if t.id == key), None)

    def _show_fields(self) -> None:
        template = self.current
        self.query_one("#template-fields", Static).update(template_fields_text(template) if template else Text(""))

    def action_run(self) -> None:
        template = self.current
        if template is None:
            return
        if self.company_ids:
            self._confirm_run(template, self.company_ids, self.labels)
            return

        chosen: list[CompanyRef] = []

        def submit(values: dict[str, str]) -> str | None:
            refs = [ref for ref in values["companies"].split(",") if ref.strip()]
            if not refs:
                return "name at least one company (its id or the start of its name)"
            try:
                chosen[:] = [resolve_company(self.cockpit.store, ref) for ref in refs]
            except (LookupError, ValueError) as exc:
                return str(exc)
            return None

        def named(sent: bool | None) -> None:
            if sent and chosen:
                self._confirm_run(template, [c.id for c in chosen], [c.name or c.label for c in chosen])

        self.app.push_screen(
            LineDialog(
                Text("Run ").append_text(plain(template.name, "bold")).append(" over which companies?"),
                submit,
                [("companies", "Company ids or names, comma-separated (1-100; or mark them in the company list, C)", "")],
            ),
            named,
        )

    def _confirm_run(self, template: ResearchTemplate, company_ids: list[int], labels: list[str]) -> None:
        question = Text("Run ").append_text(plain(template.name, "bold"))
        question.append(f" over {len(company_ids)} compan{'y' if len(company_ids) == 1 else 'ies'}?\n")
        question.append_text(names_text(labels))
        question.append(f"\n{cost_notice(RESEARCH_RUN, len(company_ids))}")

        def run() -> None:
            error = start_job(self.cockpit, "research run", actions.start_research_run, company_ids, template_id=template.id)
            if error:
                self.cockpit.notify_plain(error, severity="warning")

        confirm(self.cockpit, question, run)


class RunResultsScreen(CockpitScreen):
    """What a finished research run extracted, per company, as the cache now holds it."""

    DEFAULT_CSS = """
    RunResultsScreen #run-results { padding: 0 1; }
    """

    SCREEN_TITLE = "Research results"

    def __init__(self, job_key: int) -> None:
        super().__init__()
        self.job_key = job_key

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="run-results"):
            yield Static(id="run-results-body")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#run-results").focus()

    def reload(self) -> None:
        run = run_results(self.cockpit.store, self.job_key)
        results = run.companies
        title = Text(no_wrap=True).append("Research results", style="bold")
        if run.template_name is not None:
            title.append(" · ")
            title.append_text(plain(run.template_name))
        title.append(f" · {len(results)} compan{'y' if len(results) == 1 else 'ies'}")
        self.set_title_text(title)
        text = Text()
        if run.job is not None and run.job.error:
            text.append("Error: ", style="bold red").append_text(plain(run.job.error, multiline=True))
        for result in results:
            text.append("\n" if text.plain else "")
            name = result.company_name if result.company_name is not None else f"company {safe_text(result.company_id)}"
            text.append_text(plain(name, "bold"))
            text.append_text(fields_text(labelled_fields(result.values, run.schema)))
            text.append("\n")
        if not results and not text.plain:
            text.append("This run has no results (yet).", style="dim")
        self.query_one("#run-results-body", Static).update(text)
