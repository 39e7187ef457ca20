"""The bindings a screen really answers to, for the help screen and the command palette.

Both are built from the live binding chain (focused widget, screen, app) after the
rep's keymap is applied, so they can never disagree with what the keys do.

Every action of the screen is listed, not only those whose key works where the focus is
now: a screen key that the focused widget takes over (`p` in the competitors table, a
letter typed into a field) and a key of another part of the screen that acts on the screen
(the competitors table's `p`) are listed too, with `where` saying where their key works;
the palette runs them from anywhere. A widget's keys that move the widget itself (a
table's `j`) are listed only while it has focus.

Each entry says where its key comes from, so the help screen can put the cockpit's own keys
(this screen's, then those that work everywhere) before the ones Textual brings with its
widgets (scroll left, focus next, copy), which the rep rarely needs.
"""

from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from typing import Any

from textual.app import App
from textual.binding import ActiveBinding, Binding, BindingsMap
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widget import Widget

from warmline.named_tuple import NamedTuple


class BindingEntry(NamedTuple):
    """One action of the current screen and every key that triggers it."""

    keys: tuple[str, ...]
    description: str
    action: str
    binding_id: str | None
    node: DOMNode
    enabled: bool
    builtin: bool
    """Declared by Textual itself (one of its widgets, `Screen` or `App`), not by the cockpit."""
    where: str = ""
    """Empty when the keys work where the focus is now; else where they do ("in the competitors
    table") or where they do not ("not in the competitors table")."""

    @property
    def app_wide(self) -> bool:
        """Bound on the app, so the key works on every screen."""
        return isinstance(self.node, App)

    @property
    def keys_display(self) -> str:
        return " / ".join(self.keys)


def screen_bindings(app: App[Any], screen: Screen[Any]) -> list[BindingEntry]:
    """Every described action of `screen`, one entry per action: first those of the binding
    chain (focused widget, its containers, the screen, the app) in chain order, then those
    of the screen's other widgets that act on the screen or the app."""
    active = screen.active_bindings
    entries: dict[tuple[int, str, str], BindingEntry] = {}
    chain = _binding_chain(app, screen)
    for node, bindings in chain:
        for key, binding in bindings:
            where = _where_shadowed(screen, key, node, binding, active.get(key))
            if where is not None:
                _add(entries, app, node, key, binding, where)
    in_chain = {id(node) for node, _ in chain}
    for widget in screen.walk_children(Widget):
        if id(widget) in in_chain or not widget.focusable:
            continue
        for key, binding in _keymapped(app, widget._bindings):
            target, _, _ = app._parse_action(binding.action, widget)
            if target is not widget:  # a key that moves the widget itself needs its focus
                _add(entries, app, widget, key, binding, f"in {place_of(widget)}")
    return [entry for entry in entries.values() if not (entry.where and entry.builtin)]


SPOKEN = {
    "plus": "+", "minus": "-", "full_stop": ".", "comma": ",", "slash": "/", "question_mark": "?",
    "escape": "esc",
}
"""Keys a sentence writes otherwise than Textual names them: as their character, and
escape as the key bar and the keyboard write it."""


def key_for(app: App[Any], node: DOMNode, binding_id: str) -> str:
    """The key a hint names for the binding `binding_id` of `node` (a screen or one of its
    widgets) or, failing that, of the app, as a sentence writes it ("R", "+", "space"), the
    rep's keymap applied. Hints on screens take their keys from here rather than writing
    them out, which a remapped key would make wrong. No such binding is a bug: KeyError."""
    for owner in (node, app):
        for key, binding in _keymapped(app, owner._bindings):
            if binding.id == binding_id:
                return SPOKEN.get(key, key)
    raise KeyError(binding_id)


def class_key(app: App[Any], owner: type[DOMNode], binding_id: str) -> str:
    """As `key_for`, for a binding of a screen that is not open: a hint that sends the rep
    to another screen ("R on its page") names the key that screen would take."""
    return _key_of(app, owner._merge_bindings(), binding_id)


def binding_key(app: App[Any], binding: Binding) -> str:
    """As `class_key`, for a binding declared apart from its screen, where a module the
    screen imports writes a hint that names it (importing the screen would be a cycle)."""
    if binding.id is None:
        raise KeyError(binding.key)
    return _key_of(app, BindingsMap([binding]), binding.id)


