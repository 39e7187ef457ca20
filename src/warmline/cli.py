"""The `warmline` command.

Each command lives in a module of `warmline.commands` that exposes a `COMMANDS` list;
they are registered here so that several commands can evolve without touching one file.
Commands import their heavy dependencies lazily, so that `warmline --help` and the
headless commands start fast and never pull in the terminal UI.
"""

from __future__ import annotations

import importlib
import pkgutil

import click

from warmline import __version__, commands


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="warmline")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Warmline: a keyboard-driven, offline-first outreach cockpit.

    With no command, opens the cockpit against the configured service
    (WARMLINE_BASE_URL / WARMLINE_API_KEY or the config file); `warmline demo` runs it
    against the bundled reference server with no account.
    """
    if ctx.invoked_subcommand is None:
        from warmline.commands.cockpit import open_cockpit

        open_cockpit()


def _register_commands(group: click.Group) -> None:
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        for command in getattr(module, "COMMANDS", []):
            group.add_command(command)


_register_commands(main)
