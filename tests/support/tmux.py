"""A private tmux server, for a test or a bench that drives the cockpit in a real terminal.

Its socket lives in a directory of its own, removed with it: `tmux -L name` left one
socket file per run in /tmp/tmux-UID (hundreds after a day of runs), and a plain `tmux`
ran the test's sessions in the developer's own server.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

TIMEOUT = 30.0
"""Seconds one tmux command may take (a stuck server fails the test instead of hanging it)."""


class PrivateTmux:
    """`with PrivateTmux() as tmux: tmux.run("new-session", ...)`; closing kills the server."""

    def __init__(self) -> None:
        self._directory = Path(tempfile.mkdtemp(prefix="wl-tmux-"))
        self.argv = ["tmux", "-f", "/dev/null", "-S", str(self._directory / "socket")]
        """The command with the server's options: prefix it to a tmux command line."""

    def run(self, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.argv, *args], capture_output=True, text=True, timeout=TIMEOUT, check=check)

    def close(self) -> None:
        subprocess.run([*self.argv, "kill-server"], capture_output=True, timeout=TIMEOUT)
        shutil.rmtree(self._directory, ignore_errors=True)

    def __enter__(self) -> PrivateTmux:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
