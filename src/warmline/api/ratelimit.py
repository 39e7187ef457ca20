"""A rate limiter fed by the service's `X-RateLimit-*` and `Retry-After` headers.

One limiter is shared by everything that talks to the service (outbox flush, job polling,
refresh), so that a 429 seen by one caller holds back all of them, and the UI can show
"rate-limited until 10:42:05" from `state()`. The clock and the sleep are injectable so
tests run without waiting.

Every wait the service can ask for is capped at `MAX_WAIT_SECONDS` (one hour): a
`Retry-After: 99999999999` or a reset in year 5000 would otherwise hold every request for
millennia, and `X-RateLimit-Reset: 1e400` is read as "too long" (capped), never raised.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from warmline.api.errors import MAX_WAIT_SECONDS, cap_wait, parse_retry_after

__all__ = ["MAX_WAIT_SECONDS", "RateLimitState", "RateLimiter"]


@dataclass(frozen=True)
class RateLimitState:
    """What the limiter knows; times are Unix epoch seconds, None when unknown."""

    limit: int | None
    remaining: int | None
    reset_at: float | None
    blocked_until: float | None


def _int_header(headers: Mapping[str, str], name: str) -> int | None:
    value = headers.get(name)
    if value is None:
        return None
    try:
        return int(float(value.strip()))
    except (ValueError, OverflowError):  # not a number, NaN, or an infinity such as 1e400
        return None


def _epoch_header(headers: Mapping[str, str], name: str, now: float) -> float | None:
    """An epoch-seconds header, no later than MAX_WAIT_SECONDS from now (1e400 included)."""
    value = headers.get(name)
    if value is None:
        return None
    try:
        stamp = float(value.strip())
    except ValueError:
        return None
    return now + cap_wait(stamp - now)


class RateLimiter:
    """Holds requests back while the window is used up or a `Retry-After` is running."""

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self.limit: int | None = None
        self.remaining: int | None = None
        self.reset_at: float | None = None
        self.blocked_until: float | None = None

    def state(self) -> RateLimitState:
        """A snapshot for display."""
        return RateLimitState(self.limit, self.remaining, self.reset_at, self.blocked_until)

    def update(self, headers: Mapping[str, str], status: int | None = None, server_offset: float = 0.0) -> None:
        """Read the headers of one response (any status).

        `X-RateLimit-Reset` is a moment on the service's clock; `server_offset` (its time
        minus ours, `warmline.api.servertime`) turns it into ours, so a skewed clock
        neither waits out a window that is over nor sends into one that is not."""
        lowered = {key.lower(): value for key, value in headers.items()}
        now = self._clock()
        limit = _int_header(lowered, "x-ratelimit-limit")
        remaining = _int_header(lowered, "x-ratelimit-remaining")
        reset = _epoch_header(lowered, "x-ratelimit-reset", now + server_offset)
        if limit is not None:
            self.limit = limit
        if remaining is not None:
            self.remaining = remaining
        if reset is not None:
            self.reset_at = reset - server_offset
        wait = parse_retry_after(lowered.get("retry-after"), now)
        if wait is None and status == 429:
            # A 429 without Retry-After: hold until the window resets, if we know when.
            wait = max(0.0, self.reset_at - now) if self.reset_at is not None else None
        if wait is not None:
            self.block_for(wait)

    def block_for(self, seconds: float) -> None:
        """Hold every request for `seconds` from now, at most MAX_WAIT_SECONDS (never
        shortens an existing hold)."""
        until = self._clock() + cap_wait(seconds)
        if self.blocked_until is None or until > self.blocked_until:
            self.blocked_until = until

    def clear(self) -> None:
        """Forget every hold and the window's count: the rep asked to retry now, or the
        service (base URL or key) changed, so what the old answers said no longer binds."""
        self.blocked_until = None
        self.remaining = None
        self.reset_at = None

    def delay(self) -> float:
        """Seconds to wait before the next request may go; 0 when it may go now."""
        now = self._clock()
        wait = 0.0
        if self.blocked_until is not None:
            wait = max(wait, self.blocked_until - now)
        if self.remaining is not None and self.remaining <= 0 and self.reset_at is not None:
            wait = max(wait, self.reset_at - now)
        return min(wait, MAX_WAIT_SECONDS)

    async def wait(self) -> None:
        """Wait until a request may go, then count it against the window.

        Counting locally keeps concurrent callers from overshooting the window before the
        next response's headers correct the count.
        """
        while (pause := self.delay()) > 0:
            await self._sleep(pause)
        now = self._clock()
        if self.reset_at is not None and now >= self.reset_at and self.remaining is not None:
            # The window we knew about is over; the next response tells the new count.
            self.remaining = None
        if self.remaining is not None:
            self.remaining -= 1
