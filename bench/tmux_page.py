"""A tmux session shown in the cockpit's own web page: the same template, fonts, stylesheet
and xterm.js client as `warmline web`, its terminal attached to tmux through a pseudo-terminal.

    .venv/bin/python bench/tmux_page.py TMUX_SOCKET SESSION

Prints `http://127.0.0.1:PORT/` once it listens; serves until killed.

Why (bench_web.py, part 3): tmux's own figure stops where tmux relays the pane's bytes,
before any terminal has drawn them, while Chromium's is read to the frame drawn. A terminal
showing tmux parses those bytes and waits for its display's next frame as xterm.js does.
Shown in this page, tmux's keys are read by the same clock as the cockpit's page (keydown to
the frame drawn, from Chromium's trace), and the two differ only behind the WebSocket:
`warmline web` and the cockpit's pipes against this relay, a pseudo-terminal, the tmux
client and the tmux server. The relay is one small hop a native terminal would not have (it
reads the pseudo-terminal itself): it weighs on tmux's side, so a ratio read here may
flatter the page by that hop, and bench/README says so beside the figures.

Each WebSocket runs `tmux attach -t SESSION` in a pseudo-terminal of the size the page asks
for; its output goes to the page as binary messages, the page's `stdin` messages go to the
pseudo-terminal, `resize` resizes it, `ping` is answered (textual-serve's protocol, which
the client speaks).
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import socket
import struct
import subprocess
import sys
import termios

import jinja2
from aiohttp import web

from warmline.web.client import Client
from warmline.web.server import CLIENT, HERE, STATIC_FILES

READ_SIZE = 65536


def set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class TmuxPage:
    def __init__(self, tmux: list[str], session: str, origin: str) -> None:
        self.tmux = tmux
        self.session = session
        template = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True)
        self.index = template.get_template("cockpit.html").render(
            title="tmux", client="textual.js", websocket_url=origin.replace("http", "ws", 1) + "ws", font_size=16)
        self.client = Client.from_bundle(CLIENT)

    async def handle_index(self, request: web.Request) -> web.Response:
        return web.Response(text=self.index, content_type="text/html")

    async def handle_static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name == "textual.js":
            return self.client.response(request)
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        return web.FileResponse(STATIC_FILES[name])

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse()
        await websocket.prepare(request)
        columns = int(request.query.get("width", "80"))
        rows = int(request.query.get("height", "24"))
        main, side = os.openpty()
        set_size(side, columns, rows)
        client = subprocess.Popen([*self.tmux, "attach", "-t", self.session], stdin=side, stdout=side, stderr=side,
                                  start_new_session=True, env={**os.environ, "TERM": "xterm-256color"})
        os.close(side)
        loop = asyncio.get_running_loop()
        output: asyncio.Queue[bytes] = asyncio.Queue()

        def readable() -> None:
            try:
                output.put_nowait(os.read(main, READ_SIZE))
            except OSError:  # the client ended: the pseudo-terminal's other side is closed
                loop.remove_reader(main)
                output.put_nowait(b"")

        async def relay() -> None:
            while data := await output.get():
                await websocket.send_bytes(data)

        loop.add_reader(main, readable)
        sending = asyncio.create_task(relay())
        try:
            async for message in websocket:
                kind, *rest = json.loads(message.data)
                if kind == "stdin":
                    os.write(main, rest[0].encode())
                elif kind == "resize":
                    set_size(main, rest[0]["width"], rest[0]["height"])
                elif kind == "ping":
                    await websocket.send_json(["pong", rest[0]])
        finally:
            loop.remove_reader(main)
            sending.cancel()
            client.terminate()  # detaches; the session goes on for the next page
            client.wait()
            os.close(main)
        return websocket


def main() -> None:
    tmux_socket, session = sys.argv[1:3]
    sock = socket.create_server(("127.0.0.1", 0))
    origin = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    page = TmuxPage(["tmux", "-f", "/dev/null", "-S", tmux_socket], session, origin)
    app = web.Application()
    app.add_routes([web.get("/", page.handle_index), web.get("/static/{name}", page.handle_static),
                    web.get("/ws", page.handle_websocket)])
    print(origin, flush=True)
    web.run_app(app, sock=sock, print=None, access_log=None)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main()
