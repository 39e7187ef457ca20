"""The `?` screen: every key of the screen the rep was on, with its remappable id, and
how many leads can be read offline (their detail is cached).

The keys come in three groups: the screen's own, the cockpit's keys that work everywhere,
then the ones Textual's widgets bring (scrolling, focus, copy) under a heading of their own,
so what the rep looks for is at the top.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from warmline.tui.bindings import BindingEntry
from warmline.tui.widgets.key_bar import KeyBar


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
    HelpScreen #help-note { color: $warning; height: auto; }
    HelpScreen > KeyBar { dock: bottom; }
    """

    BINDINGS = [
        Binding("escape,question_mark,q", "dismiss", "Close help", id="help.close"),
        Binding("j,down", "scroll('down')", "Scroll down", show=False, id="help.down"),
        Binding("k,up", "scroll('up')", "Scroll up", show=False, id="help.up"),
    ]

    def __init__(
        self, title: str, entries: list[BindingEntry], coverage: tuple[int, int] | None = None, note: str | None = None
    ) -> None:
        """`note`: a line on the keys where the cockpit runs (`warmline.tui.browser`)."""
        super().__init__()
        self._title = title
        self._entries = entries
        self._coverage = coverage
        self._note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Keys: {self._title}"), id="help-title")
            with VerticalScroll(id="help-body"):
                yield Static(self._body(), id="help-table")
            yield Static(
                Text("Remap any key in the [keys] table of the config file, by its id."),
                id="help-hint",
            )
            if self._note is not None:
                yield Static(Text(self._note), id="help-note")
            if self._coverage is not None:
                cached, total = self._coverage
                yield Static(Text(f"Details cached offline: {cached} of {total} leads."), id="help-offline")
        yield KeyBar()

    def _body(self) -> Group:
        """One table per group under its heading; the columns are as wide in every table,
        so the keys, actions and ids line up down the whole screen."""
        key_width = max((Text(entry.keys_display).cell_len for entry in self._entries), default=3)
        id_width = max((Text(entry.binding_id or "").cell_len for entry in self._entries), default=2)
        parts: list[Text | Table] = []
        for number, (heading, entries) in enumerate(help_sections(self._entries)):
            parts.append(Text(("\n" if number else "") + heading, style="bold underline"))
            table = Table(box=None, expand=True, show_header=False, show_edge=False, pad_edge=False)
            table.add_column("Key", style="bold", no_wrap=True, width=key_width)
            table.add_column("Action", ratio=1)
            table.add_column("Id", style="dim", no_wrap=True, width=id_width)
            for entry in entries:
                description = Text(entry.description, style="" if entry.enabled else "dim")
                if entry.where:  # its key works elsewhere on the screen (the palette runs it here)
                    description.append(f" ({entry.where})", style="dim")
                table.add_row(Text(entry.keys_display), description, Text(entry.binding_id or ""))
            parts.append(table)
        return Group(*parts)

    def action_scroll(self, direction: str) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        body.scroll_relative(y=1 if direction == "down" else -1, animate=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


def help_sections(entries: list[BindingEntry]) -> list[tuple[str, list[BindingEntry]]]:
    """The entries under their headings, in the help screen's order, leaving out empty groups."""
    sections = [
        ("This screen", [e for e in entries if not e.builtin and not e.app_wide]),
        ("Everywhere", [e for e in entries if not e.builtin and e.app_wide]),
        ("Textual (scrolling, focus, copy)", [e for e in entries if e.builtin]),
    ]
    return [(heading, group) for heading, group in sections if group]
