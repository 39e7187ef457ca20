"""SIGTERM and SIGHUP leave the rep's terminal as it was (issue 21, item 10).

Before: `kill` (or a closed terminal) killed the cockpit at once, leaving the terminal raw
(no echo, no line editing), on the alternate screen and reporting the mouse: the first-run
screen always, the cockpit before its first frame. `warmline.termination.exit_on_termination`
turns the two into SystemExit, which unwinds through Textual's own exit; while the app runs
it quits as `q` does (its own handler, which also releases the holds).

The end-to-end cases run `python -m warmline` in a pseudo-terminal, wait until it has
drawn, send the signal, and read the terminal's modes back.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from warmline.store import Store
from warmline.termination import exit_on_termination

pytestmark = pytest.mark.skipif(os.name == "nt" or not hasattr(signal, "SIGHUP"), reason="POSIX signals and ptys")

ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN = b"\x1b[?1049h", b"\x1b[?1049l"
CAP = 60.0
"""Bounds a hung run; never a timing assertion."""


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals reach the main thread")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_termination_signal_becomes_system_exit_and_the_handlers_come_back(name: str) -> None:
    number = getattr(signal, name)
    before = signal.getsignal(number)
    with pytest.raises(SystemExit) as info, exit_on_termination():
        os.kill(os.getpid(), number)
        deadline = time.monotonic() + CAP
        while time.monotonic() < deadline:  # the handler runs at the next bytecode
            time.sleep(0.01)
    assert info.value.code == 128 + number
    assert signal.getsignal(number) == before


class Terminal:
    """`python -m warmline` on a pseudo-terminal of its own."""

    def __init__(self, env: dict[str, str]) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: never returns
            os.execve(sys.executable, [sys.executable, "-m", "warmline"], env)
        self.output = b""

    def read(self) -> None:
        ready, _, _ = select.select([self.fd], [], [], 0.05)
        if ready:
            with contextlib.suppress(OSError):  # the child is gone and the pty with it
                self.output += os.read(self.fd, 65536)

    def wait_for(self, marker: bytes) -> None:
        deadline = time.monotonic() + CAP
        while marker not in self.output:
            assert time.monotonic() < deadline, f"never saw {marker!r}: {self.output[-300:]!r}"
            self.read()

    def end(self) -> int:
        """Wait for the child to exit; its wait status."""
        deadline = time.monotonic() + CAP
        while True:
            self.read()
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                return status
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                raise AssertionError(f"still running: {self.output[-300:]!r}")

    def modes(self) -> tuple[bool, bool]:
        """(echo, canonical line editing) of the terminal now."""
        lflag = termios.tcgetattr(self.fd)[3]
        return bool(lflag & termios.ECHO), bool(lflag & termios.ICANON)


def environment(tmp_path: Path, key: bool) -> dict[str, str]:
    env = {
        **os.environ, "TERM": "xterm-256color", "WARMLINE_DATA_DIR": str(tmp_path / "data"),
        "WARMLINE_CONFIG": str(tmp_path / "none.toml"), "WARMLINE_LOG_DIR": str(tmp_path / "log"),
        "WARMLINE_BASE_URL": "http://127.0.0.1:9",  # nothing listens: the cockpit is offline
    }
    env.pop("WARMLINE_API_KEY", None)
    if key:
        env["WARMLINE_API_KEY"] = "k"
        (tmp_path / "data").mkdir()
        store = Store(tmp_path / "data" / "cache.sqlite3")
        store.upsert_leads([{"id": 1, "company_name": "Acme"}])
        store.close()
    return env


@pytest.mark.e2e
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("key", [False, True], ids=["first-run", "cockpit"])
def test_the_terminal_is_restored_when_the_cockpit_is_told_to_stop(tmp_path: Path, name: str, key: bool) -> None:
    number = getattr(signal, name)
    terminal = Terminal(environment(tmp_path, key))
    terminal.wait_for(ENTER_ALT_SCREEN)
    deadline = time.monotonic() + CAP
    while terminal.modes() != (False, False):  # raw while the cockpit runs (set just after)
        assert time.monotonic() < deadline, "the cockpit never put the terminal in raw mode"
        terminal.read()
    os.kill(terminal.pid, number)
    status = terminal.end()
    assert not os.WIFSIGNALED(status), "killed by the signal: the terminal was left as the cockpit set it"
    assert os.WEXITSTATUS(status) in (0, 128 + number)  # `q`'s way (the app's handler) or the fallback's
    assert terminal.modes() == (True, True)
    assert terminal.output.rfind(LEAVE_ALT_SCREEN) > terminal.output.rfind(ENTER_ALT_SCREEN)
    assert b"Traceback" not in terminal.output
