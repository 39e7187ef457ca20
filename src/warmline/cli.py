"""The `warmline` command.

Each command lives in a module of `warmline.commands` that exposes a `COMMANDS` list;
they are registered here so that several commands can evolve without touching one file.
Commands import their heavy dependencies lazily, so that `warmline --help` and the
headless commands start fast and never pull in the terminal UI; and the command modules
themselves are registered on first use, so that plain `warmline` (the cockpit, the rep's
every morning) imports none of them before its first paint.
"""

from __future__ import annotations

import importlib

import click

from warmline import __version__, commands


class CommandModules(click.Group):
    """A group whose subcommands come from the `COMMANDS` of every `warmline.commands` module,
    imported when click first asks for a subcommand (a name to run, or `--help`)."""

    _registered = False

    def _register(self) -> None:
        if self._registered:
            return
        import pkgutil

        self._registered = True
        for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
            module = importlib.import_module(f"{commands.__name__}.{info.name}")
            for command in getattr(module, "COMMANDS", []):
                self.add_command(command)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        self._register()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._register()
        return super().list_commands(ctx)


@click.group(cls=CommandModules, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
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

