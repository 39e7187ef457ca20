"""The `warmline` command.

Commands import their heavy dependencies lazily so that `warmline --help` and the
headless commands start fast and never pull in the terminal UI.
"""

from __future__ import annotations

import click

from warmline import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="warmline")
def main() -> None:
    """Warmline: a keyboard-driven, offline-first outreach cockpit."""
