"""One exception hierarchy for everything that can go wrong talking to the service.

The sync engine decides what to do with a failed operation from three questions, each
answered by a property of `ApiError` so that no caller has to look at status codes:

- `retryable`: nothing was applied and sending again later may work: a refusal the
  service gave before acting (offline, 408, 425, 429, and a 503 that is the service's own:
  see below). Safe to resend unchanged.
- `is_ambiguous`: the request may or may not have taken effect (the connection died after
  sending, or any other 5xx came back). Reconcile with the server's state before resending.
- `is_permanent`: neither; sending the same request again will fail the same way
  (validation, not found, conflict, plan limit, authentication).

A 502, 504 or 52x is a gateway's word: the proxy in front of the service may have passed
the request on, and the service applied it, before the proxy gave up waiting for its
answer. So it is ambiguous, never "not applied" (against a service that ignores
`Idempotency-Key`, taking it for a refusal doubled 6 activities into 12). A 503 is either:
the service refusing before it acts (overload, maintenance: it answers with its JSON body
or a `Retry-After`, as the sandbox's `error` fault does) or a gateway whose upstream broke
mid-request (a bare or HTML page). Only the first is a refusal; a 503 without JSON and
without `Retry-After` is ambiguous (`ServerError.refused`). `unavailable` (502, 503, 504,
52x, 530) says that the service did not really answer, for the connection status.

Messages are written for the rep's screen and never contain the API key: they are built
from the server's message or our own words, never from request headers.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping
from typing import Any

from warmline.api import jsonbounds
from warmline.textsafe import terminal_line

MAX_WAIT_SECONDS = 3600.0
"""The longest wait the service can make us keep (`Retry-After`, `X-RateLimit-Reset`): one
hour. A larger wait is capped to it, and so is one that is not a finite number (`1e400`, a
date in year 5000): one absurd answer must not stop sync for good (docs/sync.md "Limits")."""

REFUSAL_STATUSES = frozenset({408, 425, 429})
"""Statuses a server answers before acting on a request: nothing was applied."""
UNAVAILABLE_STATUSES = frozenset({502, 503, 504, *range(520, 528), 530})
"""The service did not really answer: a gateway's 502/504, Cloudflare's 52x/530, or a 503."""

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
        return self.status in REFUSAL_STATUSES

    @property
    def is_ambiguous(self) -> bool:
        """True when the request may have taken effect; reconcile before resending."""
        return self.status is not None and self.status >= 500

    @property
    def unavailable(self) -> bool:
        """True when no service stood behind the answer (a gateway's or an outage's status):
        the connection status counts it as offline, whether or not a send was applied."""
        return self.status in UNAVAILABLE_STATUSES

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
    """A plan quota is used up (402, or a 403 that speaks of a plan, quota, limit or credits).
    `quota`, `limit`, `used` are set when the server says."""

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
    """The service (or a gateway in front of it) failed: 5xx. Ambiguous, unless `refused`:
    a 503 the service gave itself, before acting (its JSON body or a `Retry-After`)."""

    def __init__(self, message: str, *, status: int | None = None, errors: Any = None, refused: bool = False) -> None:
        super().__init__(message, status=status, errors=errors)
        self.refused = refused

    @property
    def retryable(self) -> bool:
        return self.refused

    @property
    def is_ambiguous(self) -> bool:
        return not self.refused


class BadResponseError(ApiError):
    """The service answered with success but the body could not be read.

    Ambiguous: the operation was probably applied, but we cannot tell what came of it.
    """

    @property
    def is_ambiguous(self) -> bool:
        return True


class UnreadAnswerError(BadResponseError):
    """A mutation was answered 2xx, but the answer did not carry what we hoped to read
    (`{"success": true, "message": "..."}` where the spec shows no response).

    Delivered all the same: the outbox takes it as done and confirms the effect by reading
    the service again (`warmline.sync.confirm`); `body` is the answer as it came."""

    def __init__(self, message: str, body: object, *, status: int | None = None) -> None:
        super().__init__(message, status=status)
        self.body = body


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


# ------------------------------------------------------------------------------ error bodies
#
# A faithful service may answer an error in any of the shapes web frameworks produce: the
# spec's envelope, `{error}` as a string or an object, FastAPI's `{detail}`, express-validator's
# `{errors: [{msg, path}]}`, a Rails/DRF map of field -> messages, NestJS's `{statusCode,
# message, error}`, RFC 9457's `{title, detail}`, a gateway's HTML page, plain text or
# nothing. One helper per shape feeds `_message_and_errors`, which gives every caller the
# same two things: one readable line (or None) and the detail (a list or a map, or None).

MAX_MESSAGE_CHARS = 300
"""The longest message an error carries: one line of the rep's screen, never a page."""

