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
import logging
import sys

import click

from warmline import __version__, commands
from warmline.config import redact_url
from warmline.textsafe import terminal_text


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

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Refuse, in one line and with exit 2, an argument that is not valid UTF-8: Python
        keeps its bytes as lone surrogates, which fail later and far away (storing a note,
        sending a query, printing a name) with a traceback."""
        from warmline.commands.common import CommandError
        from warmline.config import is_utf8
        from warmline.exit_codes import EXIT_BAD_INPUT

        for number, arg in enumerate(args, 1):
            if not is_utf8(arg):
                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                raise CommandError(
                    f"argument {number} ({shown!r}) is not valid UTF-8; check the terminal's encoding (locale)",
                    EXIT_BAD_INPUT,
                )
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        """Any command's failure message is terminal-safe before click prints it, whatever
        raised it (CommandError is already; click's own errors quote what they were given)."""
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            exc.message = terminal_text(exc.message)
            raise


class TerminalLog(logging.Handler):
    """Warnings of the engine (an unexpected error delivering an op...) on stderr, as
    Python's last-resort handler prints them, but terminal-safe: the message and its
    traceback may quote the service."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(terminal_text(redact_url(self.format(record))) + "\n")
        except Exception:  # noqa: BLE001 (logging must never fail the command)
            self.handleError(record)


def _log_to_stderr() -> None:
    logger = logging.getLogger("warmline")
    if not any(isinstance(h, TerminalLog) for h in logger.handlers):
        logger.addHandler(TerminalLog(logging.WARNING))


@click.group(cls=CommandModules, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="warmline")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Warmline: a keyboard-driven, offline-first outreach cockpit.

    With no command, opens the cockpit against the configured service
    (WARMLINE_BASE_URL / WARMLINE_API_KEY or the config file); `warmline demo` runs it
    against the bundled reference server with no account.
    """
    _log_to_stderr()
    if ctx.invoked_subcommand is None:
        from warmline.commands.cockpit import open_cockpit

        open_cockpit()

