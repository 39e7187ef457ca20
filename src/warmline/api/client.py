"""`ServiceClient`: one async method for every operation of the Sales Intelligence Service.

Each method checks the spec's limits before sending (raising `InputError`), waits on the
shared `RateLimiter`, sends the request with the API key and, for mutations, the caller's
`Idempotency-Key`, and returns a pydantic model. Every failure is an `ApiError` subclass
(see errors.py); transport failures are split into "surely not applied" (`OfflineError`)
and "may have been applied" (`AmbiguousError`) because the sync engine treats them
differently.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import socket
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from warmline import __version__
from warmline.api import dialect, jsonbounds, limits, models
from warmline.api.auth import BearerAuth, Secret, check_base_url, display_url
from warmline.api.errors import (
    AmbiguousError,
    AnswerTooDeepError,
    AnswerTooLargeError,
    ApiError,
    AuthError,
    BadResponseError,
    InputError,
    NotFoundError,
    OfflineError,
    RateLimitedError,
    RouteMissingError,
    ServerError,
    UnresponsiveError,
    UnresponsiveReadError,
    UnresponsiveSendError,
    error_from_response,
)
from warmline.api.paging import SINGLE, STYLES, ListWalk, read_paging
from warmline.api.paths import (
    Family,
    FamilyMemory,
    run_start_path,
    run_status_paths,
    template_list_path,
    template_path,
)
from warmline.api.payload import (
    UnreadAnswerError,
    parse,
    parse_items,
    parse_list,
    parse_page,
    unwrap_list,
    unwrap_object,
)
from warmline.api.ratelimit import RateLimiter
from warmline.api.request_fields import RequestFields
from warmline.api.servertime import ServerClock
from warmline.numbers import whole_number

log = logging.getLogger("warmline.api")

M = TypeVar("M", bound=BaseModel)

RESEARCH = "research"
RUN_STATUS = "research run status"
LIST_NAMES = {"leads": "lead list", "companies": "company list", "contacts": "contact list"}
"""What a walked list is called in messages ("The service's lead list claims ...")."""

REQUEST_DEADLINE = 30.0
"""Seconds one request may take in all, from sending to the last byte of the answer. httpx's
timeouts are per read, so a service sending a byte every few seconds would never trip them;
past this deadline the service counts as unresponsive (offline; a mutation is ambiguous).
A request given its own `timeout` (the health probe) gets at most twice that."""
READ_PAUSES = (0.5, 1.0)
"""Seconds before a read that failed fast is asked again, each time (`_exchange_json`)."""
MAX_ANSWER_BYTES = 20 * 1024 * 1024
"""The largest answer read (20 MiB; a page of 200 leads is about 100 KB): reading stops
there with `AnswerTooLargeError`, so memory stays bounded whatever the service sends."""
MAX_LOGGED_BODY = 1000
"""Characters of a request or answer body written to the log at debug level."""
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"})
MAX_ERROR_BYTES = 64 * 1024
"""An error answer is read up to 64 KiB (its message is in the first line or two)."""

# httpx failures that happen before the request leaves this machine: surely not applied.
_NOT_SENT: dict[type[httpx.TransportError], str] = {
    httpx.ConnectTimeout: "timed out while connecting",
    httpx.PoolTimeout: "no free connection before the timeout",
    httpx.ConnectError: "could not connect",
    httpx.ProxyError: "the proxy refused the connection",
    httpx.UnsupportedProtocol: "unsupported protocol",
    httpx.LocalProtocolError: "the request could not be sent",
}
# Failures after the request (or part of it) was sent: may or may not have been applied.
_SENT: dict[type[httpx.TransportError], str] = {
    httpx.ReadTimeout: "no answer before the timeout",
    httpx.WriteTimeout: "timed out while sending",
    httpx.RemoteProtocolError: "the connection closed without a complete answer",
    httpx.ReadError: "the connection broke while reading the answer",
    httpx.WriteError: "the connection broke while sending",
}


def _causes(exc: BaseException) -> list[BaseException]:
    """The exception and everything behind it (cause, context, grouped exceptions)."""
    seen: list[BaseException] = []
    stack: list[BaseException | None] = [exc]
    while stack:
        current = stack.pop()
        if current is None or any(current is s for s in seen):
            continue
        seen.append(current)
        stack.extend([current.__cause__, current.__context__, *getattr(current, "exceptions", ())])
    return seen


def _connect_reason(exc: BaseException) -> str:
    """Why a connection failed, from the OS error behind httpx's (often generic) one."""
    for cause in _causes(exc):
        if isinstance(cause, ConnectionRefusedError) or "refused" in str(cause).lower():
            return "connection refused"
        if isinstance(cause, socket.gaierror) or "name or service not known" in str(cause).lower():
            return "host name not found"
    return "could not connect"


def _reason(table: Mapping[type[httpx.TransportError], str], exc: Exception) -> str | None:
    for cls, text in table.items():
        if isinstance(exc, cls):
            return _connect_reason(exc) if cls is httpx.ConnectError else text
    return None


def _took(started: float) -> str:
    """The time since `started` (a `time.perf_counter()`), as a log line says it."""
    return f"{(time.perf_counter() - started) * 1000:.0f} ms"


