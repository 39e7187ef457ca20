"""Plan quotas, counted per API key in the database (so they survive restarts).

Limits come from the `quota_limits` table: a row for key `*` holds the plan default
(written from the settings at start-up), a row for a specific key overrides it.
Exhaustion is a 403 naming the quota, as docs/wire.md specifies.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from warmline_sandbox.errors import ApiError

SCHEMA = """
CREATE TABLE IF NOT EXISTS quota_limits (
    api_key TEXT NOT NULL,
    quota TEXT NOT NULL,
    max_value INTEGER NOT NULL,
    PRIMARY KEY (api_key, quota)
);
CREATE TABLE IF NOT EXISTS quota_usage (
    api_key TEXT NOT NULL,
    quota TEXT NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (api_key, quota)
);
"""

DEFAULT_KEY = "*"


def set_default_limits(conn: sqlite3.Connection, limits: Mapping[str, int]) -> None:
    for quota, value in limits.items():
        set_limit(conn, DEFAULT_KEY, quota, value)


def set_limit(conn: sqlite3.Connection, api_key: str, quota: str, value: int) -> None:
    """Give one key (or `*` for everyone) its own limit for one quota."""
    conn.execute(
        "INSERT INTO quota_limits (api_key, quota, max_value) VALUES (?, ?, ?) "
        "ON CONFLICT (api_key, quota) DO UPDATE SET max_value = excluded.max_value",
        (api_key, quota, value),
    )


def limit(conn: sqlite3.Connection, api_key: str, quota: str) -> int:
    row = conn.execute(
        "SELECT max_value FROM quota_limits WHERE quota = ? AND api_key IN (?, ?) "
        "ORDER BY api_key = ? LIMIT 1",
        (quota, api_key, DEFAULT_KEY, DEFAULT_KEY),
    ).fetchone()
    if row is None:
        raise KeyError(f"unknown quota {quota!r}")
    return int(row["max_value"])


def used(conn: sqlite3.Connection, api_key: str, quota: str) -> int:
    row = conn.execute(
        "SELECT used FROM quota_usage WHERE api_key = ? AND quota = ?", (api_key, quota)
    ).fetchone()
    return int(row["used"]) if row else 0


def remaining(conn: sqlite3.Connection, api_key: str, quota: str) -> int:
    return max(0, limit(conn, api_key, quota) - used(conn, api_key, quota))


def plan_limit_error(quota: str, used_now: int, max_value: int) -> ApiError:
    return ApiError(
        403,
        f"Plan limit reached: {quota} ({used_now} of {max_value} used)",
        errors={"quota": quota, "limit": max_value, "used": used_now},
    )


def consume(conn: sqlite3.Connection, api_key: str, quota: str, n: int = 1) -> None:
    """Count `n` uses, or raise the 403 plan-limit error without counting any."""
    max_value = limit(conn, api_key, quota)
    used_now = used(conn, api_key, quota)
    if used_now + n > max_value:
        raise plan_limit_error(quota, used_now, max_value)
    _add(conn, api_key, quota, n)


def release(conn: sqlite3.Connection, api_key: str, quota: str, n: int = 1) -> None:
    """Give back capacity (a removed lead's signal slot, a deleted contact); never below 0."""
    _add(conn, api_key, quota, -min(n, used(conn, api_key, quota)))


def _add(conn: sqlite3.Connection, api_key: str, quota: str, delta: int) -> None:
    conn.execute(
        "INSERT INTO quota_usage (api_key, quota, used) VALUES (?, ?, ?) "
        "ON CONFLICT (api_key, quota) DO UPDATE SET used = used + excluded.used",
        (api_key, quota, delta),
    )


def usage(conn: sqlite3.Connection, api_key: str) -> dict[str, dict[str, int]]:
    """Every quota of the key: `{name: {"used": n, "limit": m}}`."""
    names = [row["quota"] for row in conn.execute("SELECT DISTINCT quota FROM quota_limits ORDER BY quota")]
    return {name: {"used": used(conn, api_key, name), "limit": limit(conn, api_key, name)} for name in names}
