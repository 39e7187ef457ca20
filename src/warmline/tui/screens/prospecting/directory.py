"""Saved companies and contacts: browsed from the cache a page at a time (smooth at
100,000 rows, like the lead list), filtered with `/`, marked with space; marked
companies go into outreach or a research run. Also the record forms (n new, e edit,
D delete) shared by these lists and the company and contact pages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Input

from warmline import actions
from warmline.api.errors import (
    ApiError,
    ConflictError,
    InputError,
    NotFoundError,
    OfflineError,
    ValidationFailed,
)
from warmline.api.models import Company, Contact
from warmline.numbers import is_ascii_whole, whole_number
from warmline.prospecting import resolve_company
from warmline.record_kinds import COMPANY_RECORDS, CONTACT_RECORDS, Model, RecordKind, Row
from warmline.records import (
    custom_field_format,
    custom_text,
    custom_value,
    delete_record,
    save_record,
)
from warmline.store.outreach import outreach_status
from warmline.store.rows import CompanyRow, ContactRow
from warmline.tui.bindings import binding_key
from warmline.tui.columns import Column, cell, header, line, measure
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.dialogs import LINE_HINT, LineDialog
from warmline.tui.screens.prospecting.common import (
    LEAD_COLUMN,
    SELECTED_MARK,
    Selection,
    add_to_outreach,
    confirm,
    found_by,
    service_client,
)
from warmline.tui.widgets.virtual_list import RowFormatter, RowSource, VirtualList, filter_miss

if TYPE_CHECKING:
    from warmline.store import Store
    from warmline.tui.context import Cockpit

RecordRow = CompanyRow | ContactRow

MARKED = Style(color="cyan", bold=True)
DIM = Style(dim=True)
LEAD = Style(color="green")

COMPANY_COLUMNS = (
    Column("", 1),
    Column(LEAD_COLUMN, 4),
    Column("Company", 0, min_width=12),
    Column("Domain", 0, min_width=10),
    Column("Industry", 0, min_width=8),
    Column("Country", 0, min_width=7),
    Column("Found by", 0, min_width=8),
)
CONTACT_COLUMNS = (
    Column("Name", 0, min_width=14, first=True),
    Column("Company", 0, min_width=12),
    Column("Title", 0, min_width=12),
    Column("Role", 14),
    Column("Email", 0, min_width=14),
)


@dataclass(frozen=True)
class RecordQuery(Generic[Row, Model]):
    """Companies or contacts whose name (or domain, email) matches `text`, by name.

    `counter` gives the store to count on, as for the lead list (a second connection).
    """

    kind: RecordKind[Row, Model]
    store: Store
    counter: Callable[[], Store]
    text: str = ""
    seen: Callable[[Sequence[Row]], None] | None = None
    """Told the first page each time it is read: the list's formatter sizes its columns on it."""

    def count(self) -> int:
        return self.kind.count(self.counter(), self.text)

    def rows(self, offset: int, limit: int) -> Sequence[Row]:
        page = self.kind.page(self.store, self.text, offset, limit)
        self.read(page)
        if offset == 0 and self.seen is not None:
            self.seen(page)
        return page

    def read(self, page: Sequence[Row]) -> None:
        """What a kind of record reads along with each page (nothing here)."""


@dataclass(frozen=True)
class CompanyQuery(RecordQuery[CompanyRow, Company]):
    """The companies, each page read with the status of the leads they are in outreach as
    (into `leads`, which the list's formatter shares), in one more query per page."""

    leads: dict[int, str] = dataclass_field(default_factory=dict)

    def read(self, page: Sequence[CompanyRow]) -> None:
        ids = [company.id for company in page]
        for company_id in ids:
            self.leads.pop(company_id, None)
        self.leads.update(outreach_status(self.store, ids))


@dataclass(frozen=True)
class ContactQuery(RecordQuery[ContactRow, Contact]):
    """The contacts, each page read with the names of their companies (into `companies`,
    which the list's formatter shares), in one more query per page."""

    companies: dict[int, str] = dataclass_field(default_factory=dict)

    def read(self, page: Sequence[ContactRow]) -> None:
        ids = {contact.company_id for contact in page if contact.company_id is not None}
        for company_id in ids:  # a company gone from the cache leaves no stale name
            self.companies.pop(company_id, None)
        self.companies.update(self.store.company_names(ids))


