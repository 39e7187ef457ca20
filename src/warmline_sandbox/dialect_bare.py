"""The `bare` dialect: no `data` wrapper, and timestamps to the second with `+00:00`.

The spec says successful answers carry `data` but shows its examples without it. This
reading never wraps: an object's fields sit beside `"success": true`, a paginated list
sits under its resource's name beside `pagination`, any other list is the whole answer.
Its timestamps are ISO 8601 in UTC without milliseconds, `2026-11-22T10:24:11+00:00`.
"""

from __future__ import annotations

import re
from typing import Any

from warmline_sandbox.dialect_ops import LISTS, Op

_TIMESTAMP = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{3}Z")
LIST_KEYS = ("data", "items")
"""Where the paging dialects put a page's records (`items` in `offset`)."""


def unwrap(op: Op, body: Any) -> Any:
    """The answer without its `data` wrapper."""
    if not isinstance(body, dict):
        return body
    if op in LISTS and "pagination" in body:
        return {(LISTS[op] if key in LIST_KEYS else key): value for key, value in body.items()}
    if "data" not in body:
        return body
    data = body["data"]
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        rest = {key: value for key, value in body.items() if key != "data"}
        return {**rest, **data}
    return body


def timestamps(value: Any) -> Any:
    """Every timestamp written `2026-11-22T10:24:11+00:00`, all the way down."""
    if isinstance(value, str):
        match = _TIMESTAMP.fullmatch(value)
        return f"{match.group(1)}+00:00" if match else value
    if isinstance(value, list):
        return [timestamps(item) for item in value]
    if isinstance(value, dict):
        return {key: timestamps(item) for key, item in value.items()}
    return value
