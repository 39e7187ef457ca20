"""One exception hierarchy for everything that can go wrong talking to the service.

The sync engine decides what to do with a failed operation from three questions, each
answered by a property of `ApiError` so that no caller has to look at status codes:

- `retryable`: nothing was applied and sending again later may work (offline, 408, 425,
  429, 502, 503, 504). Safe to resend unchanged.
- `is_ambiguous`: the request may or may not have taken effect (the connection died after
  sending, or a 500 came back). Reconcile with the server's state before resending.
- `is_permanent`: neither; sending the same request again will fail the same way
  (validation, not found, conflict, plan limit, authentication).

Messages are written for the rep's screen and never contain the API key: they are built
from the server's message or our own words, never from request headers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from warmline.api import jsonbounds

MAX_WAIT_SECONDS = 3600.0
"""The longest wait the service can make us keep (`Retry-After`, `X-RateLimit-Reset`): one
hour. A larger wait is capped to it, and so is one that is not a finite number (`1e400`, a
date in year 5000): one absurd answer must not stop sync for good (docs/sync.md "Limits")."""

TRANSIENT_STATUSES = frozenset({408, 425, 429, 502, 503, 504})
AMBIGUOUS_STATUSES = frozenset({500})

# Server messages that name a state rather than a missing route; see `classify_by_message`.
RECOMMENDATION_GONE_MESSAGE = "Recommendation not found or already dismissed"
LEAD_GONE_MESSAGE = "Outreach lead not found"
JOB_NOT_COMPLETED_MESSAGE = "Job must be completed before adding contacts"
AUTH_MESSAGE = "Invalid or missing API key"


class ApiError(Exception):
    """Base of every error raised by `warmline.api`.

    `status` is the HTTP status (None when no HTTP answer arrived), `errors` the server's
    detail (a list of `{field, message}` for validation, a quota object for plan limits).
    """

    def __init__(self, message: str, *, status: int | None = None, errors: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.errors = errors

    def __str__(self) -> str:
        return self.message

    @property
    def retryable(self) -> bool:
        """True when the request surely had no effect and a later resend may succeed."""
        return self.status in TRANSIENT_STATUSES

    @property
    def is_ambiguous(self) -> bool:
        """True when the request may have taken effect; reconcile before resending."""
        return self.status in AMBIGUOUS_STATUSES

    @property
    def is_permanent(self) -> bool:
        """True when resending the same request cannot succeed."""
        return not (self.retryable or self.is_ambiguous)


class InputError(ApiError, ValueError):
    """Our own check of the spec's limits failed; raised before anything is sent or stored."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class AuthError(ApiError):
    """The API key is missing, invalid or not allowed to do this (401, or a 403 that is not a quota)."""


class NotFoundError(ApiError):
    """The named resource does not exist (404 with a message such as `Outreach lead not found`)."""


class LeadNotFoundError(NotFoundError):
    """The outreach lead itself is gone (`Outreach lead not found`): removed on the service.

    Kept apart from other 404s (a recommendation, a contact, a page of the lead) because it
    says something about every other action queued on that lead: they cannot succeed.
    """


class RouteMissingError(ApiError):
    """The server has no such route (404 without a resource message, or 405).

    Kept apart from `NotFoundError` so the client can fall back to the other path family
    without mistaking `Research template not found` for a missing route.
    """


class ConflictError(ApiError):
    """The resource is in a state that forbids the operation (409 and conflict-like messages)."""


class JobNotCompletedError(ConflictError):
    """Contacts can only be added from a completed contact search job."""


class RecommendationGoneError(NotFoundError, ConflictError):
    """The recommendation does not exist or was already dismissed: permanent, never retry.

    The service answers this with a 404 (our sandbox) but it describes a state as much as a
    missing resource, so it is both a `NotFoundError` and a `ConflictError`.
    """


class ValidationFailed(ApiError):
    """The server rejected the request body (400/422); `errors` holds its per-field detail."""


class PlanLimitError(ApiError):
    """A plan quota is used up (403). `quota`, `limit`, `used` are set when the server says."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = 403,
        errors: Any = None,
        quota: str | None = None,
        limit: int | None = None,
        used: int | None = None,
    ) -> None:
        super().__init__(message, status=status, errors=errors)
        self.quota = quota
        self.limit = limit
        self.used = used


class RateLimitedError(ApiError):
    """Too many requests (429). `retry_after` is the wait in seconds, when known."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = 429,
        errors: Any = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, status=status, errors=errors)
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        # Also when raised locally (status None) because the shared limiter is holding.
        return True


