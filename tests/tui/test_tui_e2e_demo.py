"""End to end: `warmline demo` in a real terminal (tmux): Today (the start screen), then the
lead list (`L`) read off the screen."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from support.tmux import PrivateTmux

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux for a real terminal"),
]

LEADS = 12


def screen(tmux: PrivateTmux) -> str:
    return tmux.run("capture-pane", "-p", "-t", "demo").stdout


def wait_for(tmux: PrivateTmux, pattern: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = screen(tmux)
        if re.search(pattern, text):
            return text
        time.sleep(0.25)
    raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{text}")


def test_demo_opens_a_live_cockpit_in_a_real_terminal(tmp_path: Path) -> None:
    command = " ".join([
        sys.executable, "-m", "warmline", "demo", "--data-dir", str(tmp_path / "demo"),
        "--companies", "300", "--leads", str(LEADS), "--job-seconds", "2",
    ])
    env_prefix = f"WARMLINE_CONFIG={tmp_path / 'no-config.toml'} TERM=xterm-256color"
    with PrivateTmux() as tmux:
        started = tmux.run("new-session", "-d", "-s", "demo", "-x", "120", "-y", "40", f"env {env_prefix} {command}")
        assert started.returncode == 0, started.stderr
        today = wait_for(tmux, r"Today · .*\n(.*\n)*.*Recommendations \(\d+\)", timeout=120)
        assert "Finished jobs (" in today and "Follow-ups due (" in today and "Failed ops (" in today
        tmux.run("send-keys", "-t", "demo", "L")
        text = wait_for(tmux, rf"Leads · {LEADS} shown", timeout=60)
        lines = text.splitlines()
        header = next(i for i, line in enumerate(lines) if line.strip().startswith("Company"))
        assert "Score / target" in lines[header] and "Last activity" in lines[header]
        rows = [line for line in lines[header + 1 :] if re.search(r"\d+/\d+", line)]
        assert len(rows) == LEADS
        assert all(re.search(r"\b(cold|warm)\b", row) for row in rows)
        wait_for(tmux, r"● online", timeout=30)

        tmux.run("send-keys", "-t", "demo", "r")
        wait_for(tmux, r"to go · session 0 done, 0 dismissed · all time \d+ done, \d+ dismissed of \d+", timeout=60)
        tmux.run("send-keys", "-t", "demo", "q")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and tmux.run("has-session", "-t", "demo").returncode == 0:
            time.sleep(0.25)
        assert tmux.run("has-session", "-t", "demo").returncode != 0, "the cockpit did not quit on q"
