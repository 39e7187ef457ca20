"""The command palette (ctrl+p): every action of the current screen, and the themes."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from warmline.tui.bindings import screen_bindings


class ScreenActions(Provider):
    """Offers each binding of the screen the palette was opened on, by its description."""

    def _commands(self) -> list[tuple[str, str, object]]:
        commands = []
        for entry in screen_bindings(self.app, self.screen):
            if not entry.enabled:
                continue
            run = partial(self.app.run_action, entry.action, entry.node)
            commands.append((entry.description, f"key: {entry.keys_display}", run))
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
