"""`api_key_cmd` is bounded whatever the command does (issue 21, item 10).

Before: `yes` grew to 5 GB before the 10 s cap, grandchildren outlived the cap, the
command's stderr was quoted in the error (a password manager may print the key there),
and a 10 MB line was used as a key. Each command here is a small Python script; a
grandchild writes its pid to a file so the test can see whether it outlived the call.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from warmline.config import KEY_COMMAND_OUTPUT, MAX_KEY_LENGTH, ConfigError, run_key_command

SPAWN_GRANDCHILD = (
    "import subprocess, sys\n"
    "grandchild = subprocess.Popen([sys.executable, '-c', 'import time\\nwhile True: time.sleep(1)'])\n"
    "open(sys.argv[1], 'w').write(str(grandchild.pid))\n"
)


def command(tmp_path: Path, body: str, *args: str) -> str:
    script = tmp_path / "key command.py"
    script.write_text(body, encoding="utf-8")
    return shlex.join([sys.executable, str(script), *args])


def running(pid: int) -> bool:
    """True while `pid` runs (a zombie waiting for its reaper counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def ends(pid: int, within: float = 20.0) -> bool:
    """Wait for the process to end (a condition, polled; the bound only stops a hung test)."""
    deadline = time.monotonic() + within
    while running(pid):
        if time.monotonic() > deadline:
            os.kill(pid, 9)  # do not leave it behind for the next test
            return False
        time.sleep(0.02)
    return True


def grandchild_pid(marker: Path) -> int:
    deadline = time.monotonic() + 20
    while not marker.exists() or not marker.read_text():
        assert time.monotonic() < deadline, "the grandchild never started"
        time.sleep(0.02)
    return int(marker.read_text())


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def test_a_key_is_the_first_line_stripped(tmp_path: Path) -> None:
    assert run_key_command(command(tmp_path, "print('\\n  the-key  \\nlogin: dana')\n"), tmp_path) == "the-key"


@needs_proc
def test_endless_output_stops_at_the_cap_and_the_whole_group_is_killed(tmp_path: Path) -> None:
    marker = tmp_path / "grandchild"
    endless = SPAWN_GRANDCHILD + "import sys\nwhile True:\n    sys.stdout.write('y\\n' * 4096)\n"
    with pytest.raises(ConfigError) as info:
        run_key_command(command(tmp_path, endless, str(marker)), tmp_path, timeout=60)
    assert f"printed more than {KEY_COMMAND_OUTPUT // 1024} KiB" in str(info.value)
    assert "\n" not in str(info.value)
    assert ends(grandchild_pid(marker)), "the grandchild outlived the cap"


@needs_proc
def test_a_hung_command_and_its_grandchildren_end_at_the_timeout(tmp_path: Path) -> None:
    marker = tmp_path / "grandchild"
    hangs = SPAWN_GRANDCHILD + "import os\nr, w = os.pipe()\nos.read(r, 1)\n"
    with pytest.raises(ConfigError, match=r"did not finish within 0.5 s"):
        run_key_command(command(tmp_path, hangs, str(marker)), tmp_path, timeout=0.5)
    assert ends(grandchild_pid(marker)), "the grandchild outlived the timeout"


def test_stderr_is_never_quoted_nor_shown(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    secret = "sk-live-THE-KEY-0123456789"
    noisy = f"import sys\nsys.stderr.write('{secret}\\n')\nsys.exit(3)\n"
    with pytest.raises(ConfigError) as info:
        run_key_command(command(tmp_path, noisy), tmp_path)
    assert "failed (exit 3)" in str(info.value) and secret not in str(info.value)
    works = f"import sys\nsys.stderr.write('{secret}\\n')\nprint('k')\n"
    assert run_key_command(command(tmp_path, works), tmp_path) == "k"
    captured = capfd.readouterr()
    assert secret not in captured.out + captured.err


def test_a_line_longer_than_a_key_is_refused_in_one_line(tmp_path: Path) -> None:
    long_line = f"print('k' * {MAX_KEY_LENGTH + 1})\n"
    with pytest.raises(ConfigError) as info:
        run_key_command(command(tmp_path, long_line), tmp_path)
    message = str(info.value)
    assert f"{MAX_KEY_LENGTH + 1:,} characters" in message and "kkkk" not in message and "\n" not in message
    assert run_key_command(command(tmp_path, f"print('k' * {MAX_KEY_LENGTH})\n"), tmp_path) == "k" * MAX_KEY_LENGTH