_REJECTED = "The service rejected the request"

# Keys whose string is the server's message, most specific first: the spec's `message`,
# OAuth's `error_description` (its `error` is only a code), `{error}`, FastAPI's and RFC
# 9457's `detail`, RFC 9457's `title`.
_MESSAGE_KEYS = ("message", "error_description", "error", "detail", "title")
# Inside a nested `{error: {...}}` object (and inside one item of an `errors` list).
_OBJECT_MESSAGE_KEYS = ("message", "msg", "defaultMessage", "description", "detail", "title")
_OBJECT_CODE_KEYS = ("code", "type", "status")
_ITEM_FIELD_KEYS = ("field", "path", "param", "loc", "property", "attribute")
# Filler some frameworks send in place of a message (Spring's "No message available").
_NO_MESSAGE = frozenset({"no message available", "null", "none", "undefined"})
# Keys of a field map that name no field: DRF's, Rails', Django's and marshmallow's.
_UNNAMED_FIELDS = frozenset({"non_field_errors", "base", "__all__", "_schema", "_"})
_FIELD_MAP_DEPTH = 8

# HTML: the elements worth reading, best first (express's `<pre>Cannot GET /x</pre>`, a
# gateway's `<title>502 Bad Gateway</title>`, XML's `<Message>`).
_HTML_ELEMENTS = ("pre", "title", "h1", "message")
# Tags and blocks are found without backtracking over the body (`[^<>]`, `str.find`), so a
# 64 KiB answer of `<pre<pre<pre...` costs one pass, not one per `<`.
_TAG = re.compile(r"<[^<>]*>")
_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_HIDDEN_BLOCK = re.compile(r"<(script|style|head)(?=[\s>/])", re.IGNORECASE)

# A 404 that says "no such route" rather than "no such record" (see `_is_route_missing`).
_ROUTE_MISSING_WORDS = frozenset({
    "not found", "page not found", "404 page not found", "route not found", "no route found",
    "no such route", "endpoint not found", "unknown route", "unknown endpoint",
})
_METHODS = "get|head|post|put|patch|delete|options"
_ROUTE_MISSING = re.compile(rf"(?:cannot|can't) (?:{_METHODS}) /|route (?:{_METHODS}):\S* not found")
# A word of a 403 that makes it a plan limit: plan, quota, limit, credit (plural too, and as
# a part of a code such as `quota_exceeded` or, camelCase split, `dailyLimitExceeded`).
_PLAN_WORDS = re.compile(r"(?<![a-z])(?:plan|quota|limit|credit)s?(?![a-z])", re.IGNORECASE)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _decode_body(body: Any) -> Any:
    """JSON-decode bytes or text when possible; leave anything else as it is."""
    if isinstance(body, bytes | bytearray):
        body = bytes(body).decode("utf-8", errors="replace")
    if isinstance(body, str):
        body = body.lstrip("\ufeff")  # a byte-order mark would hide JSON or a page
        try:
            return jsonbounds.loads(body)
        except jsonbounds.TooDeepError:
            return None  # no message worth showing in it
        except ValueError:
            return body.strip() or None
    return body


