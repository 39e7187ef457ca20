"""The API key stays on the wire: never in a repr, message, log line or traceback; and
it is never sent over plain http to anything but loopback."""

from __future__ import annotations

import logging
import traceback

import httpx
import pytest

from support.api_samples import API_KEY, BASE_URL
from warmline.api import Secret, ServiceClient
from warmline.api import errors as e


def full_traceback(exc: BaseException) -> str:
    """The traceback as pytest --showlocals or a crash reporter would print it."""
    return "".join(traceback.TracebackException.from_exception(exc, capture_locals=True).format())


def test_key_not_in_client_or_secret_reprs(client: ServiceClient) -> None:
    texts = [repr(client), str(client), repr(Secret(API_KEY)), str(Secret(API_KEY)), f"{Secret(API_KEY)}",
             repr(client._http.auth), repr(vars(client))]
    assert all(API_KEY not in text for text in texts)
    assert "api_key=<set>" in repr(client)


def drop(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("timed out", request=request)


def refuse(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("[Errno 111] Connection refused", request=request)


@pytest.mark.parametrize(
    "reply",
    [
        httpx.Response(401, json={"success": False, "message": f"Invalid or missing API key: Bearer {API_KEY}",
                                  "errors": [{"field": "authorization", "message": f"got {API_KEY}"}]}),
        httpx.Response(500, text=f"Traceback: header Authorization: Bearer {API_KEY}"),
        httpx.Response(429, json={"message": "slow down"}, headers={"Retry-After": "3"}),
        drop,
        refuse,
    ],
    ids=["401-echo", "500-echo", "429", "read-timeout", "refused"],
)
async def test_key_not_in_errors_logs_or_tracebacks(reply, client: ServiceClient, service, caplog) -> None:
    service.reply(reply)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(e.ApiError) as info:
        await client.add_note(3, "hello", idempotency_key="op-1")
    exc = info.value
    for text in (str(exc), repr(exc), repr(exc.args), repr(exc.errors), full_traceback(exc), caplog.text):
        assert API_KEY not in text
    assert service.requests[0].headers["Authorization"] == f"Bearer {API_KEY}"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://api.example.com", "https://api.example.com/"),
        ("https://api.example.com/v1/", "https://api.example.com/"),
        ("https://gw.example.com/sales/v1", "https://gw.example.com/sales/"),
        ("http://127.0.0.1:8765", "http://127.0.0.1:8765/"),
        ("http://127.8.9.10", "http://127.8.9.10/"),
        ("http://localhost:8765/", "http://localhost:8765/"),
        ("http://[::1]:8765", "http://[::1]:8765/"),
    ],
)
def test_accepted_base_urls(url, expected) -> None:
    assert ServiceClient(url, API_KEY).base_url == expected


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("http://api.example.com", "Refusing plain http:// for api.example.com"),
        ("http://10.0.0.5:8765", "Refusing plain http:// for 10.0.0.5"),
        ("http://localhost.example.com", "Refusing plain http://"),
        ("ftp://api.example.com", "must look like https://host/"),
        ("api.example.com", "must look like https://host/"),
    ],
)
def test_refused_base_urls(url, fragment) -> None:
    with pytest.raises(ValueError, match=fragment):
        ServiceClient(url, API_KEY)


async def test_base_url_path_prefix_is_kept(service) -> None:
    service.reply(httpx.Response(200, json={"success": True, "status": "ok"}))
    async with ServiceClient("https://gw.example.com/sales", API_KEY, transport=httpx.MockTransport(service)) as c:
        await c.health()
    assert str(service.requests[0].url) == "https://gw.example.com/sales/v1/health"


def test_empty_key_counts_as_none() -> None:
    assert "api_key=<none>" in repr(ServiceClient(BASE_URL, ""))


async def test_short_key_redacted_as_a_token_only(service) -> None:
    client = ServiceClient(BASE_URL, "demo", transport=httpx.MockTransport(service))
    service.reply(httpx.Response(409, json={"success": False, "message": "Deal tracking for demo: key demo echoed",
                                            "errors": None}))
    with pytest.raises(e.ConflictError) as info:
        await client.add_note(3, "hello")
    assert str(info.value) == "Deal tracking for ********: key ******** echoed"
    await client.aclose()
