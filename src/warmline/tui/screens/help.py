"""The `?` screen: every key of the screen the rep was on, with its remappable id, and
how many leads can be read offline (their detail is cached)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from warmline.tui.bindings import BindingEntry


class HelpScreen(ModalScreen[None]):
    """Lists the bindings captured from the previous screen before this one opened."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 90%;
        max-width: 100;
        height: 90%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    HelpScreen #help-title { text-style: bold; color: $primary; height: 1; }
    HelpScreen #help-hint, HelpScreen #help-offline { color: $foreground-muted; height: 1; }
    """

    BINDINGS = [
        Binding("escape,question_mark,q", "dismiss", "Close help", id="help.close"),
        Binding("j,down", "scroll('down')", "Scroll down", show=False, id="help.down"),
        Binding("k,up", "scroll('up')", "Scroll up", show=False, id="help.up"),
    ]

    def __init__(self, title: str, entries: list[BindingEntry], coverage: tuple[int, int] | None = None) -> None:
        super().__init__()
        self._title = title
        self._entries = entries
        self._coverage = coverage

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Keys: {self._title}"), id="help-title")
            with VerticalScroll(id="help-body"):
                yield Static(self._table(), id="help-table")
            yield Static(
                Text("Remap any key in the [keys] table of the config file, by its id."),
                id="help-hint",
            )
            if self._coverage is not None:
                cached, total = self._coverage
                yield Static(Text(f"Details cached offline: {cached} of {total} leads."), id="help-offline")

    def _table(self) -> Table:
        table = Table(box=None, expand=True, show_edge=False, pad_edge=False)
        table.add_column("Key", style="bold", no_wrap=True)
        table.add_column("Action", ratio=1)
        table.add_column("Id", style="dim", no_wrap=True)
        for entry in self._entries:
            description = Text(entry.description, style="" if entry.enabled else "dim")
            table.add_row(Text(entry.keys_display), description, Text(entry.binding_id or ""))
        return table

    def action_scroll(self, direction: str) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        body.scroll_relative(y=1 if direction == "down" else -1, animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
