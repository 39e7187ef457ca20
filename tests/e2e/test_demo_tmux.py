"""`warmline demo` in a real terminal: start it in tmux, read Today (the start screen) and
the lead list (`L`) off the screen.

This is the README's run command as a rep would use it. It needs tmux (present on our
development and CI machines); without it the test is skipped with that reason.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def wait_for_screen(session: str, wanted: list[str], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if all(text in screen for text in wanted):
            return screen
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {wanted!r}; the screen shows:\n{screen}")


def test_demo_shows_the_lead_list_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"warmline-e2e-{uuid.uuid4().hex[:8]}"
    data_dir = tmp_path / "demo"
    command = (
        f"{sys.executable} -m warmline demo --data-dir {data_dir} --companies 500 --leads 12 --seed 7"
        "; sleep 5"  # keep a failed start's message on screen long enough to be read
    )
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command)
    try:
        screen = wait_for_screen(session, ["Today ·", "Finished jobs (", "Failed ops (", "online"], timeout=90)
        assert "Recommendations (" in screen and "Follow-ups due (" in screen
        tmux("send-keys", "-t", session, "L")
        screen = wait_for_screen(session, ["Leads", "12 shown", "online"], timeout=30)
        assert "Company" in screen and "Score / target" in screen
        rows = [line for line in screen.splitlines() if " cold " in line or " warm " in line]
        assert len(rows) >= 10
        tmux("send-keys", "-t", session, "q")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if session not in subprocess.run(["tmux", "ls"], capture_output=True, text=True).stdout:
                break
            time.sleep(0.25)
        else:
            pytest.fail("the cockpit did not quit on q")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    # Quitting the cockpit stopped the reference server: nothing holds the data dir's db.
    assert (data_dir / "sandbox.sqlite3").exists()
    assert (data_dir / "cache" / "cache.sqlite3").exists()


def test_plain_warmline_paints_the_cache_and_goes_offline_quietly(tmp_path: Path) -> None:
    """The rep's `warmline` (its fast start, warmline.launch): Today from the cache, then sync
    starts, finds no service, and the status line says offline; no error box. `L` shows the
    lead list from the cache."""
    from warmline.store import Store

    store = Store(tmp_path / "cache.sqlite3")
    store.upsert_leads([
        {"id": n, "company_id": 100 + n, "company_name": f"Cached Co {n}", "lead_status": "cold",
         "warming_score": 10 * n, "target_score": 80, "activity_count": n, "recommendation_count": 0,
         "monitoring_active": True, "last_activity_at": None, "created_at": "2026-11-01T00:00:00.000Z"}
        for n in range(1, 6)
    ])
    store.close()
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    session = f"warmline-e2e-{uuid.uuid4().hex[:8]}"
    env = {"WARMLINE_DATA_DIR": str(tmp_path), "WARMLINE_CONFIG": str(tmp_path / "none.toml"),
           "WARMLINE_BASE_URL": f"http://127.0.0.1:{port}/", "WARMLINE_API_KEY": "e2e-key"}
    setenv = [arg for name, value in env.items() for arg in ("-e", f"{name}={value}")]
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", *setenv,
         f"{sys.executable} -m warmline; sleep 5")
    try:
        screen = wait_for_screen(session, ["Today ·", "Nothing for today", "offline"], timeout=60)
        assert "Error" not in screen and "Traceback" not in screen
        tmux("send-keys", "-t", session, "L")
        screen = wait_for_screen(session, ["Leads", "5 shown", "Cached Co 5", "offline"], timeout=30)
        tmux("send-keys", "-t", session, "q")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
