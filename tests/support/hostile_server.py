"""A hostile HTTP/1.1 service on loopback whose every answer the test chooses.

Issue #11 asks each hardening fix to be proven against a service that lies, stalls or
floods, which neither the sandbox nor an in-process transport can do (they cannot drip a
byte every second over a real socket, or stream 480 MB without holding it). This server is
raw asyncio over TCP, bound to 127.0.0.1 on a free port, running its own event loop in a
daemon thread so that both async tests and synchronous CLI tests (click's CliRunner runs
`asyncio.run` itself) can talk to it.

Use (the `hostile` fixture of tests/hostile/conftest.py starts one per test):

    hostile.on("/v1/health", json_reply({"status": "ok"}))
    hostile.on("/v1/outreach/leads", json_reply({}, 429, {"Retry-After": "99999999999"}),
               json_reply({"data": [], "pagination": {"page": 1, "total_pages": 1}}))
    hostile.on("*", Drip(every=0.5))          # anything else: headers, then a byte at a time
    ... point a client at hostile.url ...
    assert hostile.requests[0].path == "/v1/health"

A route holds a script: each request takes the next reply, and the last one repeats. A
reply is a `Reply` or a callable taking the `Request` and returning one (for answers that
depend on the page asked, see `endless_pages`). Paths are matched exactly (query string
ignored), then the "*" route; with no match the answer is a 404 in the service's error shape.

Bounded: the server stops by itself after `lifetime` seconds (default 120), and stopping
ends every stalled answer (Drip, Silent) and closes every connection. Nothing big is ever
held in memory: `Huge` generates its body chunk by chunk as the client reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

CHUNK = 64 * 1024
MAX_REQUEST_HEAD = 64 * 1024
DEFAULT_LIFETIME = 120.0


@dataclass(frozen=True)
class Request:
    """One request as the server received it; header names lower-cased."""

    method: str
    target: str
    headers: Mapping[str, str]
    body: bytes

    @property
    def path(self) -> str:
        return urlsplit(self.target).path

    @property
    def query(self) -> dict[str, str]:
        return {key: values[-1] for key, values in parse_qs(urlsplit(self.target).query).items()}

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


_REASONS = {200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
            409: "Conflict", 429: "Too Many Requests", 500: "Internal Server Error",
            503: "Service Unavailable"}


def _head(status: int, headers: Mapping[str, str], length: int | None, keep_alive: bool = False) -> bytes:
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Whatever')}"]
    names = {name.lower() for name in headers}
    if "content-type" not in names:
        lines.append("Content-Type: application/json")
    if length is not None and "content-length" not in names:
        lines.append(f"Content-Length: {length}")
    lines.append("Connection: keep-alive" if keep_alive else "Connection: close")
    lines.extend(f"{name}: {value}" for name, value in headers.items())
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class Reply:
    """How to answer one request. `keep_alive` is False when the connection ends after it."""

    keep_alive = False

    async def send(self, writer: asyncio.StreamWriter, stopping: asyncio.Event) -> None:
        raise NotImplementedError


@dataclass
class Canned(Reply):
    """A complete answer: status, headers (sent as given, any value) and body bytes."""

    status: int = 200
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    keep_alive = True

    async def send(self, writer: asyncio.StreamWriter, stopping: asyncio.Event) -> None:
        writer.write(_head(self.status, self.headers, len(self.body), keep_alive=True) + self.body)
        await writer.drain()


def json_reply(obj: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Canned:
    """A JSON answer."""
    return Canned(status, json.dumps(obj).encode(), dict(headers or {}))


def error_reply(status: int, message: str, headers: Mapping[str, str] | None = None) -> Canned:
    """An error in the service's shape (`{"success": false, "error": ...}`)."""
    return json_reply({"success": False, "error": message}, status, headers)


def nested_json(depth: int, status: int = 200) -> Canned:
    """A syntactically valid JSON body nested `depth` lists deep (`[[[...]]]`)."""
    return Canned(status, b"[" * depth + b"]" * depth)


@dataclass
class Drip(Reply):
    """Headers at once (claiming `length` bytes), then `chunk` every `every` seconds, until the
    server stops, the client goes away, or `length` bytes were sent. Defeats per-read timeouts."""

    every: float = 1.0
    chunk: bytes = b" "
    length: int = 1_000_000
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)

    async def send(self, writer: asyncio.StreamWriter, stopping: asyncio.Event) -> None:
        writer.write(_head(self.status, self.headers, self.length))
        await writer.drain()
        sent = 0
        while sent + len(self.chunk) <= self.length:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), self.every)
            if stopping.is_set():
                return
            writer.write(self.chunk)
            await writer.drain()
            sent += len(self.chunk)


class Silent(Reply):
    """Never answers: holds the connection open until the server stops."""

    async def send(self, writer: asyncio.StreamWriter, stopping: asyncio.Event) -> None:
        await stopping.wait()


@dataclass
class CloseMidBody(Reply):
    """Declares `length` bytes, sends `prefix`, then closes the connection."""

    prefix: bytes = b'{"data": ['
    length: int = 10_000
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)

    async def send(self, writer: asyncio.StreamWriter, stopping: asyncio.Event) -> None:
        writer.write(_head(self.status, self.headers, self.length) + self.prefix)
        await writer.drain()


