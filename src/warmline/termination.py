"""Ending the cockpit from outside (SIGTERM, SIGHUP) with the terminal as it was.

Its own module because both the console script (`warmline.launch`) and the commands that
run the cockpit (`warmline.commands.demo`) wrap the cockpit in it, and
the command line must not import the console script (an import cycle).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

TERMINATION_SIGNALS = ("SIGTERM", "SIGHUP")
"""What ends the cockpit from outside: `kill`, a closed terminal (SIGHUP)."""
LEAVE_TERMINAL_MODES = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting off
    "\x1b[?2004l\x1b[?1004l\x1b[<u"  # bracketed paste, focus events, the keyboard protocol
    "\x1b[?1049l\x1b[?25h"  # back from the alternate screen, the cursor shown
)
"""What Textual's driver writes when it stops, written again after a signal (harmless twice)."""


_signalled: list[int] = []
"""The termination signals received in this process (`exit_on_termination`)."""


def signalled() -> bool:
    """Whether SIGTERM or SIGHUP has started unwinding this process: the cockpit's screens
    may then meet their widgets already taken down (`WarmlineApp._handle_exception`)."""
    return bool(_signalled)


@contextmanager
def exit_on_termination() -> Iterator[None]:
    """While the cockpit (or `warmline demo`) runs, SIGTERM and SIGHUP raise SystemExit
    (128 + the signal's number) instead of killing the process at once, which left the
    terminal raw, the screen alternate and the mouse reporting. The exception unwinds
    through Textual's own exit and through every `finally` (the demo's server stopped, the
    cache closed); then the terminal's modes saved here are put back and Textual's leaving
    sequences written again, in case the signal came while Textual was still setting the
    terminal up. While the app runs it catches the two itself, to quit as `q` does and
    release its holds (`WarmlineApp._catch_termination`); this covers the rest: the
    first-run screen, the moments before the first frame and after the last. The previous
    handlers come back afterwards; off the main thread, or where a signal does not exist,
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = _terminal_modes()
    told: list[int] = []

    def terminated(number: int, frame: FrameType | None) -> None:
        # Once: a second signal while the first unwinds would cut the restoring short.
        for handled in previous:
            signal.signal(handled, signal.SIG_IGN)
        told.append(number)
        _signalled.append(number)
        raise SystemExit(128 + number)

    previous = {}
    for name in TERMINATION_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, terminated)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if told and saved is not None:
            _restore_terminal(saved)


def _terminal_modes() -> list[Any] | None:
    """The terminal's modes (termios) before the cockpit changes them; None without one."""
    try:
        import termios  # deferred: first frame (POSIX only; read once, at the cockpit's start)

        return termios.tcgetattr(sys.__stdin__.fileno()) if sys.__stdin__ and sys.__stdin__.isatty() else None
    except (ImportError, OSError, ValueError):
        return None


def _restore_terminal(saved: list[Any]) -> None:
    """Put the saved modes back and write the leaving sequences; a terminal already gone
    (SIGHUP) is nothing to restore."""
    import termios  # deferred: first frame (only after a signal)

    with suppress(OSError, ValueError, termios.error):
        if sys.__stdin__ is not None:
            termios.tcsetattr(sys.__stdin__.fileno(), termios.TCSADRAIN, saved)
    for stream in (sys.__stderr__, sys.__stdout__):  # Textual draws on stderr
        with suppress(OSError, ValueError):
            if stream is not None and stream.isatty():
                stream.write(LEAVE_TERMINAL_MODES)
                stream.flush()
                return