def _drop_none(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


class ServiceClient:
    """Async client of the service; use as `async with ServiceClient(...) as client:`.

    `transport` lets tests and the demo plug in an in-process app
    (`httpx.ASGITransport(app=...)`); `limiter` may be shared by several clients;
    `prefer_family` is the research path family tried first until one is known to work.
    A request waits for the limiter at most `max_rate_wait` seconds (None: as long as it
    takes); beyond that it raises `RateLimitedError` without sending, so a caller such as
    the outbox can reschedule instead of blocking. `deadline` bounds each request whole
    (default `REQUEST_DEADLINE`, read when the client is made). `request_fields` names
    the request fields the spec does not show as this service reads them
    (`[service.fields]` in the config; `request_fields.RequestFields`).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | Secret | None = None,
        *,
        timeout: float | httpx.Timeout = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
        limiter: RateLimiter | None = None,
        prefer_family: Family = "detailed",
        clock: Callable[[], float] = time.time,
        max_rate_wait: float | None = 30.0,
        deadline: float | None = None,
        request_fields: RequestFields | None = None,
    ) -> None:
        self._max_rate_wait = max_rate_wait
        self.deadline = REQUEST_DEADLINE if deadline is None else deadline
        self._base_url = check_base_url(base_url)
        if isinstance(api_key, str):
            api_key = Secret(api_key) if api_key else None
        self._key: Secret | None = api_key
        self._clock = clock
        self._created_at = clock()
        self.last_answer_at: float | None = None
        # The service's clock, learned from every answer (reconciliation works in its time).
        self.server_clock = ServerClock()
        self._exchange: tuple[float, float] = (self._created_at, self._created_at)
        self.limiter = limiter if limiter is not None else RateLimiter(clock=clock)
        self.families = FamilyMemory(prefer_family)
        # Every field some lead detail carried: a sparse reading leaves a null out, so a
        # field missing from one lead but seen on another is null there, not unknown.
        self.lead_fields_seen: set[str] = set()
        # The paging style each list answered in (`paging.STYLES`), found by `walk`.
        self.paging: dict[str, str] = {}
        self.request_fields = request_fields if request_fields is not None else RequestFields()
        self._http = httpx.AsyncClient(
            base_url=self._base_url,
            auth=BearerAuth(self._key),
            timeout=timeout,
            transport=transport,
            headers={"User-Agent": f"warmline/{__version__}", "Accept": "application/json"},
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        key = "set" if self._key else "none"
        return f"ServiceClient(base_url={display_url(self._base_url)!r}, api_key=<{key}>)"

    @property
    def base_url(self) -> str:
        return str(self._base_url)

    @property
    def service_id(self) -> str:
        """Which service this client talks to, as a short hash of its base URL and key.

        State that belongs to one service and key (a stored rate-limit hold) is tagged with
        it, so pointing the config elsewhere drops that state; the key itself is never
        stored."""
        key = self._key.reveal() if self._key else ""
        return hashlib.sha256(f"{self._base_url}\n{key}".encode()).hexdigest()[:16]

    def dialect_state(self) -> dict[str, Any]:
        """What this client learned of the service's dialect (paging style per list, the
        research path family and run status path), to remember per service in the cache."""
        return {"paging": dict(self.paging), "paths": self.families.as_state()}

    def restore_dialect(self, state: object) -> None:
        """Start from what an earlier run learned of this service (`dialect_state`)."""
        if not isinstance(state, dict):
            return
        paging = state.get("paging")
        if isinstance(paging, dict):
            self.paging.update({str(k): v for k, v in paging.items() if v in STYLES})
        self.families.restore(state.get("paths"))

    def now(self) -> float:
        """This client's clock (epoch seconds), the one its waits are measured on."""
        return self._clock()

    @property
    def quiet_for(self) -> float:
        """Seconds (on this client's clock) since the service last answered any request,
        whatever the status, or since this client was made. Only an answer counts: a request
        that failed proves nothing about the service being up. The sync engine probes the
        service when this grows, so that a dead service shows as offline while the rep idles."""
        return self._clock() - (self.last_answer_at if self.last_answer_at is not None else self._created_at)

    async def __aenter__(self) -> ServiceClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # ------------------------------------------------------------------ the one request path

    async def _request(self, method: str, path: str, **options: Any) -> Any:
        """Send one request and return its decoded JSON body, or raise an `ApiError`
        (`_exchange_json` without the headers; the same options)."""
        answer, _ = await self._exchange_json(method, path, **options)
        return answer

    async def _exchange_json(self, method: str, path: str, **options: Any) -> tuple[Any, httpx.Headers]:
        """`_exchange_once`, and for a read that failed fast, again (`READ_PAUSES`).

        A read (GET) changes nothing, so one whose answer was lost on the way (the
        connection closed, a 5xx) is asked again after a short pause, twice at most: a
        refresh walks a list page by page, and one lost page would end the walk. Not
        asked again: a mutation (the outbox reconciles before any resend), a read cut by
        its deadline or not let in (offline: the engine probes), a refusal, a probe (its
        own `timeout`: a quick question, asked again on its schedule), nor once half the
        deadline has gone (so a read takes at most about one and a half deadlines)."""
        if method != "GET" or options.get("timeout") is not None:
            return await self._exchange_once(method, path, **options)
        started = time.monotonic()
        for pause in READ_PAUSES:
            try:
                return await self._exchange_once(method, path, **options)
            except (AmbiguousError, ServerError) as exc:
                if isinstance(exc, UnresponsiveError) or time.monotonic() - started > self.deadline / 2:
                    raise
                log.info("GET %s: asking again in %g s (%s)", path, pause, exc)
            await self.limiter.hold(pause)
        return await self._exchange_once(method, path, **options)

    async def _exchange_once(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        needs_key: bool = True,
        timeout: float | None = None,
    ) -> tuple[Any, httpx.Headers]:
        """Send one request and return its decoded JSON body and the answer's headers (a
        `Link` header pages some lists), or raise an `ApiError`.

        `timeout` (seconds, for each of connecting and waiting for the answer) replaces the
        client's own for this request, and bounds it whole to twice that. The answer is
        streamed and read up to MAX_ANSWER_BYTES, its JSON refused past
        `jsonbounds.MAX_JSON_DEPTH` levels: a hostile answer is one `BadResponseError`."""
        if needs_key and not self._key:
            raise AuthError(  # as warmline.config.KEY_FIX says it (api/ does not import config)
                "No API key is configured: set WARMLINE_API_KEY, or run `warmline key set`"
            )
        pause = self.limiter.delay()
        if self._max_rate_wait is not None and pause > self._max_rate_wait:
            raise RateLimitedError(
                f"Rate-limited for another {pause:.0f} seconds; the request was not sent",
                status=None,
                retry_after=pause,
            )
        await self.limiter.wait()
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else {}
        deadline = self.deadline if timeout is None else min(self.deadline, 2 * timeout)
        request = self._http.build_request(
            method,
            path,
            json=body,
            params=_drop_none(params or {}),
            headers=headers,
            timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
        )
        sent = self._clock()
        # What is logged of a request says which it was and how it went; the probe of an
        # unreachable service runs every few seconds, so it is detail (debug), not history.
        level = logging.INFO if needs_key else logging.DEBUG
        op = f" (op {idempotency_key})" if idempotency_key is not None else ""
        started = time.perf_counter()
        if log.isEnabledFor(logging.DEBUG):
            self._log_detail("request", request.headers, request.content, f"{method} {request.url.raw_path.decode()}")
        try:
            async with asyncio.timeout(deadline):
                response = await self._http.send(request, stream=True)
                try:
                    self.last_answer_at = self._clock()
                    self._exchange = (sent, self.last_answer_at)
                    self.server_clock.observe_date(response.headers.get("date"), sent, self.last_answer_at)
                    self.limiter.update(response.headers, response.status_code, self._reset_offset())
                    limit = MAX_ANSWER_BYTES if response.is_success else MAX_ERROR_BYTES
                    content, cut = await _read_body(response, limit)
                finally:
                    await response.aclose()
        except TimeoutError:
            error = self._deadline_error(method, path, deadline)
            log.log(level, "%s %s -> no answer after %s%s: %s", method, path, _took(started), op, error)
            raise error from None
        except httpx.TransportError as exc:
            # `from None`: the httpx exception carries the request; keep it out of tracebacks.
            error = self._transport_error(exc, method, path)
            log.log(level, "%s %s -> not answered after %s%s: %s", method, path, _took(started), op, error)
            raise error from None
        wait = response.headers.get("retry-after")
        log.log(level, "%s %s -> %s in %s, %d bytes%s%s", method, path, response.status_code, _took(started),
                len(content), f", Retry-After {wait}" if wait else "", op)
        if log.isEnabledFor(logging.DEBUG):
            self._log_detail("answer", response.headers, content, f"{response.status_code}")
        if not response.is_success:
            # Only the redacted text stays in this frame: tracebacks with locals show it.
            text = self._redact(content.decode(response.charset_encoding or "utf-8", errors="replace"))
            content = b""
            raise error_from_response(response.status_code, response.headers, text, now=self._clock())
        if cut:
            raise AnswerTooLargeError(
                f"The service's answer to {method} {path} is larger than {MAX_ANSWER_BYTES // (1024 * 1024)} MiB;"
                " reading stopped there",
                status=response.status_code,
            )
        if not content.strip():
            return {}, response.headers
        try:
            return jsonbounds.loads(content), response.headers
        except jsonbounds.TooDeepError:
            raise AnswerTooDeepError(
                f"The service's answer to {method} {path} nests deeper than {jsonbounds.MAX_JSON_DEPTH} levels;"
                " it was not read",
                status=response.status_code,
            ) from None
        except ValueError:
            raise BadResponseError(
                f"The service's answer to {method} {path} was not JSON", status=response.status_code
            ) from None

    def _log_detail(self, what: str, headers: httpx.Headers, body: bytes, first: str) -> None:
        """Debug level: the headers (never the key's) and the body, cut to a bound."""
        shown = {
            name: "********" if name.lower() in _SECRET_HEADERS else value for name, value in headers.items()
        }
        text = self._redact(body[: 4 * MAX_LOGGED_BODY].decode("utf-8", errors="replace"))
        cut = f"... ({len(body)} bytes)" if len(text) > MAX_LOGGED_BODY or len(body) > 4 * MAX_LOGGED_BODY else ""
        log.debug("%s %s headers %s body %r%s", what, first, shown, text[:MAX_LOGGED_BODY], cut)

    def _deadline_error(self, method: str, path: str, deadline: float) -> ApiError:
        """The request ran out of its total deadline: the service is unresponsive."""
        where = display_url(self._base_url)
        if method == "GET":
            return UnresponsiveReadError(
                f"The service at {where} did not answer GET {path} within {deadline:g} s", deadline=deadline
            )
        return UnresponsiveSendError(
            f"{method} {path} was sent to {where} but no complete answer came within {deadline:g} s;"
            " it may or may not have been applied",
            deadline=deadline,
        )

    def _transport_error(self, exc: Exception, method: str, path: str) -> ApiError:
        reason = _reason(_NOT_SENT, exc)
        if reason is not None:
            return OfflineError(f"Could not reach the service at {display_url(self._base_url)}: {reason}")
        reason = _reason(_SENT, exc) or "the connection failed"
        if method == "GET" and isinstance(exc, httpx.ReadTimeout):
            # A read that timed out: nothing to apply, the service is simply not answering.
            return UnresponsiveReadError(
                f"The service at {display_url(self._base_url)} did not answer GET {path} ({reason})"
            )
        if method == "GET":  # a read applies nothing: no "may have been applied"
            return AmbiguousError(
                f"The service at {display_url(self._base_url)} closed the connection before answering"
                f" GET {path} ({reason})"
            )
        unknown = (
            f"{method} {path} was sent to {display_url(self._base_url)} but no answer came back "
            f"({reason}); it may or may not have been applied"
        )
        if isinstance(exc, httpx.ReadTimeout):
            # Sent to a service that stopped answering (hung, or its host asleep): as with the
            # total deadline, unknown until checked, and the service counts as offline.
            return UnresponsiveSendError(unknown)
        return AmbiguousError(unknown)

    def _redact(self, text: str) -> str:
        """Remove the key from text the server sent back, in case it echoes headers.

        Only whole tokens are replaced: a short key such as `demo` must not mangle words
        that merely contain it.
        """
        if not self._key or self._key.reveal() not in text:
            return text
        token = re.compile(rf"(?<![\w-]){re.escape(self._key.reveal())}(?![\w-])")
        return token.sub("********", text)

    async def _get_object(self, path: str, model: type[M], marker: str, key: str | None = None) -> M:
        what = f"GET {path}"
        body = await self._request("GET", path)
        return parse(model, unwrap_object(body, what, key=key, marker=marker), what)

    async def _send_object(
        self,
        method: str,
        path: str,
        model: type[M],
        marker: str,
        *,
        body: Any = None,
        key: str | None = None,
        idempotency_key: str | None = None,
    ) -> M:
        what = f"{method} {path}"
        answer = await self._request(method, path, body=body, idempotency_key=idempotency_key)
        try:
            return parse(model, unwrap_object(answer, what, key=key, marker=marker), what)
        except BadResponseError as exc:
            # A 2xx is delivery, whatever the body: the caller confirms by reading again.
            raise UnreadAnswerError(str(exc), answer, status=exc.status) from None

    async def _get_list(self, path: str, model: type[M], *keys: str) -> list[M]:
        what = f"GET {path}"
        return parse_list(model, unwrap_list(await self._request("GET", path), what, *keys), what)

    async def _get_page(
        self, path: str, model: type[M], page: int, per_page: int, filters: Mapping[str, Any], key: str
    ) -> models.Page[M]:
        limits.check_page(page, per_page)
        body = await self._request("GET", path, params={"page": page, "per_page": per_page, **filters})
        return parse_page(model, body, f"GET {path}", page, per_page, key)

    async def _get_tags(self, path: str) -> list[str]:
        items = dialect.tag_names(unwrap_list(await self._request("GET", path), f"GET {path}", "tags"))
        return [str(tag) for tag in items] if isinstance(items, list) else []

    async def walk(
        self, path: str, model: type[M], key: str, filters: Mapping[str, Any] | None = None, *, size: int = 200
    ) -> AsyncIterator[tuple[list[M], ListWalk]]:
        """Every page of a list to its end, whatever paging style the service uses
        (`paging.ListWalk`): yields each page's readable records with the walk, whose
        `problem()` after the last page says whether the whole list was seen. The style
        found is remembered for this path (`self.paging`)."""
        what = f"GET {path}"
        state = ListWalk(LIST_NAMES.get(key, f"{key} list"), size, self.paging.get(path))
        params: dict[str, Any] | None = state.first_params()
        while params is not None:
            body, headers = await self._exchange_json("GET", path, params={**(filters or {}), **params})
            items, skipped = parse_items(model, unwrap_list(body, what, key), what)
            params = state.see(read_paging(body, headers, path), [getattr(i, "id", None) for i in items], skipped)
            if state.style is not None and state.style != SINGLE:
                self.paging[path] = state.style
            yield ([] if state.repeated else items), state

    def walk_leads(self, status: str, *, size: int = 200) -> AsyncIterator[tuple[list[models.LeadListItem], ListWalk]]:
        """The leads of one status (`cold`/`warm`), asked for by name: a service's default
        may hold one status only (docs/wire.md, "Dialects we accept")."""
        name = self.request_fields.name("list_leads", "status")
        return self.walk("/v1/outreach/leads", models.LeadListItem, "leads",
                         {name: limits.check_lead_status(status)}, size=size)

    def walk_companies(self, *, size: int = 200) -> AsyncIterator[tuple[list[models.Company], ListWalk]]:
        return self.walk("/v1/companies", models.Company, "companies", size=size)

    def walk_contacts(self, *, size: int = 200) -> AsyncIterator[tuple[list[models.Contact], ListWalk]]:
        return self.walk("/v1/contacts", models.Contact, "contacts", size=size)

    # ------------------------------------------------------------------ health

    def _reset_offset(self) -> float:
        """The service's clock minus ours, for reading `X-RateLimit-Reset`: only a skew the
        estimate is sure of (larger than its uncertainty, which a 1 s `Date` alone makes
        half a second), and then taken on the late side, so a window is never taken for
        over before the service has ended it."""
        learned = self.server_clock.estimate()
        if learned is None or abs(learned.offset) <= learned.uncertainty:
            return 0.0
        return learned.offset - learned.uncertainty

    async def health(self, *, timeout: float | None = None) -> models.Health:
        """Check the service; validates the key when one is configured (401 if invalid).

        `timeout` gives the check a shorter deadline than other requests: a probe that
        waited as long as a send would be slow to notice a service that stopped answering."""
        body = await self._request("GET", "/v1/health", needs_key=False, timeout=timeout)
        sent, received = self._exchange  # set by this request: no await since
        health = parse(models.Health, unwrap_object(body, "GET /v1/health", marker="status"), "health")
        if health.time is not None:
            self.server_clock.observe(health.time.timestamp(), sent, received, resolution=0.001)
        return health

    # ------------------------------------------------------------------ companies

    async def list_companies(
        self,
        page: int = 1,
        per_page: int = 50,
        *,
        search: str | None = None,
        industry: str | None = None,
        country: str | None = None,
        tag: str | None = None,
    ) -> models.Page[models.Company]:
        filters = {"search": search, "industry": industry, "country": country, "tag": tag}
        return await self._get_page("/v1/companies", models.Company, page, per_page, filters, "companies")

    async def get_company(self, company_id: int) -> models.Company:
        limits.check_id("company_id", company_id)
        return await self._get_object(f"/v1/companies/{company_id}", models.Company, "id", "company")

    async def company_fields(self) -> list[models.CustomField]:
        return await self._get_list("/v1/companies/fields", models.CustomField, "fields")

    async def company_tags(self, company_id: int) -> list[str]:
        limits.check_id("company_id", company_id)
        return await self._get_tags(f"/v1/companies/{company_id}/tags")

    async def create_company(
        self, fields: Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> models.Company:
        """Create a company from record fields (`name` required; see limits.COMPANY_FIELDS)."""
        body = limits.check_company_fields(dict(fields), creating=True)
        return await self._send_object(
            "POST", "/v1/companies", models.Company, "id", body=body, key="company",
            idempotency_key=idempotency_key,
        )

    async def update_company(
        self, company_id: int, fields: Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> models.Company:
        """Change only the given fields of a company."""
        limits.check_id("company_id", company_id)
        body = limits.check_company_fields(dict(fields), creating=False)
        return await self._send_object(
            "PUT", f"/v1/companies/{company_id}", models.Company, "id", body=body, key="company",
            idempotency_key=idempotency_key,
        )

    async def delete_company(
        self, company_id: int, *, idempotency_key: str | None = None
    ) -> models.Deleted:
        limits.check_id("company_id", company_id)
        return await self._send_object(
            "DELETE", f"/v1/companies/{company_id}", models.Deleted, "deleted",
            idempotency_key=idempotency_key,
        )

    # ------------------------------------------------------------------ contacts

    async def list_contacts(
        self,
        page: int = 1,
        per_page: int = 50,
        *,
        search: str | None = None,
        company_id: int | None = None,
        tag: str | None = None,
    ) -> models.Page[models.Contact]:
        filters = {"search": search, "company_id": company_id, "tag": tag}
        return await self._get_page("/v1/contacts", models.Contact, page, per_page, filters, "contacts")

    async def get_contact(self, contact_id: int) -> models.Contact:
        limits.check_id("contact_id", contact_id)
        return await self._get_object(f"/v1/contacts/{contact_id}", models.Contact, "id", "contact")

    async def contact_fields(self) -> list[models.CustomField]:
        return await self._get_list("/v1/contacts/fields", models.CustomField, "fields")

    async def contact_tags(self, contact_id: int) -> list[str]:
        limits.check_id("contact_id", contact_id)
        return await self._get_tags(f"/v1/contacts/{contact_id}/tags")

    async def create_contact(
        self, fields: Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> models.Contact:
        """Create a contact (`first_name` or `last_name` required; see limits.CONTACT_FIELDS)."""
        body = limits.check_contact_fields(dict(fields), creating=True)
        return await self._send_object(
            "POST", "/v1/contacts", models.Contact, "id", body=body, key="contact",
            idempotency_key=idempotency_key,
        )

    async def update_contact(
        self, contact_id: int, fields: Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> models.Contact:
        limits.check_id("contact_id", contact_id)
        body = limits.check_contact_fields(dict(fields), creating=False)
        return await self._send_object(
            "PUT", f"/v1/contacts/{contact_id}", models.Contact, "id", body=body, key="contact",
            idempotency_key=idempotency_key,
        )

    async def delete_contact(
        self, contact_id: int, *, idempotency_key: str | None = None
    ) -> models.Deleted:
        limits.check_id("contact_id", contact_id)
        return await self._send_object(
            "DELETE", f"/v1/contacts/{contact_id}", models.Deleted, "deleted",
            idempotency_key=idempotency_key,
        )

    # ------------------------------------------------------------------ prospecting

    async def lookup_companies(
        self,
        query: str | None = None,
        *,
        broaden_search: bool | None = None,
        industries: list[str] | None = None,
        countries: list[str] | None = None,
        regions: list[str] | None = None,
        save: bool | None = None,
        limit: int | None = None,
        idempotency_key: str | None = None,
    ) -> models.LookupResponse:
        """Instant lookup; consumes 1 instant lookup from the plan."""
        cleaned = limits.check_lookup(query, industries, countries, regions, limit)
        body = _drop_none(
            {
                "query": cleaned,
                "broaden_search": broaden_search,
                "industries": industries or None,
                "countries": countries or None,
                "regions": regions or None,
                "save": save,
                "limit": limit,
            }
        )
        return await self._send_object(
            "POST", "/v1/companies/lookup", models.LookupResponse, "companies", body=body,
            idempotency_key=idempotency_key,
        )

    async def start_deep_search(
        self,
        query: str,
        max_results: int = limits.DEEP_SEARCH_MAX_RESULTS_DEFAULT,
        *,
        idempotency_key: str | None = None,
    ) -> models.DeepSearchJob:
        """Start a company deep search; consumes 1 deep search."""
        text, count = limits.check_deep_search(query, max_results)
        return await self._send_object(
            "POST", "/v1/companies/deep-search", models.DeepSearchJob, "job_id",
            body={"query": text, "max_results": count}, idempotency_key=idempotency_key,
        )

    async def get_deep_search(self, job_id: int) -> models.DeepSearchJob:
        limits.check_id("job_id", job_id)
        return await self._get_object(
            f"/v1/companies/deep-search/{job_id}", models.DeepSearchJob, "job_id"
        )

    async def start_company_research(
        self, company_id: int, focus: str | None = None, *, idempotency_key: str | None = None
    ) -> models.CompanyResearch:
        """Start deep research of one company (overview path); consumes 1 deep search."""
        limits.check_id("company_id", company_id)
        return await self._send_object(
            "POST", f"/v1/companies/{company_id}/deep-search", models.CompanyResearch, "search_id",
            body=_drop_none({"focus": limits.check_focus(focus)}), idempotency_key=idempotency_key,
        )

    async def get_company_research(self, company_id: int, search_id: int) -> models.CompanyResearch:
        limits.check_id("company_id", company_id)
        limits.check_id("search_id", search_id)
        return await self._get_object(
            f"/v1/companies/{company_id}/deep-search/{search_id}", models.CompanyResearch, "search_id"
        )

    async def start_contact_search(
        self,
        company_id: int,
        roles: list[str] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> models.ContactSearchJob:
        """Start a contact search for a company; consumes 1 deep search."""
        limits.check_id("company_id", company_id)
        body: dict[str, Any] = {"company_id": company_id}
        if roles:
            body["roles"] = limits.check_contact_roles(roles)
        return await self._send_object(
            "POST", "/v1/contacts/search", models.ContactSearchJob, "job_id",
            body=self.request_fields.body("start_contact_search", body), idempotency_key=idempotency_key,
        )

    async def get_contact_search(self, job_id: int) -> models.ContactSearchJob:
        limits.check_id("job_id", job_id)
        return await self._get_object(f"/v1/contacts/search/{job_id}", models.ContactSearchJob, "job_id")

    async def add_contacts(
        self, job_id: int, contact_ids: list[int], *, idempotency_key: str | None = None
    ) -> models.AddContactsResult:
        """Add found contacts to the permanent list; the job must be completed."""
        limits.check_id("job_id", job_id)
        ids = limits.check_contact_ids(contact_ids)
        return await self._send_object(
            "POST", f"/v1/contacts/search/{job_id}/add", models.AddContactsResult, "added",
            body={"contact_ids": ids}, idempotency_key=idempotency_key,
        )

    # ------------------------------------------------------------------ research (two families)

    async def list_research_templates(self) -> list[models.ResearchTemplate]:
        async def attempt(family: Family) -> list[models.ResearchTemplate]:
            return await self._get_list(template_list_path(family), models.ResearchTemplate, "templates")

        return await self.families.run(RESEARCH, attempt)

    async def get_research_template(self, template_id: str) -> models.ResearchTemplate:
        template_id = self._check_template_id(template_id)

        async def attempt(family: Family) -> models.ResearchTemplate:
            return await self._get_object(
                template_path(family, template_id), models.ResearchTemplate, "id", "template"
            )

        return await self.families.run(RESEARCH, attempt)

    async def start_research_run(
        self,
        company_ids: list[int],
        *,
        template_id: str | None = None,
        template_name: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.ResearchRun:
        """Run a template over 1-100 companies; 1 company enrichment per company.

        The overview family puts the template id in the path, so a run by name there first
        looks the template up (case-insensitively, as the service matches names).
        """
        ids = limits.check_research_run(template_id, template_name, company_ids)

        async def attempt(family: Family) -> models.ResearchRun:
            if family == "detailed":
                body = _drop_none(
                    {"template_id": template_id, "template_name": template_name, "company_ids": ids}
                )
                path = run_start_path(family, template_id)
            else:
                chosen = template_id or await self._template_id_by_name(family, template_name or "")
                body, path = {"company_ids": ids}, run_start_path(family, chosen)
            return await self._send_object(
                "POST", path, models.ResearchRun, "run_id", body=body, idempotency_key=idempotency_key
            )

        return await self.families.run(RESEARCH, attempt)

    async def get_research_run(self, run_id: str) -> models.ResearchRun:
        run_id = self._check_template_id(run_id, field="run_id")

        async def attempt(family: Family) -> models.ResearchRun:
            paths = run_status_paths(family, run_id)
            known = self.families.known(RUN_STATUS)
            ordered = sorted(range(len(paths)), key=lambda i: 0 if f"{family}:{i}" == known else 1)
            missing: RouteMissingError | None = None
            for index in ordered:
                try:
                    run = await self._get_object(paths[index], models.ResearchRun, "run_id")
                except RouteMissingError as exc:
                    missing = exc
                    continue
                self.families.remember(RUN_STATUS, f"{family}:{index}")
                return run
            assert missing is not None
            raise missing

        return await self.families.run(RESEARCH, attempt)

    async def _template_id_by_name(self, family: Family, name: str) -> str:
        path = template_list_path(family)
        templates = await self._get_list(path, models.ResearchTemplate, "templates")
        for template in templates:
            if template.name.casefold() == name.strip().casefold():
                return template.id
        raise NotFoundError(f"Research template not found: {name!r}", status=404)

    @staticmethod
    def _check_template_id(value: object, field: str = "template_id") -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip() or "/" in value:
            raise InputError(field, f"{field} must be a non-empty identifier (got {value!r})")
        return value.strip()

    # ------------------------------------------------------------------ outreach leads

    async def list_leads(
        self, status: str | None = None, page: int = 1, per_page: int = 50
    ) -> models.Page[models.LeadListItem]:
        """Leads of one status (`cold`/`warm`) or, with None, both."""
        if status is not None:
            limits.check_lead_status(status)
        return await self._get_page(
            "/v1/outreach/leads", models.LeadListItem, page, per_page, {"status": status}, "leads"
        )

    async def get_lead(self, lead_id: int) -> models.LeadDetail:
        limits.check_id("lead_id", lead_id)
        detail = await self._get_object(f"/v1/outreach/leads/{lead_id}", models.LeadDetail, "id", "lead")
        self.lead_fields_seen |= detail.model_fields_set
        return detail

    async def add_leads(
        self,
        company_ids: list[int],
        lead_status: str = "cold",
        *,
        idempotency_key: str | None = None,
    ) -> models.AddLeadsResult:
        ids = limits.check_id_list("company_ids", company_ids)
        body = self.request_fields.body(
            "add_to_outreach", {"company_ids": ids, "lead_status": limits.check_lead_status(lead_status)}
        )
        return await self._send_object(
            "POST", "/v1/outreach/leads", models.AddLeadsResult, "added", body=body,
            idempotency_key=idempotency_key,
        )

    async def remove_leads(
        self, lead_ids: list[int], *, idempotency_key: str | None = None
    ) -> models.RemoveLeadsResult:
        ids = limits.check_id_list("lead_ids", lead_ids)
        return await self._send_object(
            "DELETE", "/v1/outreach/leads", models.RemoveLeadsResult, "removed",
            body=self.request_fields.body("remove_lead", {"lead_ids": ids}), idempotency_key=idempotency_key,
        )

    async def set_lead_status(
        self, lead_id: int, lead_status: str, *, idempotency_key: str | None = None
    ) -> models.LeadStatusResult:
        return await self._lead_send(
            "PATCH", lead_id, "/status", models.LeadStatusResult, "lead_status",
            self.request_fields.body("change_lead_status", {"lead_status": limits.check_lead_status(lead_status)}),
            idempotency_key,
        )

    async def set_target_score(
        self, lead_id: int, target_score: int, *, idempotency_key: str | None = None
    ) -> models.TargetScoreResult:
        return await self._lead_send(
            "PATCH", lead_id, "/target-score", models.TargetScoreResult, "target_score",
            {"target_score": limits.check_target_score(target_score)}, idempotency_key,
        )

    async def start_signal_scan(
        self, lead_id: int, *, idempotency_key: str | None = None
    ) -> models.SignalScan:
        """Start a signal scan; occupies 1 site signal slot until the lead is removed."""
        return await self._lead_send(
            "POST", lead_id, "/signal-scan", models.SignalScan, "status", {}, idempotency_key
        )

    async def get_signal_scan(self, lead_id: int) -> models.SignalScan:
        limits.check_id("lead_id", lead_id)
        return await self._get_object(
            f"/v1/outreach/leads/{lead_id}/signal-scan", models.SignalScan, "status"
        )

    async def set_monitoring_page(
        self, lead_id: int, page_id: int, is_selected: bool, *, idempotency_key: str | None = None
    ) -> models.MonitoringPage:
        """Enable or disable one monitoring source; returns the page as the server has it."""
        limits.check_id("page_id", page_id)
        return await self._lead_send(
            "PATCH", lead_id, f"/monitoring-pages/{page_id}", models.MonitoringPage, "id",
            self.request_fields.body("toggle_monitoring_page", {"is_selected": _check_flag("is_selected", is_selected)}),
            idempotency_key, key="page",
        )

    async def get_recommendations(self, lead_id: int) -> models.RecommendationList:
        limits.check_id("lead_id", lead_id)
        return await self._get_object(
            f"/v1/outreach/leads/{lead_id}/recommendations", models.RecommendationList,
            "recommendations",
        )

    async def generate_recommendations(
        self, lead_id: int, *, idempotency_key: str | None = None
    ) -> models.GenerationStarted:
        """Trigger generation; poll `get_recommendations` for the results."""
        return await self._lead_send(
            "POST", lead_id, "/recommendations/generate", models.GenerationStarted, "status", {},
            idempotency_key,
        )

    async def complete_recommendation(
        self, lead_id: int, recommendation_id: int, *, idempotency_key: str | None = None
    ) -> models.CompleteResult:
        """Complete a recommendation; raises `RecommendationGoneError` if it was dismissed."""
        limits.check_id("recommendation_id", recommendation_id)
        return await self._lead_send(
            "POST", lead_id, f"/recommendations/{recommendation_id}/complete", models.CompleteResult,
            "recommendation", None, idempotency_key,
        )

    async def dismiss_recommendation(
        self, lead_id: int, recommendation_id: int, *, idempotency_key: str | None = None
    ) -> models.Recommendation:
        limits.check_id("recommendation_id", recommendation_id)
        return await self._lead_send(
            "POST", lead_id, f"/recommendations/{recommendation_id}/dismiss", models.Recommendation,
            "id", None, idempotency_key, key="recommendation",
        )

    async def log_touchpoint(
        self,
        lead_id: int,
        description: str,
        contact_id: int | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> models.TouchpointResult:
        """Log an activity; the server detects its kind and awards bonus points."""
        body: dict[str, Any] = {"description": limits.check_activity_description(description)}
        if contact_id is not None:
            body["contact_id"] = limits.check_id("contact_id", contact_id)
        return await self._lead_send(
            "POST", lead_id, "/touchpoints", models.TouchpointResult, "touchpoint", body,
            idempotency_key,
        )

    async def list_notes(self, lead_id: int) -> list[models.Note]:
        """All notes of a lead, newest first."""
        limits.check_id("lead_id", lead_id)
        return await self._get_list(f"/v1/outreach/leads/{lead_id}/notes", models.Note, "notes")

    async def add_note(
        self, lead_id: int, content: str, *, idempotency_key: str | None = None
    ) -> models.Note:
        return await self._lead_send(
            "POST", lead_id, "/notes", models.Note, "id",
            {"content": limits.check_note_content(content)}, idempotency_key, key="note",
        )

    async def pin_contact(
        self, lead_id: int, contact_id: int, is_selected: bool, *, idempotency_key: str | None = None
    ) -> models.LeadContact:
        """Pin (True) or unpin (False) a key contact of the lead."""
        limits.check_id("contact_id", contact_id)
        return await self._lead_send(
            "PATCH", lead_id, f"/contacts/{contact_id}", models.LeadContact, "id",
            {"is_selected": _check_flag("is_selected", is_selected)}, idempotency_key, key="contact",
        )

    async def update_deal(
        self,
        lead_id: int,
        *,
        deal_value: float | None = None,
        deal_currency: str | None = None,
        won: bool | None = None,
        lost: bool | None = None,
        closed_reason: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.DealResult:
        """Update only the given deal fields of a warm lead (a cold lead answers 409)."""
        body = self.request_fields.body("update_deal", limits.check_deal(deal_value, deal_currency, won, lost, closed_reason))
        return await self._lead_send(
            "PATCH", lead_id, "/deal", models.DealResult, "id", body, idempotency_key
        )

    async def add_competitor(
        self, lead_id: int, name: str, domain: str | None = None, *, idempotency_key: str | None = None
    ) -> models.Competitor:
        body = self.request_fields.body(
            "add_competitor",
            _drop_none({"name": limits.check_competitor_name(name), "domain": limits.check_competitor_domain(domain)}),
        )
        return await self._lead_send(
            "POST", lead_id, "/competitors", models.Competitor, "id", body, idempotency_key,
            key="competitor",
        )

    async def scan_competitor(
        self, lead_id: int, competitor_id: int, *, idempotency_key: str | None = None
    ) -> models.Competitor:
        limits.check_id("competitor_id", competitor_id)
        return await self._lead_send(
            "POST", lead_id, f"/competitors/{competitor_id}/scan", models.Competitor, "id", None,
            idempotency_key, key="competitor",
        )

    async def pin_competitor(
        self, lead_id: int, competitor_id: int, is_pinned: bool, *, idempotency_key: str | None = None
    ) -> models.Competitor:
        limits.check_id("competitor_id", competitor_id)
        return await self._lead_send(
            "PATCH", lead_id, f"/competitors/{competitor_id}", models.Competitor, "id",
            self.request_fields.body("pin_competitor", {"is_pinned": _check_flag("is_pinned", is_pinned)}),
            idempotency_key, key="competitor",
        )

    async def _lead_send(
        self,
        method: str,
        lead_id: int,
        suffix: str,
        model: type[M],
        marker: str,
        body: Any,
        idempotency_key: str | None,
        key: str | None = None,
    ) -> M:
        """A mutation under `/v1/outreach/leads/:id`."""
        limits.check_id("lead_id", lead_id)
        return await self._send_object(
            method, f"/v1/outreach/leads/{lead_id}{suffix}", model, marker, body=body, key=key,
            idempotency_key=idempotency_key,
        )


async def _read_body(response: httpx.Response, limit: int) -> tuple[bytes, bool]:
    """The (decoded) body, at most `limit` bytes; True as second item when there was more.

    An answer that announces more than `limit` is not read at all."""
    declared = whole_number(response.headers.get("content-length", ""))
    if declared is not None and declared > limit and not response.headers.get("content-encoding"):
        return b"", True
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        if size + len(chunk) > limit:
            chunks.append(chunk[: limit - size])
            return b"".join(chunks), True
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks), False


def _check_flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InputError(field, f"{field} must be true or false (got {value!r})")
    return value
