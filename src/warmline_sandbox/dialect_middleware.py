"""Serving dialects: one outermost middleware translating to and from the standard app.

`DialectMiddleware` sits outside every other middleware. It reads a request in the
dialect, hands the standard app the standard request (path family, query, body), and
turns the standard answer into the dialect's (shape, names, words, error statuses,
headers). The routes never know a dialect exists, so the standard sandbox is untouched:
with no dialect the middleware is not even installed.

Being outermost lets it change any header (drop `Retry-After`, add `Link`). Answers it
decides itself are not sent from out there but from the innermost layer
(`dialect_asgi.PresetAnswerMiddleware`), so they are rate limited like any route's. An
unknown route's request loses its `Idempotency-Key`
on the way in, so its 404 is never stored, and a later request with that key is not
answered with a replay or refused as a reuse.

Order of the answer's translation (each step sees the standard shape the previous one
left): sparse's short answers, words, names, paging, bare, sparse's stripping.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

import anyio
from starlette.routing import Router
from starlette.types import ASGIApp, Receive, Scope, Send

from warmline_sandbox import dialect_bare as bare
from warmline_sandbox import dialect_errors as errors
from warmline_sandbox import dialect_names as names
from warmline_sandbox import dialect_paging as paging
from warmline_sandbox import dialect_request_names as request_names
from warmline_sandbox import dialect_sparse as sparse
from warmline_sandbox import dialect_words as words
from warmline_sandbox import research
from warmline_sandbox.asgi_util import (
    CapturedResponse,
    capture,
    read_body,
    replay_receive,
    send_captured,
)
from warmline_sandbox.db import MAX_INT, Database
from warmline_sandbox.dialect_asgi import (
    PRESET_KEY,
    Preset,
    base_url,
    is_json,
    query_pairs,
    render,
    with_length,
    with_path,
    without_header,
)
from warmline_sandbox.dialect_families import family_route
from warmline_sandbox.dialect_ops import LEADS, LISTS, Operation, find_operation, routed
from warmline_sandbox.dialects import PAGING, check_dialects
from warmline_sandbox.errors import error_body

MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass
class Exchange:
    """One request's way through the dialects: what the answer's translation needs to know."""

    operation: Operation
    query_keys: frozenset[str]
    renamed: dict[str, str] = field(default_factory=dict)
    window: paging.Window | None = None
    no_change: request_names.NoChange | None = None


class DialectMiddleware:
    """Outermost: serve the standard app in the named dialects (see the module docstring)."""

    def __init__(self, app: ASGIApp, dialects: tuple[str, ...], router: Router, db: Database) -> None:
        self.app = app
        self.dialects = frozenset(check_dialects(dialects))
        self.router = router
        self.db = db
        self.paging = next((name for name in PAGING if name in self.dialects), None)

    def speaks(self, dialect: str) -> bool:
        """Whether this server speaks the dialect."""
        return dialect in self.dialects

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        family = family_route(self.dialects, scope["path"])
        if family.blocked or not routed(self.router.routes, scope, method, family.path):
            await self._unknown_route(scope, receive, send, family.path, blocked=family.blocked)
            return
        operation = find_operation(method, family.path)
        if not operation.template.startswith("/v1/"):
            await self.app(scope, receive, send)  # the docs pages: no dialect speaks there
            return
        await self._serve(scope, receive, send, operation)

    # ------------------------------------------------------------------ unknown routes

    async def _unknown_route(self, scope: Scope, receive: Receive, send: Send, path: str, *, blocked: bool) -> None:
        """An unknown route (or method), or a research path of the family not served.

        Never stored or replayed by idempotency; answered with express's HTML page in the
        `errors` dialect and for the family not served, else as the standard app does.
        """
        inner = with_path(without_header(scope, b"idempotency-key"), path)
        if blocked:
            inner[PRESET_KEY] = Preset(404, error_body("Not found"), needs_key=False)
        response = await capture(self.app, inner, receive)
        if response.status in (404, 405) and (blocked or self.speaks("errors")):
            response = _express_not_found(response, scope)
        self._finish_headers(response)
        await send_captured(response, send)

    # ------------------------------------------------------------------ known routes

    async def _serve(self, scope: Scope, receive: Receive, send: Send, operation: Operation) -> None:
        query = scope.get("query_string", b"")
        exchange = Exchange(operation, frozenset(name for name, _ in query_pairs(query)))
        inner = with_path(dict(scope), await self._standard_path(operation))
        inner["query_string"], preset = self._standard_query(exchange, query)
        if preset is not None:
            inner[PRESET_KEY] = preset
        elif operation.method in MUTATING and self._reads_body(operation):
            raw, disconnected = await read_body(receive)
            if disconnected:
                return
            raw = self._standard_body(exchange, raw)
            receive = replay_receive(raw, receive)
            inner["headers"] = with_length(inner["headers"], len(raw))
            if exchange.no_change is not None:
                inner = with_path({**inner, "method": "GET", "query_string": b""}, exchange.no_change.read_path)
        response = await capture(self.app, inner, receive)
        await self._translate(exchange, response, scope)
        self._finish_headers(response)
        await send_captured(response, send)

    async def _standard_path(self, operation: Operation) -> str:
        """The path the standard app serves: a research run's number becomes its id (`words`)."""
        number = operation.params.get("run_id", "")
        if self.speaks("words") and operation.key in words.RUN_STATUS_OPS and number.isascii() \
                and number.isdigit() and int(number) <= MAX_INT:
            run_id = await anyio.to_thread.run_sync(self._run_id_of, int(number))
            if run_id is not None:
                return operation.path(run_id=run_id)
        return operation.path()

    def _standard_query(self, exchange: Exchange, query: bytes) -> tuple[bytes, Preset | None]:
        """The standard list query (paging, `cold-default`), or the answer refusing it."""
        op = exchange.operation.key
        paged = self.paging is not None and op in LISTS
        cold = self.speaks("cold-default") and op == ("GET", LEADS)
        if not (paged or cold):
            return query, None
        pairs = query_pairs(query)
        if paged:
            assert self.paging is not None
            try:
                pairs, exchange.window = paging.translate_query(self.paging, LISTS[op], pairs)
            except paging.PagingError as exc:
                return query, Preset(exc.status, exc.body())
        if cold and "status" not in exchange.query_keys:
            pairs.append(("status", "cold"))
        return urlencode(pairs).encode(), None

    def _reads_body(self, operation: Operation) -> bool:
        """Whether a dialect rewrites this operation's body (else it passes untouched, unread)."""
        op = operation.key
        return (self.speaks("words") or (self.speaks("names") and op in names.REQUEST_FIELDS)
                or (self.speaks("request-names") and op in request_names.READS))

    def _standard_body(self, exchange: Exchange, raw: bytes) -> bytes:
        """The standard request body; one that is no JSON object goes on as sent (the route
        says what is wrong with it)."""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return raw
        if not isinstance(body, dict):
            return raw
        operation = exchange.operation
        if self.speaks("request-names"):
            request_names.translate_request(operation.key, body, exchange.renamed)
        if self.speaks("names"):
            names.translate_request(operation.key, body, exchange.renamed)
        if self.speaks("words"):
            words.translate_request(operation.key, body)
        if (self.speaks("request-names") and request_names.changes_nothing(operation.key, body)
                and request_names.can_read_instead(operation)):
            exchange.no_change = request_names.NoChange(operation)
        return json.dumps(body).encode()

    # ------------------------------------------------------------------ answers

    async def _translate(self, exchange: Exchange, response: CapturedResponse, scope: Scope) -> None:
        """The dialect's answer in place of the standard one (JSON answers only)."""
        if not is_json(response):
            return
        body = json.loads(response.body)
        if exchange.no_change is not None and response.status == 200:
            response.status, body = exchange.no_change.answer(body)
        if 200 <= response.status < 300:
            body = await self._success(exchange, body, response, scope)
        elif response.status >= 400:
            body = errors.rename_fields(body, exchange.renamed)
            if self.speaks("errors"):
                response.status, body = errors.translate(response.status, body, self._locator(exchange))
        response.body = render(body)

    async def _success(self, exchange: Exchange, body: Any, response: CapturedResponse, scope: Scope) -> Any:
        """A successful answer in every dialect spoken, in the order of the module docstring;
        the `link` dialect's header is added to `response`."""
        op = exchange.operation.key
        if self.speaks("sparse"):
            body = sparse.minimal_answer(op, body)
        if self.speaks("words"):
            body = words.translate_answer(op, body, await self._run_numbers(op, body))
        if self.speaks("names"):
            body = names.translate_answer(op, body)
        if exchange.window is not None and isinstance(body, dict) and "pagination" in body:
            if exchange.window.dialect == "link":
                link = paging.next_link(exchange.window, body, base_url(scope), scope["path"])
                if link:
                    response.headers.append((b"link", link.encode("latin-1")))
            body = paging.reshape(exchange.window, body)
        if self.speaks("bare"):
            body = bare.timestamps(bare.unwrap(op, body))
        if self.speaks("sparse"):
            body = sparse.strip(body)
        return body

    async def _run_numbers(self, op: tuple[str, str], body: Any) -> dict[str, int]:
        """The number of the research run an answer names (`words`), read off the event loop."""
        run_id = body.get("run_id") if isinstance(body, dict) and op in words.RUN_OPS else None
        if not isinstance(run_id, str):
            return {}
        number = await anyio.to_thread.run_sync(self._run_number, run_id)
        return {} if number is None else {run_id: number}

    def _run_number(self, run_id: str) -> int | None:
        with self.db.read() as conn:
            return research.run_number(conn, run_id)

    def _run_id_of(self, number: int) -> str | None:
        with self.db.read() as conn:
            return research.run_id_of(conn, number)

    def _locator(self, exchange: Exchange) -> errors.Location:
        """Where a field of the request came from, as express-validator says it."""
        operation = exchange.operation

        def location(name: str) -> str:
            if name in operation.params:
                return "params"
            if name.lower() == "idempotency-key":
                return "headers"
            if name in exchange.query_keys or operation.method == "GET" or (
                    exchange.window is not None and name in paging.DIALECT_PARAMS[exchange.window.dialect]):
                return "query"
            return "body"

        return location

    def _finish_headers(self, response: CapturedResponse) -> None:
        """`errors` sends no `Retry-After`; the length is the translated body's."""
        dropped = {b"content-length", *((b"retry-after",) if self.speaks("errors") else ())}
        response.headers = [(name, value) for name, value in response.headers if name.lower() not in dropped]
        response.headers.append((b"content-length", str(len(response.body)).encode()))


def _express_not_found(response: CapturedResponse, scope: Scope) -> CapturedResponse:
    """Express's HTML 404 page, keeping the answer's rate-limit headers."""
    raw_path = scope.get("raw_path") or quote(scope["path"]).encode()
    path = raw_path.decode("latin-1").split("?", 1)[0]
    kept = [(name, value) for name, value in response.headers
            if name.lower().startswith(b"x-ratelimit-") or name.lower() == b"idempotent-replayed"]
    page_headers = [(name.encode(), value.encode()) for name, value in errors.NOT_FOUND_HEADERS.items()]
    body = errors.not_found_page(scope["method"], path)
    return CapturedResponse(status=404, headers=[*page_headers, *kept], body=body)
