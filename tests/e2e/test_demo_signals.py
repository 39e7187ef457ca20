"""`warmline demo` told to stop from outside leaves nothing behind (issue 25).

Before: a `kill -TERM` or a closed terminal left the throw-away data dir
(`/tmp/warmline-demo-*`, ~59 MB) and could leave the reference server running on its
port; a cockpit whose terminal vanished could hang for ever writing to it. Each case runs
`warmline demo` on a pseudo-terminal of its own (as a rep does), waits for the cockpit to
draw, stops it the way the signal comes in real life (SIGTERM and SIGINT by `kill`, SIGHUP
by closing the terminal), and checks that the process exits, its server child is gone
(by pid and start time, so a reused pid is not taken for it) and its port refuses
connections, and the data dir is removed.
"""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from support.pty_process import (
    ENTER_ALT_SCREEN,
    LEAVE_ALT_SCREEN,
    Process,
    Terminal,
    children,
    port_refuses,
    wait_until,
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the demo's children in /proc (Linux)"),
    pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals and ptys"),
]


def demo_environment(tmp_path: Path) -> dict[str, str]:
    """The rep's environment, with the demo's throw-away dir under `tmp_path/tmp` (TMPDIR)."""
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TERM": "xterm-256color", "TMPDIR": str(tmp_path / "tmp"),
           "WARMLINE_CONFIG": str(tmp_path / "none.toml"), "WARMLINE_LOG_DIR": str(tmp_path / "log")}
    env.pop("WARMLINE_API_KEY", None)
    return env


def sandbox_of(terminal: Terminal) -> tuple[Process, int]:
    """The demo's reference server: its process and its port (the demo says "Server at URL")."""
    found = re.search(rb"Server at http://127\.0\.0\.1:(\d+)", terminal.output)
    assert found, terminal.output[-600:]
    servers = [child for child in children(terminal.pid)
               if b"sandbox" in Path(f"/proc/{child.pid}/cmdline").read_bytes()]
    assert len(servers) == 1, servers
    return servers[0], int(found.group(1))


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_the_demo_stops_its_server_and_removes_its_data_when_told_to_stop(tmp_path: Path, name: str) -> None:
    number = getattr(signal, name)
    terminal = Terminal(["demo", "--companies", "500", "--leads", "12", "--seed", "7"], demo_environment(tmp_path))
    try:
        terminal.wait_for_raw_mode()
        terminal.wait_for(b"Today")
        server, port = sandbox_of(terminal)
        assert [entry.name for entry in (tmp_path / "tmp").iterdir()][0].startswith("warmline-demo-")
        if name == "SIGHUP":
            terminal.hang_up()  # the window closed: the kernel sends SIGHUP
        else:
            os.kill(terminal.pid, number)
        status = terminal.end()
        wait_until(lambda: not server.running(), "the server stopped")
        assert not os.WIFSIGNALED(status), "killed by the signal: nothing was cleaned up"
        assert os.WEXITSTATUS(status) == 128 + number
        assert port_refuses(port)
        assert list((tmp_path / "tmp").iterdir()) == []
        if name != "SIGHUP":  # the terminal is still there: left as it was
            assert terminal.modes() == (True, True)
            assert terminal.output.rfind(LEAVE_ALT_SCREEN) > terminal.output.rfind(ENTER_ALT_SCREEN)
            assert b"Traceback" not in terminal.output
    finally:
        terminal.close()


@pytest.mark.parametrize("how", ["SIGTERM", "ctrl-c"])
def test_the_demo_stopped_while_its_server_seeds_leaves_nothing_either(tmp_path: Path, how: str) -> None:
    """Before the cockpit: the terminal still cooked, the server seeding (the largest
    database, so it still is when the signal comes). Ctrl-C reaches the whole foreground
    group, server included, as the rep's terminal sends it."""
    terminal = Terminal(["demo", "--companies", "2000000", "--leads", "12"], demo_environment(tmp_path))
    try:
        terminal.wait_for(b"Starting the reference server")
        wait_until(lambda: any(b"sandbox" in Path(f"/proc/{child.pid}/cmdline").read_bytes()
                               for child in children(terminal.pid)), "the server started")
        (server,) = children(terminal.pid)
        if how == "ctrl-c":
            os.write(terminal.fd, b"\x03")
        else:
            os.kill(terminal.pid, signal.SIGTERM)
        status = terminal.end()
        wait_until(lambda: not server.running(), "the server stopped")
        assert not os.WIFSIGNALED(status)
        assert os.WEXITSTATUS(status) == 128 + (signal.SIGINT if how == "ctrl-c" else signal.SIGTERM)
        assert list((tmp_path / "tmp").iterdir()) == []
        assert b"Server at" not in terminal.output
        assert b"Traceback" not in terminal.output
        assert terminal.modes() == (True, True)
    finally:
        terminal.close()
