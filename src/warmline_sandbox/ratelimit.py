"""Per-key fixed-window rate limiting, with the `X-RateLimit-*` headers on EVERY response.

Requests without a valid-looking key are counted per client address, so that even 401
answers carry the headers. Windows follow the app's clock.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from warmline_sandbox.auth import bearer_token
from warmline_sandbox.clock import Clock
from warmline_sandbox.errors import ApiError, error_response


@dataclass
class _Window:
    started: float
    count: int


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset: int
    retry_after: int

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }


class RateLimiter:
    """Counts requests per caller in fixed windows of `window` seconds."""

    def __init__(self, limit: int, window: float, clock: Clock) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._windows: dict[str, _Window] = {}
        self._lock = threading.Lock()

    def hit(self, caller: str) -> Decision:
        now = self.clock.now().timestamp()
        with self._lock:
            window = self._windows.get(caller)
            if window is None or now >= window.started + self.window:
                window = self._windows[caller] = _Window(started=now, count=0)
            window.count += 1
            ends = window.started + self.window
            allowed = window.count <= self.limit
            return Decision(
                allowed=allowed,
                limit=self.limit,
                remaining=max(0, self.limit - window.count),
                reset=math.ceil(ends),
                retry_after=0 if allowed else max(1, math.ceil(ends - now)),
            )


def caller_id(scope: Scope) -> str:
    """The API key when one is sent, else the client address."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            key = bearer_token(value.decode("latin-1"))
            if key:
                return "key:" + key
    client = scope.get("client")
    return "addr:" + (client[0] if client else "unknown")


class RateLimitMiddleware:
    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        decision = self.limiter.hit(caller_id(scope))
        if not decision.allowed:
            message = f"Rate limit exceeded, retry in {decision.retry_after} seconds"
            headers = {**decision.headers(), "Retry-After": str(decision.retry_after)}
            await error_response(ApiError(429, message, headers=headers))(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in decision.headers().items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
