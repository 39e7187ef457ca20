"""The outbox: what is still to be delivered, and what the service refused and why.

Nothing is ever dropped silently: a failed op stays here with the server's message until
the rep retries it (after fixing the cause), edits it (re-validated), or discards it
(which reverts its local effect).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from warmline import actions
from warmline.actions.queue import editable_fields
from warmline.numbers import decimal_number, whole_number
from warmline.ops.kinds import OpKind
from warmline.store.outbox import DISCARDABLE
from warmline.tui.columns import Column
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen
from warmline.tui.screens.dialogs import ConfirmDialog, LineDialog, TextDialog
from warmline.tui.timefmt import logged_ago
from warmline.tui.widgets.tables import RowTable
from warmline.vocabulary import recommendation_action

if TYPE_CHECKING:
    from warmline.store import Op, Store

P = ParamSpec("P")

STATE_LABELS = {
    "pending": ("pending", "yellow"),
    "in_flight": ("sending", "cyan"),
    "ambiguous": ("checking", "cyan"),
    "failed": ("FAILED", "bold red"),
    "done": ("delivered", "green"),
}
TEXT_FIELDS = ("description", "content")


RECOMMENDATION_KINDS = (OpKind.COMPLETE_RECOMMENDATION, OpKind.DISMISS_RECOMMENDATION)
HIDDEN_FIELDS = ("lead_id", "recommendation_id", "local_id")  # the Lead column and the card say them; a local id is ours
FIRST_WORDS = 60


def first_words(text: str, limit: int = FIRST_WORDS) -> str:
    """The start of a note or an activity, cut at a word, on one line."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line[: limit - 1].rsplit(" ", 1)[0] or line[: limit - 1]
    return cut + "…"