def _key_of(app: App[Any], bindings: BindingsMap, binding_id: str) -> str:
    for key, binding in _keymapped(app, bindings):
        if binding.id == binding_id:
            return SPOKEN.get(key, key)
    raise KeyError(binding_id)


def describe_binding(node: DOMNode, binding_id: str, description: str) -> None:
    """Name `node`'s binding `binding_id` `description` in this node alone (its key bar,
    help and palette): a class's bindings are shared, and one form's escape keeps the text
    where another's cancels. The rep's keymap still applies: it goes by the id."""
    bindings = node._bindings.key_to_bindings
    for key, items in bindings.items():
        bindings[key] = [
            replace(binding, description=description) if binding.id == binding_id else binding
            for binding in items
        ]


def place_of(node: DOMNode) -> str:
    """How the help and the palette name a part of the screen: its `PLACE` ("the competitors
    table"), else its id."""
    place = getattr(node, "PLACE", None)
    if isinstance(place, str) and place:
        return place
    return (node.id or type(node).__name__).replace("-", " ")


def _binding_chain(app: App[Any], screen: Screen[Any]) -> list[tuple[DOMNode, BindingsMap]]:
    """Textual's binding chain (up to a modal screen), keymap applied, but with the keys
    that the focused widget consumes (letters in a text field) still in it."""
    focused = screen.focused
    nodes: Iterable[DOMNode] = (
        (screen, app) if focused is None or focused.loading else focused.ancestors_with_self
    )
    chain: list[tuple[DOMNode, BindingsMap]] = []
    for node in nodes:
        chain.append((node, _keymapped(app, node._bindings)))
        if node.is_modal:
            break
    return chain


def _keymapped(app: App[Any], bindings: BindingsMap) -> BindingsMap:
    bindings = bindings.copy()
    if app._keymap:
        bindings.apply_keymap(app._keymap)
    return bindings


def _where_shadowed(
    screen: Screen[Any], key: str, node: DOMNode, binding: Binding, live: ActiveBinding | None
) -> str | None:
    """An empty string when `key` triggers `binding` now, else where it does not; None when
    neither says anything the rep can use (a second binding of the key on the same node).

    A key that one of Textual's widgets binds too still reaches the screen: the widget hands
    it on (enter on a table row selects it, and the screen opens the row)."""
    if live is not None and live.node is node and live.binding == binding:
        return ""
    if live is not None and _is_textuals(live.node, live.binding) and not _is_textuals(node, binding):
        return ""
    focused = screen.focused
    if live is None and focused is not None and focused.check_consume_key(key, key_to_character(key)):
        return "not while typing in a field"
    if live is not None and isinstance(live.node, Widget) and not isinstance(live.node, Screen):
        return f"not in {place_of(live.node)}"
    return None


def _add(
    entries: dict[tuple[int, str, str], BindingEntry],
    app: App[Any],
    node: DOMNode,
    key: str,
    binding: Binding,
    where: str,
) -> None:
    """Adds `binding` under its action; a second key of the same action joins the first."""
    if not binding.description or binding.system:
        return
    state = app._check_action_state(binding.action, node)
    if state is False:  # the action makes no sense now
        return
    target, name, parameters = app._parse_action(binding.action, node)
    group = (id(target), name, repr(parameters))
    display = app.get_key_display(Binding(key, binding.action, key_display=binding.key_display))
    known = entries.get(group)
    if known is None:
        entries[group] = BindingEntry(
            keys=(display,),
            description=binding.description,
            action=binding.action,
            binding_id=binding.id,
            node=node,
            enabled=bool(state),
            builtin=_is_textuals(node, binding),
            where=where,
        )
    elif known.where == where and display not in known.keys:
        builtin = known.builtin and _is_textuals(node, binding)
        entries[group] = known._replace(
            keys=known.keys + (display,), binding_id=known.binding_id or binding.id, builtin=builtin
        )


def _is_textuals(node: DOMNode, binding: Binding) -> bool:
    """Whether `binding` is one of those Textual's own classes in `node`'s ancestry declare.

    A key the rep remapped is a new binding, so it is never taken for Textual's.
    """
    return binding in _textual_bindings(type(node))


@cache
def _textual_bindings(node_class: type[DOMNode]) -> frozenset[Binding]:
    declared: set[Binding] = set()
    for klass in node_class.__mro__:
        if klass.__module__.split(".")[0] == "textual":
            declared.update(Binding.make_bindings(klass.__dict__.get("BINDINGS", [])))
    return frozenset(declared)
