"""Being told to stop from outside (SIGTERM, SIGHUP, SIGINT): a clean exit, every time.

A signal's default action kills the process on the spot: the terminal left raw and on
the alternate screen, the demo's server child running, its data dir (59 MB) left in /tmp.
So while Warmline runs (`exit_on_termination`, entered by the console script and by the
commands that run a server or the cockpit) the three signals are caught, once for the
whole process, and each asks the innermost running part to stop its own way:

- plain code (seeding, syncing, a click command): SystemExit(128 + the signal's number)
  is raised where it runs, and unwinds through every `finally` (the server stopped, the
  data dir removed);
- an event loop (the cockpit, the web server) registers a stopper (`stopping_with`),
  which only hands the loop its stop (`in_running_loop`): an exception raised between
  two bytecodes of Textual's start or shutdown could leave its threads half stopped.
  When it has stopped, `exit_on_termination` raises the SystemExit.

A terminal that vanished (a closed window, a killed tmux pane: SIGHUP, then SIGCONT, on
which Textual starts its application mode again) answers every write with EIO. Textual's
writer thread dies on the first, and the app then waits for ever to hand it the next:
the cockpits bench/bench_tui.py left orphaned. So the handler first points the process's
output at /dev/null (Python runs SIGHUP's handler before SIGCONT's).

Its own module, a leaf, because the console script (`warmline.launch`), the command line
(`warmline.commands`) and the app (`warmline.tui.app`) all use it.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

TERMINATION_SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT")
"""What ends Warmline from outside: `kill`, a closed terminal, Ctrl-C (in a cooked terminal)."""
LEAVE_TERMINAL_MODES = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting off
    "\x1b[?2004l\x1b[?1004l\x1b[<u"  # bracketed paste, focus events, the keyboard protocol
    "\x1b[?1049l\x1b[?25h"  # back from the alternate screen, the cursor shown
)
"""What Textual's driver writes when it stops, written again after a signal (harmless twice)."""
VANISHED = (errno.EIO, errno.ENXIO)
"""What a terminal that hung up answers (Linux: EIO; the BSDs, macOS: ENXIO once revoked)."""

Stopper = Callable[[], None]
"""Asks a running part to stop. Called from the signal handler, on the main thread between
two bytecodes of whatever ran: it must only schedule the stop, never wait or lock."""

_received: list[int] = []
"""The termination signals received while the handlers are in place (cleared when they go)."""
_stoppers: list[Stopper] = []
"""The running parts that stop their own way, innermost last (`stopping_with`)."""
_before: dict[int, Any] = {}
"""The handlers from before ours, put back when the outermost `stopping_with` ends."""


def signalled() -> int | None:
    """The first termination signal received while the handlers were in place, if any:
    the cockpit's screens may then meet their widgets already taken down, and a cockpit
    that mounts afterwards has been told to stop before it could be."""
    return _received[0] if _received else None


@contextmanager
def stopping_with(stop: Stopper) -> Iterator[None]:
    """While inside, a termination signal calls `stop` (see `Stopper`) instead of what the
    code around does (`exit_on_termination`: raise). The outermost one puts the handlers in
    place and the ones from before back at its end. Off the main thread, where a signal
    cannot be caught, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    outermost = not _stoppers
    if outermost:
        _received.clear()
        for name in TERMINATION_SIGNALS:
            number = getattr(signal, name, None)
            if number is not None:
                _before[number] = signal.signal(number, _on_signal)
    _stoppers.append(stop)
    try:
        yield
    finally:
        _stoppers.pop()
        if outermost:
            for number, handler in _before.items():
                signal.signal(number, handler)
            _before.clear()
            _received.clear()  # told to whoever ran then: a later run starts afresh


@contextmanager
def exit_on_termination() -> Iterator[None]:
    """Run a command so that a termination signal unwinds it (SystemExit(128 + its number))
    instead of killing it, and the terminal is as it was after: its modes saved here put
    back and Textual's leaving sequences written again, in case the signal came while
    Textual was setting the terminal up. A part that stopped its own way (`stopping_with`)
    is followed by the same SystemExit here, so the exit status says why either way."""
    saved = _terminal_modes()
    number: int | None = None
    try:
        with stopping_with(_exit_now):
            try:
                yield
            finally:
                number = signalled()
        if number is not None:
            raise SystemExit(128 + number)
    finally:
        if number is not None and saved is not None:
            _restore_terminal(saved)


def in_running_loop(callback: Callable[[], object]) -> Stopper:
    """The stopper of a program that runs an asyncio loop on the main thread (the cockpit,
    a web server): it hands `callback` to that loop as asyncio's own signal handling does
    (thread-safe); with no loop running (not yet, or no more), nothing."""

    def stop() -> None:
        asyncio = sys.modules.get("asyncio")  # never imported: no loop can be running
        if asyncio is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_soon_threadsafe(callback)

    return stop


def _on_signal(number: int, frame: FrameType | None) -> None:
    _received.append(number)
    _quiet_a_vanished_terminal()
    _stoppers[-1]()


def _exit_now() -> None:
    """The plain code's stop. Once: a second signal while the first unwinds would cut the
    unwinding short (the server left running, the data dir half removed)."""
    if len(_received) == 1:
        raise SystemExit(128 + _received[0])


def _quiet_a_vanished_terminal() -> None:
    """Point stdout and stderr at /dev/null if their terminal hung up (see the module)."""
    try:
        import termios  # deferred: first frame (POSIX only; after a signal only)
    except ImportError:
        return
    for fd in (1, 2):
        try:
            termios.tcgetattr(fd)
        except termios.error as error:
            if error.args[0] in VANISHED:
                with suppress(OSError):
                    nowhere = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(nowhere, fd)
                    os.close(nowhere)


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
