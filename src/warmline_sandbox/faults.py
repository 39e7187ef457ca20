"""Injected faults for reliability tests (`--faults latency=200ms,error=0.2,drop=0.1,burst429=0.05`).

Decisions come from one RNG seeded with the server's seed, so a run can be repeated.
Faults touch only `/v1` operations other than health:
- latency: every request waits that long first;
- error: answers 503 BEFORE the request reaches any handler (nothing happens);
- drop: the request runs to completion (its effect is COMMITTED) and then the connection
  is closed with no answer. Under uvicorn the socket is aborted, so the client sees the
  server disconnect without a response. In-process (httpx.ASGITransport) there is no
  socket: the app raises `DroppedConnection`, a subclass of `httpx.RemoteProtocolError` (what
  httpx raises for a real dropped connection), which ASGITransport passes to the caller;
- gateway: the request runs to completion (its effect is COMMITTED), then the answer is
  replaced by a proxy's `504 Gateway Time-out` HTML page, as nginx in front of a slow
  service answers: the client cannot tell it from a 504 before the request arrived;
- burst429: starts a run of `burst_length` answers 429 (with `Retry-After`) for the caller.
"""

from __future__ import annotations

import asyncio
import random
import threading
from dataclasses import dataclass

import anyio
import httpx
from starlette.types import ASGIApp, Receive, Scope, Send

from warmline_sandbox.asgi_util import capture
from warmline_sandbox.errors import ApiError, error_response
from warmline_sandbox.ratelimit import caller_id
from warmline_sandbox.settings import FaultSpec

DROP_MESSAGE = "Server disconnected without sending a response."
GATEWAY_PAGE = (
    b"<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n"
    b"<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
)
"""What nginx answers when its upstream did not answer in time (`proxy_read_timeout`)."""


class DroppedConnection(httpx.RemoteProtocolError):
    """The in-process stand-in for a dropped connection (what httpx raises for a real one)."""

    injected_fault = True


@dataclass(frozen=True)
class FaultPlan:
    """What happens to one request."""

    error: bool = False
    drop: bool = False
    gateway: bool = False
    throttle: bool = False


class FaultInjector:
    """Draws the fault plan of each request from a seeded RNG (thread-safe)."""

    def __init__(self, spec: FaultSpec, seed: int) -> None:
        self.spec = spec
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._bursts: dict[str, int] = {}

    def plan(self, caller: str) -> FaultPlan:
        with self._lock:
            left = self._bursts.get(caller, 0)
            if left == 0 and self.spec.burst429 and self._rng.random() < self.spec.burst429:
                left = self.spec.burst_length
            if left:
                self._bursts[caller] = left - 1
                return FaultPlan(throttle=True)
            if self.spec.error and self._rng.random() < self.spec.error:
                return FaultPlan(error=True)
            # Drawn only when asked for, so the faults of a given seed without it stay the same.
            if self.spec.gateway and self._rng.random() < self.spec.gateway:
                return FaultPlan(gateway=True)
            return FaultPlan(drop=bool(self.spec.drop and self._rng.random() < self.spec.drop))


def applies_to(path: str) -> bool:
    return path.startswith("/v1/") and path.rstrip("/") != "/v1/health"


class FaultMiddleware:
    def __init__(self, app: ASGIApp, injector: FaultInjector) -> None:
        self.app = app
        self.injector = injector

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not applies_to(scope["path"]):
            await self.app(scope, receive, send)
            return
        spec = self.injector.spec
        if spec.latency_ms:
            await asyncio.sleep(spec.latency_ms / 1000.0)
        plan = self.injector.plan(caller_id(scope))
        if plan.throttle:
            error = ApiError(429, "Rate limit exceeded, retry in 1 seconds", headers={"Retry-After": "1"})
            await error_response(error)(scope, receive, send)
        elif plan.error:
            await error_response(ApiError(503, "Service temporarily unavailable"))(scope, receive, send)
        elif plan.drop:
            await capture(self.app, scope, receive)
            await drop_connection(receive)
        elif plan.gateway:
            await capture(self.app, scope, receive)
            await gateway_timeout(send)
        else:
            await self.app(scope, receive, send)


async def drop_connection(receive: Receive) -> None:
    """Close the client's connection without an answer (see the module docstring).

    Under uvicorn the request cycle's transport is aborted, then we wait for the server to
    notice the disconnect, so that it does not try to answer on the dead connection.
    """
    cycle = getattr(receive, "__self__", None)
    transport = getattr(cycle, "transport", None)
    if transport is None:
        raise DroppedConnection(DROP_MESSAGE)
    transport.abort()
    with anyio.move_on_after(1.0):
        while (await receive())["type"] != "http.disconnect":
            pass


async def gateway_timeout(send: Send) -> None:
    """Answer as a proxy that gave up waiting for the service: 504 and nginx's page."""
    headers = [(b"content-type", b"text/html"), (b"content-length", str(len(GATEWAY_PAGE)).encode())]
    await send({"type": "http.response.start", "status": 504, "headers": headers})
    await send({"type": "http.response.body", "body": GATEWAY_PAGE})
