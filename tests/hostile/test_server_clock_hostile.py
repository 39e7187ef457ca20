"""The client learns the service's clock from real answers over loopback (issue #11, item 2):
the `Date` header of any answer and the health answer's `time`, and believes no lie."""

from __future__ import annotations

import time
from email.utils import formatdate

import pytest

from support.hostile_server import HostileServer, error_reply, json_reply
from warmline.api import ServiceClient
from warmline.api.errors import ApiError


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + f".{int(epoch % 1 * 1000):03d}Z"


async def test_the_offset_comes_from_date_headers_of_any_answer_even_errors(hostile: HostileServer) -> None:
    behind = lambda: {"Date": formatdate(time.time() - 180, usegmt=True)}  # noqa: E731
    hostile.on("/v1/outreach/leads/1", lambda request: error_reply(503, "down", behind()))
    async with ServiceClient(hostile.url, "k") as client:
        for _ in range(3):
            with pytest.raises(ApiError):
                await client.get_lead(1)
        estimate = client.server_clock.estimate()
    assert estimate is not None
    assert estimate.offset == pytest.approx(-180.0, abs=1.5)
    assert estimate.uncertainty < 1.5


async def test_the_health_time_is_a_finer_sample(hostile: HostileServer) -> None:
    hostile.on("/v1/health", lambda request: json_reply({"status": "ok", "time": _iso(time.time() + 180)}))
    async with ServiceClient(hostile.url, "k") as client:
        await client.health()
        estimate = client.server_clock.estimate()
    assert estimate is not None and estimate.offset == pytest.approx(180.0, abs=0.5)


@pytest.mark.parametrize("date", ["Sat, 01 Jan 5000 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "soon", "\x1b[2J"])
async def test_absurd_or_unreadable_dates_teach_nothing(hostile: HostileServer, date: str) -> None:
    hostile.on("/v1/health", json_reply({"status": "ok"}, headers={"Date": date}))
    async with ServiceClient(hostile.url, "k") as client:
        await client.health()
        assert client.server_clock.estimate() is None
