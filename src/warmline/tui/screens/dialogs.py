"""Small modal forms: log an activity (with a contact), write a note, set a value, edit the deal, confirm.

Each dialog has a key bar of its own over the bottom line, so the keys shown are the
dialog's, not those of the screen under it (which do nothing while it is open).

A form does not validate by itself: it hands its values to a `submit` callback (which
runs the real action, whose checks are the spec's limits) and stays open showing the
error if there is one. So a limit is written once, in `warmline.api.limits`. A cache the
disk will not write (full, no permission, I/O error: `CacheDiskError`) is such an error
too: the form keeps what the rep typed and says what to do, "the disk is full: free space
and press ctrl+s again".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label, Select, Static, TextArea

from warmline import actions
from warmline.store.database import CacheDiskError, retrying
from warmline.tui.bindings import describe_binding, key_for
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain
from warmline.tui.screens.dialog_screen import DialogScreen
from warmline.tui.typeahead import TypeaheadForm
from warmline.tui.widgets.follow_up_field import FollowUpChoice, FollowUpField
from warmline.tui.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from warmline.tui.context import Cockpit
    from warmline.tui.drafts import Draft

ADD_CONTACT_BINDING = "detail.add_contact"
"""The lead page's binding that adds a key contact; the log form names its key."""


def bound_key(app: App[Any], binding_id: str) -> str | None:
    """The key `binding_id` has on the topmost open screen that has it (or the app), the
    rep's keymap applied (`key_for`): for words about a screen below a dialog, such as the
    lead page's key to add a contact named in its log form. None when nothing binds it."""
    for screen in reversed(app.screen_stack):
        try:
            return key_for(app, screen, binding_id)
        except KeyError:
            continue
    return None


Submit = Callable[[Any], "str | None"]
"""Runs the action with the form's values; returns an error message, or None when done."""


SEND = "dialog.send"
"""A form's send key (ctrl+s)."""


def send_binding(label: str) -> Binding:
    """A form's send key (ctrl+s, one id for the rep's keymap), named for what the form does:
    a dialog that exports or starts a search says so in its key bar rather than "Send"."""
    return Binding("ctrl+s,ctrl+enter", "send", label, priority=True, id=SEND)


CANCEL = "dialog.cancel"
"""A form's escape: "Cancel", or "Set aside" where it keeps the text (`escape_hint`)."""


def escape_hint(draft: Draft | None) -> str:
    """What escape does in a text form, for its hint line (a `FormDialog` hint template)."""
    return "{cancel} cancel" if draft is None else "{cancel} sets it aside"


class FormDialog(DialogScreen[bool], TypeaheadForm):  # DialogScreen first: Textual takes CSS from the first base
    """A titled form; ctrl+s sends, escape cancels; dismisses True once submitted."""

    DEFAULT_CSS = """
    FormDialog TextArea { height: 8; }
    FormDialog Horizontal { height: auto; }
    FormDialog Horizontal > Input { width: 1fr; }
    """

    BINDINGS = [
        send_binding("Send"),
        Binding("escape", "cancel", "Cancel", priority=True, id=CANCEL),
    ]

    def __init__(self, title: Text | str, submit: Submit, hint: str = "{send} send · {cancel} cancel") -> None:
        """`hint` is the line under the form; `{send}` and `{cancel}` in it become the rep's
        keys for sending and cancelling (the keymap applies to forms too)."""
        super().__init__()
        self._title = title if isinstance(title, Text) else Text(title)
        self._submit = submit
        self._hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._title, classes="dialog-title")
            yield from self.compose_fields()
            yield Static("", classes="dialog-error", id="dialog-error")
            yield Static(Text(self._hint_text()), classes="dialog-hint", id="dialog-hint")
        yield KeyBar()

    def _hint_text(self) -> str:
        return self._hint.format(send=key_for(self.app, self, SEND), cancel=key_for(self.app, self, CANCEL))

    def compose_fields(self) -> ComposeResult:
        yield from ()

    def values(self) -> Any:
        """What the form hands to `submit`."""
        return None

    def show_error(self, message: str) -> None:
        """Show why the form was not sent, as a sentence: the action's checks write "Target
        score must be…", a form's own "target score must be a whole number…"."""
        self.query_one("#dialog-error", Static).update(plain(message[:1].upper() + message[1:], multiline=True))

    def action_send(self) -> None:
        self.send(self.values())

    def send(self, values: Any) -> None:
        """Hand `values` to `submit`: close when done, else show its error. A disk that
        refused the write is an error like the others, retried with ctrl+s."""
        with retrying("press ctrl+s again"):
            try:
                error = self._submit(values)
            except CacheDiskError as refused:  # a submit that wrote without `perform`
                error = str(refused)
        if error:
            self.show_error(error)
        else:
            self.sent()
            self.dismiss(True)

    def sent(self) -> None:
        """The form was submitted and closes (a subclass lets go of what it kept)."""

    def action_cancel(self) -> None:
        self.dismiss(False)


