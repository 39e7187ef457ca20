"""The cockpit without a terminal refuses in one line (issue 25).

Before: `warmline </dev/null` started Textual anyway, wrote its escape codes into the
pipe and waited for keys that never came. Now each door to the cockpit (`warmline`,
`warmline --debug`, `warmline demo`) says so on stderr and exits 2, before Textual is
imported, unless Textual's driver was chosen for it (TEXTUAL_DRIVER: textual-serve's web
driver, over pipes, is how `warmline web` runs its sessions).
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from warmline.exit_codes import EXIT_BAD_INPUT
from warmline.terminal import NO_TERMINAL

CAP = 60.0
"""Bounds a hung run; never a timing assertion."""
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def environment(tmp_path: Path, **more: str) -> dict[str, str]:
    env = {**os.environ, "WARMLINE_DATA_DIR": str(tmp_path / "data"), "WARMLINE_CONFIG": str(tmp_path / "none.toml"),
           "WARMLINE_LOG_DIR": str(tmp_path / "log"), "WARMLINE_API_KEY": "k",
           "WARMLINE_BASE_URL": "http://127.0.0.1:9"}
    env.pop("TEXTUAL_DRIVER", None)
    return {**env, **more}


@pytest.mark.parametrize("argv", [[], ["--debug"], ["demo", "--data-dir", "kept"]], ids=["warmline", "debug", "demo"])
def test_no_terminal_is_one_line_and_exit_2(tmp_path: Path, argv: list[str]) -> None:
    out = subprocess.run([sys.executable, "-m", "warmline", *argv], stdin=subprocess.DEVNULL, capture_output=True,
                         cwd=tmp_path, env=environment(tmp_path), timeout=CAP)
    assert out.returncode == EXIT_BAD_INPUT
    assert out.stderr.decode() == f"Error: {NO_TERMINAL}\n"
    assert out.stdout == b""
    assert NO_TERMINAL.startswith("the cockpit needs a terminal; try `warmline web` or a headless command")
    assert not (tmp_path / "kept").exists()  # the demo seeded nothing


@pytest.mark.parametrize("which", ["stdin", "stdout", "stderr"])
def test_each_of_the_three_must_be_the_terminal(tmp_path: Path, which: str) -> None:
    """The other two on a terminal: keys come from stdin, Textual draws on stderr, and
    what is printed goes to stdout."""
    main, side = pty.openpty()
    streams = {"stdin": side, "stdout": side, "stderr": side}
    streams[which] = subprocess.DEVNULL if which == "stdin" else subprocess.PIPE
    try:
        out = subprocess.run([sys.executable, "-m", "warmline"], env=environment(tmp_path), timeout=CAP, **streams)
    finally:
        os.close(side)
    assert out.returncode == EXIT_BAD_INPUT
    shown = read_what_is_there(main)
    said = out.stderr if which == "stderr" else shown
    assert f"Error: {NO_TERMINAL}".encode() in said
    assert b"\x1b[" not in shown  # Textual never started


def read_what_is_there(fd: int) -> bytes:
    """What the terminal received, its writer gone (Linux answers EIO once it is drained)."""
    os.set_blocking(fd, False)
    shown = b""
    try:
        while chunk := os.read(fd, 65536):
            shown += chunk
    except (BlockingIOError, OSError):
        pass
    finally:
        os.close(fd)
    return shown


def test_the_refusal_comes_before_textual_is_imported(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "sys.argv = ['warmline']\n"
        "from warmline.launch import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exit:\n"
        "    print(json.dumps([exit.code, sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'})]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         env=environment(tmp_path), timeout=CAP)
    assert json.loads(out.stdout) == [EXIT_BAD_INPUT, []]


@pytest.mark.e2e
def test_a_chosen_driver_is_not_refused(tmp_path: Path) -> None:
    """textual-serve's way: pipes, and the web driver named in TEXTUAL_DRIVER. The cockpit
    starts (the driver's first packets arrive on stdout), and stops on SIGTERM: through
    the web driver's own handler (exit 0) or ours (143), never killed by it."""
    process = subprocess.Popen([sys.executable, "-m", "warmline"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=environment(tmp_path, TEXTUAL_DRIVER=WEB_DRIVER))
    try:
        assert process.stdout is not None
        first = process.stdout.read(1)  # blocks until the driver writes; the cap below bounds a hang
        assert first != b"", process.stderr.read() if process.stderr else ""
        process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + CAP
        while process.poll() is None:
            assert time.monotonic() < deadline, "still running after SIGTERM"
            process.stdout.read(65536)
        stderr = process.stderr.read().decode() if process.stderr else ""
        assert NO_TERMINAL not in stderr
        assert process.returncode in (0, 128 + signal.SIGTERM), stderr
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