class MeasuredFormatter(Generic[Row]):
    """A record list's look: its columns sized on the content of the first page (a list of
    100,000 rows is never read whole), the flexible ones sharing the rest as in a table."""

    columns: tuple[Column, ...] = ()

    def __init__(self) -> None:
        self.wanted: list[int] | None = None

    def cells(self, record: Row) -> list[list[Segment]]:
        raise NotImplementedError

    def seen(self, first_page: Sequence[Row]) -> None:
        self.wanted = measure(self.cells(record) for record in first_page)

    def header(self, width: int) -> list[Segment]:
        return header(self.columns, width, self.wanted)

    def row(self, record: Row, width: int) -> list[Segment]:
        return line(self.columns, self.cells(record), width, self.wanted)


class CompanyRowFormatter(MeasuredFormatter[CompanyRow]):
    columns = COMPANY_COLUMNS

    def __init__(self, selection: Selection, leads: dict[int, str]) -> None:
        super().__init__()
        self._selection = selection
        self._leads = leads

    def cells(self, company: CompanyRow) -> list[list[Segment]]:
        marked = company.id in self._selection
        return [
            cell(SELECTED_MARK if marked else " ", MARKED),
            cell(self._leads.get(company.id, ""), LEAD),
            cell(safe_text(company.name) + (PENDING_MARK if company.id < 0 else ""), MARKED if marked else None),
            cell(safe_text(company.domain or ""), DIM),
            cell(safe_text(company.industry or "")),
            cell(safe_text(company.country or "")),
            cell(found_by(company.source), DIM),
        ]


PENDING_MARK = " (pending)"
"""After the name of a contact or company made offline, until the service has it (its id is local)."""


class ContactRowFormatter(MeasuredFormatter[ContactRow]):
    columns = CONTACT_COLUMNS

    def __init__(self, companies: dict[int, str]) -> None:
        super().__init__()
        self._companies = companies

    def cells(self, contact: ContactRow) -> list[list[Segment]]:
        company = self._companies.get(contact.company_id) if contact.company_id is not None else None
        return [
            cell(safe_text(contact.name or "(no name)") + (PENDING_MARK if contact.id < 0 else "")),
            cell(safe_text(company or "")),
            cell(safe_text(contact.title or "")),
            cell(safe_text(contact.role or ""), DIM),
            cell(safe_text(contact.email or ""), DIM),
        ]


# --- creating, editing and deleting records ----------------------------------------------------------

COMPANY_FORM = (
    ("name", "Name (required, up to 200 characters)"),
    ("domain", "Domain"),
    ("industry", "Industry"),
    ("country", "Country"),
    ("region", "Region"),
    ("size", "Size (e.g. 51-200)"),
    ("description", "Description"),
    ("tags", "Tags (comma-separated)"),
)
CONTACT_FORM = (
    ("first_name", "First name (a first or a last name is required)"),
    ("last_name", "Last name"),
    ("email", "Email"),
    ("title", "Title"),
    ("role", "Role (decision-maker, champion or influencer)"),
    ("phone", "Phone"),
    ("social_url", "Profile link"),
    ("company_id", "Company (its id, or the start of its name)"),
)
FORMS = {"companies": COMPANY_FORM, "contacts": CONTACT_FORM}


