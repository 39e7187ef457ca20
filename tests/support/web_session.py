"""`warmline web` in a subprocess, and a browser's side of it without a browser: the
one-time link traded for the cookie, the WebSocket, and a terminal emulator (pyte) that
rebuilds the screen from what the cockpit sends.

Shared by tests/web (the protocol and its security) and the Chromium test.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import aiohttp
import pyte

from support.waiting import until
from warmline.claim import ENV_CLAIM_FD

LINK_PREFIX = "  http"


class WebServer:
    """`warmline web ARGS` started with `env`; `link` is the one-time link it printed,
    `origin` the address it serves."""

    def __init__(self, env: Mapping[str, str], *args: str) -> None:
        # Its stderr (its cockpits' too, relayed) goes to a file: a pipe nobody reads would
        # stop the server once full, and the file says what went wrong when a test fails.
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115  # lives as long as the server
        self.process = subprocess.Popen(
            [sys.executable, "-m", "warmline", "web", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._stderr, text=True,
            env={**env, "PYTHONUNBUFFERED": "1"},
        )
        assert self.process.stdout is not None
        self.printed: list[str] = []
        for line in self.process.stdout:  # until the link; a failed start ends the output
            self.printed.append(line)
            if line.startswith(LINK_PREFIX):
                break
        else:
            self.process.wait()
            raise AssertionError(f"warmline web did not start: {''.join(self.printed)}{self.stderr()}")
        self.link = self.printed[-1].strip()
        self.origin = self.link.split("/?", 1)[0]

    @property
    def websocket_url(self) -> str:
        return "ws" + self.origin.removeprefix("http") + "/ws"

    def session_pids(self) -> list[int]:
        """The cockpits this server started for tabs (its child processes but the spare)."""
        return [pid for pid in self._cockpits() if not self.is_spare(pid)]

    def spare_pids(self) -> list[int]:
        """The cockpits started ahead and not claimed by a tab (`warmline.web.spare`)."""
        return [pid for pid in self._cockpits() if self.is_spare(pid)]

    def _cockpits(self) -> list[int]:
        """The child processes, but one still being started: forked, not yet running the
        cockpit, it shows the server's own command line and environment."""
        own = _command_line(self.process.pid)
        return [pid for pid in children_of(self.process.pid) if _command_line(pid) != own]

    def spare_ready(self) -> bool:
        """Whether a spare is waiting for its claim, its modules loaded (blocked reading
        its claim pipe, the one pipe it reads before then)."""
        return any(_wait_channel(pid).endswith(("pipe_read", "pipe_wait")) for pid in self.spare_pids())

    def is_spare(self, pid: int) -> bool:
        """A child holding a claim pipe whose other end the server still holds: the server
        closes its end when a tab claims the child (an fd number the child reuses later
        names another pipe, or none of the server's)."""
        number = environ_of_or_empty(pid).get(ENV_CLAIM_FD)
        if number is None:
            return False
        try:
            pipe = os.readlink(f"/proc/{pid}/fd/{number}")
        except OSError:
            return False
        return pipe.startswith("pipe:") and pipe in _open_files(self.process.pid)

    def stderr(self) -> str:
        """What the server (and its cockpits, through it) wrote on stderr so far."""
        self._stderr.seek(0)
        return self._stderr.read()

    def report(self) -> str:
        """Its state for a failed test's output: the cockpits alive, the stderr so far."""
        return (f"warmline web (pid {self.process.pid}, exit {self.process.poll()}): cockpits "
                f"{self.session_pids()} for tabs, spares {self.spare_pids()}; stderr:\n{self.stderr()}")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _open_files(pid: int) -> set[str]:
    found = set()
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            found.add(os.readlink(entry))
    return found


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _wait_channel(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return ""


def environ_of_or_empty(pid: int) -> dict[str, str]:
    """`environ_of`, or nothing for a process that has ended."""
    try:
        return environ_of(pid)
    except OSError:
        return {}


def browser_session() -> aiohttp.ClientSession:
    """A client that keeps cookies, as a browser does (aiohttp's jar refuses cookies of an
    IP address unless told)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def sign_in(client: aiohttp.ClientSession, server: WebServer) -> None:
    """Follow the link: the token for the cookie."""
    async with client.get(server.link, allow_redirects=False) as answer:
        assert answer.status == 200, await answer.text()
        assert 'http-equiv="refresh" content="0; url=/"' in await answer.text()


class Terminal:
    """One session: the WebSocket, and the screen pyte rebuilds from what arrives on it."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse, width: int, height: int) -> None:
        self.websocket = websocket
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.texts: list[str] = []
        self.received = 0
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.received += len(message.data)
                self.stream.feed(message.data)
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(message.data)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def press(self, keys: str) -> None:
        await self.websocket.send_str(json.dumps(["stdin", keys]))

    async def shows(self, *wanted: str, cap: float = 60.0) -> str:
        await until(lambda: all(text in self.text for text in wanted) or self.websocket.closed, cap=cap,
                    what=f"the screen showing {wanted!r}")
        assert all(text in self.text for text in wanted), f"the session closed; the screen:\n{self.text}"
        return self.text

    async def close(self) -> None:
        await self.websocket.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


@contextlib.asynccontextmanager
async def terminal(client: aiohttp.ClientSession, server: WebServer, width: int = 110, height: int = 32,
                   origin: str | None = None) -> AsyncIterator[Terminal]:
    """A session as the page opens it: the WebSocket with the page's Origin, then its size."""
    url = f"{server.websocket_url}?width={width}&height={height}"
    async with client.ws_connect(url, origin=origin or server.origin) as websocket:
        await websocket.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        session = Terminal(websocket, width, height)
        try:
            yield session
        finally:
            await session.close()


def environ_of(pid: int) -> dict[str, str]:
    """A process's environment as it was started (`/proc/PID/environ`)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {name.decode(errors="replace"): value.decode(errors="replace") for name, value in pairs}


def service_env(base_url: str, api_key: str, data_dir: Path) -> dict[str, str]:
    """The environment of a rep whose service, key and cache are these."""
    return {**os.environ, "WARMLINE_BASE_URL": base_url, "WARMLINE_API_KEY": api_key,
            "WARMLINE_DATA_DIR": str(data_dir)}


WIRE_TAP = r"""
(() => {
  // Installed before the page's own scripts (Page.addScriptToEvaluateOnNewDocument): keeps
  // what the cockpit's WebSocket receives and sends, each key pressed, each link opened,
  // and each draw of xterm.js's rows, with the page's clock (performance.now()).
  const tap = window.__warmlineTap = {url: null, messages: [], sent: [], keys: [], opened: [], renders: []};
  // Each draw of xterm.js's DOM renderer (it rewrites the rows it draws, in an animation
  // frame): when it was done, and which rows it rewrote, by index; the observer runs in
  // that frame right after the draw, before the frame's style, layout and paint.
  new MutationObserver((mutations) => {
    const rows = document.querySelector(".xterm-rows");
    if (!rows) return;
    const touched = new Set();
    for (const mutation of mutations) {
      let node = mutation.target;
      while (node && node.parentNode !== rows) node = node.parentNode;
      if (node) touched.add(Array.prototype.indexOf.call(rows.children, node));
    }
    if (touched.size) tap.renders.push({at: performance.now(), rows: [...touched], of: rows.children.length});
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  const Native = window.WebSocket;
  function encode(buffer) {
    const bytes = new Uint8Array(buffer);
    let text = "";
    for (let i = 0; i < bytes.length; i += 1) text += String.fromCharCode(bytes[i]);
    return btoa(text);
  }
  function Tapped(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    tap.url = url;
    socket.addEventListener("message", (event) => {
      const binary = typeof event.data !== "string";
      tap.messages.push({at: performance.now(), binary, data: binary ? encode(event.data) : event.data});
      // In a trace of the page (bench_web.py reads one), this message's arrival, by page and
      // index: how the trace's clock is set beside the page's.
      console.timeStamp(`warmline-message ${performance.timeOrigin} ${tap.messages.length - 1}`);
    });
    const send = socket.send.bind(socket);
    socket.send = (data) => { tap.sent.push([performance.now(), data]); send(data); };
    return socket;
  }
  Tapped.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Tapped[name] = Native[name];
  window.WebSocket = Tapped;
  document.addEventListener("keydown", (event) => tap.keys.push([event.timeStamp, event.key]), true);
  window.open = (url, target) => { tap.opened.push([String(url), String(target)]); return null; };
})();
"""
"""The page's side of a session, kept for a test or a bench to read back."""


class TappedPage:
    """A Chromium tab (selenium) on `warmline web`, with `WIRE_TAP` installed: its screen is
    rebuilt with pyte from the bytes its WebSocket received, at the size it asked for."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WIRE_TAP})

    def tap(self) -> dict[str, Any]:
        return self.driver.execute_script("return window.__warmlineTap || null") or {}

    @property
    def text(self) -> str:
        return screen_of(self.tap())

    def press(self, *keys: str) -> None:
        """Keys as the rep types them, into whatever has the focus (xterm.js's textarea)."""
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(*keys).perform()

    def chord(self, modifier: str, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).key_down(modifier).send_keys(key).key_up(modifier).perform()

    async def shows(self, *wanted: str, cap: float = 60.0) -> str:
        try:
            await until(lambda: all(text in self.text for text in wanted), cap=cap, what=f"the page showing {wanted!r}")
        except AssertionError as missing:
            tap = self.tap()
            now = self.driver.execute_script("return performance.now()")
            received = [message["at"] for message in tap.get("messages", [])]
            last = f"the last {now - received[-1]:.0f} ms ago" if received else "none"
            # Whether the cockpit still drew after the last key tells a key it ignored from
            # a cockpit that stopped (the server's state and stderr follow at teardown).
            raise AssertionError(f"{missing}; keys {tap.get('keys', [])[-4:]}, sent {tap.get('sent', [])[-4:]}; "
                                 f"{len(received)} messages received, {last}, "
                                 f"{sum(at > tap['sent'][-1][0] for at in received) if tap.get('sent') else 0} "
                                 f"after the last sent; the screen:\n{self.text}") from None
        return self.text


CELL_DRIFT = r"""
// How far (CSS pixels) any run of text on the terminal sits from its cell: each row's spans
// should start at their column times the cell's width (each character one cell: the
// screens checked hold no wide ones).
const rows = document.querySelectorAll(".xterm-rows > div");
const columns = arguments[0];
let worst = 0;
for (const row of rows) {
  const left = row.getBoundingClientRect().left;
  const cell = row.getBoundingClientRect().width / columns;
  let column = 0;
  for (const span of row.childNodes) {
    const text = span.textContent || "";
    if (text.trim() && span.getBoundingClientRect) {
      worst = Math.max(worst, Math.abs(span.getBoundingClientRect().left - left - column * cell));
    }
    column += [...text].length;
  }
}
return worst;
"""
"""JavaScript for `driver.execute_script(CELL_DRIFT, columns)`: the worst drift of a run of
text from its cell on the page's terminal (xterm.js's DOM renderer)."""


def screen_size(tap: Mapping[str, Any]) -> tuple[int, int]:
    """The terminal size the page last told the server (its resize messages)."""
    sizes = [json.loads(data)[1] for _at, data in tap.get("sent", []) if data.startswith('["resize"')]
    return (sizes[-1]["width"], sizes[-1]["height"]) if sizes else (80, 24)


def screen_of(tap: Mapping[str, Any], upto: int | None = None) -> str:
    """The screen after the first `upto` messages the page received (all by default)."""
    width, height = screen_size(tap)
    screen = pyte.Screen(width, height)
    stream = pyte.ByteStream(screen)
    for message in tap.get("messages", [])[:upto]:
        if message["binary"]:
            stream.feed(base64.b64decode(message["data"]))
    return "\n".join(screen.display)
