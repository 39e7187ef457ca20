"""Fixtures for the client tests: a recording fake service, a fake clock, a client (support.api_fakes)."""

from __future__ import annotations

import httpx
import pytest

from support.api_fakes import FakeClock, FakeService
from support.api_samples import API_KEY, BASE_URL
from warmline.api import RateLimiter, ServiceClient


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def client(service: FakeService, clock: FakeClock):
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    async with ServiceClient(
        BASE_URL, API_KEY, transport=httpx.MockTransport(service), limiter=limiter, clock=clock
    ) as c:
        yield c
