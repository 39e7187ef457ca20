"""The bindings a screen really answers to, for the help screen and the command palette.

Both are built from the live binding chain (focused widget, screen, app) after the
rep's keymap is applied, so they can never disagree with what the keys do.

Each entry says where its key comes from, so the help screen can put the cockpit's own keys
(this screen's, then those that work everywhere) before the ones Textual brings with its
widgets (scroll left, focus next, copy), which the rep rarely needs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen


@dataclass(frozen=True)
class BindingEntry:
    """One action of the current screen and every key that triggers it."""

    keys: tuple[str, ...]
    description: str
    action: str
    binding_id: str | None
    node: DOMNode
    enabled: bool
    builtin: bool
    """Declared by Textual itself (one of its widgets, `Screen` or `App`), not by the cockpit."""

    @property
    def app_wide(self) -> bool:
        """Bound on the app, so the key works on every screen."""
        return isinstance(self.node, App)

    @property
    def keys_display(self) -> str:
        return " / ".join(self.keys)


def screen_bindings(app: App, screen: Screen) -> list[BindingEntry]:
    """Every described binding active on `screen`, one entry per action, in chain order."""
    grouped: dict[tuple[int, str], BindingEntry] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description or binding.system:
            continue
        display = app.get_key_display(Binding(key, binding.action, key_display=binding.key_display))
        group = (id(active.node), binding.action)
        known = grouped.get(group)
        if known is None:
            grouped[group] = BindingEntry(
                keys=(display,),
                description=binding.description,
                action=binding.action,
                binding_id=binding.id,
                node=active.node,
                enabled=active.enabled,
                builtin=_is_textuals(active.node, binding),
            )
        else:
            keys = known.keys if display in known.keys else known.keys + (display,)
            builtin = known.builtin and _is_textuals(active.node, binding)
            grouped[group] = replace(known, keys=keys, binding_id=known.binding_id or binding.id, builtin=builtin)
    return list(grouped.values())


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