@dataclass
class Huge(Reply):
    """A valid JSON list answer of about `size` bytes (`{"data": [item, item, ...]}`), made
    chunk by chunk as the client reads, so the server never holds it. `chunked` sends it
    without a Content-Length (the client cannot know the size in advance)."""

    size: int = 480 * 1024 * 1024
    item: bytes = b'{"id": 1, "name": "Acme"}'
    chunked: bool = False
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)

    def _pieces(self) -> Iterator[bytes]:
        opening, closing = b'{"data": [', b"]}"
        per_chunk = max(1, CHUNK // (len(self.item) + 2))
        count = max(1, (self.size - len(opening) - len(closing)) // (len(self.item) + 2))
        yield opening + self.item
        left = count - 1
        while left > 0:
            n = min(per_chunk, left)
            yield (b", " + self.item) * n
            left -= n
        yield closing

    def body_length(self) -> int:
        return sum(len(piece) for piece in self._pieces())

    async def send(self, writer: asyncio.StreamWriter, stopping: asyncio.Event) -> None:
        writer.write(_head(self.status, {**self.headers, **({"Transfer-Encoding": "chunked"} if self.chunked else {})},
                           None if self.chunked else self.body_length()))
        for piece in self._pieces():
            if stopping.is_set():
                return
            writer.write(b"%x\r\n%s\r\n" % (len(piece), piece) if self.chunked else piece)
            await writer.drain()
        if self.chunked:
            writer.write(b"0\r\n\r\n")
            await writer.drain()


def endless_pages(
    item: Callable[[int], Mapping[str, Any]],
    total_pages: int = 1_000_000,
    per_page: int | None = None,
    key: str = "data",
) -> Callable[[Request], Reply]:
    """A list that claims `total_pages` pages and fills every page asked for: `item(n)` makes
    the n-th item (n counted over all pages, from 0). Serves any page number lazily."""

    def reply(request: Request) -> Reply:
        page = int(request.query.get("page", "1"))
        size = per_page or int(request.query.get("per_page", "50"))
        items = [dict(item((page - 1) * size + i)) for i in range(size)]
        pagination = {"page": page, "per_page": size, "total": total_pages * size, "total_pages": total_pages}
        return json_reply({key: items, "pagination": pagination})

    return reply


ReplySpec = Reply | Callable[[Request], Reply]


class HostileServer:
    """The server; `start()` returns once it listens. See the module docstring."""

    def __init__(self, lifetime: float = DEFAULT_LIFETIME) -> None:
        self.lifetime = lifetime
        self.requests: list[Request] = []
        self._routes: dict[str, list[ReplySpec]] = {}
        self._lock = threading.Lock()
        self._seen = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -------------------------------------------------------------- scripting

    def on(self, path: str, *replies: ReplySpec) -> HostileServer:
        """Answer requests to `path` ("*": any path without its own route) with `replies` in
        turn, the last repeating. Replaces the route's earlier script."""
        if not replies:
            raise ValueError("a route needs at least one reply")
        with self._lock:
            self._routes[path] = list(replies)
        return self

    def _next_reply(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            self._seen.notify_all()
            script = self._routes.get(request.path) or self._routes.get("*")
            if script is None:
                spec: ReplySpec = error_reply(404, f"no route for {request.path}")
            else:
                spec = script.pop(0) if len(script) > 1 else script[0]
        return spec(request) if callable(spec) and not isinstance(spec, Reply) else spec

    def requests_to(self, path: str, method: str | None = None) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path == path and (method is None or r.method == method)]

    def wait_for_requests(self, count: int, cap: float = 30.0) -> list[Request]:
        """Wait until at least `count` requests arrived (at most `cap` seconds, then raise)."""
        with self._seen:
            if not self._seen.wait_for(lambda: len(self.requests) >= count, timeout=cap):
                raise AssertionError(f"only {len(self.requests)} of {count} requests within {cap} s")
            return list(self.requests)

    # -------------------------------------------------------------- running

    def start(self) -> HostileServer:
        self._thread = threading.Thread(target=self._run, name="hostile-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the hostile server did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop already ended (lifetime over)
                self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        tasks: set[asyncio.Task[None]] = set()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            tasks.add(task)
            try:
                await self._serve(reader, writer)
            except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
                pass
            finally:
                tasks.discard(task)
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0, limit=MAX_REQUEST_HEAD)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), self.lifetime)
        self._stopping.set()
        server.close()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self._stopping is not None
        while not self._stopping.is_set():
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, _version = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            reply = self._next_reply(Request(method, target, headers, body))
            await reply.send(writer, self._stopping)
            if not reply.keep_alive:
                return


@contextlib.contextmanager
def running(lifetime: float = DEFAULT_LIFETIME) -> Iterator[HostileServer]:
    """A started server, stopped on exit."""
    server = HostileServer(lifetime).start()
    try:
        yield server
    finally:
        server.stop()