@dataclass(frozen=True)
class TextValues:
    """A text form's values when it offers a follow-up (`follow_up_now` given)."""

    text: str
    follow_up: FollowUpChoice | None


class TextDialog(FormDialog):
    """Multi-line text (an activity or a note), with a live line under it (a guess, a count).

    Given `follow_up_now` (now in the rep's zone), it also shows the follow-up the text
    promises as the rep types (`FollowUpField`): ctrl+f drops or keeps it, a day typed
    under it replaces it, and the form then hands `TextValues` to `submit`.

    Given a `draft` (`warmline.tui.drafts`), closing it any way but by sending (escape, a
    quit) keeps the text there, and the form opens with it next time."""

    DEFAULT_CSS = """
    TextDialog.-follow-up TextArea { max-height: 25vh; }
    """
    """With the follow-up's two lines, the text gives up two on a 24-line terminal, so the
    error and help lines stay in view."""

    BINDINGS = [
        Binding("ctrl+f", "toggle_follow_up", "Follow-up on/off", priority=True, id="dialog.follow_up"),
    ]

    def __init__(
        self,
        title: Text | str,
        submit: Submit,
        *,
        initial: str = "",
        describe: Callable[[str], Text] | None = None,
        follow_up_now: Callable[[], datetime] | None = None,
        draft: Draft | None = None,
    ) -> None:
        kept = draft.text if draft is not None and not initial else ""
        if kept:
            title = Text.assemble(title, Text(" · your text from before", style="dim"))
        super().__init__(title, submit, f"{{send}} send · {escape_hint(draft)}")
        self._initial = initial or kept
        self._describe = describe
        self._follow_up_now = follow_up_now
        self._draft = draft
        self._text = self._initial
        """The text as last typed: still there when the form is taken down (`on_unmount`)."""
        self._sent = False
        if draft is not None:
            describe_binding(self, CANCEL, "Set aside")
        if follow_up_now is not None:
            self.add_class("-follow-up")


    def compose_fields(self) -> ComposeResult:
        yield from self.compose_text()
        yield from self.compose_follow_up()

    def compose_text(self) -> ComposeResult:
        yield TextArea(self._initial, soft_wrap=True, id="dialog-text")
        yield Static("", id="dialog-live", classes="dialog-hint")

    def compose_follow_up(self) -> ComposeResult:
        if self._follow_up_now is not None:
            yield FollowUpField(self._follow_up_now, id="dialog-follow-up")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_follow_up":
            return self._follow_up_now is not None
        return True

    def action_toggle_follow_up(self) -> None:
        self.query_one(FollowUpField).toggle()

    def follow_up(self) -> FollowUpChoice | None:
        """The follow-up to keep with the text, or None; ValueError when the day typed
        cannot be read (the form shows it and sends nothing)."""
        if self._follow_up_now is None:
            return None
        return self.query_one(FollowUpField).choice()

    def on_mount(self) -> None:
        text = self.query_one("#dialog-text", TextArea)
        text.move_cursor(text.document.end)  # typing goes on where the text left off
        text.focus()
        self._update_live(self._initial)

    @on(TextArea.Changed, "#dialog-text")
    def _changed(self, event: TextArea.Changed) -> None:
        self._text = event.text_area.text
        self._update_live(self._text)

    def _update_live(self, text: str) -> None:
        if self._describe is not None:
            self.query_one("#dialog-live", Static).update(self._describe(text))
        if self._follow_up_now is not None:
            self.query_one(FollowUpField).read(text)

    def values(self) -> str:
        return self.query_one("#dialog-text", TextArea).text.strip()

    def sent(self) -> None:
        self._sent = True
        self._keep_text()

    def action_cancel(self) -> None:
        self._keep_text()  # before the page below is shown again: it says what is kept
        super().action_cancel()

    def on_unmount(self) -> None:
        """Closed by a quit or a closed terminal too: the text is kept as escape keeps it."""
        self._keep_text()

    def _keep_text(self) -> None:
        """Keep the text for the form's next opening (`warmline.tui.drafts`); sent, drop it."""
        if self._draft is not None:
            self._draft.keep("" if self._sent else self._text)

    def action_send(self) -> None:
        if self._follow_up_now is None:
            super().action_send()
            return
        try:
            follow_up = self.follow_up()
        except ValueError as problem:
            self.show_error(str(problem))
            return
        self.send(TextValues(self.values(), follow_up))


