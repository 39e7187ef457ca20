"""Shown by plain `warmline` when no API key is configured: how to set one, or the demo."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from warmline.tui.safe import safe_text
from warmline.tui.widgets.key_bar import KeyBar

FIX_COMMANDS = (
    ("warmline key set", "store it: keyring or 0600 file"),
    ("warmline config set service.base_url URL", "the service's address"),
    ("warmline config init", "write a commented example"),
    ("warmline config edit", "open the config in $EDITOR"),
)
"""The one-line ways to set the cockpit up, each short enough to sit on one line in the
74 columns the box leaves at 80x24 (command column 40, two spaces, then the note)."""


def first_run_text(config_path: Path) -> Text:
    """The explanation, as plain text (the path comes from the environment, not from us)."""
    text = Text()
    text.append("Welcome to Warmline\n\n", style="bold")
    text.append("No API key is configured, so there is no service to talk to yet.\n")
    text.append("Create a key in the service's settings, under API keys, then run:\n\n")
    width = max(len(command) for command, _ in FIX_COMMANDS)
    for command, note in FIX_COMMANDS:
        text.append(f"  {command.ljust(width)}", style="bold")
        text.append(f"  {note}\n")
    text.append("\nThe config file: ")
    text.append(safe_text(config_path))
    text.append("\nOr set WARMLINE_API_KEY and WARMLINE_BASE_URL in the environment.\n\n")
    text.append("Just looking? ", style="bold")
    text.append("Run ")
    text.append("warmline demo", style="bold")
    text.append(" to open the cockpit on a bundled demo service with sample data.")
    return text


class FirstRunScreen(Screen[None]):
    """The only screen of a cockpit started without a key; it never raises."""

    DEFAULT_CSS = """
    FirstRunScreen { align: center middle; }
    FirstRunScreen KeyBar { dock: bottom; }
    FirstRunScreen Center { height: auto; }
    FirstRunScreen Vertical {
        width: 90;
        max-width: 100%;
        height: auto;
        border: round $primary;
        padding: 1 2;
        background: $surface;
    }
    """

    BINDINGS = [Binding("q,escape", "app.quit", "Quit", id="first_run.quit")]

    def __init__(self, config_path: Path) -> None:
        super().__init__()
        self._config_path = config_path

    def compose(self) -> ComposeResult:
        with Center(), Vertical():
            yield Static(first_run_text(self._config_path), id="first-run-text")
        yield KeyBar()
