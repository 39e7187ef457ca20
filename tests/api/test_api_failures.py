"""Failures: HTTP errors mapped through the client, bad input refused before sending,
and transport failures split into "not sent" and "may have been applied"."""

from __future__ import annotations

import socket

import httpx
import pytest

from support.api_samples import API_KEY, BASE_URL
from warmline.api import ServiceClient
from warmline.api import errors as e


def envelope(message, errors=None):
    return {"success": False, "message": message, "errors": errors}


@pytest.mark.parametrize(
    ("call", "status", "body", "headers", "cls", "message"),
    [
        (lambda c: c.get_lead(3), 401, envelope("Invalid or missing API key"), {}, e.AuthError,
         "Invalid or missing API key"),
        (lambda c: c.get_lead(99), 404, envelope("Outreach lead not found"), {}, e.LeadNotFoundError,
         "Outreach lead not found"),
        (lambda c: c.complete_recommendation(3, 11), 404,
         envelope("Recommendation not found or already dismissed"), {}, e.RecommendationGoneError,
         "Recommendation not found or already dismissed"),
        (lambda c: c.add_contacts(4, [1]), 409, {"error": "Job must be completed before adding contacts"},
         {}, e.JobNotCompletedError, "Job must be completed before adding contacts"),
        (lambda c: c.add_contacts(4, [1]), 404, {"error": "Job not found"}, {}, e.NotFoundError,
         "Job not found"),
        (lambda c: c.update_deal(3, won=True), 409,
         envelope("Deal tracking is only available for warm leads"), {}, e.ConflictError,
         "Deal tracking is only available for warm leads"),
        (lambda c: c.add_note(3, "x"), 400,
         envelope("Validation failed", [{"field": "content", "message": "must be 1-10000 characters"}]),
         {}, e.ValidationFailed, "Validation failed: content: must be 1-10000 characters"),
        (lambda c: c.start_deep_search("dental clinics"), 403,
         envelope("Plan limit reached: deep_searches (5 of 5 used)",
                  {"quota": "deep_searches", "limit": 5, "used": 5}),
         {}, e.PlanLimitError, "Plan limit reached: deep_searches (5 of 5 used)"),
        (lambda c: c.list_leads(), 429, envelope("Rate limit exceeded, retry in 30 seconds"),
         {"Retry-After": "30"}, e.RateLimitedError, "Rate limit exceeded, retry in 30 seconds"),
        (lambda c: c.log_touchpoint(3, "Called"), 500, envelope("Internal error"), {}, e.ServerError,
         "The service failed (HTTP 500): Internal error"),
        (lambda c: c.log_touchpoint(3, "Called"), 503, envelope("Service unavailable"), {},
         e.ServerError, "The service failed (HTTP 503): Service unavailable"),
        (lambda c: c.get_company(7), 502, None, {}, e.ServerError, "The service failed (HTTP 502)"),
    ],
)
async def test_http_errors_map_to_exceptions(call, status, body, headers, cls, message, client, service) -> None:
    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json=body, headers=headers) if body is not None else httpx.Response(status, headers=headers)

    service.default = reply  # every time: a read failing with a 5xx is asked again (test_api_read_again)
    with pytest.raises(cls) as info:
        await call(client)
    assert type(info.value) is cls
    assert str(info.value) == message
    assert info.value.status == status