@dataclass(frozen=True)
class ActivityValues:
    text: str
    contact_id: int | None
    follow_up: FollowUpChoice | None = None
    """The follow-up the rep kept (given `follow_up_now`)."""


class ActivityDialog(TextDialog):
    """An activity, and who it was with: one of the lead's key contacts or none (what
    `warmline log --contact` sets, the touchpoint's `contact_id`). Tab goes from the text
    to the contact; ctrl+s sends from either."""

    DEFAULT_CSS = """
    ActivityDialog #activity-contact { width: 1fr; }
    """

    def __init__(
        self,
        title: Text | str,
        submit: Submit,
        contacts: list[tuple[Text, int]],
        *,
        describe: Callable[[str], Text] | None = None,
        follow_up_now: Callable[[], datetime] | None = None,
        draft: Draft | None = None,
    ) -> None:
        """`contacts` are the lead's key contacts as (label, contact id), pinned first."""
        super().__init__(title, submit, describe=describe, follow_up_now=follow_up_now, draft=draft)
        self._contacts = contacts
        if contacts:
            to = "contact, another day" if follow_up_now is not None else "contact"
            self._hint = f"tab: {to} · {{send}} send · {escape_hint(draft)}"

    def compose_fields(self) -> ComposeResult:
        """The contact before the follow-up, so tab goes from the text to the contact."""
        yield from self.compose_text()
        if self._contacts:
            yield Label("With (optional: one of the lead's key contacts)")
            yield Select(self._contacts, prompt="No contact", id="activity-contact")
        else:
            key = bound_key(self.app, ADD_CONTACT_BINDING)
            adds = f" ({key} on the lead adds one)" if key else ""
            yield Static(Text(f"With: no key contacts known for this lead{adds}"), classes="dialog-hint")
        yield from self.compose_follow_up()

    @property
    def contact_id(self) -> int | None:
        if not self._contacts:
            return None
        chosen = self.query_one("#activity-contact", Select).value
        return chosen if isinstance(chosen, int) else None

    def action_send(self) -> None:
        try:
            follow_up = self.follow_up()
        except ValueError as problem:
            self.show_error(str(problem))
            return
        self.send(ActivityValues(self.values(), self.contact_id, follow_up))


LINE_HINT = "enter or {send} send · {cancel} cancel"


class LineDialog(FormDialog):
    """One or more single-line fields; enter in the last field sends.

    The fields scroll between the title and the error and help lines, so a long form (a
    record with its custom fields) keeps its error and help in view on a small terminal.
    """

    DEFAULT_CSS = """
    LineDialog #dialog-fields { height: auto; max-height: 60vh; }
    """

    def __init__(
        self,
        title: Text | str,
        submit: Submit,
        fields: list[tuple[str, str, str]],
        *,
        hint: str = LINE_HINT,
    ) -> None:
        """`fields` are (name, label, initial value); `name` is part of the input's id."""
        super().__init__(title, submit, hint=hint)
        self._fields = fields

    def compose_fields(self) -> ComposeResult:
        with VerticalScroll(id="dialog-fields"):
            for name, label, initial in self._fields:
                yield Label(Text(label))
                yield Input(initial, id=f"field-{name}")

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_send()

    def values(self) -> dict[str, str]:
        return {name: self.query_one(f"#field-{name}", Input).value.strip() for name, _, _ in self._fields}


