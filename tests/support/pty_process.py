"""A program on a pseudo-terminal of its own, as a rep runs it, and the processes it starts.

The signal tests (tests/tui/test_tui_signals.py, tests/e2e/test_demo_signals.py) start
`python -m warmline ...` here, wait for what it draws, send it a signal and read back the
terminal's modes. The cap only bounds a run that hangs; it is never a timing assertion.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

CAP = 90.0
"""Bounds a hung run (a loaded machine seeds the demo's server slowly); never a timing assertion."""
ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN = b"\x1b[?1049h", b"\x1b[?1049l"


class Terminal:
    """`python -m warmline ARGS` on a pseudo-terminal of its own; the child is its session leader."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: never returns
            os.execve(sys.executable, [sys.executable, "-m", "warmline", *args], env)
        self.output = b""
        self.status: int | None = None

    def read(self) -> None:
        ready, _, _ = select.select([self.fd], [], [], 0.05)
        if ready:
            with contextlib.suppress(OSError):  # the child is gone and the pty with it
                self.output += os.read(self.fd, 65536)

    def wait_for(self, marker: bytes, cap: float = CAP) -> None:
        deadline = time.monotonic() + cap
        while marker not in self.output:
            assert self.poll() is None, f"exited before {marker!r}: {self.output[-600:]!r}"
            assert time.monotonic() < deadline, f"never saw {marker!r}: {self.output[-600:]!r}"
            self.read()

    def wait_for_raw_mode(self) -> None:
        """Until the cockpit has put the terminal in raw mode (just after its alternate screen)."""
        self.wait_for(ENTER_ALT_SCREEN)
        deadline = time.monotonic() + CAP
        while self.modes() != (False, False):
            assert time.monotonic() < deadline, "the cockpit never put the terminal in raw mode"
            self.read()

    def poll(self) -> int | None:
        """The child's wait status once it has exited, else None."""
        if self.status is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = status
        return self.status

    def end(self, cap: float = CAP) -> int:
        """Wait for the child to exit; its wait status. Killed (and failed) if it does not."""
        deadline = time.monotonic() + cap
        while self.poll() is None:
            self.read()
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                raise AssertionError(f"still running: {self.output[-600:]!r}")
        self.read()
        return self.status if self.status is not None else 0

    def hang_up(self) -> None:
        """Close the terminal, as a closed window or a killed tmux pane does: the kernel
        sends SIGHUP to the child's session."""
        os.close(self.fd)
        self.fd = os.open(os.devnull, os.O_RDONLY)  # `read` keeps working on nothing

    def modes(self) -> tuple[bool, bool]:
        """(echo, canonical line editing) of the terminal now."""
        lflag = termios.tcgetattr(self.fd)[3]
        return bool(lflag & termios.ECHO), bool(lflag & termios.ICANON)

    def close(self) -> None:
        """Kill the child if it still runs (a failed test), and close the terminal."""
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)


class Process(NamedTuple):
    """A process by its pid and its start time: a pid the system reused is another process."""

    pid: int
    started: int

    @classmethod
    def of(cls, pid: int) -> Process:
        started = _start_time(pid)
        assert started is not None, f"no process {pid}"
        return cls(pid, started)

    def running(self) -> bool:
        """Still this process, and not a zombie waiting to be reaped."""
        return _start_time(self.pid) == self.started and _state(self.pid) != "Z"


def children(pid: int) -> list[Process]:
    """The direct children of `pid` now (Linux: /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return [Process.of(child) for child in found if _start_time(child) is not None]


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()  # after "pid (comm) ": state is field 3


def _start_time(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[19]) if fields else None  # field 22: start time, in clock ticks since boot


def _state(pid: int) -> str | None:
    fields = _stat(pid)
    return fields[0] if fields else None


def port_refuses(port: int) -> bool:
    """Nothing accepts connections on this loopback port."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except ConnectionRefusedError:
        return True
    return False


def wait_until(check: Callable[[], object], what: str, cap: float = CAP) -> None:
    """Poll `check()` until true (a process to go, a port to close); fail by name at the cap."""
    deadline = time.monotonic() + cap
    while not check():
        assert time.monotonic() < deadline, f"{what} was still not true after {cap:.0f} s"
        time.sleep(0.05)