def op_summary(op: Op, store: Store) -> Text:
    """What the op is about, in the rep's words: the card's action for a decision on a
    recommendation, the first words of a note or an activity, else its changed values."""
    payload = op.payload or {}
    rec_id = payload.get("recommendation_id")
    if op.kind in RECOMMENDATION_KINDS and isinstance(rec_id, int):
        rec = store.cached_recommendation(rec_id)
        if rec is None:
            return Text("a card no longer in the cache", style="dim")
        return plain(recommendation_action(rec.action_type) or "Card")
    for field in TEXT_FIELDS:
        text = payload.get(field)
        if text:
            return plain(first_words(str(text)))
    shown = {
        k: v for k, v in payload.items() if not isinstance(v, (dict, list)) and k not in HIDDEN_FIELDS
    }
    return plain(", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in shown.items()))


def kind_label(kind: str) -> str:
    return kind.replace("_", " ")


class OutboxScreen(CockpitScreen):
    """Queued and failed ops, oldest first."""

    CSS_PATH = STYLES / "outbox.tcss"  # loaded when the screen is first shown, not at start-up

    SCREEN_TITLE = "Outbox"

    BINDINGS = [
        # Not `r`: that is the app's key for the recommendations, which must work here too.
        Binding("R", "retry", "Retry", id="outbox.retry"),
        Binding("e", "edit", "Edit", id="outbox.edit"),
        Binding("D", "discard", "Discard", id="outbox.discard"),
        Binding("ctrl+d", "discard_all", "Discard all", id="outbox.discard_all"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.ops: list[Op] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys with nothing to act on leave the key bar: Retry without a failed op, Edit
        and Discard on an empty outbox."""
        if action == "retry":
            return any(op.state == "failed" for op in self.ops)
        if action in ("edit", "discard"):
            return bool(self.ops)
        if action == "discard_all":
            return bool(self._discardable())
        return True

    def compose_body(self) -> ComposeResult:
        yield RowTable(("State", Column("Action", min_width=10), Column("Lead"), Column("What"), "Tries", "Queued"), id="outbox-table")
        yield Static(id="outbox-error", classes="outbox-error")
        yield Static(id="outbox-empty", classes="empty-state")

    def on_mount(self) -> None:
        table = self.query_one("#outbox-table", RowTable)
        self.reload()
        table.focus()

    def reload(self) -> None:
        # Failed ops first: they are the ones that need the rep.
        self.ops = sorted(self.cockpit.store.outbox_rows(), key=lambda op: (op.state != "failed", op.seq))
        table = self.query_one("#outbox-table", RowTable)
        now, zone = self.cockpit.clock(), self.cockpit.zone
        names: dict[int, str] = {}
        table.fill([
            (
                op.op_id,
                [
                    Text(*STATE_LABELS.get(op.state, (op.state, ""))),
                    Text(kind_label(op.kind)),
                    plain(self._lead_name(op.lead_id, names)),
                    op_summary(op, self.cockpit.store),
                    Text(str(op.attempts)),
                    Text(logged_ago(op.created_at, now, zone)),
                ],
            )
            for op in self.ops
        ])
        failed = sum(1 for op in self.ops if op.state == "failed")
        title = Text().append(f"Outbox · {len(self.ops) - failed} to deliver", style="bold")
        if failed:
            title.append(f" · {failed} failed, need you", style="bold red")
        self.set_title_text(title)
        table.display = bool(self.ops)
        empty = self.query_one("#outbox-empty", Static)
        empty.display = not self.ops
        empty.update(Text("The outbox is empty: everything you did has reached the service."))
        self._show_error()
        self.refresh_bindings()

    def _lead_name(self, lead_id: int | None, cache: dict[int, str]) -> str:
        if lead_id is None:
            return ""
        if lead_id not in cache:
            lead = self.cockpit.store.get_lead(lead_id)
            cache[lead_id] = lead.company_name if lead is not None else f"lead {lead_id}"
        return cache[lead_id]

    @property
    def current(self) -> Op | None:
        key = self.query_one("#outbox-table", RowTable).current_key
        return next((op for op in self.ops if op.op_id == key), None)

    def on_data_table_row_highlighted(self) -> None:
        self._show_error()

    def _show_error(self) -> None:
        op = self.current
        panel = self.query_one("#outbox-error", Static)
        if op is None or not op.last_error:
            panel.display = False
            return
        panel.display = True
        # Our own lines about the service ("The service accepted the request but ...") say
        # who spoke; the service's own messages get the prefix.
        said = "" if op.last_error.startswith("The service ") else "The service said: "
        text = Text().append(said, style="bold")
        text.append_text(plain(op.last_error, multiline=True))
        if op.state == "failed":
            key = self.key
            text.append(f"\n{key('outbox.retry')} retry · {key('outbox.edit')} edit · {key('outbox.discard')} discard"
                        " (reverts it here)", style="dim")
        panel.update(text)

    def _run(
        self, action: Callable[Concatenate[Store, P], object], *args: P.args, **changes: P.kwargs
    ) -> str | None:
        """Run an outbox action; the refusal message, or None when done."""
        try:
            self.cockpit.perform(action, *args, **changes)
        except ActionRefused as refused:
            return str(refused)
        self.reload()
        return None

    def action_retry(self) -> None:
        op = self.current
        if op is None:
            return
        if op.state != "failed":
            self.cockpit.notify_plain("Only a failed op needs a retry; this one is still queued.")
            return
        error = self._run(actions.retry, op.op_id)
        if error:
            self.cockpit.notify_plain(error, severity="warning")

    def action_edit(self) -> None:
        op = self.current
        if op is None:
            return
        if op.state not in ("failed", "pending"):
            self.cockpit.notify_plain("This op is being delivered; it can be edited only if it fails.")
            return
        payload = dict(op.payload or {})
        title = Text(f"Edit {kind_label(op.kind)}")
        fields = editable_fields(op.kind)
        text_field = next((name for name in TEXT_FIELDS if name in fields), None)
        if text_field is not None:
            def submit_text(text: str) -> str | None:
                return self._run(actions.edit_op, op.op_id, **{text_field: text})

            initial = safe_text(payload.get(text_field) or "", multiline=True)
            self.app.push_screen(TextDialog(title, submit_text, initial=initial))
            return
        scalars = [
            (name, name.replace("_", " "), "" if payload.get(name) is None else str(payload[name]))
            for name in fields
            if not isinstance(payload.get(name), (bool, dict, list))
        ]
        if not scalars:
            self.cockpit.notify_plain("Nothing of this op can be edited; retry or discard it.")
            return

        def submit_fields(values: dict[str, str]) -> str | None:
            changes = {k: v for k, v in coerce(payload, values).items() if v != payload.get(k)}
            return self._run(actions.edit_op, op.op_id, **changes) if changes else None

        self.app.push_screen(LineDialog(title, submit_fields, scalars))

    def action_discard(self) -> None:
        op = self.current
        if op is None:
            return
        names: dict[int, str] = {}
        lead = self._lead_name(op.lead_id, names)
        on_lead = f" on {safe_text(lead)}" if lead else ""
        question = Text().append(f"Discard this {kind_label(op.kind)}{on_lead}? ", style="bold")
        question.append_text(op_summary(op, self.cockpit.store))
        question.append("\nIts local effect is reverted; the service never sees it.")

        def answered(yes: bool | None) -> None:
            if yes:
                error = self._run(actions.discard, op.op_id)
                if error:
                    self.cockpit.notify_plain(error, severity="warning")

        self.app.push_screen(ConfirmDialog(question), answered)

    def _discardable(self) -> list[Op]:
        return [op for op in self.ops if op.state in DISCARDABLE]

    def action_discard_all(self) -> None:
        count = len(self._discardable())
        if not count:
            return
        sending = len(self.ops) - count
        every = "" if sending else "all "
        question = Text().append(
            f"Discard {every}{count} {'action' if count == 1 else 'actions'} in the outbox?", style="bold"
        )
        effects, them = ("Its local effect is", "it") if count == 1 else ("Their local effects are", "them")
        question.append(f"\n{effects} reverted; the service never sees {them}.")
        if sending:
            question.append(f"\n{sending} being sent now cannot be discarded and stay{'s' if sending == 1 else ''}.")

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                done = self.cockpit.perform(actions.discard_all)
            except ActionRefused as refused:
                self.cockpit.notify_plain(str(refused), severity="warning")
                return
            self.reload()
            self.cockpit.notify_plain(f"Discarded {done} {'action' if done == 1 else 'actions'}; their local effects were reverted.")

        self.app.push_screen(ConfirmDialog(question), answered)


def coerce(original: dict[str, Any], edited: dict[str, str]) -> dict[str, Any]:
    """Edited strings back to the types the payload had (numbers stay numbers)."""
    result: dict[str, Any] = {}
    for key, text in edited.items():
        before = original.get(key)
        if before is None or isinstance(before, str):
            result[key] = text if text or isinstance(before, str) else None
        elif isinstance(before, int):
            number = whole_number(text)
            result[key] = number if number is not None else text
        elif isinstance(before, float):
            decimal = decimal_number(text)  # ASCII digits only, finite (`warmline.numbers`)
            result[key] = decimal if decimal is not None else text
    return result
