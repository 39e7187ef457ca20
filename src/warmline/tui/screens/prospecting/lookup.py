"""Instant company lookup: keyword filters and/or a semantic query, its cost said before
it is sent, the results (with the similarity score of a semantic search), and the saved
ones ready to go into outreach.

Lookup is online-only (its answer is the point). Offline, the screen says so plainly
and shows the cached answer of an earlier identical lookup, and which lookups it holds.
The service saves a whole lookup or nothing (its `save` flag): `S` re-runs the lookup with
saving on, for one more instant lookup. A selection is saved company by company instead
(`s` the rows marked with space, `N` the top N), one saved-company slot each and no
lookup; the cost is said and confirmed first.

The keyword filters complete from the names the cache has seen (the service publishes no
list), and a keyword the cache has never seen is asked about once before a lookup is
spent: a mistyped industry used to become a silent search of every industry.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, tzinfo
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Checkbox, Input, Label, Static

from warmline.api.errors import ApiError, OfflineError, PlanLimitError
from warmline.numbers import whole_number
from warmline.prospecting import (
    LOOKUP,
    SavedResults,
    cached_lookup,
    companies_word,
    complete_keyword,
    cost_notice,
    lead_statuses,
    lookup_criteria,
    run_lookup,
    save_notice,
    save_results,
    unknown_keyword,
    unsaved,
)
from warmline.store.lookup_history import EarlierLookup, earlier_lookups
from warmline.store.lookup_values import LookupValues, lookup_values
from warmline.tui.bindings import key_for
from warmline.tui.columns import Column
from warmline.tui.refusals import in_reps_words, refusals
from warmline.tui.safe import plain
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.dialog_screen import DialogScreen
from warmline.tui.screens.dialogs import LineDialog
from warmline.tui.screens.prospecting.common import (
    LEAD_COLUMN,
    Selection,
    add_to_outreach,
    confirm,
    lead_cell,
    mark,
    names_text,
    reachable,
    service_client,
)
from warmline.tui.timefmt import relative
from warmline.tui.widgets.key_bar import KeyBar
from warmline.tui.widgets.tables import RowTable
from warmline.tui.widgets.toggles import ClearCheckbox

EARLIER_SHOWN = 5
EARLIER_LISTED = 50
FILTERS = (("industries", "Industries"), ("countries", "Countries"), ("regions", "Regions"))


def split_values(raw: str) -> list[str]:
    """`Logistics, Software` -> two keywords (each filter accepts several)."""
    return [value.strip() for value in raw.split(",") if value.strip()]


def describe_criteria(criteria: Mapping[str, Any]) -> str:
    """A lookup's criteria in one line, as the rep typed them."""
    parts = [f"“{criteria['query']}”"] if criteria.get("query") else []
    parts += [", ".join(criteria[name]) for name, _ in FILTERS if criteria.get(name)]
    if criteria.get("broaden_search"):
        parts.append("broadened")
    return " · ".join(parts)


def summary_text(answer: Mapping[str, Any], now: datetime, zone: tzinfo) -> Text:
    """total and quota_limited as the service counted them, and how many results are in
    the company list: the rows the Saved column ticks, so the two agree. (The service's
    saved_count, saved by that lookup, said "0 saved" over rows saved before or since.)"""
    companies = answer.get("companies") or []
    text = Text().append(f"{answer.get('total', 0)} results", style="bold")
    text.append(f" · {sum(1 for c in companies if c.get('saved_company_id') is not None)} saved")
    limited = answer.get("quota_limited", 0)
    if limited:
        text.append(f" · {limited} not saved: plan limit of saved companies reached", style="bold red")
    if answer.get("cached"):
        text.append(f" · cached answer from {relative(answer.get('fetched_at'), now, zone)}", style="yellow")
    return text


def _failed_heading(exc: ApiError) -> str:
    """What became of a lookup that raised: refused (a 4xx), failed (a 5xx), or unanswered (the
    connection lost: it may still have used a lookup, which the message says)."""
    if exc.status is None:
        return "The lookup got no answer: "
    return "The service refused the lookup: " if exc.status < 500 else "The lookup failed: "


