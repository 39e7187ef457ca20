"""The bottom line of key hints: one widget drawing the screen's shown bindings.

Textual's `Footer` mounts a widget per key and re-composes them whenever focus moves;
on a screen the rep drives by keyboard all day, one line of text is enough and costs a
repaint instead of a re-layout.

When the keys do not all fit, the bar ends with `…  ? more  ^p palette` (room for it is
always kept) rather than a key cut in half, so the rep knows there are more and which key
lists them all.
"""

from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget

from warmline.named_tuple import NamedTuple


class KeyHint(NamedTuple):
    """One key on the bar: what to press, what it does, and whether it does it now."""

    key: str
    description: str
    action: str = ""
    enabled: bool = True


class KeyBar(Widget):
    """`c Complete  x Dismiss  …  ^p palette`, from the live bindings (keymap included)."""

    DEFAULT_CSS = """
    KeyBar {
        height: 1;
        width: 1fr;
        background: $footer-background;
        color: $footer-description-foreground;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    KEY_STYLE = "$footer-key-foreground bold"
    """A key's look: a style of the line's `Content`, which Textual resolves as it draws (a
    component class is built before the first frame, as `StatusLine.ROLE_STYLES` says)."""

    _drawn: list[KeyHint] | None = None
    """The keys as last drawn."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        # Today asks again at every cursor move: the bar is drawn only if its keys changed.
        if screen is self.screen and self._hints() != self._drawn:
            self.refresh()

    def render(self) -> Content:
        hints = self._drawn = self._hints()
        palette = self.app.get_key_display(Binding(self.app.COMMAND_PALETTE_BINDING, "command_palette"))
        tail = [KeyHint(palette, "palette")]
        line = self._line(hints + tail)
        if line.cell_length <= self.size.width:
            return line
        # Too many keys for the line: drop from the end, and say there are more and where to
        # read them all (the help key, as the rep's keymap has it), with room kept for that.
        more = [KeyHint("…", "")]
        help_keys = [hint.key for hint in hints if hint.action == "help"]
        if help_keys:
            more.append(KeyHint(help_keys[0], "more"))
        kept = [hint for hint in hints if hint.action != "help"]  # the marker names its key
        while kept and self._line(kept + more + tail).cell_length > self.size.width:
            kept.pop()
        return self._line(kept + more + tail)

    def _hints(self) -> list[KeyHint]:
        """The shown bindings of the screen, one per action, in the binding chain's order."""
        hints: list[KeyHint] = []
        shown: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not binding.description or binding.action in shown:
                continue
            shown.add(binding.action)
            display = self.app.get_key_display(Binding(key, binding.action, key_display=binding.key_display))
            hints.append(KeyHint(display, binding.description, binding.action, active.enabled))
        return hints

    def _line(self, hints: list[KeyHint]) -> Content:
        parts: list[tuple[str, str]] = []
        for hint in hints:
            parts.append((f" {hint.key} ", self.KEY_STYLE))
            if hint.description:
                parts.append((hint.description + " ", "" if hint.enabled else "dim"))
        return Content.assemble(*parts).rstrip()
