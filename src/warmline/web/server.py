"""The web server: textual-serve's `Server`, with our routes, page, gate and session cap.

What is textual-serve's and used as it is: the download route (`handle_download`) and the
reading of the browser's messages (`_process_messages`). What is replaced, and why:
- `_make_app`: its routes included a static directory with listings on; ours serve a
  fixed table of files (`STATIC_FILES`), behind the gate (`warmline.web.access`);
- `handle_index`: its page loads Google's fonts and runs inline scripts; ours
  (templates/cockpit.html) loads only files of this server, under a strict CSP;
- `handle_websocket`: it builds its `AppService` itself, with no Origin check and no cap;
  ours checks the Origin, holds the cap and claims a `CockpitSession` started ahead
  (`warmline.web.spare`);
- its `textual.js` is served without the addons that draw with WebGL or a canvas
  (`warmline.web.client`);
- `serve`: it binds what it is told and prints a logo; `run` here binds first (the port
  may be chosen by the system), makes the link from the bound address, and stops every
  session before it returns.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import WSCloseCode, web
from textual_serve.server import Server

from warmline.web.access import Gate, page
from warmline.web.client import Client
from warmline.web.session import CockpitSession
from warmline.web.spare import Spares

HERE = Path(__file__).parent
SERVED = Path(textual_serve.__file__).parent / "static"
CLIENT = SERVED / "js" / "textual.js"
STATIC_FILES = {
    "xterm.css": SERVED / "css" / "xterm.css",
    "RobotoMono.ttf": SERVED / "fonts" / "RobotoMono-VariableFont_wght.ttf",
    "RobotoMono-Italic.ttf": SERVED / "fonts" / "RobotoMono-Italic-VariableFont_wght.ttf",
    "cockpit.css": HERE / "static" / "cockpit.css",
    "cockpit.js": HERE / "static" / "cockpit.js",
}
"""Every file the page needs besides its client (`CockpitServer.clients`), and
nothing else: xterm.js's stylesheet and textual-serve's font (textual-serve's own copies),
and our stylesheet and script (the keyboard to the terminal at once)."""

FULL = (
    "Warmline is open in {count} browser sessions already, as many as this server allows ({cap}). "
    "Close one of them (press q in it), then reload this page; or restart `warmline web` with a higher --max-sessions."
)
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")

log = logging.getLogger("warmline.web")


@dataclass(frozen=True)
class Sessions:
    """What each session gets: its environment (`session.cockpit_environment`), the key
    handed over on a pipe, and how many may run at once."""

    environment: Mapping[str, str]
    api_key: str | None
    cap: int


class CockpitServer(Server):
    """Serves the cockpit at `gate.origin` (see the module's docstring)."""

    def __init__(self, gate: Gate, sessions: Sessions) -> None:
        super().__init__("warmline", public_url=gate.origin, title="Warmline")
        self.gate = gate
        self.sessions = sessions
        self.running: dict[web.WebSocketResponse, CockpitSession | None] = {}
        """Each open session's WebSocket and its cockpit (None while it starts)."""
        self._counter = 0
        self.clients = {
            "textual.js": Client.from_bundle(CLIENT),
            "textual-canvas.js": Client.from_bundle(CLIENT, as_shipped=True),
        }
        """The page's client, for xterm.js's DOM renderer, and as textual-serve ships it
        (its Canvas renderer: `/?renderer=canvas`); `warmline.web.client` says why."""
        self.spares = Spares(self._new_session)

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.gate.middleware])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            web.get("/static/{name}", self.handle_static, name="static"),
        ])
        app.on_response_prepare.append(self.gate.security_headers)
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if len(self.running) >= self.sessions.cap:
            return page(503, "Too many sessions", FULL.format(count=len(self.running), cap=self.sessions.cap))
        font_size = request.query.get("fontsize", "16")
        context = {
            "title": "Warmline",
            "client": "textual-canvas.js" if request.query.get("renderer") == "canvas" else "textual.js",
            "websocket_url": self.gate.websocket_url,
            "font_size": int(font_size) if font_size.isdigit() and 8 <= int(font_size) <= 48 else 16,
        }
        return aiohttp_jinja2.render_template("cockpit.html", request, context)

    async def handle_static(self, request: web.Request) -> web.StreamResponse:
        client = self.clients.get(request.match_info["name"])
        if client is not None:
            return client.response(request)
        path = STATIC_FILES.get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if not self.gate.same_origin(request):
            raise web.HTTPForbidden(text="This WebSocket opens only from Warmline's own page.")
        websocket = web.WebSocketResponse(heartbeat=15)
        if len(self.running) >= self.sessions.cap:
            # Refused with words the tab shows, then closed ("try again later").
            await websocket.prepare(request)
            message = FULL.format(count=len(self.running), cap=self.sessions.cap)
            await websocket.send_bytes(f"\r\n  {message}\r\n".encode())
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"too many sessions")
            return websocket
        self.running[websocket] = None  # the place is taken before the first await
        try:
            await websocket.prepare(request)
            await self._run_session(request, websocket)
        finally:
            del self.running[websocket]
        return websocket

    def _new_session(self) -> CockpitSession:
        return CockpitSession(environment=self.sessions.environment, api_key=self.sessions.api_key,
                              download_manager=self.download_manager)

    async def _run_session(self, request: web.Request, websocket: web.WebSocketResponse) -> None:
        self._counter += 1
        session: CockpitSession | None = None
        try:
            session = self.running[websocket] = await self.spares.take()
            await session.claim(
                label=f"session {self._counter}", write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                close=websocket.close, width=_dimension(request, "width", 80), height=_dimension(request, "height", 24),
            )
            self.spares.make_ready(after=session.first_output)
            await self._process_messages(websocket, session)
        except Exception:  # noqa: BLE001 - one tab's failure is logged; the server serves the others
            log.exception("the session ended with an error")
        finally:
            if session is not None:
                await session.stop()

    async def on_startup(self, app: web.Application) -> None:
        """The first spare, ready before the first tab (`warmline.web.spare`)."""
        self.spares.make_ready()

    async def on_shutdown(self, app: web.Application) -> None:
        """End the spare and close every tab's WebSocket: each handler then quits its cockpit."""
        await self.spares.stop()
        for websocket in list(self.running):
            with suppress(ConnectionError):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"the server is stopping")