def _clip(text: str) -> str | None:
    """`text` as one line of at most MAX_MESSAGE_CHARS: escape sequences and control
    characters removed (the text is the service's, and goes to a terminal), every run of
    whitespace one space; None when nothing readable is left."""
    line = " ".join(terminal_line(text).split())
    if not line:
        return None
    return line if len(line) <= MAX_MESSAGE_CHARS else line[: MAX_MESSAGE_CHARS - 1].rstrip() + "…"


def _first_line(text: str) -> str | None:
    """The first line of `text` with something readable on it: a plain-text answer's later
    lines are a stack trace or a page's worth of detail, not a message."""
    for raw in text.splitlines():
        line = _clip(raw)
        if line:
            return line
    return None


def _normalized(text: str) -> str:
    """The comparison form of a message: case, runs of spaces and a final period ignored."""
    return " ".join(text.casefold().split()).rstrip(".").strip()


def _says(message: str | None, expected: str) -> bool:
    """True when `message` is `expected`, whatever its case and final period."""
    return message is not None and _normalized(message) == _normalized(expected)


def _message_text(value: str) -> str | None:
    """A string the server gave as its message, clipped (read as a page when it is markup);
    None for filler that says nothing."""
    text = _from_html(value) if _is_markup(value) else _clip(value)
    return None if text is None or _normalized(text) in _NO_MESSAGE else text


def _is_markup(text: str) -> bool:
    """True for an HTML (or XML) page: a proxy's or a framework's default error page."""
    return text.lstrip().startswith("<")


def _html_text(fragment: str) -> str:
    """The text of an HTML fragment: `<br>` as a line break, every tag as a space, entities
    decoded. Never the markup itself."""
    # deferred: command line (`warmline log` never reads an HTML error page)
    from html import unescape

    return unescape(_TAG.sub(" ", _BREAK_TAG.sub("\n", fragment)))


def _html_element(text: str, lowered: str, tag: str) -> str | None:
    """The content of the first `<tag>` element, to its closing tag (or the end)."""
    opening = re.search(rf"<{tag}(?:\s[^<>]*)?>", lowered)
    if opening is None:
        return None
    end = lowered.find(f"</{tag}", opening.end())
    return text[opening.end() : end if end >= 0 else len(text)]


def _without_hidden_blocks(text: str, lowered: str) -> str:
    """`text` without its `<head>`, `<script>` and `<style>` blocks, which show nothing."""
    kept: list[str] = []
    position = 0
    while (block := _HIDDEN_BLOCK.search(lowered, position)) is not None:
        kept.append(text[position : block.start()])
        end = lowered.find(f"</{block.group(1)}", block.end())
        if end < 0:
            return "".join(kept)
        position = end
    kept.append(text[position:])
    return "".join(kept)


def _from_html(text: str) -> str | None:
    """One line from an HTML page: express's `<pre>Cannot GET /x</pre>`, else the page's
    `<title>` (nginx's `502 Bad Gateway`), else its `<h1>`, else its visible text."""
    lowered = text.lower()
    for tag in _HTML_ELEMENTS:
        inner = _html_element(text, lowered, tag)
        if inner is not None and (line := _first_line(_html_text(inner))):
            return line
    return _clip(_html_text(_without_hidden_blocks(text, lowered)))


def _from_text(text: str) -> str | None:
    """One line from a body that is not JSON: an HTML page's message, or the first line."""
    return _from_html(text) if _is_markup(text) else _first_line(text)


def _is_field_map(value: Any, *, loose: bool = False, depth: int = 0) -> bool:
    """True for a Rails/DRF/Laravel map of field -> list of messages (nested maps for nested
    fields, as DRF does). `loose` (inside an explicit `errors` key) also takes a single
    message string per field; at the top level of a body it would also take `{"status": "x"}`."""
    if not isinstance(value, Mapping) or not value or depth > _FIELD_MAP_DEPTH:
        return False
    for item in value.values():
        if isinstance(item, list):
            if not item or not all(isinstance(text, str) for text in item):
                return False
        elif isinstance(item, Mapping):
            if not _is_field_map(item, loose=loose, depth=depth + 1):
                return False
        elif not (loose and isinstance(item, str)):
            return False
    return True


