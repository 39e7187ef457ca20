"""Rate-limit headers feed a limiter that callers share and await."""

from __future__ import annotations

import httpx
import pytest

from support.api_samples import API_KEY, BASE_URL, NOTE
from warmline.api import RateLimiter, ServiceClient
from warmline.api.errors import MAX_WAIT_SECONDS, NotFoundError, RateLimitedError


def headers(limit=100, remaining=99, reset=1_000_060, **extra):
    return {"X-RateLimit-Limit": str(limit), "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": str(reset), **extra}


async def test_every_response_updates_the_state(client: ServiceClient, service, clock) -> None:
    service.reply(httpx.Response(200, json={"success": True, "data": [NOTE]}, headers=headers(120, 7, 1_000_030)))
    await client.list_notes(3)
    state = client.limiter.state()
    assert (state.limit, state.remaining, state.reset_at, state.blocked_until) == (120, 7, 1_000_030.0, None)


async def test_error_responses_update_the_state_too(client: ServiceClient, service, clock) -> None:
    service.reply(httpx.Response(404, json={"message": "Outreach lead not found"}, headers=headers(remaining=3)))
    with pytest.raises(NotFoundError):
        await client.get_lead(3)
    assert client.limiter.remaining == 3


async def test_exhausted_window_waits_until_reset(client: ServiceClient, service, clock) -> None:
    service.reply(
        httpx.Response(200, json={"success": True, "data": []}, headers=headers(remaining=0, reset=1_000_025)),
        httpx.Response(200, json={"success": True, "data": []}, headers=headers(remaining=99, reset=1_000_105)),
    )
    await client.list_notes(3)
    assert clock.slept == []
    await client.list_notes(3)
    assert clock.slept == [25.0]
    assert clock.now == 1_000_025


