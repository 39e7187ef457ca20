"""Research templates with their fields, a run of one over companies (its cost said
first: one company enrichment per company), and what a finished run extracted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from warmline import actions
from warmline.named_tuple import NamedTuple
from warmline.prospecting import RESEARCH_RUN, NoSuchCompany, cost_notice, resolve_companies
from warmline.store.custom_fields import FieldSchema, FieldValue, labelled_fields
from warmline.store.outreach import outreach_status
from warmline.store.research_results import CompanyResult, run_results
from warmline.store.values import JsonValue
from warmline.tui.columns import Column
from warmline.tui.hanging import hanging_lines
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.dialogs import LineDialog, bound_key
from warmline.tui.screens.prospecting.common import (
    LEAD_COLUMN,
    Selection,
    add_to_outreach,
    confirm,
    lead_cell,
    mark,
    names_text,
    start_job,
)
from warmline.tui.screens.prospecting.company import CompanyScreen, fields_text, shown_value
from warmline.tui.screens.prospecting.directory import CompaniesScreen
from warmline.tui.widgets.tables import RowTable, has_rows

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

    BINDINGS = [
        # A priority key, so the key bar shows it (the table's own enter is hidden there).
        Binding("enter", "run", "Run over companies", priority=True, id="research.run"),
    ]

    def __init__(self, company_ids: list[int] | None = None, labels: list[str] | None = None) -> None:
        super().__init__()
        self.company_ids = list(company_ids or [])
        self.labels = list(labels or [])
        self.templates: list[ResearchTemplate] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter leaves the key bar while there is no row to open."""
        return has_rows(self) if action == "run" else True

    def compose_body(self) -> ComposeResult:
        yield RowTable((Column("Template"), "Fields", Column("Description")), id="templates-table")
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
        key = bound_key(self.app, "app.sync_now")
        empty.update(Text(
            "No research templates in the cache. They come with the next sync"
            f"{f' ({key} syncs now)' if key else ''}; templates are made in the service's web app."
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
                chosen[:] = resolve_companies(self.cockpit.store, refs)
            except NoSuchCompany as exc:
                return f"{exc}; the company list ({self.cockpit.key_of('app.companies')}) shows yours"
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


RUN_ORDER = "run"
NAME_ORDER = "name"
FIELD_ORDER = "field"
VALUE_WIDTH = 24
"""A value cell's widest (the whole value is in the pane below the table)."""


class ResultOrder(NamedTuple):
    """One way to sort a run's results: by one of its fields (numbers highest first, other
    values A-Z; companies without the value last), by company name, or as the run gave them."""

    kind: str  # field | name | run
    label: str
    field: str = ""
    numeric: bool = False

    def describe(self) -> str:
        """The order in words, for the title line."""
        if self.kind == RUN_ORDER:
            return "in run order"
        if self.kind == NAME_ORDER:
            return "by name"
        return f"by {self.label} " + ("(high first)" if self.numeric else "(A-Z)")


def is_number(value: object) -> bool:
    """A value that sorts as a score (JSON booleans are not numbers here)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def result_fields(results: Sequence[CompanyResult], schema: Sequence[FieldSchema]) -> list[FieldValue]:
    """The fields a run filled, in the read model's order (values are the first found)."""
    values: dict[str, JsonValue] = {}
    for result in results:
        for key, value in result.values.items():
            if values.get(key) is None:
                values[key] = value
    return list(labelled_fields(values, schema))


def result_orders(results: Sequence[CompanyResult], schema: Sequence[FieldSchema]) -> list[ResultOrder]:
    """The orders `s` cycles through, the first the default: the run's number fields (its
    scores, highest first), then the run's own order, company name and its other fields."""
    numbers: list[ResultOrder] = []
    others: list[ResultOrder] = []
    for field in result_fields(results, schema):
        found = [r.values.get(field.key) for r in results if r.values.get(field.key) is not None]
        numeric = bool(found) and all(is_number(value) for value in found)
        (numbers if numeric else others).append(ResultOrder(FIELD_ORDER, field.label, field.key, numeric))
    return [*numbers, ResultOrder(RUN_ORDER, "run order"), ResultOrder(NAME_ORDER, "company"), *others]


def company_label(result: CompanyResult) -> str:
    """The company's name, or what the run said of it when it is not cached."""
    if result.company_name is not None:
        return result.company_name
    return f"company {result.company_id}" if result.company_id is not None else "unknown company"


def sort_results(results: Sequence[CompanyResult], order: ResultOrder) -> list[CompanyResult]:
    """`results` in `order` (a stable sort: ties keep the run's order)."""
    if order.kind == RUN_ORDER:
        return list(results)
    if order.kind == NAME_ORDER:
        return sorted(results, key=lambda r: (r.company_name is None, company_label(r).casefold()))
    present = [r for r in results if r.values.get(order.field) is not None]
    missing = [r for r in results if r.values.get(order.field) is None]
    if order.numeric:
        # A numeric order is offered only when every present value is a number (`is_number`).
        present.sort(key=lambda r: -float(r.values[order.field]))  # type: ignore[arg-type]
    else:
        present.sort(key=lambda r: shown_value(r.values[order.field]).casefold())
    return present + missing


def clipped(text: Text, width: int) -> Text:
    """A cell cut with an ellipsis, so one long value does not push the columns off screen."""
    text.truncate(width, overflow="ellipsis")
    return text


class RunResultsScreen(CockpitScreen):
    """What a finished research run extracted, per company, as the cache now holds it: a
    table to sort (s), mark (space) and add to outreach (c / w), the highlighted company's
    values in full below it."""

    DEFAULT_CSS = """
    RunResultsScreen #run-results-table { height: auto; max-height: 60%; }
    RunResultsScreen #run-results { height: 1fr; padding: 0 1; border-top: solid $primary; }
    """

    SCREEN_TITLE = "Research results"

    BINDINGS = [
        Binding("s", "sort", "Sort", id="results.sort"),
        Binding("space", "toggle_mark", "Mark", id="results.mark"),
        Binding("c", "add('cold')", "Add as cold", id="results.cold"),
        Binding("w", "add('warm')", "Add as warm", id="results.warm"),
        # A priority key, so the key bar shows it (the table's own enter is hidden there).
        Binding("enter", "open_company", "Open", priority=True, id="results.open"),
    ]

    def __init__(self, job_key: int) -> None:
        super().__init__()
        self.job_key = job_key
        self.selection = Selection()
        self.results: dict[str, CompanyResult] = {}
        self.fields: list[FieldValue] = []
        self.orders: list[ResultOrder] = []
        self.order: ResultOrder | None = None
        self.schema: tuple[FieldSchema, ...] = ()
        self._error: str | None = None
        self._leads: dict[int, str] = {}
        """The lead status of each result's company already in outreach (the Lead column)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter leaves the key bar while there is no row to open."""
        return has_rows(self) if action == "open_company" else True

    def compose_body(self) -> ComposeResult:
        run = run_results(self.cockpit.store, self.job_key)
        self.fields = result_fields(run.companies, run.schema)
        # A column title is read as markup: the service's field names are escaped. Every
        # column shares the width (a short one keeps its own), so long texts do not push
        # the company's name down to a few letters and the rest off the screen.
        titles = (Column(escape(safe_text(f.label))) for f in self.fields)
        yield RowTable(("", LEAD_COLUMN, Column("Company", min_width=16), *titles), id="run-results-table")
        with VerticalScroll(id="run-results"):
            yield Static(id="run-results-body")

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#run-results-table", RowTable).focus()

    def reload(self) -> None:
        run = run_results(self.cockpit.store, self.job_key)
        self.schema = run.schema
        self.orders = result_orders(run.companies, run.schema)
        if self.order not in self.orders:
            self.order = self.orders[0]
        ordered = sort_results(run.companies, self.order)
        self.results = {self._key(index, r): r for index, r in enumerate(ordered)}
        title = Text(no_wrap=True).append("Research results", style="bold")
        if run.template_name is not None:
            title.append(" · ")
            title.append_text(plain(run.template_name))
        count = len(self.results)
        title.append(f" · {count} compan{'y' if count == 1 else 'ies'} · {len(self.selection)} marked")
        title.append(f" · {self.order.describe()}", style="dim")
        self.set_title_text(title)
        table = self.query_one("#run-results-table", RowTable)
        self._leads = outreach_status(
            self.cockpit.store, (r.company_id for r in self.results.values() if r.company_id is not None)
        )
        table.fill([(key, self._cells(key, result)) for key, result in self.results.items()])
        table.display = bool(self.results)
        self._error = run.job.error if run.job is not None else None
        self._show_current()

    @staticmethod
    def _key(index: int, result: CompanyResult) -> str:
        # a result the service gave without a company id still gets a row, under its place
        return str(result.company_id) if result.company_id is not None else f"row-{index}"

    def _cells(self, key: str, result: CompanyResult) -> list[Text]:
        lead = self._leads.get(result.company_id) if result.company_id is not None else None
        cells = [mark(key in self.selection), lead_cell(lead), plain(company_label(result), "bold")]
        for field in self.fields:
            value = result.values.get(field.key)
            cell = plain(shown_value(value) if value is not None else "")
            cell.justify = "right" if is_number(value) else "left"
            cells.append(clipped(cell, VALUE_WIDTH))
        return cells

    def _current(self) -> tuple[str, CompanyResult] | None:
        key = self.query_one("#run-results-table", RowTable).current_key
        return (key, self.results[key]) if key in self.results else None

    def on_data_table_row_highlighted(self) -> None:
        self._show_current()

    def on_data_table_row_selected(self) -> None:
        self.action_open_company()

    def _show_current(self) -> None:
        text = Text()
        if self._error:
            text.append("Error: ", style="bold red").append_text(plain(self._error, multiline=True))
            text.append("\n")
        current = self._current()
        if current is not None:
            text.append_text(plain(company_label(current[1]), "bold"))
            text.append_text(fields_text(labelled_fields(current[1].values, self.schema)))
        elif not self.results:
            text.append("This run has no results (yet).", style="dim")
        self.query_one("#run-results-body", Static).update(hanging_lines(text))

    def action_sort(self) -> None:
        if not self.orders or self.order is None:
            return
        self.order = self.orders[(self.orders.index(self.order) + 1) % len(self.orders)]
        self.reload()
        self.query_one("#run-results-table", RowTable).move_cursor(row=0, animate=False)
        self._show_current()

    def action_toggle_mark(self) -> None:
        current = self._current()
        if current is None:
            return
        key, result = current
        if result.company_id is None:
            self.cockpit.notify_plain("The run did not say which company this is; it cannot be added.", severity="warning")
            return
        self.selection.toggle(key, company_label(result))
        self.reload()
        self.query_one("#run-results-table", RowTable).action_cursor_down()

    def action_add(self, status: str) -> None:
        if len(self.selection):
            ids, labels = [int(k) for k in self.selection.keys], self.selection.labels
        else:
            current = self._current()
            known = current is not None and current[1].company_id is not None
            ids, labels = ([int(current[0])], [company_label(current[1])]) if current and known else ([], [])
        add_to_outreach(self.cockpit, ids, labels, status)

    def action_open_company(self) -> None:
        current = self._current()
        if current is not None and current[1].company_id is not None:
            self.app.push_screen(CompanyScreen(current[1].company_id))