def _from_error_object(error: Mapping[str, Any]) -> tuple[str | None, Any]:
    """`{error: {message, code, details}}` (Google, Stripe, many gateways): its message, else
    its code as `Error code <code>` (a code still says more than the status), and its
    detail list or map when it has one."""
    errors = next((error[key] for key in ("errors", "details") if isinstance(error.get(key), list | Mapping)), None)
    for key in _OBJECT_MESSAGE_KEYS:
        value = error.get(key)
        if isinstance(value, str) and (text := _message_text(value)):
            return text, errors
    for key in _OBJECT_CODE_KEYS:
        value = error.get(key)
        if isinstance(value, str) and (code := _clip(value)):
            return f"Error code {code}", errors
    return None, errors


def _from_mapping(body: Mapping[str, Any]) -> tuple[str | None, Any]:
    """A JSON object: the first message among `_MESSAGE_KEYS` (a string, or a nested error
    object under `error`); a list given as the message (NestJS's `message: [...]`, FastAPI's
    `detail: [...]`) becomes the detail; a body that is nothing but a field map is the detail."""
    errors = body.get("errors")
    for key in _MESSAGE_KEYS:
        value = body.get(key)
        if isinstance(value, str):
            text = _message_text(value)
            if text:
                return text, errors
        elif isinstance(value, Mapping) and key == "error":
            text, inner = _from_error_object(value)
            errors = inner if errors is None else errors
            if text:
                return text, errors
        elif isinstance(value, list) and errors is None:
            errors = value
    if errors is None and _is_field_map(body):
        errors = body
    return None, errors


def _message_and_errors(body: Any) -> tuple[str | None, Any]:
    """The server's message (one clipped line, or None) and its detail, from any body shape:
    a JSON object, a JSON list (of field errors or of strings), HTML, plain text."""
    if isinstance(body, Mapping):
        return _from_mapping(body)
    if isinstance(body, list):
        return None, body
    if isinstance(body, str):
        return _from_text(body), None
    return None, None


def _item_field(item: Mapping[str, Any]) -> str | None:
    """The field one list item names: `field` (ours), `path`/`param` (express-validator, new
    and old), `loc` (FastAPI, without its `body` part), `property` (class-validator), or a
    JSON:API `source` pointer's last segment."""
    for key in _ITEM_FIELD_KEYS:
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return _clip(value)
        if isinstance(value, list | tuple) and value:
            return _clip(".".join(str(part) for part in value if part != "body"))
    source = item.get("source")
    if isinstance(source, Mapping):
        for key in ("pointer", "parameter"):
            value = source.get(key)
            if isinstance(value, str) and value.strip("/"):
                return _clip(value.rstrip("/").rsplit("/", 1)[-1])
    return None


def _item_text(item: Any) -> str | None:
    """One list item as `field: message` (or the message alone)."""
    if isinstance(item, str | int | float) and not isinstance(item, bool):
        return _clip(str(item))
    if not isinstance(item, Mapping):
        return None
    said = next((item[key] for key in _OBJECT_MESSAGE_KEYS if item.get(key)), None)
    text = _clip(str(said)) if isinstance(said, str | int | float) else None
    if text is None:
        return None
    field = _item_field(item)
    return f"{field}: {text}" if field else text


