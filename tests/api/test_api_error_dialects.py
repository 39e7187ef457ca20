"""Any faithful service's error answer becomes the right exception with one readable line.

The spec shows only its own envelope and `{error}`; a real service built on another
framework answers in that framework's shape (express-validator, Rails/DRF, NestJS, RFC 9457,
a nested error object, a gateway's HTML page). Each row is one shape at one status: the
exception class and the exact message the rep sees.
"""

import pytest

from warmline.api import errors as e

NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
)
GATEWAY_504 = b"<!DOCTYPE html><html><head><title>504 Gateway Time-out</title></head><body><h1>Gateway Timeout</h1></body></html>"
EXPRESS_404 = (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n'
    "<body>\n<pre>Cannot POST /v1/research/templates</pre>\n</body>\n</html>\n"
)
EXPRESS_500 = (
    "<!DOCTYPE html><html><head><title>Error</title><style>pre{color:red}</style></head>"
    "<body><pre>TypeError: lead is undefined<br> &nbsp; &nbsp;at handler (/app/routes.js:10:5)</pre></body></html>"
)
EXPRESS_VALIDATOR_ITEM = {"type": "field", "value": 500, "msg": "Invalid value", "path": "target_score", "location": "body"}
ROUTE_MISSING = "The service has no such operation (HTTP 404)"

