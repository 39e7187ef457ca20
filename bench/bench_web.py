"""The cockpit in Chromium (`warmline web`) against the same cockpit in tmux, on this machine.

    .venv/bin/python bench/bench_web.py [--runs 9] [--keep DIR]

The same `warmline` (bench_tui.warmline_command: a data dir of 10,000 cached leads with
follow-ups, a key, a loopback service that is not there) shown two ways, turn by turn:
1. First paint of Today. tmux: from launching the process to Today on the terminal
   (bench_tui.paint_in_tmux). Chromium: from the start of loading the page (the browser
   already signed in) to the frame that shows Today: the page, xterm.js, the WebSocket and
   the cockpit's own start; and, from Chromium's trace, to that frame drawn (as for the
   keys, below). Target: under 2x tmux. Each turn of either side starts with
   the server's spare cockpit ready (`warmline.web.spare`), as a rep finds it.
2. Key to frame, median, for `L` (Today to the lead list), `j` (its cursor down), enter
   (a lead opened) and escape (back to the list: measured, no target), a round of keys on
   each side in turn (both cockpits open throughout).
   tmux: from sending the key to tmux's relaying the pane output that completes the screen
   the key settles on (one control-mode client sends, reads and times: `TmuxKeys`).
   Chromium: from the keydown event to xterm.js's draw of the WebSocket message that
   completes that screen (the page's clock, read back through a tap installed before the
   page's scripts, tests/support/web_session.py, which sees each draw of xterm.js's rows:
   the DOM renderer's, which the page uses).
   Also printed: the part of that from the message's arrival to the frame (xterm.js
   parsing and drawing its rows); and, from Chromium's trace, the keydown to that frame
   drawn, after its style, layout, paint and compositing (the frame the rep sees), with
   its ratio. Target: at most 1.2x tmux per key.
   And the same keys in tmux shown in the same page (the template, fonts and xterm.js of
   `warmline web`, attached to tmux through a pseudo-terminal: bench/tmux_page.py,
   `TmuxShown`), read the same way to the frame drawn, each round after the page's: both
   sides then end where the rep sees the frame, and differ only behind the WebSocket.
   tmux's side above stops where tmux relays the bytes, before any terminal has drawn
   them; a terminal showing tmux waits for its display's frame too, and the frame alone
   (up to 16.7 ms at 60 Hz) is more than 1.2x of a `j` that tmux relays in ~5 ms.
The status line is left out of "the screen a key settles on" on both sides: it may change
on its own clock while a key is measured. The browser is Debian's headless Chromium with
the flags of tests/support/browser.py, its terminal sized to tmux's 120x40 where the font
allows (the size used is printed).
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import os
import queue
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyte
from bench_tui import (
    Launch,
    cache_for,
    compile_sources,
    paint_in_tmux,
    report,
    tmux_environment,
    warmline_command,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.browser import CHROMIUM_PATHS, DRIVER_PATHS, FLAGS, missing_reason  # noqa: E402
from support.tmux import PrivateTmux  # noqa: E402
from support.web_session import WIRE_TAP, WebServer, screen_size  # noqa: E402

SETTLE = 0.3
"""Seconds with nothing new on the screen after which a key's effect is taken as complete."""
DRAWN_WITHIN = 250.0
"""Milliseconds after xterm.js's draw within which Chromium's trace must show the frame
drawn (`Browser._drawn`; past it the frame's event was lost, and the turn is left out), and
after a message's arrival within which xterm.js draws it (`Browser._frame`)."""
POLL = 0.005
"""Seconds between two looks at a screen while a key's effect settles (`_settle`)."""
CELL = (9.0, 21.0)
"""Roboto Mono at 16 px in Chromium: a cell's width and height in CSS pixels, as the Canvas
renderer measures them (the first guess; `Browser._fit` corrects it)."""

# A key and whether it is measured. Each round goes Today -> the lead list -> down -> up ->
# a lead -> back -> Today, so every round starts where the last one did. (`j` is measured on
# the lead list: in a browser, the first screen's table starts without the focus, so Today
# ignores `j` until the rep has left it once; see the note in bench/README.md.)
ROUND = (("L", True), ("j", True), ("k", False), ("enter", True), ("escape", True), ("H", False))
GOAL_KEYS = ("L", "j", "enter")
"""The keys issue 25 sets its goal on; escape (the rep's "back") is measured and shown beside
them: in a terminal Textual waits 100 ms on a lone ESC, from the page it need not
(`warmline.web.session.ESCAPE_KEY`)."""
BROWSER_KEYS = {"enter": "\ue007", "escape": "\ue00c"}
TMUX_KEYS = {"enter": "Enter", "escape": "Escape"}


