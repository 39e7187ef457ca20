"""SIGTERM, SIGHUP and SIGINT leave the rep's terminal as it was (issue 21, item 10;
issue 25).

Before: `kill` (or a closed terminal) killed the cockpit at once, leaving the terminal raw
(no echo, no line editing), on the alternate screen and reporting the mouse: the first-run
screen always, the cockpit before its first frame. `warmline.termination.exit_on_termination`
turns them into SystemExit where plain code runs; while the app runs it quits as `q` does
(`WarmlineApp.stopped_by_signals`, which also releases the holds). And a cockpit whose
terminal vanished (a killed tmux pane) stayed orphaned, waiting for ever to write to it.

The end-to-end cases run `python -m warmline` in a pseudo-terminal, wait until it has
drawn, send the signal, and read the terminal's modes back.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from support.pty_process import CAP, ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, Terminal
from warmline.store import Store
from warmline.termination import exit_on_termination, signalled, stopping_with
from warmline.tui.drafts import FILE_NAME

pytestmark = pytest.mark.skipif(os.name == "nt" or not hasattr(signal, "SIGHUP"), reason="POSIX signals and ptys")
main_thread_only = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(), reason="signals reach the main thread"
)



@main_thread_only
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
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


@main_thread_only
def test_a_part_that_stops_its_own_way_is_asked_to_and_the_exit_follows() -> None:
    """An event loop is never interrupted by an exception (`stopping_with`): its stopper is
    called, and once it has returned the command exits with the signal's status. A second
    signal asks again; the first decides the status. (`raise_signal` runs the handler
    before it returns.)"""
    asked: list[int | None] = []
    with pytest.raises(SystemExit) as info, exit_on_termination():
        with stopping_with(lambda: asked.append(signalled())):
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGHUP)
        asked.append(None)  # plain code again: runs on to the end of the command
    assert asked == [signal.SIGTERM, signal.SIGTERM, None]
    assert info.value.code == 128 + signal.SIGTERM
    assert signalled() is None  # a later run in this process (another cockpit) starts afresh


@main_thread_only
def test_a_second_signal_does_not_cut_the_unwinding_short() -> None:
    cleaned: list[str] = []
    with pytest.raises(SystemExit) as info, exit_on_termination():
        try:
            signal.raise_signal(signal.SIGTERM)
        finally:
            signal.raise_signal(signal.SIGINT)  # while the first unwinds: no second exception
            cleaned.append("server stopped")
    assert cleaned == ["server stopped"]
    assert info.value.code == 128 + signal.SIGTERM


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
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
@pytest.mark.parametrize("key", [False, True], ids=["first-run", "cockpit"])
def test_the_terminal_is_restored_when_the_cockpit_is_told_to_stop(tmp_path: Path, name: str, key: bool) -> None:
    number = getattr(signal, name)
    terminal = Terminal([], environment(tmp_path, key))
    try:
        terminal.wait_for_raw_mode()
        os.kill(terminal.pid, number)
        status = terminal.end()
        assert not os.WIFSIGNALED(status), "killed by the signal: the terminal was left as the cockpit set it"
        assert os.WEXITSTATUS(status) == 128 + number
        assert terminal.modes() == (True, True)
        assert terminal.output.rfind(LEAVE_ALT_SCREEN) > terminal.output.rfind(ENTER_ALT_SCREEN)
        assert b"Traceback" not in terminal.output
    finally:
        terminal.close()


@pytest.mark.e2e
@pytest.mark.parametrize("drawn", [False, True], ids=["while-starting", "after-drawing"])
def test_the_cockpit_ends_when_its_terminal_vanishes(tmp_path: Path, drawn: bool) -> None:
    """A killed tmux pane or a closed window (the kernel's SIGHUP, with SIGCONT): the
    cockpit exits instead of waiting for ever to write to a terminal that is gone
    (bench/bench_tui.py left such orphans). Hung up as soon as Textual has started, and
    once the first screen is drawn."""
    terminal = Terminal([], environment(tmp_path, key=True))
    try:
        terminal.wait_for(ENTER_ALT_SCREEN)
        if drawn:
            terminal.wait_for(b"Today")
        terminal.hang_up()
        status = terminal.end()
        assert not os.WIFSIGNALED(status)
        assert os.WEXITSTATUS(status) == 128 + signal.SIGHUP
    finally:
        terminal.close()


@pytest.mark.e2e
def test_a_closed_terminal_keeps_the_text_of_an_open_form(tmp_path: Path) -> None:
    """The window closed while the rep was writing up a call: the text is in drafts.json,
    and the form opens with it in the next cockpit (tests/tui/test_tui_drafts.py)."""
    terminal = Terminal([], environment(tmp_path, key=True))
    try:
        terminal.wait_for(b"Today")
        for keys, shown in ((b"L", b"Acme"), (b"\r", b"Log activity"), (b"a", b"Log activity on"),
                            (b"Called Dana re pricing", b"Called Dana re pricing")):
            os.write(terminal.fd, keys)
            terminal.wait_for(shown)
        terminal.hang_up()
        status = terminal.end()
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 128 + signal.SIGHUP
    finally:
        terminal.close()
    drafts = json.loads((tmp_path / "data" / FILE_NAME).read_text())
    assert drafts == [["activity", 1, "Called Dana re pricing"]]