ROWS = [
    # A nested error object: its message, else its code; special messages inside it still match.
    ("nested-message", 400, {"error": {"message": "target_score must be 1-100", "code": "invalid_value"}},
     e.ValidationFailed, "target_score must be 1-100"),
    ("nested-code-only", 400, {"error": {"code": "x"}}, e.ValidationFailed, "Error code x"),
    ("nested-numeric-code-only", 409, {"error": {"code": 409}}, e.ConflictError,
     "The resource is in a state that forbids this (HTTP 409)"),
    ("nested-lead-gone", 404, {"error": {"message": "outreach lead not found.", "code": "not_found"}},
     e.LeadNotFoundError, "Outreach lead not found"),
    ("nested-recommendation-gone", 404, {"error": {"message": "RECOMMENDATION NOT FOUND OR ALREADY DISMISSED"}},
     e.RecommendationGoneError, "Recommendation not found or already dismissed"),
    ("nested-job-not-completed", 409, {"error": {"message": "Job must be completed before adding contacts."}},
     e.JobNotCompletedError, "Job must be completed before adding contacts"),
    ("nested-auth", 403, {"error": {"message": "invalid or missing api key"}}, e.AuthError,
     "Invalid or missing API key"),
    ("nested-details", 422, {"error": {"code": "invalid", "details": [{"field": "note", "message": "too long"}]}},
     e.ValidationFailed, "Error code invalid: note: too long"),
    # express-validator: `path` (v7) or `param` (v6), with or without a top-level message.
    ("express-validator", 400, {"errors": [EXPRESS_VALIDATOR_ITEM]}, e.ValidationFailed,
     "The service rejected the request: target_score: Invalid value"),
    ("express-validator-param", 422,
     {"errors": [{"value": "", "msg": "Invalid value", "param": "target_score", "location": "body"}]},
     e.ValidationFailed, "The service rejected the request: target_score: Invalid value"),
    ("express-validator-message", 400, {"message": "Validation failed", "errors": [EXPRESS_VALIDATOR_ITEM]},
     e.ValidationFailed, "Validation failed: target_score: Invalid value"),
    # A map of field -> messages (Rails, DRF), top level or under `errors` (Laravel).
    ("field-map", 400, {"target_score": ["must be between 1 and 100", "must be an integer"], "name": ["can't be blank"]},
     e.ValidationFailed,
     "The service rejected the request: target_score: must be between 1 and 100, must be an integer; name: can't be blank"),
    ("field-map-drf-nested", 400, {"non_field_errors": ["Lead is closed"], "deal": {"value": ["must be positive"]}},
     e.ValidationFailed, "The service rejected the request: Lead is closed; deal.value: must be positive"),
    ("errors-field-map", 422, {"errors": {"target_score": ["must be between 1 and 100"]}}, e.ValidationFailed,
     "The service rejected the request: target_score: must be between 1 and 100"),
    ("errors-field-map-laravel", 422,
     {"message": "The given data was invalid.", "errors": {"content": ["The content field is required."]}},
     e.ValidationFailed, "The given data was invalid: content: The content field is required."),
    # NestJS: `{statusCode, message, error}`, the message a string or a list.
    ("nest-cannot-get", 404, {"statusCode": 404, "message": "Cannot GET /v1/research/templates", "error": "Not Found"},
     e.RouteMissingError, ROUTE_MISSING),
    ("nest-resource", 404, {"statusCode": 404, "message": "Company not found", "error": "Not Found"},
     e.NotFoundError, "Company not found"),
    ("nest-message-list", 400,
     {"statusCode": 400, "message": ["target_score must not be greater than 100", "content should not be empty"],
      "error": "Bad Request"},
     e.ValidationFailed,
     "The service rejected the request: target_score must not be greater than 100; content should not be empty"),
    ("nest-conflict", 409, {"statusCode": 409, "message": ["Lead is already warm"], "error": "Conflict"},
     e.ConflictError, "Lead is already warm"),
    # HTML pages: the <pre> text or the <title>, never the markup.
    ("nginx-502", 502, NGINX_502, e.ServerError, "The service failed (HTTP 502): Bad Gateway"),
    ("gateway-504", 504, GATEWAY_504, e.ServerError, "The service failed (HTTP 504): Gateway Time-out"),
    ("express-404-html", 404, EXPRESS_404, e.RouteMissingError, ROUTE_MISSING),
    ("express-500-stack", 500, EXPRESS_500, e.ServerError, "The service failed (HTTP 500): TypeError: lead is undefined"),
    ("html-without-title", 500, "<html><body><script>alert(1)</script><p>Oops &amp; sorry</p></body></html>",
     e.ServerError, "The service failed (HTTP 500): Oops & sorry"),
    ("html-405", 405, "<html><title>405 Method Not Allowed</title></html>", e.RouteMissingError,
     "The service does not accept this method here (HTTP 405)"),
    ("html-in-a-message", 400, {"message": "<p>Bad <b>target_score</b></p>"}, e.ValidationFailed,
     "Bad target_score"),
    # Empty bodies: our words where we have them, else the status's reason phrase.
    ("empty-418", 418, b"", e.ApiError, "Unexpected answer from the service (HTTP 418): I'm a Teapot"),
    ("empty-400", 400, b"", e.ValidationFailed, "The service rejected the request"),
    ("empty-409", 409, b"", e.ConflictError, "The resource is in a state that forbids this (HTTP 409)"),
    # 402 and 403: a plan limit by meaning.
    ("402-message", 402, {"message": "Payment required"}, e.PlanLimitError, "Payment required"),
    ("402-empty", 402, b"", e.PlanLimitError, "Plan limit reached"),
    ("403-quota-code", 403, {"error": {"code": "quota_exceeded"}}, e.PlanLimitError, "Error code quota_exceeded"),
    ("403-credits", 403, {"message": "Not enough credits left"}, e.PlanLimitError, "Not enough credits left"),
    ("403-plan", 403, {"error": "Your plan does not include deep searches"}, e.PlanLimitError,
     "Your plan does not include deep searches"),
    ("403-limit-in-detail", 403,
     {"error": {"code": 403, "message": "Forbidden", "errors": [{"reason": "dailyLimitExceeded", "message": "Daily Limit Exceeded"}]}},
     e.PlanLimitError, "Daily Limit Exceeded"),
    ("403-plain", 403, {"statusCode": 403, "message": "Forbidden resource", "error": "Forbidden"}, e.AuthError,
     "Forbidden resource"),
    ("403-html", 403, "<html><head><title>403 Forbidden</title></head></html>", e.AuthError, "Forbidden"),
    # 404: a missing route unless the body names what is missing.
    ("404-error-not-found", 404, {"error": "Not Found"}, e.RouteMissingError, ROUTE_MISSING),
    ("404-not-found-period", 404, {"detail": "Not found."}, e.RouteMissingError, ROUTE_MISSING),
    ("404-go-text", 404, "404 page not found\n", e.RouteMissingError, ROUTE_MISSING),
    ("404-express-text", 404, "Cannot DELETE /v1/outreach/leads", e.RouteMissingError, ROUTE_MISSING),
    ("404-fastify", 404, {"message": "Route GET:/v1/research-templates not found", "error": "Not Found", "statusCode": 404},
     e.RouteMissingError, ROUTE_MISSING),
    ("404-spring", 404, {"status": 404, "error": "Not Found", "message": "No message available", "path": "/v1/x"},
     e.RouteMissingError, ROUTE_MISSING),
    ("404-problem-json", 404, {"type": "about:blank", "title": "Not Found", "status": 404, "detail": "Research run not found"},
     e.NotFoundError, "Research run not found"),
    ("404-errors-only", 404, {"errors": [{"message": "Contact not found"}]}, e.NotFoundError, "Contact not found"),
    # 429: the message given, else ours; `retry_after` tested below.
    ("429-nested", 429, {"error": {"message": "Too many requests", "code": "rate_limited"}}, e.RateLimitedError,
     "Too many requests"),
    ("429-html", 429, "<html><title>429 Too Many Requests</title></html>", e.RateLimitedError, "Too Many Requests"),
    ("429-empty", 429, b"", e.RateLimitedError, "Rate limit exceeded"),
    # OAuth's `{error, error_description}` and a JSON list of strings.
    ("oauth", 401, {"error": "invalid_token", "error_description": "The access token expired"}, e.AuthError,
     "The access token expired"),
    ("json-list", 400, ["target_score is too large", "content is empty"], e.ValidationFailed,
     "The service rejected the request: target_score is too large; content is empty"),
    # Hostile text: control characters and escape sequences go, lines fold, length is capped.
    ("controls", 400, {"message": "bad\x1b[31m value\x07\nfor target_score\u202e"}, e.ValidationFailed,
     "bad value for target_score"),
    ("plain-text-trace", 500, "boom\nTraceback (most recent call last):\n  File \"app.py\"", e.ServerError,
     "The service failed (HTTP 500): boom"),
    ("byte-order-mark", 404, "\ufeff{\"message\": \"Company not found\"}".encode(), e.NotFoundError, "Company not found"),
]


