"""The command palette (ctrl+p): every action of the current screen, and the themes.

One provider serves every screen: it offers what `screen_bindings` lists (the help screen's
list), so an action with a key on any part of the screen, shown in the key bar or not, is
found by name wherever the focus is, and one that makes no sense now (its screen's
`check_action` says so) is not offered.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from warmline.tui.bindings import screen_bindings


class ScreenActions(Provider):
    """Offers each action of the screen the palette was opened on, by its description."""

    def _commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        commands: list[tuple[str, str, Callable[[], object]]] = []
        for entry in screen_bindings(self.app, self.screen):
            if not entry.enabled or entry.action.endswith("command_palette"):
                continue
            run = partial(self.app.run_action, entry.action, entry.node)
            keys = f"key: {entry.keys_display}" + (f" ({entry.where})" if entry.where else "")
            commands.append((entry.description, keys, run))
        for name in getattr(self.app, "offered_themes", ()):  # the cockpit's (app.py imports us)
            commands.append((f"Theme: {name}", "switch the colour theme", partial(setattr, self.app, "theme", name)))
        return commands

    async def discover(self) -> Hits:
        for title, help_text, run in self._commands():
            yield DiscoveryHit(title, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, run in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), run, help=help_text)
