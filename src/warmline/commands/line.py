"""`CommandLine`, the class of the top-level `warmline` group, apart from the command tree.

`warmline.cli` builds the whole tree with it; the queue path (`warmline.dispatch`) builds
a group of `log` and `note` only with it, so both ways in behave the same.
"""

from __future__ import annotations

import click

from warmline.commands.common import CommandError
from warmline.config import is_utf8
from warmline.exit_codes import EXIT_BAD_INPUT
from warmline.textsafe import terminal_text
from warmline.wiring import WiringError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}
"""The top-level group's settings, shared by both ways in."""


class CommandLine(click.Group):
    """The top-level group: refuses bad bytes in arguments, and makes every failure
    message terminal-safe."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Refuse, in one line and with exit 2, an argument that is not valid UTF-8: Python
        keeps its bytes as lone surrogates, which fail later and far away (storing a note,
        sending a query, printing a name) with a traceback."""
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
        raised it (CommandError is already; click's own errors quote what they were given).
        A client the configuration cannot build (`warmline.wiring`) becomes the command's
        error here, for every command, with its exit code."""
        try:
            return super().invoke(ctx)
        except WiringError as exc:
            raise CommandError(str(exc), exc.exit_code) from None
        except click.ClickException as exc:
            exc.message = terminal_text(exc.message)  # type: ignore[misc]  # click types it Final; the same error, made safe
            raise