def _field_map_parts(fields: Mapping[str, Any], prefix: str = "") -> list[str]:
    """`field: message, message` for each field of a field map, nested fields dotted."""
    parts: list[str] = []
    for key, value in fields.items():
        name = "" if key in _UNNAMED_FIELDS else (_clip(str(key)) or "")
        path = ".".join(part for part in (prefix, name) if part)
        if isinstance(value, Mapping):
            parts.extend(_field_map_parts(value, path))
            continue
        texts = [value] if isinstance(value, str) else value
        text = ", ".join(line for line in (_clip(t) for t in texts if isinstance(t, str)) if line)
        if text:
            parts.append(f"{path}: {text}" if path else text)
    return parts


def _format_field_errors(errors: Any) -> str:
    """`field: message; field: message` from the detail shapes servers use for validation: a
    list of items (ours, FastAPI, express-validator, JSON:API, strings), a field map (Rails,
    DRF, Laravel), or one string."""
    if isinstance(errors, str):
        parts = [errors]
    elif isinstance(errors, Mapping):
        parts = _field_map_parts(errors) if _is_field_map(errors, loose=True) else []
    elif isinstance(errors, list):
        parts = [text for text in (_item_text(item) for item in errors) if text]
    else:
        parts = []
    return _clip("; ".join(parts)) or ""


def _without_status(message: str, status: int) -> str | None:
    """`message` without a leading status (`502 Bad Gateway`, `HTTP 504 - Gateway Timeout`):
    the status is said by our own words already. `429 requests this minute` is kept whole."""
    match = re.match(rf"(?:HTTP\s*)?{status}(?:\s*[:\-–]\s*(?=\w)|\s+(?=[A-Z]))", message, re.IGNORECASE)
    if match is None:
        return message
    return message[match.end() :].strip() or None


def _reason_phrase(status: int) -> str | None:
    """The status's standard reason phrase (`Bad Gateway`), None for a status it does not know."""
    # deferred: command line (only an error answer with nothing to say needs the table)
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return None


def _is_reason_phrase(message: str) -> bool:
    """True when the message is only a status's reason phrase (NestJS's `error: "Bad Request"`
    beside its real detail): it says less than our own words and the detail."""
    # deferred: command line (only an error answer with a message needs the table)
    from http import HTTPStatus

    said = _normalized(message)
    return said == "gateway time-out" or any(said == status.phrase.casefold() for status in HTTPStatus)


def _is_route_missing(message: str | None, html: bool) -> bool:
    """A 404 is a missing route when it names no resource: no message, a framework's default
    words (`Not Found`, express's `Cannot GET /x`, fastify's `Route GET:/x not found`), or
    an HTML page (our service answers JSON; a page is a proxy's or a framework's)."""
    if html or message is None:
        return True
    said = _normalized(message)
    return said in _ROUTE_MISSING_WORDS or _ROUTE_MISSING.match(said) is not None


def _words(body: Any, depth: int = 0) -> list[str]:
    """Every key and string of a JSON body, for looking for words in it."""
    if depth > jsonbounds.MAX_JSON_DEPTH:
        return []
    if isinstance(body, str):
        return [body]
    if isinstance(body, Mapping):
        return [str(key) for key in body] + [w for value in body.values() for w in _words(value, depth + 1)]
    if isinstance(body, list):
        return [w for value in body for w in _words(value, depth + 1)]
    return []


def _plan_limit(status: int, message: str | None, errors: Any) -> PlanLimitError:
    detail = errors if isinstance(errors, Mapping) else {}

    def as_int(key: str) -> int | None:
        value = detail.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    quota = detail.get("quota") if isinstance(detail.get("quota"), str) else None
    text = message or (f"Plan limit reached: {quota}" if quota else "Plan limit reached")
    return PlanLimitError(
        _clip(text) or text, status=status, errors=errors, quota=quota, limit=as_int("limit"), used=as_int("used")
    )


def _is_plan_limit(message: str | None, errors: Any, body: Any) -> bool:
    """True when a 403's body speaks of a plan, a quota, a limit or credits (in its message,
    its detail, its codes or its keys): a quota used up, not a key that may not do this."""
    if isinstance(errors, Mapping) and "quota" in errors:
        return True
    texts = [message or ""]
    if isinstance(body, Mapping | list):
        texts += _words(body)
    return any("quota" in text.lower() or _PLAN_WORDS.search(_CAMEL.sub(" ", text)) for text in texts)


