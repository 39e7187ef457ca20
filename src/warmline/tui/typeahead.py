"""Keys typed while a form opens go into the form, in the order typed.

Textual hands each key to the widget focused when the app reads it. After `a` on a lead,
the activity form is pushed, but its text area is composed, mounted and focused a few
event-loop turns later: keys read meanwhile went to the lead page's widget or to the bare
form, and were lost ("fast-1" typed at once after `a` vanished), and a ctrl+s and a second
`a` typed fast could reach a form that was already closing, so two activities became one
("fast-1afast-2").

So, while a form (`TypeaheadForm`) is opening, the app holds the keys it reads; once the
form has focused its field, it replays them one at a time, each only after the widget it
went to has handled the one before (a key that opens another form waits for that form in
turn). A key bound at the app or form level (ctrl+s, escape) runs in its place in the line.
The opener's key must itself be a priority binding (`LeadDetailScreen`'s `a` and `n`), so
the form is pushed when the app reads that key, before it reads the next one.

A hold never outlasts `HOLD_LIMIT` seconds (a form that never mounts): the keys are then
replayed to whatever has the focus, as before.

Enter typed before the cockpit has the terminal (while `warmline` starts) arrives as a line
feed: the terminal was still in line mode, whose `ICRNL` turns Enter's carriage return
into one, and Textual reads a line feed as ctrl+j. `L j Enter` typed at once after
`warmline` opened the list, moved, and then did nothing. Nothing in the cockpit or in
Textual's widgets binds ctrl+j, so the app reads it as Enter (`as_typed`).

The same line keeps a burst in order with no form at all. Textual runs a priority binding
(Today's `enter`) when the app reads the key, but hands other keys to the focused widget's
queue: `j j enter` typed at once opened the row under the cursor before the table had
handled the two moves (a widget's own bindings run only when the key has bubbled up to
the app). So a key read while the one before is still on its way from the widget up to the
app waits its turn too.
"""

from __future__ import annotations

from collections import deque
from functools import partial
from typing import Any

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget

HOLD_LIMIT = 2.0
"""Seconds keys are held at most for one form that does not say it is ready."""
Held = events.Key | events.Paste
LINE_FEED = "ctrl+j"


def as_typed(event: Held) -> Held:
    """The key the rep typed: Enter for a line feed (see the module's docstring)."""
    if isinstance(event, events.Key) and event.key == LINE_FEED:
        return events.Key("enter", "\r")
    return event


class TypeaheadForm(Screen[Any]):
    """A form whose first field takes what is typed while it opens: pushing it holds the
    app's keys (`TypeaheadApp`), and it releases them once mounted and focused. A subclass
    focuses its field in its own `on_mount`, which runs before this one."""

    def on_mount(self) -> None:
        # After the subclass's on_mount, whose focus() is an app callback queued first.
        self.app.call_later(self._typeahead_ready)

    def on_unmount(self) -> None:
        self._typeahead_ready()  # closed before it was ready: never keep the keys

    def _typeahead_ready(self) -> None:
        app = self.app
        if isinstance(app, TypeaheadApp):
            app.form_ready(self)


class TypeaheadApp(App[Any]):
    """The app side: holds keys while a `TypeaheadForm` opens, then replays them in order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._typeahead: deque[Held] | None = None
        self._opening: Screen[Any] | None = None
        self._stepping = 0  # the key being handled (a count), 0 when none
        self._step = 0

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(screen, TypeaheadForm):
            self._hold_for(screen)
        return super().push_screen(screen, *args, **kwargs)

    def _hold_for(self, form: TypeaheadForm) -> None:
        if self._typeahead is None:
            self._typeahead = deque()
        self._opening = form
        self.set_timer(HOLD_LIMIT, lambda: self.form_ready(form))

    def form_ready(self, form: Screen[Any]) -> None:
        """`form` has focused its field (or is gone): replay what was held for it."""
        if self._opening is form:
            self._opening = None
            self.call_later(self._replay)

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, Held) or event.is_forwarded:
            await super().on_event(event)
            return
        event = as_typed(event)
        if self._typeahead is not None:
            self._typeahead.append(event)  # read while a form opens, or before earlier keys were replayed
        elif self._stepping:
            self._typeahead = deque([event])  # the widget has not handled the key before: wait
            self.set_timer(HOLD_LIMIT, partial(self._handled, self._stepping))
        else:
            target: Widget = self.focused or self.screen
            await super().on_event(event)
            if event.is_forwarded:  # not taken by a priority binding: in the widget's queue
                self._track(target)

    async def _replay(self) -> None:
        """Hand the held keys on, one at a time; stop while a form opens or a key is being
        handled (`_handled` calls back); stop holding when none is left."""
        while self._typeahead and self._opening is None and not self._stepping:
            event = self._typeahead.popleft()
            if isinstance(event, events.Key) and await self._check_bindings(event.key, priority=True):
                continue  # ctrl+s, escape, or a key that pushed another form (then _opening is set)
            target: Widget = self.focused or self.screen
            target._forward_event(event)
            if self._track(target):
                self.set_timer(HOLD_LIMIT, partial(self._handled, self._stepping))  # a widget closed meanwhile
        if not self._typeahead and self._opening is None and not self._stepping:
            self._typeahead = None

    def _track(self, target: Widget) -> bool:
        """Note that `target` has a key to handle: `_handled` runs once the key has been
        through `target` and each node it bubbles to, the app's bindings last."""
        if not target.is_attached:
            return False
        step = self._step = self._step + 1
        self._stepping = step
        self._after(target, step, first=True)
        return True

    def _after(self, node: MessagePump, step: int, first: bool = False) -> None:
        """Follow key `step` up the DOM: a callback queued at each node runs after the node
        has handled the key (and passed it on), so the app's callback runs after its own
        handling of the key: its bindings."""
        parent = node if first else node._parent
        if parent is None or self._stepping != step:
            self._handled(step)
        elif parent is self:
            self.call_later(self._handled, step)
        elif not parent.call_later(self._after, parent, step):
            self._handled(step)  # a node closing: it will pass nothing on

    def _handled(self, step: int) -> None:
        """Run by the widget that took key `step`, once it has: on to the next one."""
        if self._stepping == step:
            self._stepping = 0
            self.call_later(self._replay)
