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
        if getattr(exc, "injected_fault", False):
            # A fault injected on purpose (a dropped connection in-process): not a bug to log.
            return error_response(ApiError(500, "Internal server error"))
        log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(ApiError(500, "Internal server error"))

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(OverflowError, on_overflow)
    app.add_exception_handler(sqlite3.IntegrityError, on_integrity)
    app.add_exception_handler(Exception, on_unexpected)