def _is_refusal(status: int, headers: Mapping[str, str], decoded: Any) -> bool:
    """True for a 5xx the service itself gave before acting: a 503 carrying its JSON (an
    object) or a `Retry-After`. A gateway's 502/504/52x, and a bare or HTML 503 (a proxy
    whose upstream broke, maybe after the request reached it), may follow an applied
    request (see the module docstring)."""
    if status != 503:
        return False
    has_retry_after = any(name.lower() == "retry-after" for name in headers)
    return has_retry_after or isinstance(decoded, Mapping)


def _line(base: str, said: str | None = None) -> str:
    """`base: said` (or `base`), clipped to one line of MAX_MESSAGE_CHARS."""
    text = f"{base.rstrip('.:')}: {said}" if said else base
    return _clip(text) or base


def error_from_response(
    status: int,
    headers: Mapping[str, str] | None,
    body: Any,
    *,
    now: float | None = None,
) -> ApiError:
    """Map an HTTP error answer to the right exception, with one readable line as its message.

    Reads any body shape a faithful service may use (see `_message_and_errors`). Specific
    messages win over the status, because the service uses them for states (`Recommendation
    not found or already dismissed`, `Job must be completed before adding contacts`) whose
    status it does not fix; they are matched whatever shape carries them, case and a final
    period aside. Otherwise the status decides, by meaning: 400/422 refused, 401 and a 403
    that is no plan limit authentication, 402 and a 403 about a plan limit plan limit, 404 a
    missing record or a missing route, 405 a missing route, 409 conflict, 429 rate limited.
    """
    headers = headers or {}
    decoded = _decode_body(body)
    html = isinstance(decoded, str) and _is_markup(decoded)
    message, errors = _message_and_errors(decoded)
    if message is not None:
        message = _without_status(message, status)
    detail = _format_field_errors(errors)
    if detail and status not in (400, 422) and (message is None or _is_reason_phrase(message)):
        # The detail says more than no message or a bare `Not Found`/`Conflict`.
        message = detail

    if _says(message, RECOMMENDATION_GONE_MESSAGE):
        return RecommendationGoneError(RECOMMENDATION_GONE_MESSAGE, status=status, errors=errors)
    if _says(message, LEAD_GONE_MESSAGE) and status == 404:
        return LeadNotFoundError(LEAD_GONE_MESSAGE, status=status, errors=errors)
    if _says(message, JOB_NOT_COMPLETED_MESSAGE):
        return JobNotCompletedError(JOB_NOT_COMPLETED_MESSAGE, status=status, errors=errors)
    if status == 401 or _says(message, AUTH_MESSAGE):
        said = AUTH_MESSAGE if _says(message, AUTH_MESSAGE) else message
        return AuthError(said or AUTH_MESSAGE, status=status, errors=errors)
    if status == 402:
        return _plan_limit(status, message, errors)
    if status == 403:
        if _is_plan_limit(message, errors, decoded):
            return _plan_limit(status, message, errors)
        return AuthError(
            message or "The API key is not allowed to do this (HTTP 403)", status=status, errors=errors
        )
    if status == 404:
        if _is_route_missing(message, html):
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
        base = message if message and not (detail and _is_reason_phrase(message)) else _REJECTED
        return ValidationFailed(
            _line(base, detail if detail and detail not in base else None), status=status, errors=errors
        )
    if status >= 500:
        return ServerError(
            _line(f"The service failed (HTTP {status})", message),
            status=status,
            errors=errors,
            refused=_is_refusal(status, headers, decoded),
        )
    return ApiError(
        _line(f"Unexpected answer from the service (HTTP {status})", message or _reason_phrase(status)),
        status=status,
        errors=errors,
    )