class ServerError(ApiError):
    """The service failed (5xx). 502/503/504 are transient, 500 is ambiguous."""

    @property
    def is_ambiguous(self) -> bool:
        # Any 5xx other than the gateway/unavailable ones may have been applied.
        return self.status is not None and not self.retryable


class BadResponseError(ApiError):
    """The service answered with success but the body could not be read.

    Ambiguous: the operation was probably applied, but we cannot tell what came of it.
    """

    @property
    def is_ambiguous(self) -> bool:
        return True


class AnswerTooLargeError(BadResponseError):
    """The answer was larger than `client.MAX_ANSWER_BYTES`: reading stopped there."""


class AnswerTooDeepError(BadResponseError):
    """The answer's JSON nested deeper than `payload.MAX_JSON_DEPTH`: refused unparsed."""


class TooManyPagesError(BadResponseError):
    """A list had (or claimed) more pages than `limits.LIST_PAGES_MAX`: it was not read whole,
    so nothing may be concluded from it (such as which cached records the service dropped)."""


class TransportError(ApiError):
    """No HTTP answer arrived; see the two subclasses for whether the request was sent."""


class OfflineError(TransportError):
    """Could not connect, or timed out before the request was sent: it was surely not applied."""

    @property
    def retryable(self) -> bool:
        return True


class AmbiguousError(TransportError):
    """The request was sent but no answer came back: it may or may not have been applied."""

    @property
    def is_ambiguous(self) -> bool:
        return True


class UnresponsiveError(TransportError):
    """The service did not finish answering in time (the request's total deadline, or a
    read timeout): it counts as offline. `deadline` is the limit that ran out, in seconds."""

    def __init__(self, message: str, *, deadline: float | None = None) -> None:
        super().__init__(message)
        self.deadline = deadline


class UnresponsiveReadError(UnresponsiveError, OfflineError):
    """A read (GET) that got no complete answer in time: nothing to apply, so simply offline."""


class UnresponsiveSendError(UnresponsiveError, AmbiguousError):
    """A mutation cut by its deadline: it may have arrived, so it is reconciled before any
    resend (the exactly-once rule), and the service counts as offline meanwhile."""