@dataclass(frozen=True)
class DealValues:
    value: str
    currency: str
    won: bool
    lost: bool
    reason: str


OUTCOMES: list[tuple[str, str]] = [("Open", "open"), ("Won", "won"), ("Lost", "lost")]


class DealDialog(FormDialog):
    """Deal value and currency, won, or lost with a reason.

    The outcome is one choice shown as a word (Open, Won, Lost): two checkboxes drew the
    same mark for both and only colour told them apart.
    """

    DEFAULT_CSS = """
    DealDialog #deal-outcome { width: 24; }
    """

    def __init__(self, title: Text | str, submit: Submit, current: DealValues) -> None:
        super().__init__(title, submit)
        self._current = current

    def compose_fields(self) -> ComposeResult:
        current = self._current
        yield Label("Value and currency (ISO 4217, e.g. EUR)")
        with Horizontal():
            yield Input(current.value, placeholder="24000", id="deal-value")
            yield Input(current.currency, placeholder="none", id="deal-currency", max_length=3)
        yield Label("Outcome")
        outcome = "won" if current.won else "lost" if current.lost else "open"
        yield Select(OUTCOMES, value=outcome, allow_blank=False, id="deal-outcome")
        yield Label("Reason (when lost)")
        yield Input(current.reason, id="deal-reason")

    def on_mount(self) -> None:
        self.query_one("#deal-value", Input).focus()

    @property
    def outcome(self) -> str:
        return str(self.query_one("#deal-outcome", Select).value)

    def values(self) -> DealValues:
        return DealValues(
            value=self.query_one("#deal-value", Input).value.strip(),
            currency=self.query_one("#deal-currency", Input).value.strip().upper(),
            won=self.outcome == "won",
            lost=self.outcome == "lost",
            reason=self.query_one("#deal-reason", Input).value.strip(),
        )


class ConfirmDialog(DialogScreen[bool]):
    """A yes/no question; `y` confirms, `n` or escape declines.

    The box has a width of its own: its lines fill their container, so a box sized to
    its content (`width: auto`) would collapse to nothing and hide the question.
    """

    DEFAULT_CSS = """
    ConfirmDialog > Vertical { max-width: 80; max-height: 100%; border: round $warning; padding: 1 2; }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: Text) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._question, id="confirm-question")
            yield Static(Text(f"{key_for(self.app, self, 'confirm.yes')} yes · {key_for(self.app, self, 'confirm.no')} no",
                              style="dim"))
        yield KeyBar()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def confirm_lead_removal(cockpit: Cockpit, lead_id: int, company_name: str, removed: Callable[[], None]) -> None:
    """Ask, then take a lead out of outreach; `removed` runs once the removal is queued.

    The one removal question of the cockpit (lead list, lead page, company page). It names
    the company, so a slip onto the wrong row is caught, and says only what the spec says
    removal does besides: a site signal slot, taken when a signal scan was started, is
    freed. The removal is queued like every change, so it works offline.
    """
    question = Text("Remove ").append_text(plain(company_name, "bold"))
    question.append(" from outreach?\nIf a signal scan was started for it, its site signal slot is freed.")

    def answered(yes: bool | None) -> None:
        if not yes:
            return
        try:
            cockpit.decide(f"removal of {company_name}", actions.remove_leads, [lead_id])
        except ActionRefused as refused:
            cockpit.notify_plain(str(refused), severity="warning")
            return
        said = f"{company_name} removed from outreach; the service is told at the next sync"
        if cockpit.config.undo_seconds > 0:
            said += f" ({cockpit.key_of('app.undo')} undoes it within {cockpit.config.undo_seconds:g} s)"
        cockpit.notify_plain(said + ".")
        removed()

    cockpit.push_screen(ConfirmDialog(question), answered)
