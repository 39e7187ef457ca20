"""A read that fails fast (the connection dropped before the answer, a 5xx) is asked again,
twice at most, after a short pause: a GET changes nothing, so asking again is safe.

Found in tmux against the sandbox with `--faults error=0.2,drop=0.15`: every refresh walks
a list page by page, and one lost page ended the walk, so on a flaky connection the lead
list of a fresh cache stayed empty for many minutes. A mutation is never sent again here
(the outbox owns that, reconciling first); a read cut by its deadline or refused at the
door is not asked again either (the service is offline, the engine probes).
"""

from __future__ import annotations

import httpx
import pytest

from support.api_samples import LEAD_DETAIL
from warmline.api import errors as e
from warmline.api.client import READ_PAUSES


def dropped(request: httpx.Request) -> httpx.Response:
    raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("[Errno 111] Connection refused", request=request)


def timed_out(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out", request=request)


def UNAVAILABLE(request: httpx.Request) -> httpx.Response:  # noqa: N802  # a reply, named as one
    return httpx.Response(503, json={"success": False, "message": "Service unavailable", "errors": None})


def BAD_GATEWAY(request: httpx.Request) -> httpx.Response:  # noqa: N802
    return httpx.Response(502, text="<html>bad gateway</html>")


def GOOD(request: httpx.Request) -> httpx.Response:  # noqa: N802
    return httpx.Response(200, json={"success": True, "lead": LEAD_DETAIL})


@pytest.mark.parametrize("first", [[dropped], [UNAVAILABLE], [BAD_GATEWAY, dropped]], ids=["drop", "503", "502+drop"])
async def test_a_read_that_fails_fast_is_asked_again_after_a_pause(client, service, clock, first) -> None:
    service.reply(*first, GOOD)
    lead = await client.get_lead(3)
    assert lead.id == LEAD_DETAIL["id"]
    assert len(service.requests) == len(first) + 1
    assert clock.slept == list(READ_PAUSES[: len(first)])


async def test_a_read_is_asked_three_times_at_most(client, service, clock) -> None:
    service.reply(dropped, UNAVAILABLE, dropped, GOOD)
    with pytest.raises(e.AmbiguousError) as info:
        await client.get_lead(3)
    assert len(service.requests) == 3
    assert "closed the connection before answering GET /v1/outreach/leads/3" in str(info.value)
    assert "applied" not in str(info.value)  # a read applies nothing


@pytest.mark.parametrize("fault", [refused, timed_out], ids=["refused", "timeout"])
async def test_an_offline_or_silent_service_is_not_asked_again(client, service, clock, fault) -> None:
    service.reply(fault, GOOD)
    with pytest.raises(e.OfflineError):
        await client.get_lead(3)
    assert len(service.requests) == 1 and clock.slept == []


async def test_a_mutation_is_never_sent_again_by_the_client(client, service, clock) -> None:
    service.reply(dropped, GOOD)
    with pytest.raises(e.AmbiguousError):
        await client.add_note(3, "hello", idempotency_key="op-1")
    assert len(service.requests) == 1 and clock.slept == []


async def test_a_refusal_or_a_probe_is_not_asked_again(client, service, clock) -> None:
    service.reply(httpx.Response(404, json={"success": False, "message": "Outreach lead not found", "errors": None}))
    with pytest.raises(e.LeadNotFoundError):
        await client.get_lead(3)
    service.reply(UNAVAILABLE, GOOD)
    with pytest.raises(e.ServerError):
        await client.health(timeout=1.0)  # a quick question, asked again on its own schedule
    assert len(service.requests) == 2 and clock.slept == []
