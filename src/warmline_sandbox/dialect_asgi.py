"""The plumbing of the dialect middleware: answers it decides, and small ASGI helpers.

An answer the dialect middleware decides itself (a paging parameter it refuses, a
research path of the family it does not serve) must look like any route's answer: rate
limited, with the rate-limit headers, after the key is checked. So it is not sent from
the outermost layer: the middleware puts a `Preset` in the scope and lets the request
travel the whole stack to `PresetAnswerMiddleware`, innermost, which serves it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from warmline_sandbox.asgi_util import CapturedResponse
from warmline_sandbox.auth import bearer_token, unauthorized
from warmline_sandbox.errors import error_response

PRESET_KEY = "warmline_sandbox.dialect_answer"
"""Scope key of an answer decided by the dialect middleware (a scope, never a header: a
client cannot set it)."""


@dataclass(frozen=True)
class Preset:
    """An answer the dialect middleware decided, served from inside the stack."""

    status: int
    body: Any
    needs_key: bool = True


class PresetAnswerMiddleware:
    """Innermost: serve a `Preset` found in the scope as a route would (a request without a
    valid key gets the 401 first, as every route but health does)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        preset = scope.get(PRESET_KEY) if scope["type"] == "http" else None
        if not isinstance(preset, Preset):
            await self.app(scope, receive, send)
            return
        if preset.needs_key and bearer_token(header(scope, b"authorization")) not in scope["app"].state.api_keys:
            await error_response(unauthorized())(scope, receive, send)
            return
        await JSONResponse(preset.body, status_code=preset.status)(scope, receive, send)


def render(body: Any) -> bytes:
    """JSON exactly as the standard app writes it (FastAPI's JSONResponse)."""
    return json.dumps(body, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


def is_json(response: CapturedResponse) -> bool:
    """Whether an answer is JSON the dialects may rewrite (an HTML page or an empty redirect is not)."""
    content_type = dict(response.headers).get(b"content-type", b"")
    return content_type.split(b";")[0].strip() == b"application/json" and bool(response.body)


def query_pairs(query: bytes) -> list[tuple[str, str]]:
    """A query string's parameters, in order, decoded as Starlette decodes them."""
    return parse_qsl(query.decode("latin-1"), keep_blank_values=True)


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def without_header(scope: Scope, name: bytes) -> Scope:
    """A copy of the scope without one request header (an unknown route's Idempotency-Key)."""
    return {**scope, "headers": [(key, value) for key, value in scope.get("headers", []) if key != name]}


def with_length(headers: list[tuple[bytes, bytes]], length: int) -> list[tuple[bytes, bytes]]:
    """Request headers whose Content-Length is a rewritten body's."""
    return [*((key, value) for key, value in headers if key != b"content-length"),
            (b"content-length", str(length).encode())]


def with_path(scope: Scope, path: str) -> Scope:
    """A copy of the scope asking for another path (the standard one of a dialect's path)."""
    if path == scope["path"]:
        return scope
    return {**scope, "path": path, "raw_path": quote(path).encode()}


def base_url(scope: Scope) -> str:
    """The request's base URL: scheme, host (as the client named it) and root path."""
    host = header(scope, b"host")
    if not host:
        server = scope.get("server") or ("localhost", None)
        host = server[0] if server[1] in (None, 80, 443) else f"{server[0]}:{server[1]}"
    return f"{scope.get('scheme', 'http')}://{host}{scope.get('root_path', '')}"
