"""The bottom line of key hints: one widget drawing the screen's shown bindings.

Textual's `Footer` mounts a widget per key and re-composes them whenever focus moves;
on a screen the rep drives by keyboard all day, one line of text is enough and costs a
repaint instead of a re-layout.
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget):
    """`c Complete  x Dismiss  …  ^p palette`, from the live bindings (keymap included)."""

    DEFAULT_CSS = """
    KeyBar {
        height: 1;
        width: 1fr;
        background: $footer-background;
        color: $footer-description-foreground;
    }
    KeyBar > .key-bar--key {
        color: $footer-key-foreground;
        text-style: bold;
    }
    """

    COMPONENT_CLASSES = {"key-bar--key"}

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen:
            self.refresh()

    def render(self) -> Text:
        key_style = self.get_component_rich_style("key-bar--key")
        line = Text(no_wrap=True, overflow="ellipsis")
        shown: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not binding.description or binding.action in shown:
                continue
            shown.add(binding.action)
            display = self.app.get_key_display(Binding(key, binding.action, key_display=binding.key_display))
            line.append(f" {display} ", key_style)
            line.append(binding.description + " ", style="" if active.enabled else "dim")
        palette = self.app.get_key_display(Binding(self.app.COMMAND_PALETTE_BINDING, "command_palette"))
        line.append(f" {palette} ", key_style)
        line.append("palette")
        return line
