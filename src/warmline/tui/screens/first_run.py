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


def first_run_text(config_path: Path) -> Text:
    """The explanation, as plain text (the path comes from the environment, not from us)."""
    text = Text()
    text.append("Welcome to Warmline\n\n", style="bold")
    text.append("No API key is configured, so there is no service to talk to yet.\n")
    text.append("Create a key in the service's settings, under API keys, then either:\n\n")
    text.append("  • set it in the environment:\n", style="bold")
    text.append("      export WARMLINE_API_KEY=<your key>\n")
    text.append("      export WARMLINE_BASE_URL=<the service's URL>\n\n")
    text.append("  • or put it in the config file:\n", style="bold")
    text.append(f"      {safe_text(config_path)}\n")
    text.append("      [service]\n      base_url = \"https://...\"\n      api_key = \"<your key>\"\n\n")
    text.append("Just looking? ", style="bold")
    text.append("Run ")
    text.append("warmline demo", style="bold")
    text.append(" to open the cockpit on a bundled demo service with sample data.\n")
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