async def test_429_blocks_every_caller_sharing_the_limiter(service, clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    transport = httpx.MockTransport(service)
    service.reply(
        httpx.Response(429, json={"message": "Rate limit exceeded, retry in 20 seconds"}, headers={"Retry-After": "20"}),
        httpx.Response(200, json={"success": True, "data": []}),
    )
    async with ServiceClient(BASE_URL, API_KEY, transport=transport, limiter=limiter, clock=clock) as flush, \
            ServiceClient(BASE_URL, API_KEY, transport=transport, limiter=limiter, clock=clock) as poller:
        with pytest.raises(RateLimitedError):
            await flush.list_notes(3)
        assert limiter.state().blocked_until == 1_000_020
        await poller.list_notes(3)
    assert clock.slept == [20.0]


def test_retry_after_as_http_date(clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    clock.now = 1_000_000_000.0  # 2001-09-09T01:46:40Z
    limiter.update({"Retry-After": "Sun, 09 Sep 2001 01:47:10 GMT"}, 429)
    assert limiter.delay() == 30


def test_429_without_retry_after_holds_until_reset(clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.update(headers(remaining=5, reset=1_000_012), 429)
    assert limiter.delay() == 12


def test_garbage_headers_are_ignored(clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.update({"X-RateLimit-Limit": "lots", "X-RateLimit-Remaining": "", "Retry-After": "later"}, 200)
    assert limiter.state() == RateLimiter(clock=clock).state()
    assert limiter.delay() == 0


async def test_local_count_keeps_concurrent_callers_inside_the_window(clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.update(headers(remaining=2, reset=1_000_010), 200)
    await limiter.wait()
    await limiter.wait()
    assert clock.slept == []
    await limiter.wait()
    assert clock.slept == [10.0]


async def test_a_passed_reset_opens_a_new_window(clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.update(headers(remaining=0, reset=999_990), 200)
    await limiter.wait()
    assert clock.slept == []
    assert limiter.remaining is None


def test_a_shorter_retry_after_never_shortens_a_hold(clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.block_for(60)
    limiter.update({"Retry-After": "5"}, 429)
    assert limiter.delay() == 60


async def test_a_long_hold_is_reported_instead_of_waited(client: ServiceClient, service, clock) -> None:
    client.limiter.block_for(120)
    with pytest.raises(RateLimitedError, match="Rate-limited for another 120 seconds; the request was not sent") as info:
        await client.add_note(3, "hello")
    assert info.value.retry_after == 120
    assert info.value.retryable and info.value.status is None
    assert service.requests == [] and clock.slept == []


async def test_without_a_wait_cap_the_client_waits(service, clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.block_for(120)
    service.reply(httpx.Response(200, json={"success": True, "data": []}))
    async with ServiceClient(BASE_URL, API_KEY, transport=httpx.MockTransport(service), limiter=limiter,
                             clock=clock, max_rate_wait=None) as client:
        await client.list_notes(3)
    assert clock.slept == [120.0]


def test_the_window_reset_is_read_on_the_service_clock() -> None:
    """A client 180 s ahead of the service: the window ends 10 s from now on either clock."""
    now = 1_800_000_000.0
    limiter = RateLimiter(clock=lambda: now)
    server_now = now - 180
    limiter.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(server_now + 10))},
                   200, server_offset=-180.0)
    assert limiter.state().reset_at == now + 10
    assert 9.0 <= limiter.delay() <= 10.0


@pytest.mark.parametrize("reset", ["1e400", "nan", "95617584000"])
async def test_an_absurd_reset_is_stored_as_an_hour_and_the_window_opens_after_it(clock, reset: str) -> None:
    """`X-RateLimit-Reset: 1e400` (an infinity once parsed), NaN or year 5000: stored as
    at most an hour away, never as an infinite reset the window would wait for forever
    (the prefetcher, which waits out `reset_at`, would never pass it)."""
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.update({"X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}, 200)
    assert limiter.state().reset_at == clock.now + MAX_WAIT_SECONDS
    await limiter.wait()
    assert clock.slept == [MAX_WAIT_SECONDS]
    assert limiter.delay() == 0 and limiter.remaining is None  # a new window, counted afresh


def test_a_reset_of_minus_1e400_is_now(clock) -> None:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    limiter.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "-1e400"}, 200)
    assert limiter.state().reset_at == clock.now and limiter.delay() == 0


class Clocks:
    """A wall clock the rep (or NTP) can set, beside a monotonic one that only runs."""

    def __init__(self) -> None:
        self.wall = 1_800_000_000.0
        self.steady = 500.0

    def run(self, seconds: float) -> None:
        self.wall += seconds
        self.steady += seconds


@pytest.mark.parametrize("jump", [-86_400.0, 86_400.0, -30.0, 30.0])
def test_a_wall_clock_jump_neither_stretches_nor_ends_a_hold(jump: float) -> None:
    """A 429 asked for 60 s. The wall clock is then set back or forward a day (or 30 s):
    the hold still ends 60 s after it began, as the service asked, not a day later (the
    old wall-clock hold kept every request back for the jump, an hour at a time) and not
    at once; the state shows the hold's end on the new wall clock."""
    clocks = Clocks()
    limiter = RateLimiter(clock=lambda: clocks.wall, monotonic=lambda: clocks.steady)
    limiter.update({"Retry-After": "60"}, 429)
    clocks.run(20)
    clocks.wall += jump
    assert limiter.delay() == pytest.approx(40)
    assert limiter.state().blocked_until == pytest.approx(clocks.wall + 40)
    clocks.run(40)
    assert limiter.delay() == 0


def test_an_exhausted_window_ends_on_time_after_a_clock_jump() -> None:
    clocks = Clocks()
    limiter = RateLimiter(clock=lambda: clocks.wall, monotonic=lambda: clocks.steady)
    limiter.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(clocks.wall + 30))}, 200)
    clocks.wall -= 3_600
    assert limiter.delay() == pytest.approx(30)
    clocks.run(30)
    assert limiter.delay() == 0