def form_text(value: Any) -> str:
    """A record field as the form shows it: lists comma-separated, nothing as empty."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def form_value(name: str, raw: str) -> Any:
    """A form field as the service takes it: tags a list, company_id a number, empty clears."""
    if name == "tags":
        return [tag.strip() for tag in raw.split(",") if tag.strip()]
    if not raw:
        return None
    if name == "company_id":
        company_id = whole_number(raw)
        if company_id is None:
            raise InputError("company_id", f"company_id must be a company id, a whole number (got {raw!r})")
        return company_id
    return raw


def named_company(store: Store, values: dict[str, str]) -> dict[str, str]:
    """The contact form's company as the rep may give it: an id, or the start of a cached
    company's name (`resolve_company`, as the command line reads one), made its id. The
    form asked for a "Company id", a number a rep never sees."""
    typed = values.get("company_id", "").strip()
    if not typed or is_ascii_whole(typed):
        return values
    try:
        return {**values, "company_id": str(resolve_company(store, typed).id)}
    except LookupError as exc:
        raise InputError("company_id", str(exc)) from None


def record_fields(
    entity: str, values: dict[str, str], record: RecordRow | None = None, schema: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """What to send: on create the filled-in fields; on edit only the changed ones, so an
    edit never overwrites what someone else changed in a field the rep did not touch.
    Raises `InputError` for a custom field value its type does not take."""
    fields: dict[str, Any] = {}
    for name, _ in FORMS[entity]:
        raw = values.get(name, "").strip()
        if raw != form_text(getattr(record, name, None)):
            fields[name] = form_value(name, raw)
    custom = custom_changes(values, record, schema)
    if custom:
        fields["custom_fields"] = custom
    return fields


# --- custom fields in the record forms ----------------------------------------------------------

CUSTOM_FIELDS_HINT = f"{LINE_HINT} · a custom field left as shown is unchanged; emptied, it is cleared"


def custom_input(index: int) -> str:
    """The form name of the schema's `index`-th custom field (keys may not be valid ids)."""
    return f"custom-{index}"


def custom_label(field: dict[str, Any]) -> str:
    """A custom field's input label: the schema's name and how its type is typed."""
    return f"{safe_text(field.get('name') or field['key'])} ({custom_field_format(field)})"


