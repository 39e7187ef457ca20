"""API keys: every operation but health needs `Authorization: Bearer <key>`.

Keys live in the database so that a key registered once keeps working after a restart.
All keys belong to one organization: they see the same data; plan quotas and the rate
limit are counted per key.
"""

from __future__ import annotations

import secrets
import sqlite3
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from warmline_sandbox.errors import ApiError

SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    key TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);
"""

INVALID_KEY_MESSAGE = "Invalid or missing API key"

_bearer = HTTPBearer(auto_error=False, description="The API key as a bearer token.")
# Declared so /docs shows the bearer scheme; the header itself is read by `require_key`.
BearerCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def generate_key() -> str:
    return "sk_sandbox_" + secrets.token_urlsafe(24)


def register_key(conn: sqlite3.Connection, key: str, created_at: str) -> None:
    conn.execute("INSERT OR IGNORE INTO api_keys (key, created_at) VALUES (?, ?)", (key, created_at))


def known_keys(conn: sqlite3.Connection) -> set[str]:
    return {row["key"] for row in conn.execute("SELECT key FROM api_keys")}


def bearer_token(authorization: str | None) -> str | None:
    """The key from an `Authorization: Bearer <key>` header value, if it has that shape."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def unauthorized() -> ApiError:
    return ApiError(401, INVALID_KEY_MESSAGE)


def is_valid_key(request: Request, key: str | None) -> bool:
    return key is not None and key in request.app.state.api_keys


def require_key(
    request: Request,
    _credentials: BearerCredentials,
) -> str:
    """The caller's API key; 401 in the spec's envelope when missing or unknown."""
    key = bearer_token(request.headers.get("authorization"))
    if not is_valid_key(request, key):
        raise unauthorized()
    assert key is not None
    return key


def optional_key(
    request: Request,
    _credentials: BearerCredentials,
) -> str | None:
    """For health: no key is fine, but a key that is given must be valid."""
    if request.headers.get("authorization") is None:
        return None
    return require_key(request, None)
