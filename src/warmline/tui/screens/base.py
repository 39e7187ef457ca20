"""What every cockpit screen shares: a title line, the status line and the key footer.
(What every dialog shares is in `dialog_screen`: no dialog is on the first frame.)"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from warmline.tui.bindings import key_for
from warmline.tui.widgets.key_bar import KeyBar
from warmline.tui.widgets.status_line import StatusLine
from warmline.tui.widgets.text_line import TextLine

STYLES = Path(__file__).resolve().parent.parent / "styles"

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from warmline.tui.context import Cockpit


class CockpitScreen(Screen[None]):
    """A full screen of the cockpit; subclasses fill `compose_body` and `reload`."""

    BINDINGS = [Binding("escape", "back", "Back", id="screen.back")]

    SCREEN_TITLE = "Warmline"
    _shown = False

    @property
    def cockpit(self) -> Cockpit:
        """The app, as screens may use it (`warmline.tui.context`)."""
        return cast("Cockpit", self.app)

    def compose(self) -> ComposeResult:
        yield TextLine(Text(self.SCREEN_TITLE), id="screen-title")
        yield from self.compose_body()
        cockpit = self.cockpit
        # Docked at the bottom (cockpit.tcss), so they stay there on a screen whose body is
        # short: the key bar on the last line, the status line above it.
        yield StatusLine(cockpit.sync_status, clock=cockpit.clock, zone=cockpit.zone, id="screen-status")
        yield KeyBar(id="screen-keys")

    def compose_body(self) -> ComposeResult:
        yield from ()

    def set_title_text(self, text: Text) -> None:
        """Show `text` (a `Text`, so service names in it stay literal) as the title line."""
        self.query_one("#screen-title", TextLine).show(text)

    def key(self, binding_id: str, node: DOMNode | None = None) -> str:
        """The key of this screen's binding `binding_id` (or of `node`, one of its widgets;
        else the app's) as the rep has it: what a hint on the screen names (`key_for`)."""
        return key_for(self.app, node or self, binding_id)

    def reload(self) -> None:
        """Re-read what this screen shows from the cache (the cache changed under it)."""

    def export_choice(self) -> tuple[str, str]:
        """What the export dialog offers when opened over this screen: what it exports
        ("leads", "companies" or "contacts") and, for leads, which ("all", "cold", "warm")."""
        return ("leads", "all")

    def on_screen_resume(self) -> None:
        """Back on this screen: the cache may have changed while it was hidden."""
        self.query_one(StatusLine).status = self.cockpit.sync_status
        if self._shown:
            self.reload()
        self._shown = True

    def action_back(self) -> None:
        if self.app.screen_stack[-1] is self and len(self.app.screen_stack) > 1:
            self.app.pop_screen()
