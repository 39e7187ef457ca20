"""A rate limiter fed by the service's `X-RateLimit-*` and `Retry-After` headers.

One limiter is shared by everything that talks to the service (outbox flush, job polling,
refresh), so that a 429 seen by one caller holds back all of them, and the UI can show
"rate-limited until 10:42:05" from `state()`. The clock and the sleep are injectable so
tests run without waiting.

Every wait the service can ask for is capped at `MAX_WAIT_SECONDS` (one hour): a
`Retry-After: 99999999999` or a reset in year 5000 would otherwise hold every request for
millennia, and `X-RateLimit-Reset: 1e400` is read as "too long" (capped), never raised.

The holds run on a monotonic clock: the headers are read against the wall clock (an
HTTP date, an epoch second), turned into "so many seconds from now", and kept as a
moment of `time.monotonic`. A wall clock set back a day therefore neither holds every
request for that day nor, set forward, ends a hold early; `state()` shows the holds
as wall-clock moments for the rep.
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
        monotonic: Callable[[], float] | None = None,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        # A clock given without a monotonic one (a test's fake time) serves as both.
        self._monotonic = monotonic or (time.monotonic if clock is time.time else clock)
        self.limit: int | None = None
        self.remaining: int | None = None
        self._reset: float | None = None  # monotonic
        self._blocked: float | None = None  # monotonic

    @property
    def reset_at(self) -> float | None:
        """When the window resets, on the wall clock (epoch seconds)."""
        return self._wall(self._reset)

    @reset_at.setter
    def reset_at(self, moment: float | None) -> None:
        self._reset = self._steady(moment)

    @property
    def blocked_until(self) -> float | None:
        """Until when every request is held, on the wall clock (epoch seconds)."""
        return self._wall(self._blocked)

    def _wall(self, steady: float | None) -> float | None:
        return None if steady is None else self._clock() + (steady - self._monotonic())

    def _steady(self, wall: float | None) -> float | None:
        return None if wall is None else self._monotonic() + (wall - self._clock())

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
        until = self._monotonic() + cap_wait(seconds)
        if self._blocked is None or until > self._blocked:
            self._blocked = until

    def clear(self) -> None:
        """Forget every hold and the window's count: the rep asked to retry now, or the
        service (base URL or key) changed, so what the old answers said no longer binds."""
        self._blocked = None
        self.remaining = None
        self._reset = None

    def delay(self) -> float:
        """Seconds to wait before the next request may go; 0 when it may go now."""
        now = self._monotonic()
        wait = 0.0
        if self._blocked is not None:
            wait = max(wait, self._blocked - now)
        if self.remaining is not None and self.remaining <= 0 and self._reset is not None:
            wait = max(wait, self._reset - now)
        return min(wait, MAX_WAIT_SECONDS)

    async def hold(self, seconds: float) -> None:
        """A pause of the caller's own (a read asked again), on the limiter's sleep, so a
        test's fake time covers it as it covers the limiter's waits."""
        await self._sleep(max(0.0, seconds))

    async def wait(self) -> None:
        """Wait until a request may go, then count it against the window.

        Counting locally keeps concurrent callers from overshooting the window before the
        next response's headers correct the count.
        """
        while (pause := self.delay()) > 0:
            await self._sleep(pause)
        if self._reset is not None and self._monotonic() >= self._reset and self.remaining is not None:
            # The window we knew about is over; the next response tells the new count.
            self.remaining = None
        if self.remaining is not None:
            self.remaining -= 1
