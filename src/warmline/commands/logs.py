"""`warmline logs`: where the log file is, and its last lines.

Support asks "what does the log say?": the rep runs `warmline logs` and sends what it
prints, or the file it names (`warmline.logfile` says what is in it and what never is).
"""

from __future__ import annotations

import sys
from collections import deque

import click

from warmline.commands.common import CommandError, NumberType
from warmline.exit_codes import EXIT_BAD_INPUT
from warmline.logfile import log_path
from warmline.textsafe import terminal_line, terminal_text

DEFAULT_TAIL = 20


@click.command("logs", short_help="Print where the log file is, and its last lines.")
@click.option(
    "--tail",
    "-n",
    "tail",
    type=NumberType(0),
    default=DEFAULT_TAIL,
    show_default=True,
    metavar="N",
    help="Print the last N lines of the log below its path (0: none).",
)
@click.option(
    "--path",
    "path_only",
    is_flag=True,
    help='Print only the path (for scripts: less "$(warmline logs --path)").',
)
def logs(tail: int, path_only: bool) -> None:
    """Print the path of the log file, then its last lines.

    The log records what sync sent and got: one line per request (method, path, status,
    time, op id), one per op settled (delivered, retried when and why, failed and why).
    Never the API key, and no request or answer bodies unless at debug level: run a
    command with `warmline --debug ...` or set WARMLINE_LOG=debug (or info, warning).
    The file rotates at 1 MB, keeping three older ones beside it (warmline.log.1 ...).
    WARMLINE_LOG_DIR puts it elsewhere.
    """
    path = log_path()
    click.echo(terminal_line(path))
    if path_only or tail == 0:
        return
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            lines = deque(handle, maxlen=min(tail, sys.maxsize))  # any larger N: every line
    except FileNotFoundError:
        click.echo("Nothing logged yet.", err=True)
        return
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}", EXIT_BAD_INPUT) from None
    if not lines:
        click.echo("Nothing logged yet.", err=True)
    for line in lines:
        click.echo(terminal_text(line.rstrip("\n")))


COMMANDS = [logs]
