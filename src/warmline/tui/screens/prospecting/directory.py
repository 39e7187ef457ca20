"""Saved companies and contacts: browsed from the cache a page at a time (smooth at
100,000 rows, like the lead list), filtered with `/`, marked with space; marked
companies go into outreach or a research run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input

from warmline.tui.columns import Column, cell, header, line
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.prospecting.common import SELECTED_MARK, Selection, add_to_outreach
from warmline.tui.widgets.virtual_list import VirtualList

MARKED = Style(color="cyan", bold=True)
DIM = Style(dim=True)

COMPANY_COLUMNS = (
    Column("", 1),
    Column("Company", 0, min_width=14),
    Column("Domain", 18),
    Column("Industry", 14),
    Column("Country", 9),
    Column("Found by", 12),
)
CONTACT_COLUMNS = (
    Column("Name", 0, min_width=14),
    Column("Title", 22),
    Column("Role", 14),
    Column("Email", 26),
)


@dataclass(frozen=True)
class RecordQuery:
    """Companies or contacts whose name (or domain, email) matches `text`, by name.

    `counter` gives the store to count on, as for the lead list (a second connection).
    """

    page: Callable[..., Sequence[Any]]
    count_on: Callable[[Any], int]
    counter: Callable[[], Any]
    text: str = ""

    def count(self) -> int:
        return self.count_on(self.counter())

    def rows(self, offset: int, limit: int) -> Sequence[Any]:
        return self.page(self.text, offset=offset, limit=limit)


def found_by(company: Any) -> str:
    """How the company was saved: its deep search AI tag, else the way it came."""
    return safe_text(company.ai_tag or company.source or "")


class CompanyRowFormatter:
    def __init__(self, selection: Selection) -> None:
        self._selection = selection

    def header(self, width: int) -> list[Segment]:
        return header(COMPANY_COLUMNS, width)

    def row(self, company: Any, width: int) -> list[Segment]:
        marked = company.id in self._selection
        cells = [
            cell(SELECTED_MARK if marked else " ", MARKED),
            cell(safe_text(company.name), MARKED if marked else None),
            cell(safe_text(company.domain or ""), DIM),
            cell(safe_text(company.industry or "")),
            cell(safe_text(company.country or "")),
            cell(found_by(company), DIM),
        ]
        return line(COMPANY_COLUMNS, cells, width)


class ContactRowFormatter:
    def header(self, width: int) -> list[Segment]:
        return header(CONTACT_COLUMNS, width)

    def row(self, contact: Any, width: int) -> list[Segment]:
        cells = [
            cell(safe_text(contact.name or "(no name)")),
            cell(safe_text(contact.title or "")),
            cell(safe_text(contact.role or ""), DIM),
            cell(safe_text(contact.email or ""), DIM),
        ]
        return line(CONTACT_COLUMNS, cells, width)


class RecordListScreen(CockpitScreen):
    """A filterable list of saved records; subclasses say which records and how they look."""

    DEFAULT_CSS = """
    RecordListScreen #record-filter { border: none; height: 1; margin: 0; padding: 0 1; background: $panel; }
    RecordListScreen #record-filter:focus { border: none; background: $primary 25%; }
    """

    NOUN = "records"
    FILTER_HINT = "filter"

    def __init__(self) -> None:
        super().__init__()
        self._text = ""

    def compose_body(self) -> ComposeResult:
        yield Input(placeholder=self.FILTER_HINT, id="record-filter", classes="-hidden")
        yield VirtualList(self.formatter(), self.query_source(), empty_text=self.empty_text(), id="record-list")

    def formatter(self) -> Any:
        raise NotImplementedError

    def query_source(self) -> RecordQuery:
        raise NotImplementedError

    def empty_text(self) -> Text:
        if self._text:
            return Text(f"No {self.NOUN} match “{self._text}”. Escape clears the filter.")
        return Text(self.EMPTY)

    EMPTY = "Nothing here yet."

    def on_mount(self) -> None:
        self.record_list.focus()
        self.show_title()

    @property
    def record_list(self) -> VirtualList[Any]:
        return self.query_one("#record-list", VirtualList)

    def title_parts(self) -> Text:
        return Text()

    def show_title(self) -> None:
        records = self.record_list
        title = Text(no_wrap=True)
        title.append(self.SCREEN_TITLE, style="bold")
        shown = f"{records.row_count:,}" if records.counted else f"{records.row_count:,}+ (counting)"
        title.append(f" · {shown} shown")
        title.append_text(self.title_parts())
        if self._text:
            title.append(" · filter: ")
            title.append_text(plain(self._text, "italic"))
        self.set_title_text(title)

    def reload(self) -> None:
        self.record_list.reload(keep_cursor=True)

    @on(VirtualList.Counted, "#record-list")
    def _counted(self) -> None:
        self.show_title()

    def action_filter(self) -> None:
        field = self.query_one("#record-filter", Input)
        field.remove_class("-hidden")
        field.focus()

    def action_clear_filter(self) -> None:
        field = self.query_one("#record-filter", Input)
        if field.has_class("-hidden") and not self._text:
            self.action_back()
            return
        field.value = ""
        field.add_class("-hidden")
        self.record_list.focus()

    @on(Input.Changed, "#record-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._text = event.value.strip()
        self.record_list.set_empty_text(self.empty_text())
        self.record_list.set_source(self.query_source())

    @on(Input.Submitted, "#record-filter")
    def _filter_done(self) -> None:
        self.record_list.focus()


class CompaniesScreen(RecordListScreen):
    """Saved companies; mark some with space, then add them to outreach or research them."""

    SCREEN_TITLE = "Companies"
    NOUN = "companies"
    FILTER_HINT = "filter by company name or domain"
    EMPTY = "No saved companies yet. i looks companies up, f starts a deep search (or warmline sync)."

    BINDINGS = [
        Binding("space", "toggle", "Mark", id="companies.mark"),
        Binding("c", "add('cold')", "Add as cold", id="companies.cold"),
        Binding("w", "add('warm')", "Add as warm", id="companies.warm"),
        Binding("t", "research", "Research run", id="companies.research"),
        Binding("i", "app.open('lookup')", "Lookup", id="companies.lookup"),
        Binding("f", "app.open('deep_search')", "Deep search", id="companies.deep_search"),
        Binding("slash", "filter", "Filter", id="companies.filter"),
        Binding("escape", "clear_filter", "Clear filter / back", show=False, id="companies.clear_filter"),
    ]

    def __init__(self) -> None:
        self.selection = Selection()
        super().__init__()

    def formatter(self) -> CompanyRowFormatter:
        return CompanyRowFormatter(self.selection)

    def query_source(self) -> RecordQuery:
        store = self.cockpit.store
        return RecordQuery(store.company_page, lambda s: s.company_count(self._text), self.cockpit.reader, self._text)

    def title_parts(self) -> Text:
        return Text(f" · {len(self.selection)} marked") if len(self.selection) else Text()

    def action_toggle(self) -> None:
        records = self.record_list
        company = records.current
        if company is None:
            return
        self.selection.toggle(company.id, company.name)
        records.refresh()
        records.action_cursor_down()
        self.show_title()

    def action_add(self, status: str) -> None:
        add_to_outreach(self.cockpit, self.marked_or_current(), self._labels(), status)

    def marked_or_current(self) -> list[int]:
        """The marked companies, or the one under the cursor when none is marked."""
        if len(self.selection):
            return [int(key) for key in self.selection.keys]
        current = self.record_list.current
        return [current.id] if current is not None else []

    def _labels(self) -> list[str]:
        if len(self.selection):
            return self.selection.labels
        current = self.record_list.current
        return [current.name] if current is not None else []

    def action_research(self) -> None:
        from warmline.tui.screens.prospecting.research import TemplatesScreen

        self.app.push_screen(TemplatesScreen(self.marked_or_current(), self._labels()))

    @on(VirtualList.Selected, "#record-list")
    def _open(self, event: VirtualList.Selected) -> None:
        from warmline.tui.screens.prospecting.company import CompanyScreen

        self.app.push_screen(CompanyScreen(event.item.id))


class ContactsScreen(RecordListScreen):
    """Saved contacts, by name; enter shows one."""

    SCREEN_TITLE = "Contacts"
    NOUN = "contacts"
    FILTER_HINT = "filter by name or email"
    EMPTY = "No saved contacts yet. On a company's page, s searches for its people."

    BINDINGS = [
        Binding("slash", "filter", "Filter", id="contacts.filter"),
        Binding("escape", "clear_filter", "Clear filter / back", show=False, id="contacts.clear_filter"),
    ]

    def formatter(self) -> ContactRowFormatter:
        return ContactRowFormatter()

    def query_source(self) -> RecordQuery:
        store = self.cockpit.store

        def page(text: str, offset: int, limit: int) -> Sequence[Any]:
            return store.contact_page(text, offset=offset, limit=limit)

        return RecordQuery(page, lambda s: s.contact_count(self._text), self.cockpit.reader, self._text)

    @on(VirtualList.Selected, "#record-list")
    def _open(self, event: VirtualList.Selected) -> None:
        from warmline.tui.screens.prospecting.company import ContactScreen

        self.app.push_screen(ContactScreen(event.item.id))
