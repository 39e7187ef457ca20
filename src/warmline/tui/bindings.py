"""The bindings a screen really answers to, for the help screen and the command palette.

Both are built from the live binding chain (focused widget, screen, app) after the
rep's keymap is applied, so they can never disagree with what the keys do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
            )
        else:
            keys = known.keys if display in known.keys else known.keys + (display,)
            grouped[group] = replace(known, keys=keys, binding_id=known.binding_id or binding.id)
    return list(grouped.values())