def comparable(screen: str) -> str:
    """The screen without its status line (the second line from the bottom)."""
    lines = screen.splitlines()
    return "\n".join(lines[:-2] + lines[-1:])


def styled(screen: pyte.Screen) -> str:
    """A pyte screen's text with each cell's colours: a cursor that moves changes only those."""
    return "\n".join(
        "".join(f"{cell.data}\0{cell.fg}\0{cell.bg}\0{cell.reverse:d}" for cell in
                (screen.buffer[row][column] for column in range(screen.columns)))
        for row in range(screen.lines)
    )


# --- tmux ------------------------------------------------------------------------------------

class TmuxKeys:
    """The cockpit in tmux 120x40, for key-to-screen times, through one control-mode client
    (`tmux -C`) attached before the cockpit starts: it sends the keys, and receives and
    times every byte of the pane's output as tmux relays it (`%output`), which pyte
    replays as the page's messages are (`Browser`), so the output that completes a key's
    screen is known exactly on both sides.

    Before session 18, each key was a `send-keys` process and the screen was polled with
    `capture-pane` processes (2 to 3 ms each); once the cockpit answered `j` in ~5 ms those
    were half of tmux's figure, and a capture started before the answer could still see
    it, so turns read 2 to 20 ms. Captures through the control client are no better: tmux
    takes ~8 ms to write one, and relays no output meanwhile.
    """

    def __init__(self, launch: Launch) -> None:
        argv, env, painted = launch
        self.server = PrivateTmux()
        self.tmux = self.server.argv
        self._outputs: list[tuple[float, bytes]] = []
        """Each `%output` notification: when it came, and the pane's bytes it carries."""
        self._replies: queue.Queue[list[str]] = queue.Queue()
        self.screen = pyte.Screen(120, 40)
        self._stream = pyte.ByteStream(self.screen)
        self._fed = 0
        # The reader thread times each %output once it has the GIL: at Python's default
        # switch interval (5 ms) an output that came while this thread replayed one was
        # timed late.
        sys.setswitchinterval(0.0001)
        setenv = tmux_environment(env)
        try:
            # The cockpit starts on a line from the control client, so no byte goes unseen.
            subprocess.run([*self.tmux, "new-session", "-d", "-s", "keys", "-x", "120", "-y", "40", *setenv,
                            "read go && exec " + shlex.join(argv)], check=True)
            self.control = subprocess.Popen([*self.tmux, "-C", "attach", "-t", "keys"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            threading.Thread(target=self._read, daemon=True).start()
            size = self._command("display -p -t keys '#{window_width}x#{window_height}'")
            if size != ["120x40"]:
                raise RuntimeError(f"the control client changed the window's size to {size}")
            self._command("send-keys -t keys Enter")
            _wait(lambda: painted(self._replay()[1]), "Today in tmux")
            self._quiet(0.0)
        except BaseException:
            self.close()
            raise

    def _read(self) -> None:
        """Sort the control client's lines: replies to its commands (between %begin and %end
        or %error; a last field of 1 marks this client's, 0 the attach's own) and %output
        notifications (never inside a reply), their bytes unescaped (tmux writes a byte
        under 32 and the backslash as a backslash and three octal digits)."""
        assert self.control.stdout is not None
        reply: list[str] | None = None
        ours = False
        for raw in self.control.stdout:
            moment = time.perf_counter()
            line = raw.rstrip(b"\n")
            if reply is not None:
                if line.startswith((b"%end", b"%error")):
                    if ours:
                        self._replies.put(reply)
                    reply = None
                else:
                    reply.append(line.decode("utf-8", "replace"))
            elif line.startswith(b"%begin"):
                reply, ours = [], line.endswith(b" 1")
            elif line.startswith(b"%output "):
                data = line.split(b" ", 2)[2] if line.count(b" ") >= 2 else b""
                self._outputs.append((moment, re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m[1], 8)]), data)))

    def _command(self, command: str) -> list[str]:
        assert self.control.stdin is not None
        self.control.stdin.write(command.encode() + b"\n")
        return self._replies.get(timeout=30)

    def _replay(self) -> tuple[list[tuple[float, str]], str]:
        """Feed the outputs not fed yet; the screen after each (when it came, its text with
        colours, `comparable`), and the plain text now."""
        after: list[tuple[float, str]] = []
        while self._fed < len(self._outputs):
            moment, data = self._outputs[self._fed]
            self._stream.feed(data)
            self._fed += 1
            after.append((moment, comparable(styled(self.screen))))
        return after, "\n".join(self.screen.display)

    def _quiet(self, since: float) -> None:
        """Wait until output has come after `since` and then none for `SETTLE`."""
        deadline = time.perf_counter() + 30
        while True:
            now = time.perf_counter()
            last = self._outputs[-1][0] if self._outputs else since
            if last > since and now - last >= SETTLE:
                return
            if now > deadline:
                raise RuntimeError("the pane did not settle")
            time.sleep(POLL)

    def key(self, key: str) -> float:
        """Press `key`; seconds from sending it to tmux's relaying the output that completes
        the screen it settles on."""
        self._replay()
        before = comparable(styled(self.screen))
        sent = time.perf_counter()
        self._command(f"send-keys -t keys {TMUX_KEYS.get(key, key)}")
        self._quiet(sent)
        after, _text = self._replay()
        final = after[-1][1]
        if final == before:
            raise RuntimeError(f"{key} in tmux changed nothing but the status line")
        return next(moment for moment, screen in after if screen == final) - sent

    def close(self) -> None:
        control = getattr(self, "control", None)
        if control is not None:
            control.kill()
            control.wait()
        self.server.close()