@pytest.mark.parametrize(("status", "body", "cls", "message"), [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_error_dialects_map_to_one_readable_line(status, body, cls, message) -> None:
    err = e.error_from_response(status, {}, body)
    assert type(err) is cls
    assert str(err) == message
    assert err.status == status


LONG = "x" * 5000


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (400, {"message": LONG}),
        (500, LONG),
        (404, {"errors": [{"field": f"f{i}", "message": LONG} for i in range(20)]}),
        (500, "<html><title>" + LONG + "</title></html>"),
        (422, {"detail": [{"loc": ["body", "x"], "msg": "a\r\nb\tc\x00d\x9be"}] * 50}),
        (404, "<pre" * 16_000),
        (500, "<" * 65_536),
    ],
)
def test_every_message_is_one_short_clean_line(status, body) -> None:
    text = str(e.error_from_response(status, {}, body))
    assert len(text) <= e.MAX_MESSAGE_CHARS
    assert text == text.strip() and "  " not in text
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in text)
    assert "<html" not in text and "<title" not in text


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({"Retry-After": "9"}, 9.0), ({"X-RateLimit-Reset": "1020"}, 20.0), ({}, None)],
)
def test_rate_limited_in_any_shape_keeps_its_wait_and_stays_retryable(headers, expected) -> None:
    err = e.error_from_response(429, headers, {"error": {"code": "rate_limited"}}, now=1000.0)
    assert isinstance(err, e.RateLimitedError)
    assert err.retry_after == expected
    assert err.retryable and not err.is_permanent


def test_a_402_is_a_permanent_plan_limit() -> None:
    err = e.error_from_response(402, {}, None)
    assert isinstance(err, e.PlanLimitError)
    assert err.is_permanent and not err.retryable
