"""The `warmline` console script: the cockpit with no arguments, else the command line.

Plain `warmline` is the cockpit, opened many times a day, and its first paint is measured
against a one-Label Textual app (bench/bench_tui.py). So it goes straight to the cockpit,
without loading click and the command line; anything with arguments is the command line
(`warmline.cli`), which never loads the terminal UI. So is a call from a completion script:
it has no arguments, only `_WARMLINE_COMPLETE` in its environment (`warmline completion`).
`warmline log` and `warmline note` take the queue path (`warmline.dispatch` explains it).
Each branch imports only what it runs (`warmline.startup`). With no terminal the cockpit
refuses at once (`warmline.terminal`). Started by `warmline web` as a spare, it loads the
cockpit's modules and waits to be claimed before anything else (`warmline.claim`).
"""

from __future__ import annotations

import os
import sys

from warmline.claim import is_spare, wait_for_claim
from warmline.config import ConfigError, load_config
from warmline.dispatch import COMPLETE_VAR, QUEUE_COMMANDS
from warmline.exit_codes import EXIT_BAD_INPUT
from warmline.startup import hold_collection
from warmline.terminal import refuse_without_terminal
from warmline.termination import exit_on_termination
from warmline.textsafe import terminal_text


def main() -> None:
    """`warmline [COMMAND ...]`."""
    if len(sys.argv) > 1 and sys.argv[1] in QUEUE_COMMANDS and COMPLETE_VAR not in os.environ:
        hold_collection()  # never released: the queue path (warmline.dispatch)
        from warmline.commands.queueing import main as queue_line  # deferred: first frame

        queue_line()
        return
    if len(sys.argv) > 1 or COMPLETE_VAR in os.environ:
        from warmline.cli import main as command_line  # deferred: first frame

        # The variable named outright: under `python -m warmline` click would derive
        # another name from the program's.
        command_line(complete_var=COMPLETE_VAR)
        return
    if is_spare():
        _wait_as_spare()
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"Error: {terminal_text(exc)}", file=sys.stderr)  # as the command line reports bad input
        sys.exit(EXIT_BAD_INPUT)
    refuse_without_terminal()  # before Textual: without a terminal it would draw into a pipe and wait
    hold_collection()
    from warmline.cockpit import start_cockpit  # deferred: command line

    with exit_on_termination():
        start_cockpit(config)


def _wait_as_spare() -> None:
    """`warmline web`'s spare (`warmline.claim`): the cockpit's modules loaded, the rest
    (configuration, key, cache, Today) only once a tab has claimed it."""
    hold_collection()
    from warmline import cockpit  # noqa: F401  # deferred: command line (loaded ahead of the claim)

    wait_for_claim()
