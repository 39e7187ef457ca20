"""Whether the cockpit has a terminal to draw on, asked before Textual is imported.

Without one (`warmline </dev/null`, a cron job, a pipe) Textual starts anyway, writes its
escape codes into whatever stdout and stderr are, and waits for keys that never come. So
the cockpit's doors (`warmline`, `warmline --debug`, `warmline demo`) refuse at once, in
one line on stderr, exit 2, and name what works without a terminal. The one exception is
a program that chose Textual's driver (TEXTUAL_DRIVER): textual-serve, behind `warmline
web`, runs each session with its web driver over pipes.
"""

from __future__ import annotations

import os
import sys

from warmline.exit_codes import EXIT_BAD_INPUT

NO_TERMINAL = "the cockpit needs a terminal; try `warmline web` or a headless command (`warmline --help`)"
DRIVER_VAR = "TEXTUAL_DRIVER"
"""Names the driver Textual runs the app with (textual-serve sets its web driver)."""


def has_terminal() -> bool:
    """Keys come from stdin, Textual draws on stderr and anything printed goes to stdout:
    all three must be the terminal, unless the driver was chosen for us."""
    if os.environ.get(DRIVER_VAR):
        return True
    return all(os.isatty(fd) for fd in (0, 1, 2))  # False for a closed one too


def refuse_without_terminal() -> None:
    """Exit 2 with `NO_TERMINAL` on stderr unless the cockpit can draw (`has_terminal`)."""
    if not has_terminal():
        print(f"Error: {NO_TERMINAL}", file=sys.stderr)
        sys.exit(EXIT_BAD_INPUT)