def cap_wait(seconds: float) -> float:
    """A wait the service asked for, within [0, MAX_WAIT_SECONDS]; NaN and infinities (from
    `1e400` or an absurd date) count as too long, so they are capped rather than raised."""
    if math.isnan(seconds) or seconds > MAX_WAIT_SECONDS:
        return MAX_WAIT_SECONDS
    return max(0.0, seconds)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` header: delta-seconds or an HTTP-date; capped at
    MAX_WAIT_SECONDS."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        return cap_wait(float(text))
    except ValueError:
        pass
    # deferred: command line (`warmline log` loads this module, never this date form)
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(text)
        stamp = when.timestamp()
    except (TypeError, ValueError, IndexError, OverflowError, OSError):
        return None
    current = time.time() if now is None else now
    return cap_wait(stamp - current)


def retry_after_from_headers(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait, from `Retry-After`, else from `X-RateLimit-Reset` (epoch seconds)."""
    lowered = {key.lower(): value for key, value in headers.items()}
    waited = parse_retry_after(lowered.get("retry-after"), now)
    if waited is not None:
        return waited
    reset = lowered.get("x-ratelimit-reset")
    if reset is None:
        return None
    try:
        reset_at = float(reset.strip())
    except ValueError:
        return None
    current = time.time() if now is None else now
    return cap_wait(reset_at - current)


def _decode_body(body: Any) -> Any:
    """JSON-decode bytes or text when possible; leave anything else as it is."""
    if isinstance(body, bytes | bytearray):
        body = bytes(body).decode("utf-8", errors="replace")
    if isinstance(body, str):
        try:
            return jsonbounds.loads(body)
        except jsonbounds.TooDeepError:
            return None  # no message worth showing in it
        except ValueError:
            return body.strip() or None
    return body


def _message_and_errors(body: Any) -> tuple[str | None, Any]:
    """The server's message and detail from either error shape, or from a bare text body."""
    if isinstance(body, Mapping):
        errors = body.get("errors")
        for key in ("message", "error", "detail"):
            value = body.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip(), errors
            if key == "detail" and isinstance(value, list) and errors is None:
                # FastAPI-style validation detail: keep it as the errors list.
                errors = value
        return None, errors
    if isinstance(body, str):
        # A plain-text or HTML error page: keep a short first line only.
        first_line = body.splitlines()[0] if body else ""
        return (first_line[:200] or None), None
    return None, None


def _format_field_errors(errors: Any) -> str:
    """`field: message; field: message` from the list shapes servers use for validation."""
    if not isinstance(errors, list):
        return ""
    parts = []
    for item in errors:
        if isinstance(item, Mapping):
            field = item.get("field")
            if field is None and isinstance(item.get("loc"), list | tuple):
                field = ".".join(str(p) for p in item["loc"] if p != "body")
            text = item.get("message") or item.get("msg") or ""
            parts.append(f"{field}: {text}" if field else str(text))
        else:
            parts.append(str(item))
    return "; ".join(p for p in parts if p)


def _is_route_missing(message: str | None) -> bool:
    """A 404 is a missing route when it carries no resource message (or FastAPI's default)."""
    return message is None or message.lower() in {"not found", "404 not found"}


def _plan_limit(status: int, message: str | None, errors: Any) -> PlanLimitError:
    detail = errors if isinstance(errors, Mapping) else {}

    def as_int(key: str) -> int | None:
        value = detail.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    quota = detail.get("quota") if isinstance(detail.get("quota"), str) else None
    text = message or (f"Plan limit reached: {quota}" if quota else "Plan limit reached")
    return PlanLimitError(
        text, status=status, errors=errors, quota=quota, limit=as_int("limit"), used=as_int("used")
    )


def _is_plan_limit(message: str | None, errors: Any) -> bool:
    if isinstance(errors, Mapping) and "quota" in errors:
        return True
    return message is not None and ("plan limit" in message.lower() or "quota" in message.lower())


def error_from_response(
    status: int,
    headers: Mapping[str, str] | None,
    body: Any,
    *,
    now: float | None = None,
) -> ApiError:
    """Map an HTTP error answer to the right exception.

    Accepts both error shapes (`{success: false, message, errors}` and `{error}`), FastAPI's
    `{detail}`, a plain-text body or none at all. Specific messages win over the status,
    because the service uses them for states (`Recommendation not found or already
    dismissed`, `Job must be completed before adding contacts`) whose status it does not fix.
    """
    headers = headers or {}
    message, errors = _message_and_errors(_decode_body(body))

    if message == RECOMMENDATION_GONE_MESSAGE:
        return RecommendationGoneError(message, status=status, errors=errors)
    if message == LEAD_GONE_MESSAGE and status == 404:
        return LeadNotFoundError(message, status=status, errors=errors)
    if message == JOB_NOT_COMPLETED_MESSAGE:
        return JobNotCompletedError(message, status=status, errors=errors)
    if status == 401 or message == AUTH_MESSAGE:
        return AuthError(message or "Invalid or missing API key", status=status, errors=errors)
    if status == 403:
        if _is_plan_limit(message, errors):
            return _plan_limit(status, message, errors)
        return AuthError(
            message or "The API key is not allowed to do this (HTTP 403)", status=status, errors=errors
        )
    if status == 404:
        if _is_route_missing(message):
            return RouteMissingError(
                "The service has no such operation (HTTP 404)", status=status, errors=errors
            )
        return NotFoundError(message or "Not found", status=status, errors=errors)
    if status == 405:
        return RouteMissingError(
            "The service does not accept this method here (HTTP 405)", status=status, errors=errors
        )
    if status == 409:
        return ConflictError(
            message or "The resource is in a state that forbids this (HTTP 409)",
            status=status,
            errors=errors,
        )
    if status == 429:
        wait = retry_after_from_headers(headers, now)
        text = message or (
            f"Rate limit exceeded, retry in {wait:.0f} seconds" if wait is not None else "Rate limit exceeded"
        )
        return RateLimitedError(text, status=status, errors=errors, retry_after=wait)
    if status in (400, 422):
        detail = _format_field_errors(errors)
        base = message or "The service rejected the request"
        text = f"{base}: {detail}" if detail and detail not in base else base
        return ValidationFailed(text, status=status, errors=errors)
    if status >= 500:
        base = f"The service failed (HTTP {status})"
        return ServerError(f"{base}: {message}" if message else base, status=status, errors=errors)
    base = f"Unexpected answer from the service (HTTP {status})"
    return ApiError(f"{base}: {message}" if message else base, status=status, errors=errors)
