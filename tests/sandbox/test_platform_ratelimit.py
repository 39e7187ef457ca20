"""Rate-limit headers on every response, 429 with Retry-After, per-key fixed windows."""

from __future__ import annotations

import httpx

from warmline_sandbox.clock import ManualClock

RATE_HEADERS = ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")


async def test_headers_on_success_errors_and_401(client: httpx.AsyncClient, anon_client: httpx.AsyncClient,
                                                 clock: ManualClock) -> None:
    responses = [
        await client.get("/v1/health"),
        await client.get("/v1/companies/999999999"),
        await client.post("/v1/companies", json={"name": 3}),
        await client.get("/v1/nowhere"),
        await anon_client.get("/v1/companies"),
        await anon_client.get("/v1/health"),
    ]
    for response in responses:
        assert all(name in response.headers for name in RATE_HEADERS), response.request.url
        assert response.headers["x-ratelimit-limit"] == "600"
        assert int(response.headers["x-ratelimit-reset"]) == int(clock.now().timestamp()) + 60
    remaining = [int(r.headers["x-ratelimit-remaining"]) for r in responses[:4]]
    assert remaining == [599, 598, 597, 596]


async def test_over_the_limit_is_429_until_the_window_resets(app_factory, client_factory,
                                                             clock: ManualClock) -> None:
    app = app_factory(rate_limit=(3, 10.0))
    async with client_factory(app) as client, client_factory(app, key=None) as other:
        statuses = [(await client.get("/v1/companies", params={"per_page": 1})).status_code for _ in range(3)]
        assert statuses == [200, 200, 200]
        clock.advance(4)
        limited = await client.get("/v1/companies")
        assert limited.status_code == 429
        assert limited.json() == {"success": False, "message": "Rate limit exceeded, retry in 6 seconds",
                                  "errors": None}
        assert limited.headers["retry-after"] == "6"
        assert limited.headers["x-ratelimit-remaining"] == "0"
        assert (await other.get("/v1/health")).status_code == 200, "another caller has its own window"
        clock.advance(6)
        again = await client.get("/v1/companies", params={"per_page": 1})
        assert again.status_code == 200 and again.headers["x-ratelimit-remaining"] == "2"


async def test_an_unexpected_500_carries_the_headers_and_is_not_replayed(app, clock: ManualClock) -> None:
    calls: list[str] = []

    def boom() -> None:
        calls.append("boom")
        raise RuntimeError("a bug in a handler")

    app.add_api_route("/v1/test-boom", boom, methods=["GET", "POST"])
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    headers = {"Authorization": "Bearer test-key", "Idempotency-Key": "op-1"}
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox", headers=headers) as client:
        answers = [await client.get("/v1/test-boom"), await client.post("/v1/test-boom", json={}),
                   await client.post("/v1/test-boom", json={})]
    for answer in answers:
        assert answer.status_code == 500
        assert answer.json() == {"success": False, "message": "Internal server error", "errors": None}
        assert all(name in answer.headers for name in RATE_HEADERS), answer.request.method
        assert int(answer.headers["x-ratelimit-reset"]) == int(clock.now().timestamp()) + 60
    assert [int(a.headers["x-ratelimit-remaining"]) for a in answers] == [599, 598, 597]
    assert calls == ["boom"] * 3, "a 500 under an Idempotency-Key is not stored: the retry runs again"