def _dimension(request: web.Request, name: str, default: int) -> int:
    value = request.query.get(name, "")
    return int(value) if value.isdigit() and 1 <= int(value) <= 1000 else default


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the link is made: with port 0 the system picks."""
    return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)


def run(server: CockpitServer, sock: socket.socket, on_ready: Callable[[], Any]) -> None:
    """Serve on `sock` until SIGINT, SIGTERM or SIGHUP; every session is stopped before this
    returns. The signal handlers in place before are put back afterwards (asyncio resets
    them to the defaults when its loop closes)."""
    previous = {name: signal.getsignal(getattr(signal, name)) for name in STOP_SIGNALS if hasattr(signal, name)}
    try:
        asyncio.run(_serve(server, sock, on_ready))
    finally:
        for name, handler in previous.items():
            if handler is not None:
                signal.signal(getattr(signal, name), handler)


async def _serve(server: CockpitServer, sock: socket.socket, on_ready: Callable[[], Any]) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for name in STOP_SIGNALS:
        with suppress(AttributeError, NotImplementedError, RuntimeError):
            loop.add_signal_handler(getattr(signal, name), stop.set)
    runner = web.AppRunner(await server._make_app(), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        await web.SockSite(runner, sock, shutdown_timeout=2 * 10.0).start()
        on_ready()
        await stop.wait()
    finally:
        await runner.cleanup()