def custom_changes(values: dict[str, str], record: RecordRow | None, schema: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The custom fields whose text differs from what the form showed: the value typed, or
    None for one the rep emptied. Text left as shown (empty included) is not sent, so an
    edit never clears a value by accident, and the service keeps the fields not listed."""
    current = record.custom_fields if record is not None else {}
    changes: dict[str, Any] = {}
    for index, field in enumerate(schema):
        raw = values.get(custom_input(index), "").strip()
        if raw != custom_text(current.get(field["key"])).strip():
            changes[field["key"]] = custom_value(field, raw)
    return changes


def form_inputs(entity: str, record: RecordRow | None, schema: Sequence[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The form's (name, label, initial text): the record's fields, then one per custom field."""
    inputs = [(name, label, form_text(getattr(record, name, None))) for name, label in FORMS[entity]]
    current = record.custom_fields if record is not None else {}
    for index, field in enumerate(schema):
        inputs.append((custom_input(index), custom_label(field), custom_text(current.get(field["key"]))))
    return inputs


def record_label(noun: str, record: RecordRow) -> str:
    """How a record is named in questions and notifications: its name and id."""
    return f"{record.name} ({noun} {record.id})" if record.name else f"{noun} {record.id}"


def record_problem(exc: Exception, doing: str, conflict_hint: str = "") -> str:
    """A failed record call in the rep's words; `conflict_hint` says what to do first when
    the service refused it for the state of related records (a company still in outreach)."""
    if isinstance(exc, OfflineError):
        return f"Offline: {doing} needs the service. Try again when you are back online."
    if isinstance(exc, NotFoundError):
        return f"Could not finish {doing}: the service no longer has it (deleted elsewhere?). {exc}"
    if isinstance(exc, ConflictError):
        return " ".join(part for part in (f"The service refused {doing}: {exc}.", conflict_hint) if part)
    if isinstance(exc, InputError | ValidationFailed):
        return f"The service refused {doing}: {exc}"
    return f"Could not finish {doing}: {exc}"


REMOVE_FROM_OUTREACH = Binding("D", "remove_lead", "Remove from outreach", id="company.remove_lead")
"""The company page's key (`CompanyScreen`), declared here, where a refused delete names it."""


def in_outreach_hint(app: App[Any]) -> str:
    """Why a company may not be deleted, with the key that removes it from outreach as the
    rep's keymap has it (a conflict on a contact is not about outreach: no hint)."""
    key = binding_key(app, REMOVE_FROM_OUTREACH)
    return f"A company in outreach must be removed from outreach ({key} on its page) first."


class RecordEditing(Generic[Row, Model]):
    """n new, e edit, D delete for a screen showing companies or contacts.

    The calls are online-only (see `warmline.records`), so they run in a worker with the
    sync engine's client; the screen redraws from the cache afterwards. A screen using it
    sets `KIND` (`warmline.record_kinds`) and has `editable_record()` (the record e and D
    act on, or None) and `records_changed(record_id, deleted)` (redraw after a save or delete).
    """

    KIND: RecordKind[Row, Model]

    if TYPE_CHECKING:  # provided by the screen using it

        @property
        def cockpit(self) -> Cockpit: ...

        app: App[Any]

        def editable_record(self) -> Row | None: ...

        def records_changed(self, record_id: int, deleted: bool) -> None: ...

    @property
    def _noun(self) -> str:
        return self.KIND.noun

    def action_new_record(self) -> None:
        self._open_form(None)

    def action_edit_record(self) -> None:
        record = self.editable_record()
        if record is None:
            self.cockpit.notify_plain(f"No {self._noun} to edit here.")
            return
        if not self._on_service(record):
            return
        self._open_form(record)

    def action_delete_record(self) -> None:
        record = self.editable_record()
        if record is None:
            self.cockpit.notify_plain(f"No {self._noun} to delete here.")
            return
        if not self._on_service(record):
            return
        label = record_label(self._noun, record)
        question = Text("Delete ").append_text(plain(label, "bold"))
        question.append(" on the service?\nThis cannot be undone.")
        confirm(self.cockpit, question, lambda: self._delete(record.id, label))

    def _on_service(self, record: Row) -> bool:
        """A record made offline (a local id) is changed or dropped in the outbox until the
        service has it: the service knows no such id yet."""
        if record.id > 0:
            return True
        self.cockpit.notify_plain(
            f"{record_label(self._noun, record)} is still queued (pending): change or discard its create "
            f"in the outbox ({self.cockpit.key_of('app.outbox')}); it can be edited here once the service has it."
        )
        return False

    def _open_form(self, record: Row | None) -> None:
        entity = self.KIND.entity
        schema = self.cockpit.store.field_schemas(entity)

        def submit(values: dict[str, str]) -> str | None:
            try:
                if entity == "contacts":
                    values = named_company(self.cockpit.store, values)
                fields = record_fields(entity, values, record, schema)
                if record is not None and not fields:
                    self.cockpit.notify_plain("Nothing changed.")
                    return None
                self.KIND.check(fields, record is None)
            except InputError as exc:
                return str(exc)
            self._save(fields, record)
            return None

        if record is None:
            title = Text(f"New {self._noun} (saved on the service at once; queued when offline)")
        else:
            title = Text("Edit ").append_text(plain(record_label(self._noun, record), "bold"))
        hint = CUSTOM_FIELDS_HINT if schema else LINE_HINT
        self.cockpit.push_screen(LineDialog(title, submit, form_inputs(entity, record, schema), hint=hint))

    @work(exclusive=True, group="records", exit_on_error=False)
    async def _save(self, fields: dict[str, Any], record: Row | None) -> None:
        cockpit = self.cockpit
        doing = f"creating the {self._noun}" if record is None else f"saving {record_label(self._noun, record)}"
        queues = record is None
        try:
            client = service_client(cockpit)
            if client is None:
                raise OfflineError("the service is out of reach")
            saved = await save_record(cockpit.store, client, self.KIND.entity, fields, None if record is None else record.id)
        except OfflineError as exc:
            if queues:
                self._queue_record(fields)
            else:
                cockpit.notify_plain(record_problem(exc, doing), severity="warning")
            return
        except ApiError as exc:
            cockpit.notify_plain(record_problem(exc, doing), severity="warning")
            return
        name = saved.get("name") or " ".join(p for p in (saved.get("first_name"), saved.get("last_name")) if p)
        cockpit.notify_plain(f"{'Created' if record is None else 'Saved'} {self._noun} {name} ({saved['id']}).")
        self.records_changed(saved["id"], deleted=False)

    def _queue_record(self, fields: dict[str, Any]) -> None:
        """Offline: the contact or company is queued under a local id
        (`actions.create_contact`, `actions.create_company`) and listed as pending until
        the service has it."""
        cockpit = self.cockpit
        try:
            if self.KIND.entity == "companies":
                local_id = cockpit.perform(actions.create_company, fields).local_id
            else:
                local_id = cockpit.perform(actions.create_contact, fields).local_id
        except ActionRefused as refused:
            cockpit.notify_plain(f"Could not add the {self._noun}: {refused}", severity="warning")
            return
        parts = (fields.get("name"),) if self.KIND.entity == "companies" else (fields.get("first_name"), fields.get("last_name"))
        name = " ".join(str(p) for p in parts if p)
        cockpit.notify_plain(f"Offline: {self._noun} {name} added (pending); the service gets it at the next sync.")
        self.records_changed(local_id, deleted=False)

    @work(exclusive=True, group="records", exit_on_error=False)
    async def _delete(self, record_id: int, label: str) -> None:
        cockpit = self.cockpit
        try:
            client = service_client(cockpit)
            if client is None:
                raise OfflineError("the service is out of reach")
            await delete_record(cockpit.store, client, self.KIND.entity, record_id)
        except ApiError as exc:
            hint = in_outreach_hint(self.app) if self.KIND.entity == "companies" else ""
            cockpit.notify_plain(record_problem(exc, f"deleting {label}", hint), severity="warning")
            return
        cockpit.notify_plain(f"Deleted {label}.")
        self.records_changed(record_id, deleted=True)


def record_bindings(prefix: str, noun: str, delete_keys: str = "D,delete") -> list[Binding]:
    """n/e/D for a screen, with ids under `prefix`. Kept out of the footer, which is full
    on these screens; `?` and the keyboard reference list them. `delete_keys` differs
    where D already means something else (a company's page)."""
    return [
        Binding("n", "new_record", f"New {noun}", show=False, id=f"{prefix}.new"),
        Binding("e", "edit_record", f"Edit {noun}", show=False, id=f"{prefix}.edit"),
        Binding(delete_keys, "delete_record", f"Delete {noun}", show=False, id=f"{prefix}.delete"),
    ]


class RecordListScreen(CockpitScreen, Generic[Row]):
    """A filterable list of saved records; subclasses say which records and how they look."""

    DEFAULT_CSS = """
    RecordListScreen #record-filter { border: none; height: 1; margin: 0; padding: 0 1; background: $panel; }
    RecordListScreen #record-filter:focus { border: none; background: $primary 25%; }
    """

    NOUN = "records"
    ONE = "record"
    FILTER_HINT = "filter"

    def __init__(self) -> None:
        super().__init__()
        self._text = ""

    def compose_body(self) -> ComposeResult:
        yield Input(placeholder=self.FILTER_HINT, id="record-filter", classes="-hidden")
        yield VirtualList(self.formatter(), self.query_source(), empty_text=self.empty_text(), id="record-list")

    def formatter(self) -> RowFormatter[Row]:
        raise NotImplementedError

    def query_source(self) -> RowSource[Row]:
        raise NotImplementedError

    def empty_text(self) -> Text:
        if self._text:
            return filter_miss(self._text, contains=f"No {self.NOUN} match", starts=f"No {self.ONE}'s name starts with")
        return Text(self.EMPTY.format_map({name: self.key(binding_id) for name, binding_id in self.EMPTY_KEYS.items()}))

    EMPTY = "Nothing here yet."
    """Said with no record at all; `{name}` is the rep's key of the binding `EMPTY_KEYS[name]`."""
    EMPTY_KEYS: ClassVar[dict[str, str]] = {}

    def on_mount(self) -> None:
        self.record_list.focus()
        self.show_title()

    @property
    def record_list(self) -> VirtualList[Row]:
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

    def export_choice(self) -> tuple[str, str]:
        return (self.NOUN, "all")  # "companies" or "contacts", as the export names them

    def editable_record(self) -> Row | None:
        return self.record_list.current

    def records_changed(self, record_id: int, deleted: bool) -> None:
        """The list redrawn from the cache after a record was saved or deleted."""
        self.reload()
        self.show_title()

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


class CompaniesScreen(RecordEditing[CompanyRow, Company], RecordListScreen[CompanyRow]):
    """Saved companies; mark some with space, then add them to outreach or research them."""

    KIND = COMPANY_RECORDS

    SCREEN_TITLE = "Companies"
    NOUN = "companies"
    ONE = "company"
    FILTER_HINT = "filter by company name or domain"
    EMPTY = "No saved companies yet. {lookup} looks companies up, {search} starts a deep search (or warmline sync)."
    EMPTY_KEYS: ClassVar[dict[str, str]] = {"lookup": "companies.lookup", "search": "companies.deep_search"}

    BINDINGS = [
        Binding("space", "toggle_mark", "Mark", id="companies.mark"),
        Binding("c", "add('cold')", "Add as cold", id="companies.cold"),
        Binding("w", "add('warm')", "Add as warm", id="companies.warm"),
        Binding("t", "research", "Research run", id="companies.research"),
        Binding("i", "app.open('lookup')", "Lookup", id="companies.lookup"),
        Binding("f", "app.open('deep_search')", "Deep search", id="companies.deep_search"),
        *record_bindings("companies", "company"),
        Binding("slash", "filter", "Filter", id="companies.filter"),
        Binding("escape", "clear_filter", "Clear filter / back", show=False, id="companies.clear_filter"),
    ]

    def __init__(self) -> None:
        self.selection = Selection()
        self.leads: dict[int, str] = {}  # company id -> its lead's status, for the rows read so far
        self.list_formatter = CompanyRowFormatter(self.selection, self.leads)
        super().__init__()

    def formatter(self) -> CompanyRowFormatter:
        return self.list_formatter

    def query_source(self) -> CompanyQuery:
        return CompanyQuery(
            COMPANY_RECORDS, self.cockpit.store, self.cockpit.reader, self._text, self.list_formatter.seen, self.leads
        )

    def title_parts(self) -> Text:
        return Text(f" · {len(self.selection)} marked") if len(self.selection) else Text()

    def action_toggle_mark(self) -> None:
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
        self.cockpit.open_research(self.marked_or_current(), self._labels())

    @on(VirtualList.Selected, "#record-list")
    def _open(self, event: VirtualList.Selected) -> None:
        self.cockpit.open_company(event.item.id)


class ContactsScreen(RecordEditing[ContactRow, Contact], RecordListScreen[ContactRow]):
    """Saved contacts, by name; enter shows one."""

    KIND = CONTACT_RECORDS

    SCREEN_TITLE = "Contacts"
    NOUN = "contacts"
    ONE = "contact"
    FILTER_HINT = "filter by name or email"
    EMPTY = "No saved contacts yet. On a company's page ({companies}, then enter), Find people searches for its people."
    EMPTY_KEYS: ClassVar[dict[str, str]] = {"companies": "app.companies"}

    BINDINGS = [
        *record_bindings("contacts", "contact"),
        Binding("slash", "filter", "Filter", id="contacts.filter"),
        Binding("escape", "clear_filter", "Clear filter / back", show=False, id="contacts.clear_filter"),
    ]

    def __init__(self) -> None:
        self.companies: dict[int, str] = {}  # company id -> its name, for the rows read so far
        self.list_formatter = ContactRowFormatter(self.companies)
        super().__init__()

    def formatter(self) -> ContactRowFormatter:
        return self.list_formatter

    def query_source(self) -> ContactQuery:
        return ContactQuery(
            CONTACT_RECORDS, self.cockpit.store, self.cockpit.reader, self._text, self.list_formatter.seen, self.companies
        )

    @on(VirtualList.Selected, "#record-list")
    def _open(self, event: VirtualList.Selected) -> None:
        self.cockpit.open_contact(event.item.id)
