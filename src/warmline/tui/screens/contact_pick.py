"""Adding a key contact from the lead's page: pick one of the company's contacts, or create
a new person, then pin them on the lead.

Picking needs nothing but the cache: the pin is queued like every change and works offline.
Creating a contact online is a direct call (the service gives it its id at once,
`warmline.records`); offline, or when the service turns out to be out of reach, the
contact is queued instead (`actions.create_contact`): it shows at once as pending under a
local id, is pinned at once, and the pin goes out with the service's id once the contact
is delivered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Mount
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from warmline import actions
from warmline.api.errors import ApiError, InputError, OfflineError
from warmline.api.limits import CONTACT_ROLES
from warmline.records import (
    ContactChoice,
    contact_choices,
    new_contact_fields,
    new_contact_prefill,
    save_record,
)
from warmline.tui.bindings import key_for
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.dialog_screen import DialogScreen
from warmline.tui.screens.dialogs import LineDialog
from warmline.tui.screens.prospecting.common import reachable, service_client
from warmline.tui.screens.prospecting.directory import record_problem
from warmline.tui.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.tui.context import Cockpit
    from warmline.tui.screens.base import CockpitScreen

NEW = "new"
"""The option id of "New contact" (the others are `contact-<id>`)."""

Done = Callable[[], None]
"""What runs once a pin is queued (the lead's page redraws)."""

QUEUED_CREATE = "{name} added offline (pending): pinned on {lead}; both reach the service at the next sync."


def choice_line(choice: ContactChoice) -> Text:
    """`★ Dana Berg · VP Operations · decision-maker · pinned`: one option of the list."""
    line = Text("★ " if choice.pinned else "  ", style="bold yellow")
    line.append_text(plain(choice.name, "bold"))
    for part in (choice.title, choice.role, choice.email):
        if part:
            line.append(" · ", style="dim")
            line.append_text(plain(part))
    if choice.pinned:
        line.append(" · pinned already", style="dim")
    return line


class ContactPickDialog(DialogScreen[ContactChoice | str | None]):
    """Type to filter the company's contacts; enter pins the highlighted one, or, on the
    last line, opens the new-contact form with what was typed. Dismisses with the chosen
    contact, the typed text (new contact), or None (escape)."""

    DEFAULT_CSS = """
    ContactPickDialog #pick-options { height: auto; max-height: 12; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", priority=True, id="pick.cancel"),
        Binding("enter", "choose", "Pin / new", priority=True, id="pick.choose"),
        Binding("down", "move(1)", "Next", show=False, id="pick.down"),
        Binding("up", "move(-1)", "Previous", show=False, id="pick.up"),
    ]

    def __init__(self, title: Text, choices: list[ContactChoice], *, online: bool) -> None:
        super().__init__()
        self._title = title
        self._choices = choices
        self._online = online
        self._shown: list[ContactChoice] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._title, classes="dialog-title")
            yield Input(
                placeholder="type to filter, or a new person: Dana Berg, VP Ops",
                id="pick-filter",
            )
            yield OptionList(id="pick-options")
            yield Static(
                Text(f"↑↓ choose · {key_for(self.app, self, 'pick.choose')} pin (or create)"
                     f" · {key_for(self.app, self, 'pick.cancel')} cancel"), classes="dialog-hint"
            )
        yield KeyBar()

    def on_mount(self) -> None:
        self._fill("")
        self.query_one("#pick-filter", Input).focus()

    @property
    def typed(self) -> str:
        return self.query_one("#pick-filter", Input).value.strip()

    def _fill(self, text: str) -> None:
        self._shown = [choice for choice in self._choices if choice.matches(text)]
        options = [
            Option(choice_line(choice), id=f"contact-{choice.contact_id}") for choice in self._shown
        ]
        new = Text("+ New contact", style="bold")
        if text:
            new.append(": ")
            new.append_text(plain(text))
        new.append(
            " (saved on the service at once)" if self._online else " (offline: queued, sent at the next sync)",
            style="dim",
        )
        options.append(Option(new, id=NEW))
        listing = self.query_one("#pick-options", OptionList)
        listing.clear_options()
        listing.add_options(options)
        listing.highlighted = 0

    @on(Input.Changed, "#pick-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value.strip())

    @on(Input.Submitted, "#pick-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_choose()

    @on(OptionList.OptionSelected, "#pick-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._dismiss_with(event.option_index)

    def action_move(self, step: int) -> None:
        listing = self.query_one("#pick-options", OptionList)
        current = listing.highlighted or 0
        listing.highlighted = max(0, min(listing.option_count - 1, current + step))

    def action_choose(self) -> None:
        self._dismiss_with(self.query_one("#pick-options", OptionList).highlighted or 0)

    def _dismiss_with(self, index: int) -> None:
        self.dismiss(self._shown[index] if index < len(self._shown) else self.typed)

    def action_cancel(self) -> None:
        self.dismiss(None)


def add_key_contact(
    cockpit: Cockpit, lead_id: int, lead_name: str, page: CockpitScreen
) -> None:
    """Open the picker for the lead: a contact picked is pinned (queued, held for undo);
    "New contact" opens the new-contact form. `page` (the lead's) redraws once a pin is
    queued, if it is still open."""

    def done() -> None:
        if page.is_attached:
            page.reload()

    company_id = lead.company_id if (lead := cockpit.store.get_lead(lead_id)) else None
    title = Text("Add a key contact to ") + plain(lead_name)

    def chosen(choice: ContactChoice | str | None) -> None:
        if choice is None:
            return
        if isinstance(choice, str):
            _new_contact_form(cockpit, lead_id, company_id, lead_name, choice, done)
        elif choice.pinned:
            cockpit.notify_plain(f"{choice.name} is already a pinned key contact of {lead_name}.")
        elif _pin(cockpit, lead_id, choice.contact_id, choice.name, lead_name):
            done()

    online = reachable(cockpit)
    cockpit.push_screen(
        ContactPickDialog(title, contact_choices(cockpit.store, lead_id), online=online), chosen
    )


def _pin(
    cockpit: Cockpit, lead_id: int, contact_id: int, name: str, lead_name: str, *, quiet: bool = False
) -> bool:
    """Pin the contact on the lead; False (and a warning) when the action is refused."""
    try:
        cockpit.decide(f"pin {name}", actions.pin_company_contact, lead_id, contact_id)
    except ActionRefused as refused:
        cockpit.notify_plain(f"Could not pin {name}: {refused}", severity="warning")
        return False
    if quiet:
        return True
    cockpit.notify_plain(
        f"{name} pinned as a key contact of {lead_name}; the service is told at the next sync."
    )
    return True


class NewContactDialog(LineDialog):
    """The new contact's form: the cursor starts on the first empty field, and a prefilled
    field's text is never selected (typing into it would replace the name); role comes
    right after the names, so it is one Tab from where the cursor starts."""

    @on(Mount)
    def _start_on_an_empty_field(self) -> None:
        # Runs before the form's own focus on its first field, which then selects nothing;
        # the first empty field takes the focus once the form is drawn.
        for field in self.query(Input):
            field.select_on_focus = False
        self.call_after_refresh(self._focus_first_empty)

    def _focus_first_empty(self) -> None:
        inputs = list(self.query(Input))
        next((field for field in inputs if not field.value), inputs[0]).focus()


def new_contact_form_fields(typed: str) -> list[tuple[str, str, str]]:
    """The form's fields (name, label, value), prefilled from what was typed in the picker."""
    prefill = new_contact_prefill(typed)
    return [
        ("first_name", "First name", prefill["first_name"]),
        ("last_name", "Last name", prefill["last_name"]),
        ("role", f"Role (optional: {', '.join(CONTACT_ROLES)})", ""),
        ("title", "Title (e.g. VP Operations)", prefill["title"]),
        ("email", "Email (optional)", ""),
    ]


def _new_contact_form(
    cockpit: Cockpit,
    lead_id: int,
    company_id: int | None,
    lead_name: str,
    typed: str,
    done: Done,
) -> None:
    """The new contact's form, prefilled from what was typed in the picker."""

    def submit(values: dict[str, str]) -> str | None:
        try:
            body = new_contact_fields(company_id, values)
        except InputError as exc:
            return str(exc)
        client = service_client(cockpit)
        if client is None:
            return _queue_and_pin(cockpit, lead_id, lead_name, body, done)
        cockpit.run_worker(
            _create_and_pin(cockpit, client, lead_id, lead_name, body, done),
            group="records",
            exit_on_error=False,
        )
        return None

    online = service_client(cockpit) is not None
    title = (
        Text("New contact at ")
        + plain(lead_name)
        + Text(" (saved on the service at once)" if online else " (offline: queued, sent at the next sync)")
    )
    cockpit.push_screen(NewContactDialog(title, submit, new_contact_form_fields(typed)))


def _name_of(fields: dict[str, Any]) -> str:
    return safe_text(" ".join(str(p) for p in (fields.get("first_name"), fields.get("last_name")) if p))


def _queue_and_pin(
    cockpit: Cockpit, lead_id: int, lead_name: str, body: dict[str, Any], done: Done
) -> str | None:
    """Queue the contact (a local id, pending) and pin it on the lead; the form's error
    line when the action is refused, else None."""
    try:
        made = cockpit.perform(actions.create_contact, body)
    except ActionRefused as refused:
        return str(refused)
    name = _name_of(body)
    if _pin(cockpit, lead_id, made.local_id, name, lead_name, quiet=True):
        cockpit.notify_plain(QUEUED_CREATE.format(name=name, lead=lead_name))
        done()
    return None


async def _create_and_pin(
    cockpit: Cockpit,
    client: ServiceClient,
    lead_id: int,
    lead_name: str,
    body: dict[str, Any],
    done: Done,
) -> None:
    """Create the contact on the service (into the cache too), then pin it on the lead;
    when the service is out of reach after all, queue it as offline."""
    try:
        saved = await save_record(cockpit.store, client, "contacts", body)
    except OfflineError:
        problem = _queue_and_pin(cockpit, lead_id, lead_name, body, done)
        if problem is not None:
            cockpit.notify_plain(problem, severity="warning")
        return
    except ApiError as exc:
        cockpit.notify_plain(record_problem(exc, "creating the contact"), severity="warning")
        return
    name = _name_of(saved)
    cockpit.notify_plain(f"Created contact {name} ({saved['id']}).")
    if _pin(cockpit, lead_id, int(saved["id"]), name, lead_name):
        done()
