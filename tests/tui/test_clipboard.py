"""The system clipboard's copy commands: which are tried where, and what counts as copied.
No real clipboard is touched: PATH lookups are faked and the "commands" are Python."""

from __future__ import annotations

import sys
from pathlib import Path

from warmline.tui.clipboard import copy_commands, system_copy


def on_path(*names: str):  # type: ignore[no-untyped-def]
    return lambda name: f"/usr/bin/{name}" if name in names else None


def test_commands_follow_the_display_and_skip_local_ones_over_ssh() -> None:
    every = on_path("wl-copy", "xclip", "xsel", "pbcopy", "clip.exe")
    assert copy_commands({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, every) == [
        ["/usr/bin/wl-copy"],
        ["/usr/bin/xclip", "-selection", "clipboard"],
        ["/usr/bin/xsel", "--clipboard", "--input"],
        ["/usr/bin/pbcopy"],
        ["/usr/bin/clip.exe"],
    ]
    # over SSH with X forwarding only the X commands reach the rep's screen
    assert copy_commands({"DISPLAY": "localhost:10.0", "SSH_CONNECTION": "1 2 3 4"}, every) == [
        ["/usr/bin/xclip", "-selection", "clipboard"],
        ["/usr/bin/xsel", "--clipboard", "--input"],
    ]
    assert copy_commands({"SSH_TTY": "/dev/pts/1"}, every) == []
    assert copy_commands({}, on_path("pbcopy")) == [["/usr/bin/pbcopy"]]
    assert copy_commands({"DISPLAY": ":0"}, on_path()) == []


def test_the_first_command_that_succeeds_takes_the_text(tmp_path: Path) -> None:
    out = tmp_path / "copied"
    writes = [
        sys.executable,
        "-c",
        f"import sys; open({str(out)!r}, 'wb').write(sys.stdin.buffer.read())",
    ]
    fails = [sys.executable, "-c", "import sys; sys.exit(1)"]
    missing = [str(tmp_path / "no-such-command")]
    assert system_copy("Grüße ✓", [missing, fails, writes]) is True
    assert out.read_bytes().decode("utf-8") == "Grüße ✓"


def test_no_command_or_none_that_works_is_not_a_copy(tmp_path: Path) -> None:
    hangs = [
        sys.executable,
        "-c",
        "import sys; sys.stdin.read(); import threading; threading.Event().wait()",
    ]
    assert system_copy("x", []) is False
    assert system_copy("x", [[sys.executable, "-c", "import sys; sys.exit(3)"]]) is False
    assert system_copy("x", [hangs], timeout=0.2) is False
