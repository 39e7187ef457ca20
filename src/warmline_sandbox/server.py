"""Serving the sandbox over HTTP with uvicorn.

`run(settings)` serves in the foreground (the `warmline sandbox` command): it binds the
socket first (so `--port 0` picks a free port), prints `Sandbox listening on URL` and
`API key: KEY` as the first two lines of stdout (then `Dialects: ...` when it speaks
some), then serves until interrupted.
`start_in_thread(settings)` serves in a background thread, for `warmline demo` and
end-to-end tests that want a real loopback port in their own process.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import uvicorn

from warmline_sandbox.app import create_app
from warmline_sandbox.clock import Clock
from warmline_sandbox.settings import SandboxSettings


@dataclass
class RunningSandbox:
    url: str
    api_key: str
    stop: Callable[[], None]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0 = any free port); connections queue until uvicorn serves."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY on accepted connections only for
    # sockets that say they are TCP; without it every answer waits ~40 ms (Nagle + delayed ACK).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


def base_url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _server(settings: SandboxSettings, clock: Clock | None) -> uvicorn.Server:
    app = create_app(settings, clock=clock)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2)
    return uvicorn.Server(config)


def run(settings: SandboxSettings, out: TextIO | None = None) -> None:
    """Serve in the foreground; the first two lines of `out` (stdout) are the URL and the key."""
    out = out or sys.stdout
    server = _server(settings, None)
    sock = bind(settings.host, settings.port)
    print(f"Sandbox listening on {base_url(sock, settings.host)}", file=out)
    print(f"API key: {settings.api_keys[0]}", file=out)
    if settings.dialects:
        print(f"Dialects: {', '.join(settings.dialects)}", file=out)
    out.flush()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def start_in_thread(settings: SandboxSettings, clock: Clock | None = None, ready_timeout: float = 30.0) -> RunningSandbox:
    """Serve in a daemon thread on `settings.host:settings.port` (0 = free); returns once serving."""
    server = _server(settings, clock)
    sock = bind(settings.host, settings.port)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="warmline-sandbox", daemon=True)
    thread.start()
    deadline = time.monotonic() + ready_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("the sandbox server did not start")
        time.sleep(0.01)

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()

    return RunningSandbox(url=base_url(sock, settings.host), api_key=settings.api_keys[0], stop=stop)
