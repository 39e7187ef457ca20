"""`warmline demo` in a real terminal: start it in tmux, read Today (the start screen) and
the lead list (`L`) off the screen.

This is the README's run command as a rep would use it. It needs tmux (present on our
development and CI machines); without it the test is skipped with that reason.
"""

from __future__ import annotations

import shutil
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.tmux import PrivateTmux

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


SESSION = "demo"


@pytest.fixture
def tmux() -> Iterator[PrivateTmux]:
    with PrivateTmux() as server:
        yield server


def wait_for_screen(tmux: PrivateTmux, wanted: list[str], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux.run("capture-pane", "-p", "-t", SESSION, check=True).stdout
        if all(text in screen for text in wanted):
            return screen
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {wanted!r}; the screen shows:\n{screen}")


def test_demo_shows_the_lead_list_in_a_real_terminal(tmp_path: Path, tmux: PrivateTmux) -> None:
    data_dir = tmp_path / "demo"
    command = (
        f"{sys.executable} -m warmline demo --data-dir {data_dir} --companies 500 --leads 12 --seed 7"
        "; sleep 5"  # keep a failed start's message on screen long enough to be read
    )
    tmux.run("new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40", command, check=True)
    screen = wait_for_screen(tmux, ["Today ·", "Finished jobs (", "Failed ops (", "online"], timeout=90)
    assert "Recommendations (" in screen and "Follow-ups due (" in screen
    tmux.run("send-keys", "-t", SESSION, "L", check=True)
    screen = wait_for_screen(tmux, ["Leads", "12 shown", "online"], timeout=30)
    assert "Company" in screen and "Score / target" in screen
    rows = [line for line in screen.splitlines() if " cold " in line or " warm " in line]
    assert len(rows) >= 10
    tmux.run("send-keys", "-t", SESSION, "q", check=True)
    deadline = time.monotonic() + 20
    while tmux.run("has-session", "-t", SESSION).returncode == 0:
        if time.monotonic() > deadline:
            pytest.fail("the cockpit did not quit on q")
        time.sleep(0.25)
    # Quitting the cockpit stopped the reference server: nothing holds the data dir's db.
    assert (data_dir / "sandbox.sqlite3").exists()
    assert (data_dir / "cache" / "cache.sqlite3").exists()


def test_plain_warmline_paints_the_cache_and_goes_offline_quietly(tmp_path: Path, tmux: PrivateTmux) -> None:
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
    env = {"WARMLINE_DATA_DIR": str(tmp_path), "WARMLINE_CONFIG": str(tmp_path / "none.toml"),
           "WARMLINE_BASE_URL": f"http://127.0.0.1:{port}/", "WARMLINE_API_KEY": "e2e-key"}
    setenv = [arg for name, value in env.items() for arg in ("-e", f"{name}={value}")]
    tmux.run("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "30", *setenv,
             f"{sys.executable} -m warmline; sleep 5", check=True)
    screen = wait_for_screen(tmux, ["Today ·", "Nothing for today", "offline"], timeout=60)
    assert "Error" not in screen and "Traceback" not in screen
    tmux.run("send-keys", "-t", SESSION, "L", check=True)
    screen = wait_for_screen(tmux, ["Leads", "5 shown", "Cached Co 5", "offline"], timeout=30)
    tmux.run("send-keys", "-t", SESSION, "q", check=True)