async def test_plan_limit_detail_and_rate_limit_wait_reach_the_caller(client, service) -> None:
    service.reply(
        httpx.Response(403, json=envelope("Plan limit reached: instant_lookups (3 of 3 used)",
                                          {"quota": "instant_lookups", "limit": 3, "used": 3})),
        httpx.Response(429, json=envelope("Rate limit exceeded, retry in 12 seconds"), headers={"Retry-After": "12"}),
    )
    with pytest.raises(e.PlanLimitError) as plan:
        await client.lookup_companies("logistics")
    assert (plan.value.quota, plan.value.limit, plan.value.used) == ("instant_lookups", 3, 3)
    with pytest.raises(e.RateLimitedError) as rate:
        await client.lookup_companies("logistics")
    assert rate.value.retry_after == 12
    assert client.limiter.delay() == 12


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda c: c.lookup_companies("ab"), "query"),
        (lambda c: c.lookup_companies(), "query"),
        (lambda c: c.start_deep_search("ab"), "query"),
        (lambda c: c.start_deep_search("x" * 1001), "query"),
        (lambda c: c.start_deep_search("dental clinics", 101), "max_results"),
        (lambda c: c.start_research_run([1]), "template_id"),
        (lambda c: c.start_research_run(list(range(1, 102)), template_id="t"), "company_ids"),
        (lambda c: c.start_research_run([], template_name="ICP fit"), "company_ids"),
        (lambda c: c.set_target_score(3, 150), "target_score"),
        (lambda c: c.set_target_score(3, 0), "target_score"),
        (lambda c: c.log_touchpoint(3, ""), "description"),
        (lambda c: c.log_touchpoint(3, "x" * 5001), "description"),
        (lambda c: c.add_note(3, "x" * 10001), "content"),
        (lambda c: c.add_note(3, "   "), "content"),
        (lambda c: c.add_contacts(4, []), "contact_ids"),
        (lambda c: c.set_lead_status(3, "hot"), "lead_status"),
        (lambda c: c.add_leads([7], "hot"), "lead_status"),
        (lambda c: c.list_leads("hot"), "lead_status"),
        (lambda c: c.list_companies(per_page=500), "per_page"),
        (lambda c: c.update_deal(3, deal_currency="EURO"), "deal_currency"),
        (lambda c: c.update_deal(3), "deal"),
        (lambda c: c.create_company({"domain": "acme.io"}), "name"),
        (lambda c: c.create_company({"name": "Acme", "revenue": 5}), "revenue"),
        (lambda c: c.create_contact({"email": "a@b.c"}), "first_name"),
        (lambda c: c.update_contact(4, {"role": "ceo"}), "role"),
        (lambda c: c.start_contact_search(7, ["ceo"]), "roles"),
        (lambda c: c.pin_contact(3, 4, "yes"), "is_selected"),
        (lambda c: c.get_lead(0), "lead_id"),
        (lambda c: c.get_research_template("a/b"), "template_id"),
        (lambda c: c.add_competitor(3, ""), "name"),
    ],
)
async def test_bad_input_is_refused_before_sending(call, field, client, service) -> None:
    with pytest.raises(e.InputError) as info:
        await call(client)
    assert info.value.field == field
    assert service.requests == []


async def test_operations_without_a_key_are_refused_but_health_goes(service) -> None:
    service.reply(httpx.Response(200, json={"success": True, "status": "ok", "authenticated": False}))
    async with ServiceClient(BASE_URL, None, transport=httpx.MockTransport(service)) as client:
        with pytest.raises(e.AuthError, match="No API key is configured"):
            await client.get_lead(3)
        assert service.requests == []
        health = await client.health()
    assert health.authenticated is False
    assert "Authorization" not in service.requests[0].headers


async def test_health_sends_the_key_when_present(client, service) -> None:
    service.reply(httpx.Response(200, json={"success": True, "status": "ok", "authenticated": True}))
    await client.health()
    assert service.requests[0].headers["Authorization"] == f"Bearer {API_KEY}"


def raiser(exc_type, text):
    def reply(request):
        raise exc_type(text, request=request)

    return reply


@pytest.mark.parametrize(
    ("exc_type", "text", "cls", "message"),
    [
        (httpx.ConnectError, "[Errno 111] Connection refused", e.OfflineError,
         "Could not reach the service at http://127.0.0.1:8765: connection refused"),
        (httpx.ConnectError, "[Errno -2] Name or service not known", e.OfflineError,
         "Could not reach the service at http://127.0.0.1:8765: host name not found"),
        (httpx.ConnectTimeout, "timed out", e.OfflineError,
         "Could not reach the service at http://127.0.0.1:8765: timed out while connecting"),
        (httpx.PoolTimeout, "timed out", e.OfflineError,
         "Could not reach the service at http://127.0.0.1:8765: no free connection before the timeout"),
        (httpx.ReadTimeout, "timed out", e.UnresponsiveSendError,  # and counted offline
         "POST /v1/outreach/leads/3/notes was sent to http://127.0.0.1:8765 but no answer came back "
         "(no answer before the timeout); it may or may not have been applied"),
        (httpx.RemoteProtocolError, "Server disconnected", e.AmbiguousError,
         "POST /v1/outreach/leads/3/notes was sent to http://127.0.0.1:8765 but no answer came back "
         "(the connection closed without a complete answer); it may or may not have been applied"),
        (httpx.ReadError, "reset", e.AmbiguousError, None),
        (httpx.WriteError, "broken pipe", e.AmbiguousError, None),
    ],
)
async def test_transport_failures(exc_type, text, cls, message, client, service) -> None:
    service.reply(raiser(exc_type, text))
    with pytest.raises(cls) as info:
        await client.add_note(3, "hello", idempotency_key="op-1")
    if message is not None:
        assert str(info.value) == message
    assert info.value.status is None
    assert info.value.retryable is (cls is e.OfflineError)
    assert info.value.is_ambiguous is issubclass(cls, e.AmbiguousError)
    assert info.value.__cause__ is None and info.value.__suppress_context__


async def test_a_closed_loopback_port_is_offline() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    async with ServiceClient(f"http://127.0.0.1:{port}", API_KEY, timeout=2.0) as client:
        with pytest.raises(e.OfflineError, match=f"http://127.0.0.1:{port}: connection refused"):
            await client.get_lead(3)
