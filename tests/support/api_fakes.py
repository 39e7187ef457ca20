"""Stand-ins for the client tests: a recording fake service and a clock the limiter can sleep on."""

from __future__ import annotations

from collections.abc import Callable

import httpx

Reply = httpx.Response | Callable[[httpx.Request], httpx.Response]


class FakeService:
    """Answers requests from a queue (or one fixed reply) and records every request."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.replies: list[Reply] = []
        self.default: Reply | None = None

    def reply(self, *replies: Reply) -> FakeService:
        self.replies.extend(replies)
        return self

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        reply = self.replies.pop(0) if self.replies else self.default
        if reply is None:
            raise AssertionError(f"unexpected request {request.method} {request.url}")
        return reply(request) if callable(reply) else reply


class FakeClock:
    """A clock for the limiter: `sleep` advances it instead of waiting."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