class FormCheckbox(ClearCheckbox):
    """A checkbox of the lookup form: space ticks it, enter looks up as in every field of
    the form (Textual's checkbox toggles on enter too, which unticked "Save results")."""

    inherit_bindings = False
    BINDINGS = [
        Binding("space", "toggle_button", "Toggle", show=False),
        Binding("enter", "submit", "Look up", show=False),
    ]

    class Submitted(Message):
        """Enter was pressed on the checkbox."""

    def action_submit(self) -> None:
        self.post_message(self.Submitted())


class KeywordSuggester(Suggester):
    """Completes the keyword after the last comma of a filter field from the known names."""

    def __init__(self, names: tuple[str, ...]) -> None:
        # Case-sensitive here so the keywords before the last comma keep their case;
        # `complete_keyword` compares case-insensitively itself.
        super().__init__(use_cache=False, case_sensitive=True)
        self.names = names

    async def get_suggestion(self, value: str) -> str | None:
        return complete_keyword(value, self.names)


class FilterInput(Input):
    """A filter field whose grey completion tab takes, as a shell's does (the right arrow
    takes it too, as in any Textual field); with none shown, tab moves on as everywhere."""

    BINDINGS = [Binding("tab", "complete", "Take the suggestion", show=False, id="lookup.complete")]

    def action_complete(self) -> None:
        if self.cursor_at_end and len(self._suggestion) > len(self.value):
            self.value = self._suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()