def _settle(capture: Callable[[], str], before: str | None = None) -> float:
    """Poll until the screen changes from `before` and then holds for `SETTLE`; returns when
    the screen it settled on was first seen (the moment a capture showing it came back).
    Neither side's figure is this moment (each times the bytes themselves), so the polls
    can be few: at every millisecond they took a core's share from the cockpit."""
    last = comparable(capture())
    first_seen = time.perf_counter()
    deadline = first_seen + 30
    while time.perf_counter() < deadline:
        now = comparable(capture())
        moment = time.perf_counter()
        if now != last:
            last, first_seen = now, moment
        elif last != before and moment - first_seen >= SETTLE:
            return first_seen
        time.sleep(POLL)
    raise RuntimeError(f"the screen did not settle; it shows:\n{last}")


def _plain(screen: str) -> str:
    return re.sub(r"\x1b\[[0-9;:]*m", "", screen)


def _wait(check: Callable[[], bool], what: str, cap: float = 60.0) -> None:
    deadline = time.monotonic() + cap
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {cap:.0f} s")
        time.sleep(0.01)


class TmuxShown:
    """The cockpit in tmux 120x40, shown in the cockpit's own web page (bench/tmux_page.py):
    for `Browser`, a server like `warmline web` whose sessions are tmux clients attached to
    one tmux session. tmux's status line is off, so its window is the page's 120x40, and its
    escape-time is 10 ms (tmux 3.5's default; 3.3's 500 ms would only slow the rounds)."""

    def __init__(self, launch: Launch) -> None:
        argv, env, painted = launch
        self.server = PrivateTmux()
        setenv = tmux_environment(env)
        try:
            self.server.run("new-session", "-d", "-s", "shown", "-x", "120", "-y", "40", *setenv,
                            shlex.join(argv), check=True)
            self.server.run("set-option", "-g", "status", "off", check=True)
            self.server.run("set-option", "-s", "escape-time", "10", check=True)
            self.relay = subprocess.Popen(
                [sys.executable, str(ROOT / "bench" / "tmux_page.py"), self.server.argv[-1], "shown"],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
            assert self.relay.stdout is not None
            self.origin = self.relay.stdout.readline().strip().rstrip("/")
            if not self.origin:
                raise RuntimeError("bench/tmux_page.py did not start")
            self.link = self.origin + "/"
        except BaseException:
            self.stop()
            raise

    def session_pids(self) -> list[int]:
        """The tmux clients attached (one a page)."""
        listed = self.server.run("list-clients", "-F", "#{client_pid}").stdout.split()
        return [int(pid) for pid in listed if pid.isdigit()]

    def spare_ready(self) -> bool:
        return True

    def stop(self) -> None:
        relay = getattr(self, "relay", None)
        if relay is not None:
            relay.terminate()
            relay.wait()
        self.server.close()


# --- Chromium --------------------------------------------------------------------------------

class Browser:
    """Headless Chromium on `warmline web` (or tmux in the same page: `TmuxShown`), signed
    in once; one page load a session."""

    def __init__(self, server: WebServer | TmuxShown) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.server = server
        self.profile = tempfile.mkdtemp(prefix="warmline-bench-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = next(path for path in CHROMIUM_PATHS if Path(path).is_file())
        for flag in (*FLAGS, f"--user-data-dir={self.profile}"):
            options.add_argument(flag)
        # Chromium's trace (through chromedriver's performance log): when each frame was
        # drawn, after the page's scripts, style, layout and paint (`_drawn`).
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        options.add_experimental_option("perfLoggingPrefs", {
            "enableNetwork": False, "enablePage": False,
            "traceCategories": "devtools.timeline,disabled-by-default-devtools.timeline.frame"})
        self._stamps: dict[tuple[str, int], float] = {}
        """The trace's time (ms) of each message's arrival, by page (its `performance.timeOrigin`)
        and index (the tap's `console.timeStamp`)."""
        self._draws: list[float] = []
        """The trace's time (ms) of each frame drawn (DrawFrame), in order."""
        driver_path = next(path for path in DRIVER_PATHS if Path(path).is_file())
        self.driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
        self._size_window(*CELL)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WIRE_TAP})
        self.driver.get(server.link)  # signed in: the cookie for every later load
        _wait(lambda: bool(self.tap().get("messages")), "the first session")
        self._fit()
        self._start_replay()

    def _size_window(self, width: float, height: float) -> None:
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": math.ceil(120 * width) + 4, "height": math.ceil(40 * height) + 4,
            "deviceScaleFactor": 1, "mobile": False})

    def _fit(self) -> None:
        """If the terminal is not 120x40, size the window by the cell size the page measured
        (the renderer's, from the font: 9 x 21 CSS pixels with the Canvas renderer, 9.6
        wide with the DOM renderer) and load the page again."""
        columns, rows = screen_size(self.tap())
        if (columns, rows) == (120, 40):
            return
        width, height = self.driver.execute_script(
            "const r = document.querySelector('.xterm-screen').getBoundingClientRect(); return [r.width, r.height]")
        self._size_window(width / columns, height / rows)
        self.driver.get("about:blank")
        _wait(lambda: self.server.session_pids() == [], "the last session to end")
        self.driver.get(self.server.origin + "/")
        _wait(lambda: bool(self.tap().get("messages")), "the session")

    def tap(self) -> dict[str, Any]:
        return self.driver.execute_script("return window.__warmlineTap || null") or {}

    def _start_replay(self) -> None:
        """A new page: its screen is rebuilt from its first message on."""
        width, height = screen_size(self.tap())
        self.pyte_screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.pyte_screen)
        self.after: list[tuple[str, str]] = []
        """The screen after each message received: its text, and its text with colours."""

    def _pull(self) -> None:
        """Feed the messages received since the last pull (only those: the tap grows)."""
        new = self.driver.execute_script(
            "return window.__warmlineTap.messages.slice(arguments[0]).map(m => [m.binary, m.data])", len(self.after))
        for binary, data in new:
            if binary:
                self.stream.feed(base64.b64decode(data))
            self.after.append(("\n".join(self.pyte_screen.display), styled(self.pyte_screen)))

    def _frame(self, index: int) -> float:
        """The page's time of xterm.js's draw that showed message `index` (the tap's
        `renders`: each draw of its rows, read right after it, in its animation frame).

        Draws that rewrote only the status line are left out (it keeps its own clock). Of
        the draws after the message came and before the next one came, the last: xterm.js
        parses a message in a timeout of its own, so a draw asked for earlier can run between
        the message's arrival and its parsing, and the one after it draws the message (and
        within `DRAWN_WITHIN` of its arrival: a later draw is not the message's). With none
        there (the next message came before the draw), the first draw after it.

        Until session 22 the tap asked for an animation frame two timeouts after each
        message; when xterm.js had drawn the message a frame earlier (in ~40% of `j`s read
        in session 22), that read a frame late, and a frame in which Chromium drew nothing,
        so its "frame drawn" was not found and the turn was left out of that figure."""
        arrival = self._arrival(index)
        script = """const tap = window.__warmlineTap;
            return [tap.renders.filter(r => r.at >= arguments[0] && r.rows.some(row => row !== r.of - 2)).map(r => r.at),
                    tap.messages.length > arguments[1] + 1 ? tap.messages[arguments[1] + 1].at : null]"""
        found: list[Any] = []

        def drawn() -> bool:
            found[:] = self.driver.execute_script(script, arrival, index)
            return bool(found[0])

        _wait(drawn, "xterm.js's draw")
        renders, following = found
        cutoff = min(arrival + DRAWN_WITHIN, following if following is not None else math.inf)
        within = [at for at in renders if at < cutoff]
        return float(within[-1] if within else renders[0])

    def _arrival(self, index: int) -> float:
        return float(self.driver.execute_script("return window.__warmlineTap.messages[arguments[0]].at", index))

    def _read_trace(self) -> None:
        """Keep the trace events `_drawn` needs from what chromedriver has collected since."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            event = message.get("params", {})
            if message.get("method") != "Tracing.dataCollected" or "ts" not in event:
                continue
            if event.get("name") == "DrawFrame":
                self._draws.append(event["ts"] / 1000.0)
            elif event.get("name") == "TimeStamp":
                stamp = str(event.get("args", {}).get("data", {}).get("message", "")).split()
                if len(stamp) == 3 and stamp[0] == "warmline-message":
                    self._stamps[stamp[1], int(stamp[2])] = event["ts"] / 1000.0

    def _drawn(self, index: int, frame: float) -> float | None:
        """The page's time of the frame Chromium drew after xterm.js's draw of message
        `index` at `frame` (page time): its style, layout, paint and compositing done, which
        the tap's clock, read inside the animation frame, is before. From the trace: the
        message's arrival stamped there sets its clock beside the page's. None if the
        trace does not have it within 10 s, or has no frame drawn within `DRAWN_WITHIN`."""
        page = self.driver.execute_script("return String(performance.timeOrigin)")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            self._read_trace()
            if (page, index) in self._stamps:
                offset = self._stamps[page, index] - self._arrival(index)
                drawn = next((draw for draw in self._draws if draw > frame + offset), None)
                if drawn is not None:
                    # a frame is drawn within a few vsyncs of the draw; one much later means
                    # the trace lost that frame's event (seen once: 3.6 s)
                    return drawn - offset if drawn - offset - frame < DRAWN_WITHIN else None
            time.sleep(0.05)
        return None

    def screen(self) -> str:
        """The screen now, with colours (`styled`)."""
        self._pull()
        return self.after[-1][1] if self.after else ""

    def text(self) -> str:
        """The screen now, its plain text."""
        self._pull()
        return self.after[-1][0] if self.after else ""

    def fresh_page(self, painted: Callable[[str], bool]) -> tuple[float, float, float | None]:
        """Load the page anew (the last session ended first); seconds from the start of the
        load to the frame that showed `painted`, to the WebSocket's opening (its first
        message out), and to that frame drawn (`_drawn`), if known."""
        self.driver.get("about:blank")
        _wait(lambda: self.server.session_pids() == [], "the last session to end")
        self._read_trace()  # what the trace holds of the last page is not needed again
        self._stamps.clear()
        self._draws.clear()
        self.quiet()
        self.driver.get(self.server.origin + "/")
        _wait(lambda: bool(self.tap().get("sent")), "the page's WebSocket")
        self._start_replay()

        def shown() -> bool:
            self._pull()
            return any(painted(text) for text, _ in self.after)

        _wait(shown, "Today in Chromium")
        index = next(i for i, (text, _) in enumerate(self.after) if painted(text))
        opened = self.driver.execute_script("return window.__warmlineTap.sent[0][0]")
        frame = self._frame(index)
        drawn = self._drawn(index, frame)
        return frame / 1000.0, opened / 1000.0, None if drawn is None else drawn / 1000.0

    def quiet(self) -> None:
        """Wait for the server's spare cockpit to be ready (`warmline.web.spare`), as it is
        for a rep whose server has been up a while; and so that its start, which follows
        each claim, shares the CPU with no turn of either side."""
        _wait(self.server.spare_ready, "the spare cockpit")

    def key(self, key: str) -> tuple[float, float, float | None]:
        """Press `key`; seconds from its keydown to the frame showing the screen it settles on,
        and of those, the seconds from the arrival of the bytes that complete it to that
        frame; and seconds from the keydown to that frame drawn (`_drawn`), if known."""
        from selenium.webdriver.common.action_chains import ActionChains

        before = comparable(self.screen())
        seen = len(self.after)
        ActionChains(self.driver).send_keys(BROWSER_KEYS.get(key, key)).perform()
        _settle(self.screen, before)
        final = comparable(self.after[-1][1])
        index = next(i for i in range(seen, len(self.after)) if comparable(self.after[i][1]) == final)
        keys = self.driver.execute_script("return window.__warmlineTap.keys")
        pressed = [at for at, name in keys if name.lower() == key.lower()][-1]
        frame = self._frame(index)
        drawn = self._drawn(index, frame)
        return ((frame - pressed) / 1000.0, (frame - self._arrival(index)) / 1000.0,
                None if drawn is None else (drawn - pressed) / 1000.0)

    def close(self) -> None:
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)


# --- the run -----------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9, help="first paints and key rounds on each side")
    parser.add_argument("--keep", type=Path, help="reuse/keep the generated cache in this directory")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("tmux is needed (apt-get install tmux)")
    missing = missing_reason()
    if missing:
        sys.exit(missing)

    directory = args.keep or Path(tempfile.mkdtemp(prefix="warmline-bench-"))
    directory.mkdir(parents=True, exist_ok=True)
    print(f"Warmline in Chromium against tmux (cache in {directory})")
    compile_sources()
    scratch = Path(tempfile.mkdtemp(prefix="warmline-bench-web-"))
    launch = warmline_command(cache_for(directory, 10_000), scratch, "today")
    argv, env, painted = launch
    server = WebServer({**os.environ, **env}, "--max-sessions", "4")
    browser = Browser(server)
    try:
        width, height = screen_size(browser.tap())
        print(f"\n1. First paint of Today (tmux 120x40; Chromium {width}x{height}), n={args.runs}, turn by turn")
        terminal_paints: list[float] = []
        browser_paints: list[float] = []
        openings: list[float] = []
        drawn_paints: list[float] = []
        for _run in range(args.runs):
            browser.quiet()
            terminal_paints += paint_in_tmux({"tmux": launch}, 1)["tmux"]
            paint, opened, paint_drawn = browser.fresh_page(painted)
            browser_paints.append(paint)
            openings.append(opened)
            if paint_drawn is not None:
                drawn_paints.append(paint_drawn)
        tmux_paint = report("tmux", terminal_paints)
        web_paint = report("Chromium", browser_paints)
        report("Chromium, the page loaded and its WebSocket open", openings)
        paired = statistics.median(b / t for b, t in zip(browser_paints, terminal_paints, strict=True))
        print(f"    ratio Chromium / tmux = {web_paint / tmux_paint:.2f}x; median of the turns' ratios {paired:.2f}x"
              "  (target < 2x)")
        if drawn_paints:
            shown = report("Chromium, to that frame drawn (trace)", drawn_paints)
            print(f"    ratio, the frame drawn: Chromium / tmux = {shown / tmux_paint:.2f}x  (target < 2x)")

        print(f"\n2. Key to frame, {args.runs} rounds of {' '.join(key for key, _ in ROUND)}")
        measured_keys = [key for key, measured in ROUND if measured]
        in_tmux: dict[str, list[float]] = {key: [] for key in measured_keys}
        in_browser: dict[str, list[float]] = {key: [] for key in measured_keys}
        drawing: dict[str, list[float]] = {key: [] for key in measured_keys}
        drawn: dict[str, list[float]] = {key: [] for key in measured_keys}
        """Keydown to the frame drawn, by Chromium's trace, where the trace had it."""
        rendering: dict[str, list[float]] = {key: [] for key in measured_keys}
        """Of that, the part after xterm.js's draw: Chromium's style, layout, paint, compositing."""
        shown_drawn: dict[str, list[float]] = {key: [] for key in measured_keys}
        """tmux shown in the same page (`TmuxShown`): keydown to the frame drawn."""
        shown_arrival: dict[str, list[float]] = {key: [] for key in measured_keys}
        """Of that, the keydown to the arrival of the bytes that complete the screen."""
        paired_drawn: dict[str, list[float]] = {key: [] for key in measured_keys}
        """Each round's ratio of the two frames drawn, where the trace had both."""
        no_relay: dict[str, list[float]] = {key: [] for key in measured_keys}
        """tmux's own figure (`TmuxKeys`) plus the page's arrival-to-frame-drawn of tmux's
        bytes, round by round: tmux in a terminal that draws as xterm.js does in Chromium
        but reads the pseudo-terminal itself (no WebSocket, no relay)."""
        browser.fresh_page(painted)  # a session of its own for the keys
        browser.quiet()
        terminal = TmuxKeys(launch)
        tmux_page = TmuxShown(launch)
        in_page = Browser(tmux_page)
        try:
            _wait(lambda: painted(in_page.text()), "Today in tmux, in the page")
            for _round in range(args.runs):  # a round on each side in turn
                for key, measured in ROUND:
                    took = terminal.key(key)
                    if measured:
                        in_tmux[key].append(took)
                ours: dict[str, float | None] = {}
                for key, measured in ROUND:
                    took, after_arrival, to_drawn = browser.key(key)
                    if measured:
                        in_browser[key].append(took)
                        drawing[key].append(after_arrival)
                        ours[key] = to_drawn
                        if to_drawn is not None:
                            drawn[key].append(to_drawn)
                            rendering[key].append(to_drawn - took)
                for key, measured in ROUND:
                    took, after_arrival, to_drawn = in_page.key(key)
                    if measured and to_drawn is not None:
                        shown_drawn[key].append(to_drawn)
                        shown_arrival[key].append(took - after_arrival)
                        no_relay[key].append(in_tmux[key][-1] + to_drawn - (took - after_arrival))
                        if ours.get(key) is not None:
                            paired_drawn[key].append(ours[key] / to_drawn)
        finally:
            terminal.close()
            in_page.close()
            tmux_page.stop()
        for key in measured_keys:
            in_terminal = report(f"{key} in tmux", in_tmux[key])
            web = report(f"{key} in Chromium", in_browser[key])
            report(f"{key} in Chromium, from the last bytes' arrival to the frame", drawing[key])
            paired = statistics.median(b / t for b, t in zip(in_browser[key], in_tmux[key], strict=True))
            print(f"    ratio {key}: Chromium / tmux = {web / in_terminal:.2f}x; median of the rounds' ratios "
                  f"{paired:.2f}x" + ("  (target <= 1.2x)" if key in GOAL_KEYS else "  (no target)"))
            if drawn[key]:
                shown = report(f"{key} in Chromium, to that frame drawn (trace)", drawn[key])
                report(f"{key} in Chromium, from xterm.js's draw to the frame drawn", rendering[key])
                print(f"    ratio {key}, the frame drawn: Chromium / tmux = {shown / in_terminal:.2f}x")
            if drawn[key] and shown_drawn[key]:
                page = report(f"{key} in tmux shown in the same page, to the frame drawn (trace)", shown_drawn[key])
                report(f"{key} in tmux shown in the same page, to the last bytes' arrival", shown_arrival[key])
                report(f"{key} in Chromium, to the last bytes' arrival",
                       [took - after for took, after in zip(in_browser[key], drawing[key], strict=True)])
                print(f"    ratio {key}, both to the frame drawn: warmline web / tmux in the page = "
                      f"{statistics.median(drawn[key]) / page:.2f}x; median of the rounds' ratios "
                      f"{statistics.median(paired_drawn[key]):.2f}x"
                      + ("  (target <= 1.2x)" if key in GOAL_KEYS else "  (no target)"))
                direct = report(f"{key} in tmux, relayed, plus the page's draw of its bytes (no relay)", no_relay[key])
                print(f"    ratio {key}: warmline web / that = {statistics.median(drawn[key]) / direct:.2f}x")
    finally:
        browser.close()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
