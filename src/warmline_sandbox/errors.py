"""Error bodies exactly as the spec and docs/wire.md describe them.

Every failure leaves through here: the spec's envelope `{success:false,message,errors}`,
or the `{error}` shape of the contact-search add endpoint. Validation problems are
split the way docs/wire.md says: a broken rule (length, range, missing field, bad JSON)
is 400, a body of the wrong shape (wrong types) is 422.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("warmline_sandbox")

Shape = Literal["envelope", "short"]

# pydantic error types that mean "a rule was broken" rather than "wrong type".
_RULE_ERRORS = {
    "missing",
    "string_too_short",
    "string_too_long",
    "too_short",
    "too_long",
    "greater_than",
    "greater_than_equal",
    "less_than",
    "less_than_equal",
    "value_error",
    "assertion_error",
    "literal_error",
    "enum",
    "string_pattern_mismatch",
    "json_invalid",
    "extra_forbidden",
}


SHORT_ERROR_PATHS: set[str] = set()
"""Route paths whose errors, validation included, use the short `{error}` shape."""


def short_errors(path: str) -> str:
    """Declare a route path (as written in its decorator) to answer errors as `{error}`."""
    SHORT_ERROR_PATHS.add(path)
    return path


_LOCATIONS = {"body", "query", "path", "header", "cookie"}


class ApiError(Exception):
    """An error answer; raise it anywhere in a request and the handler renders it."""

    def __init__(
        self,
        status: int,
        message: str,
        errors: Any = None,
        shape: Shape = "envelope",
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors
        self.shape = shape
        self.headers = headers or {}


def error_body(message: str, errors: Any = None, shape: Shape = "envelope") -> dict[str, Any]:
    if shape == "short":
        return {"error": message}
    return {"success": False, "message": message, "errors": errors}


def error_response(error: ApiError) -> JSONResponse:
    return JSONResponse(
        error_body(error.message, error.errors, error.shape),
        status_code=error.status,
        headers=error.headers,
    )


def not_found(message: str, shape: Shape = "envelope") -> ApiError:
    return ApiError(404, message, shape=shape)


def bad_request(field: str, message: str, shape: Shape = "envelope") -> ApiError:
    if shape == "short":
        return ApiError(400, message, shape="short")
    return ApiError(400, message, errors=[{"field": field, "message": message}])


def conflict(message: str, shape: Shape = "envelope") -> ApiError:
    return ApiError(409, message, shape=shape)


def validation_errors(exc: RequestValidationError) -> tuple[int, list[dict[str, str]]]:
    """Per-field errors and the status (400 for broken rules, 422 for wrong types)."""
    fields: list[dict[str, str]] = []
    status = 400
    for item in exc.errors():
        loc = [str(part) for part in item.get("loc", ())]
        if loc and loc[0] in _LOCATIONS:
            loc = loc[1:]  # where the value came from, not part of the field's name
        fields.append({"field": ".".join(loc) or "body", "message": str(item.get("msg", "invalid"))})
        if item.get("type") not in _RULE_ERRORS:
            status = 422
    return status, fields


def _error_for_validation(request: Request, exc: RequestValidationError) -> ApiError:
    status, fields = validation_errors(exc)
    if any(item.get("type") == "json_invalid" for item in exc.errors()):
        status, message = 400, "Request body is not valid JSON"
    else:
        message = "Validation failed"
    route = request.scope.get("route")
    if getattr(route, "path", None) in SHORT_ERROR_PATHS:
        details = "; ".join(f"{item['field']}: {item['message']}" for item in fields)
        return ApiError(status, f"{message}: {details}", shape="short")
    return ApiError(status, message, errors=fields)


def install_error_handlers(app: FastAPI) -> None:
    """Render every error, including framework ones, in the spec's envelope."""

    async def on_api_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return error_response(exc)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(_error_for_validation(request, exc))

    async def on_http(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        message = {404: "Not found", 405: "Method not allowed"}.get(exc.status_code, str(exc.detail))
        return error_response(ApiError(exc.status_code, message, headers=dict(exc.headers or {})))

    async def on_overflow(_: Request, exc: Exception) -> JSONResponse:
        # A number too large for SQLite reached a query; it cannot name anything stored.
        return error_response(ApiError(400, "Number out of range", errors=[{"field": "body", "message": str(exc)}]))

    async def on_integrity(_: Request, exc: Exception) -> JSONResponse:
        # A write that would break a link between records (e.g. deleting a company in outreach).
        return error_response(ApiError(409, "The change conflicts with related records"))

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Last resort for a failure outside `UnexpectedErrorMiddleware` (in the rate limiter
        # itself) or an injected dropped connection on its way out to the caller.
        return internal_error(exc, request.method, request.url.path)

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(OverflowError, on_overflow)
    app.add_exception_handler(sqlite3.IntegrityError, on_integrity)
    app.add_exception_handler(Exception, on_unexpected)


def internal_error(exc: Exception, method: str, path: str) -> JSONResponse:
    """The 500 envelope; logs the exception unless it is a fault injected on purpose."""
    if not getattr(exc, "injected_fault", False):
        log.exception("unexpected error on %s %s", method, path, exc_info=exc)
    return error_response(ApiError(500, "Internal server error"))


class UnexpectedErrorMiddleware:
    """Answer an unexpected exception with the 500 envelope from INSIDE the other middlewares.

    Starlette runs a handler registered for `Exception` in its outermost layer, outside every
    middleware, so a 500 left without the `X-RateLimit-*` headers docs/wire.md promises on
    every answer. Installed just inside the rate limiter, this makes a 500 an ordinary answer
    that gets them. Two exceptions still pass through: an injected dropped connection (the
    caller must see a dropped connection, not an answer) and one raised after the answer
    began (nothing can be said any more).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            if started or getattr(exc, "injected_fault", False):
                raise
            await internal_error(exc, scope["method"], scope["path"])(scope, receive, send)
