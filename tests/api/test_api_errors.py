"""Error bodies and statuses map to the right exception with a readable message."""

import pytest

from warmline.api import errors as e


@pytest.mark.parametrize(
    ("status", "body", "cls", "message"),
    [
        (401, {"success": False, "message": "Invalid or missing API key", "errors": None}, e.AuthError, "Invalid or missing API key"),
        (401, b"", e.AuthError, "Invalid or missing API key"),
        (404, {"success": False, "message": "Outreach lead not found", "errors": None}, e.LeadNotFoundError, "Outreach lead not found"),
        (404, {"success": False, "message": "Contact not found", "errors": None}, e.NotFoundError, "Contact not found"),
        (404, {"error": "Job not found"}, e.NotFoundError, "Job not found"),
        (404, {"detail": "Not Found"}, e.RouteMissingError, "The service has no such operation (HTTP 404)"),
        (404, b"", e.RouteMissingError, "The service has no such operation (HTTP 404)"),
        (405, {"detail": "Method Not Allowed"}, e.RouteMissingError, "The service does not accept this method here (HTTP 405)"),
        (404, {"success": False, "message": "Recommendation not found or already dismissed", "errors": None}, e.RecommendationGoneError, "Recommendation not found or already dismissed"),
        (409, {"error": "Job must be completed before adding contacts"}, e.JobNotCompletedError, "Job must be completed before adding contacts"),
        (409, {"success": False, "message": "Deal tracking is only available for warm leads", "errors": None}, e.ConflictError, "Deal tracking is only available for warm leads"),
        (400, {"success": False, "message": "Validation failed", "errors": [{"field": "content", "message": "too long"}]}, e.ValidationFailed, "Validation failed: content: too long"),
        (422, {"detail": [{"loc": ["body", "target_score"], "msg": "Input should be a valid integer"}]}, e.ValidationFailed, "The service rejected the request: target_score: Input should be a valid integer"),
        (400, {"error": "contact_ids must not be empty"}, e.ValidationFailed, "contact_ids must not be empty"),
        (500, b"<html>Internal Server Error</html>", e.ServerError, "The service failed (HTTP 500): Internal Server Error"),
        (503, {"success": False, "message": "Service unavailable", "errors": None}, e.ServerError, "The service failed (HTTP 503): Service unavailable"),
        (418, "teapot", e.ApiError, "Unexpected answer from the service (HTTP 418): teapot"),
    ],
)
def test_error_from_response_maps_status_and_body(status, body, cls, message) -> None:
    err = e.error_from_response(status, {}, body)
    assert type(err) is cls
    assert str(err) == message
    assert err.status == status


def test_a_lead_gone_is_a_not_found_apart_from_a_recommendation_gone() -> None:
    lead = e.error_from_response(404, {}, {"message": e.LEAD_GONE_MESSAGE})
    recommendation = e.error_from_response(404, {}, {"message": e.RECOMMENDATION_GONE_MESSAGE})
    assert isinstance(lead, e.NotFoundError) and lead.is_permanent
    assert not isinstance(recommendation, e.LeadNotFoundError)


def test_recommendation_gone_is_permanent_and_both_not_found_and_conflict() -> None:
    err = e.error_from_response(404, {}, {"message": e.RECOMMENDATION_GONE_MESSAGE})
    assert isinstance(err, e.NotFoundError) and isinstance(err, e.ConflictError)
    assert err.is_permanent and not err.retryable and not err.is_ambiguous


def test_plan_limit_carries_quota_detail() -> None:
    body = {
        "success": False,
        "message": "Plan limit reached: deep_searches (10 of 10 used)",
        "errors": {"quota": "deep_searches", "limit": 10, "used": 10},
    }
    err = e.error_from_response(403, {}, body)
    assert isinstance(err, e.PlanLimitError)
    assert (err.quota, err.limit, err.used) == ("deep_searches", 10, 10)
    assert err.is_permanent


def test_forbidden_without_quota_is_auth() -> None:
    assert isinstance(e.error_from_response(403, {}, {"message": "Forbidden"}), e.AuthError)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after": "Thu, 01 Jan 1970 00:16:50 GMT"}, 10.0),
        ({"X-RateLimit-Reset": "1030"}, 30.0),
        ({"X-RateLimit-Reset": "900"}, 0.0),
        ({}, None),
        ({"Retry-After": "soon"}, None),
    ],
)
def test_rate_limited_retry_after(headers, expected) -> None:
    err = e.error_from_response(429, headers, {"message": "Rate limit exceeded"}, now=1000.0)
    assert isinstance(err, e.RateLimitedError)
    assert err.retry_after == expected
    assert err.retryable


def test_rate_limited_without_message_says_how_long() -> None:
    err = e.error_from_response(429, {"Retry-After": "12"}, None, now=0)
    assert str(err) == "Rate limit exceeded, retry in 12 seconds"


ENVELOPE_503 = {"success": False, "message": "Service temporarily unavailable", "errors": None}
NGINX_503 = "<html><head><title>503 Service Temporarily Unavailable</title></head></html>"
GATEWAY_504 = b"<!DOCTYPE html><html><head><title>504 Gateway Time-out</title></head></html>"


@pytest.mark.parametrize(
    ("err", "retryable", "ambiguous"),
    [
        (e.error_from_response(408, {}, None), True, False),
        (e.error_from_response(425, {}, None), True, False),
        (e.error_from_response(429, {}, None), True, False),
        (e.error_from_response(503, {}, ENVELOPE_503), True, False),
        (e.error_from_response(503, {"Retry-After": "30"}, None), True, False),
        (e.error_from_response(503, {"retry-after": "30"}, NGINX_503), True, False),
        (e.error_from_response(503, {}, None), False, True),
        (e.error_from_response(503, {}, NGINX_503), False, True),
        (e.error_from_response(503, {}, "no healthy upstream"), False, True),
        (e.error_from_response(502, {}, None), False, True),
        (e.error_from_response(502, {}, ENVELOPE_503), False, True),
        (e.error_from_response(504, {}, GATEWAY_504), False, True),
        (e.error_from_response(504, {"Retry-After": "30"}, None), False, True),
        (e.error_from_response(520, {}, None), False, True),
        (e.error_from_response(524, {}, "<html>A timeout occurred</html>"), False, True),
        (e.error_from_response(500, {}, None), False, True),
        (e.error_from_response(507, {}, None), False, True),
        (e.OfflineError("offline"), True, False),
        (e.AmbiguousError("dropped"), False, True),
        (e.error_from_response(400, {}, None), False, False),
        (e.InputError("x", "x is bad"), False, False),
    ],
)
def test_retry_classification(err, retryable, ambiguous) -> None:
    assert err.retryable is retryable
    assert err.is_ambiguous is ambiguous
    assert err.is_permanent is (not retryable and not ambiguous)


@pytest.mark.parametrize(
    ("status", "unavailable"), [(502, True), (503, True), (504, True), (520, True), (530, True), (500, False), (501, False)]
)
def test_a_gateway_status_says_the_service_is_unavailable(status: int, unavailable: bool) -> None:
    """The connection status counts a gateway's answer as offline, applied or not."""
    assert e.error_from_response(status, {}, None).unavailable is unavailable
    assert not e.error_from_response(429, {}, None).unavailable and not e.OfflineError("x").unavailable