class LookupScreen(CockpitScreen):
    """The lookup form above its results; enter in a field looks up."""

    DEFAULT_CSS = """
    LookupScreen .lookup-row { height: 1; padding: 0 1; }
    LookupScreen .lookup-label { width: auto; color: $text-primary; }
    LookupScreen .lookup-row Input { width: 1fr; margin-right: 1; }
    LookupScreen .lookup-row Checkbox { width: auto; margin-right: 2; }
    LookupScreen .lookup-row.-options { height: auto; }
    LookupScreen #lookup-cost { width: 1fr; }
    LookupScreen .lookup-summary { height: auto; max-height: 8; padding: 0 1; }
    LookupScreen #lookup-table { height: 1fr; }
    """

    SCREEN_TITLE = "Company lookup"

    BINDINGS = [
        Binding("ctrl+s", "look_up", "Look up", id="lookup.send"),
        Binding("space", "toggle_mark", "Mark and move down", id="lookup.mark"),
        Binding("c", "add('cold')", "Add as cold", id="lookup.cold"),
        Binding("w", "add('warm')", "Add as warm", id="lookup.warm"),
        Binding("s", "save_marked", "Save marked", id="lookup.save_marked"),
        Binding("N", "save_top", "Save top N", id="lookup.save_top"),
        Binding("S", "save_all", "Save all results", id="lookup.save_all"),
        Binding("ctrl+r", "earlier", "Earlier lookups", id="lookup.earlier"),
        Binding("slash", "edit_query", "Edit the query", id="lookup.query"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.answer: dict[str, Any] | None = None
        self.criteria: dict[str, Any] | None = None
        self.selection = Selection()
        self.values = LookupValues()
        self.answer_saving = False  # whether the answer shown came from a lookup with saving on
        self._asked: dict[str, Any] | None = None  # criteria whose unknown keyword was said

    def compose_body(self) -> ComposeResult:
        with Horizontal(classes="lookup-row"):
            yield Label("Query ", classes="lookup-label")
            yield Input(placeholder="semantic search, e.g. logistics SaaS in the Nordics (3+ characters)", id="lookup-query", compact=True)
        with Horizontal(classes="lookup-row"):
            for name, label in FILTERS:
                yield Label(f"{label} ", classes="lookup-label")
                yield FilterInput(
                    placeholder="several, comma-separated", id=f"lookup-{name}", compact=True,
                    suggester=KeywordSuggester(()),
                )
        with Horizontal(classes="lookup-row -options"):  # the cost wraps rather than lose its end
            yield FormCheckbox("Broaden search", id="lookup-broaden", compact=True)
            yield FormCheckbox("Save results", id="lookup-save", compact=True)
            yield Static(id="lookup-cost")
        yield Static(id="lookup-summary", classes="lookup-summary")
        yield RowTable(
            ("", "Score", "Saved", LEAD_COLUMN, Column("Company"), Column("Domain"), Column("Industry"), Column("Country", min_width=7)),
            id="lookup-table",
        )

    def on_mount(self) -> None:
        self._load_values()
        self._show_cost()
        self._show_answer()
        self.query_one("#lookup-query", Input).focus()

    def reload(self) -> None:
        """The cache changed (a lead made or delivered, companies saved): the Lead column
        and the known names follow."""
        self._load_values()
        if self.answer is not None:
            self._show_answer()

    def _load_values(self) -> None:
        self.values = lookup_values(self.cockpit.store)
        for name, _ in FILTERS:
            suggester = self.query_one(f"#lookup-{name}", Input).suggester
            if isinstance(suggester, KeywordSuggester):
                suggester.names = self.values.of(name)

    # -- the form -------------------------------------------------------------------------

    def _form_criteria(self) -> dict[str, Any]:
        """The criteria as the service gets them (checked: a query of 3+ or a filter)."""
        query = self.query_one("#lookup-query", Input).value.strip()
        values = {name: split_values(self.query_one(f"#lookup-{name}", Input).value) for name, _ in FILTERS}
        return lookup_criteria(
            query or None, values["industries"], values["countries"], values["regions"],
            broaden=self.query_one("#lookup-broaden", Checkbox).value,
        )

    def _fill_form(self, criteria: Mapping[str, Any]) -> None:
        self.query_one("#lookup-query", Input).value = criteria.get("query") or ""
        for name, _ in FILTERS:
            self.query_one(f"#lookup-{name}", Input).value = ", ".join(criteria.get(name) or [])
        self.query_one("#lookup-broaden", Checkbox).value = bool(criteria.get("broaden_search"))

    def action_earlier(self) -> None:
        """Pick an earlier lookup: its answer is shown from the cache, no quota spent."""
        earlier = earlier_lookups(self.cockpit.store, EARLIER_LISTED)
        if not earlier:
            self.cockpit.notify_plain("No earlier lookup is cached yet.")
            return

        def picked(criteria: dict[str, Any] | None) -> None:
            if criteria is None:
                return
            self._fill_form(criteria)
            answer = cached_lookup(self.cockpit.store, criteria)
            if answer is not None:
                self._show_result(criteria, answer, typed=None)

        self.app.push_screen(EarlierLookups(earlier, self.cockpit.clock(), self.cockpit.zone), picked)

    def _show_cost(self) -> None:
        save = self.query_one("#lookup-save", Checkbox).value
        text = Text(" " + cost_notice(LOOKUP, save=save), style="bold")
        if not reachable(self.cockpit):
            text = Text(" Offline: lookup needs the service; cached answers are shown.", style="yellow")
        self.query_one("#lookup-cost", Static).update(text)

    @on(Checkbox.Changed, "#lookup-save")
    def _save_changed(self) -> None:
        self._show_cost()
        if self.answer is not None:
            self._show_answer()

    @on(Input.Submitted)
    @on(FormCheckbox.Submitted)
    def _submitted(self) -> None:
        self.action_look_up()

    def action_look_up(self) -> None:
        try:
            criteria = self._form_criteria()
        except refusals() as exc:
            self._show_problem(Text(in_reps_words(exc), style="bold red"))
            return
        if criteria != self._asked and cached_lookup(self.cockpit.store, criteria) is None:
            line = unknown_keyword(criteria, self.values)
            if line is not None:
                self._asked = criteria  # asked once: enter again sends it as typed
                self._show_problem(plain(line, "bold yellow"))
                return
        self._look_up(criteria, self.query_one("#lookup-save", Checkbox).value)

    def action_save_all(self) -> None:
        if self.answer is None or self.criteria is None:
            self.cockpit.notify_plain("Look something up first (enter in a field).")
            return
        question = Text(f"Save all {self.answer.get('total', 0)} results of {describe_criteria(self.criteria)}?\n")
        question.append("The service saves a whole lookup, not single rows, so this runs it again with saving on.\n")
        question.append(cost_notice(LOOKUP, save=True), style="bold")
        confirm(self.cockpit, question, lambda: self._look_up(self.criteria or {}, True))

    def action_save_marked(self) -> None:
        """Save the marked results (space), saying first what it costs."""
        if self.answer is None:
            self.cockpit.notify_plain("Look something up first (enter in a field).")
            return
        if not len(self.selection):
            self.cockpit.notify_plain(f"Mark results with {self.key('lookup.mark')} first, or {self.key('lookup.save_top')}"
                                      " saves the top N.", severity="warning")
            return
        self._ask_to_save(sorted(int(key) for key in self.selection.keys), f"the {len(self.selection)} marked")

    def action_save_top(self) -> None:
        """Ask how many of the first results to save, then what it costs."""
        total = len((self.answer or {}).get("companies") or [])
        if not total:
            self.cockpit.notify_plain("Look something up first (enter in a field).")
            return
        chosen: list[int] = []

        def submit(values: dict[str, str]) -> str | None:
            count = whole_number(values["count"])
            if count is None or not 1 <= count <= total:
                return f"Give a number from 1 to {total}."
            chosen.append(count)
            return None

        def asked(done: bool | None) -> None:
            if done and chosen:
                self._ask_to_save(list(range(chosen[0])), f"the top {chosen[0]}")

        title = Text(f"Save the top N of these {total} results")
        title.append("\nEach one not saved yet uses 1 saved-company slot of your plan; no instant lookup.", style="dim")
        self.app.push_screen(LineDialog(title, submit, [("count", "How many (N)", "")]), asked)

    def _ask_to_save(self, indexes: list[int], which: str) -> None:
        answer, criteria = self.answer or {}, self.criteria or {}
        to_save = unsaved(answer, indexes)
        if not to_save:
            self.cockpit.notify_plain(f"{which.capitalize()} are already saved; {self._to_outreach()} adds them to outreach.")
            return
        companies = answer.get("companies") or []
        question = Text(f"Save {which} to your company list?\n")
        question.append_text(names_text(str(companies[i].get("name") or "?") for i in to_save))
        already = len(indexes) - len(to_save)
        if already:
            question.append(f"\n({already} of them already saved: nothing to spend there.)")
        question.append("\n" + save_notice(len(to_save), self.cockpit.store.company_count()), style="bold")
        confirm(self.cockpit, question, lambda: self._save(criteria, answer, to_save))

    @work(exclusive=True, group="lookup-save", exit_on_error=False)
    async def _save(self, criteria: dict[str, Any], answer: dict[str, Any], indexes: list[int]) -> None:
        client = service_client(self.cockpit)
        if client is None:
            self.cockpit.notify_plain("Offline: saving companies needs the service; nothing was saved.", severity="warning")
            return
        self._show_problem(Text(f"Saving {companies_word(len(indexes))}…", style="italic"))
        outcome = await save_results(self.cockpit.store, client, criteria, answer, indexes)
        if self.answer is answer:  # still the answer on screen (no new lookup meanwhile)
            self.answer = outcome.answer
        self._show_answer()
        self._say_saved(outcome, len(indexes))
        self.cockpit.poll_status()

    def _say_saved(self, outcome: SavedResults, asked: int) -> None:
        done = len(outcome.saved)
        if outcome.stopped is None:
            self.cockpit.notify_plain(
                f"Saved {companies_word(done)} to your company list; {self._to_outreach()} adds marked ones to outreach."
            )
            return
        self.cockpit.notify_plain(
            f"Saved {done} of {asked}; the rest were not saved: {outcome.stopped}", severity="warning"
        )

    # -- looking up -----------------------------------------------------------------------

    @work(exclusive=True, group="lookup", exit_on_error=False)
    async def _look_up(self, criteria: dict[str, Any], save: bool) -> None:
        store = self.cockpit.store
        client = service_client(self.cockpit)
        if client is None:
            self._offline(criteria, cached_lookup(store, criteria))
            return
        self._show_problem(Text("Looking up…", style="italic"))
        try:
            answer = await run_lookup(store, client, criteria, save)
        except OfflineError:
            self._offline(criteria, cached_lookup(store, criteria))
            return
        except PlanLimitError as exc:
            self._show_problem(Text("Plan limit: ", style="bold red").append_text(plain(str(exc))))
            return
        except ApiError as exc:
            self._show_problem(Text(_failed_heading(exc), style="bold red").append_text(plain(str(exc))))
            return
        self._show_result(criteria, answer, saving=save, typed=criteria)
        self._load_values()
        self.cockpit.poll_status()

    def _show_result(self, criteria: dict[str, Any], answer: dict[str, Any], *, saving: bool = False,
                     typed: dict[str, Any] | None) -> None:
        """Show `answer`, and give its rows the keyboard: marking and saving are letters,
        which a field takes as text. Not when the form no longer reads `typed` (the criteria
        as sent; None: nothing was typed, an earlier lookup was picked): the rep has gone on
        typing, and keys meant for a field must not save or add anything."""
        self.criteria, self.answer, self.answer_saving = criteria, answer, saving
        self.selection.clear()
        self._show_answer()
        table = self.query_one("#lookup-table", RowTable)
        if table.row_count and (typed is None or self._form_reads(typed)):
            table.focus()

    def _form_reads(self, criteria: dict[str, Any]) -> bool:
        try:
            return self._form_criteria() == criteria
        except refusals():
            return False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`/` leaves the key bar while a field has the keyboard: there it is text."""
        return not isinstance(self.focused, Input) if action == "edit_query" else True

    def action_edit_query(self) -> None:
        self.query_one("#lookup-query", Input).focus()

    def _offline(self, criteria: dict[str, Any], cached: dict[str, Any] | None) -> None:
        if cached is not None:
            self._show_result(criteria, cached, typed=criteria)
            return
        text = Text("Offline: an instant lookup needs the service. ", style="bold yellow")
        earlier = earlier_lookups(self.cockpit.store, EARLIER_SHOWN)
        if not earlier:
            text.append("No earlier lookup is cached.")
        else:
            text.append(f"No cached answer for these criteria; {self.key('lookup.earlier')} picks one the cache holds:")
            now, zone = self.cockpit.clock(), self.cockpit.zone
            for lookup in earlier:
                text.append("\n  ")
                text.append_text(plain(describe_criteria(lookup.criteria)))
                text.append(f" ({relative(lookup.fetched_at, now, zone)})", style="dim")
        self._show_problem(text)

    def _show_problem(self, text: Text) -> None:
        self.query_one("#lookup-summary", Static).update(text)

    def _to_outreach(self) -> str:
        """The keys that add saved results to outreach ("c or w")."""
        return f"{self.key('lookup.cold')} or {self.key('lookup.warm')}"

    def _show_answer(self) -> None:
        table = self.query_one("#lookup-table", RowTable)
        answer = self.answer
        if answer is None:
            table.fill([])
            key = self.key
            self._show_problem(Text(
                f"Type a query and/or filters "
                f"({key_for(self.app, self.query_one(FilterInput), 'lookup.complete')} takes a suggested name), "
                f"then enter. Mark results with {key('lookup.mark')}: "
                f"{key('lookup.save_marked')} saves the marked, {key('lookup.save_top')} the top N, "
                f"{key('lookup.save_all')} all of them; saved ones go to outreach with {key('lookup.cold')} (cold) "
                f"or {key('lookup.warm')} (warm).", style="dim"
            ))
            return
        semantic = bool(self.criteria and self.criteria.get("query"))
        leads = lead_statuses(self.cockpit.store, (
            int(c["saved_company_id"]) for c in answer.get("companies") or [] if isinstance(c.get("saved_company_id"), int)
        ))
        rows = []
        for index, company in enumerate(answer.get("companies") or []):
            saved = company.get("saved_company_id")
            score = company.get("similarity_score")
            rows.append((str(index), [
                mark(str(index) in self.selection),
                Text(f"{score:.2f}" if semantic and isinstance(score, int | float) else ""),
                Text("✓", style="green") if saved is not None else Text("-", style="dim"),
                lead_cell(leads.get(saved) if isinstance(saved, int) else None),
                plain(company.get("name") or "?", "bold"),
                plain(company.get("domain") or "", "dim"),
                plain(company.get("industry") or ""),
                plain(company.get("country") or ""),
            ]))
        table.fill(rows)
        summary = summary_text(answer, self.cockpit.clock(), self.cockpit.zone)
        if self.query_one("#lookup-save", Checkbox).value and not self.answer_saving:
            summary.append(" · Save results is ticked: the next lookup saves what it finds", style="bold")
        if len(self.selection):
            summary.append(f" · {len(self.selection)} marked")
            waiting = len(unsaved(answer, (int(key) for key in self.selection.keys)))
            if waiting:
                summary.append(f" · {self.key('lookup.save_marked')} saves the {waiting} not saved yet"
                               f" ({waiting} company slots)", style="bold")
        self._show_problem(summary)

    # -- acting on results ------------------------------------------------------------------

    def _current(self) -> dict[str, Any] | None:
        key = self.query_one("#lookup-table", RowTable).current_key
        companies = (self.answer or {}).get("companies") or []
        return companies[int(key)] if key is not None and int(key) < len(companies) else None

    def action_toggle_mark(self) -> None:
        """Mark or unmark the row (saved or not): marked rows are saved with s, added with c/w."""
        key = self.query_one("#lookup-table", RowTable).current_key
        company = self._current()
        if key is None or company is None:
            return
        self.selection.toggle(key, str(company.get("name") or "?"))
        self._show_answer()
        self.query_one("#lookup-table", RowTable).action_cursor_down()

    def action_add(self, status: str) -> None:
        companies = (self.answer or {}).get("companies") or []
        if not len(self.selection):
            company = self._current()
            if company is not None and company.get("saved_company_id") is not None:
                add_to_outreach(self.cockpit, [company["saved_company_id"]], [str(company.get("name"))], status)
                return
            if company is not None:
                self.cockpit.notify_plain(
                    f"Only saved results can go into outreach; {self.key('lookup.save_marked')} saves the marked ones first."
                )
                return
        marked = [companies[int(key)] for key in self.selection.keys if int(key) < len(companies)]
        waiting = [c for c in marked if c.get("saved_company_id") is None]
        if waiting:
            self.cockpit.notify_plain(
                f"{companies_word(len(waiting)).capitalize()} of the marked not saved yet;"
                f" {self.key('lookup.save_marked')} saves them first.",
                severity="warning",
            )
            return
        add_to_outreach(
            self.cockpit, [int(c["saved_company_id"]) for c in marked], [str(c.get("name") or "?") for c in marked], status
        )


class EarlierLookups(DialogScreen[dict[str, Any] | None]):
    """The lookups whose answers the cache holds, newest first; enter picks one."""

    DEFAULT_CSS = """
    EarlierLookups > Vertical { max-width: 100; max-height: 80%; }
    EarlierLookups #earlier-table { height: auto; max-height: 20; }
    """

    BINDINGS = [Binding("escape", "dismiss_none", "Cancel", id="earlier.cancel")]

    def __init__(self, earlier: list[EarlierLookup], now: datetime, zone: tzinfo) -> None:
        super().__init__()
        self._earlier = earlier
        self._now, self._zone = now, zone

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Earlier lookups (answers kept in the cache)", style="bold"))
            yield RowTable((Column("Lookup"), "Fetched"), id="earlier-table")
            yield Static(Text(f"enter shows its cached answer (no lookup spent) · {key_for(self.app, self, 'earlier.cancel')}"
                              " cancels"), classes="dialog-hint")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#earlier-table", RowTable)
        table.fill([
            (str(index), [plain(describe_criteria(lookup.criteria)), Text(relative(lookup.fetched_at, self._now, self._zone), style="dim")])
            for index, lookup in enumerate(self._earlier)
        ])
        table.focus()

    def on_data_table_row_selected(self) -> None:
        key = self.query_one("#earlier-table", RowTable).current_key
        self.dismiss(self._earlier[int(key)].criteria if key is not None else None)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
