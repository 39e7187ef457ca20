"""Paging dialects: `page-limit`, `offset`, `cursor` and `link` over the standard paging.

The standard list routes take `page` and `per_page` and answer `data` and `pagination`
(docs/wire.md). Each paging dialect is a translation on both sides: its query
parameters become a standard page that holds the records asked for (`window`), and the
standard answer becomes the dialect's (`reshape`). The service caps the page size in
every dialect (25, 30, 20, 15), whatever the client asks for: a client must follow what
the answer says, not what it asked.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from warmline_sandbox import limits as L

CAPS: dict[str, int] = {"page-limit": 25, "offset": 30, "cursor": 20, "link": 15}
"""The largest page each paging dialect serves; also its page size when none is asked for."""

OFFSET_MAX = 100_000_000
"""The largest `offset` (and cursor position): past it no standard page can hold the window."""

STANDARD_PARAMS = ("page", "per_page")
DIALECT_PARAMS: dict[str, tuple[str, ...]] = {
    "page-limit": ("limit", "per_page"),
    "offset": ("limit", "offset", "page", "per_page"),
    "cursor": ("limit", "cursor", "page", "per_page"),
    "link": ("per_page",),
}
"""The query parameters each dialect reads or ignores: they are not passed on as filters."""

Pairs = list[tuple[str, str]]


class PagingError(Exception):
    """A paging parameter the dialect refuses: 422 for a wrong type, 400 for a broken rule."""

    def __init__(self, status: int, field: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.field = field
        self.message = message

    def body(self) -> dict[str, Any]:
        """The standard error envelope (the `errors` dialect rewrites it like any other)."""
        return {"success": False, "message": "Validation failed",
                "errors": [{"field": self.field, "message": self.message}]}


@dataclass(frozen=True)
class Window:
    """What one list request asks for in a paging dialect, and where it sits in a standard page."""

    dialect: str
    resource: str
    size: int
    offset: int = 0
    skip: int = 0
    filters: tuple[tuple[str, str], ...] = ()


def translate_query(dialect: str, resource: str, pairs: Pairs) -> tuple[Pairs, Window]:
    """The standard query (the client's filters, `page` and `per_page`) and the window of
    its answer the dialect's answer shows.

    Raises `PagingError` for a parameter of the dialect that is not a valid number.
    """
    filters = [(name, value) for name, value in pairs if name not in DIALECT_PARAMS[dialect]]
    given = dict(pairs)
    if dialect == "link":
        return _link_query(resource, given, filters)
    size = min(_number(given, "limit", CAPS[dialect], minimum=1), CAPS[dialect])
    if dialect == "page-limit":
        return _paged(filters, given, size), Window(dialect, resource, size, filters=_without_page(filters))
    offset = (
        _number(given, "offset", 0, minimum=0, maximum=OFFSET_MAX) if dialect == "offset"
        else decode_cursor(given.get("cursor"), resource)
    )
    page, per_page, skip = standard_window(offset, size)
    standard = [*filters, ("page", str(page)), ("per_page", str(per_page))]
    return standard, Window(dialect, resource, size, offset=offset, skip=skip, filters=tuple(filters))


def _link_query(resource: str, given: dict[str, str], filters: Pairs) -> tuple[Pairs, Window]:
    """`link`: the standard parameters with `per_page` capped. One that is no positive
    number goes on as it is, so the standard route refuses it in its own words."""
    cap = CAPS["link"]
    asked = given.get("per_page")
    number = _integer_or_none(asked)
    if asked is None or (number is not None and number >= 1):
        size = cap if number is None else min(number, cap)
        return _paged(filters, given, size), Window("link", resource, size, filters=_without_page(filters))
    standard = [*_without_page(filters), *_page_param(given), ("per_page", asked)]
    return standard, Window("link", resource, cap, filters=_without_page(filters))


def _paged(filters: Pairs, given: dict[str, str], size: int) -> Pairs:
    """The client's filters and page (when it sent one) with our page size."""
    return [*_without_page(filters), *_page_param(given), ("per_page", str(size))]


def _page_param(given: dict[str, str]) -> Pairs:
    return [("page", given["page"])] if "page" in given else []


def _without_page(pairs: Pairs) -> tuple[tuple[str, str], ...]:
    return tuple(pair for pair in pairs if pair[0] != "page")


def _integer_or_none(text: str | None) -> int | None:
    try:
        return int(text.strip()) if text is not None else None
    except ValueError:
        return None


def _number(given: dict[str, str], name: str, default: int, *, minimum: int, maximum: int | None = None) -> int:
    """A whole-number query parameter, with the standard routes' statuses for a bad one."""
    if name not in given:
        return default
    number = _integer_or_none(given[name])
    if number is None:
        raise PagingError(422, name, "Input should be a valid integer, unable to parse string as an integer")
    if number < minimum:
        raise PagingError(400, name, f"Input should be greater than or equal to {minimum}")
    if maximum is not None and number > maximum:
        raise PagingError(400, name, f"Input should be less than or equal to {maximum}")
    return number


def standard_window(offset: int, size: int) -> tuple[int, int, int]:
    """A standard (page, per_page) whose page holds records offset .. offset+size-1, and how
    many of its records come before them.

    An offset that is a multiple of the size is a page of that size; any other needs a
    larger page that happens to hold the whole window (one almost always exists below the
    standard 200 a page). If none does, the window is cut short at the end of a page: a
    shorter page, which every paging reading allows.
    """
    for per_page in range(size, L.PER_PAGE_MAX + 1):
        page, skip = divmod(offset, per_page)
        if skip + size <= per_page and page < L.PAGE_MAX:
            return page + 1, per_page, skip
    page, skip = divmod(offset, L.PER_PAGE_MAX)
    return page + 1, L.PER_PAGE_MAX, skip


def encode_cursor(resource: str, offset: int) -> str:
    """An opaque cursor: urlsafe base64 (unpadded) of a small JSON naming the list and position."""
    text = json.dumps({"v": 1, "list": resource, "at": offset}, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode()


def decode_cursor(cursor: str | None, resource: str) -> int:
    """The position a cursor stands for; absent or empty is the start. A cursor this list did
    not give out is a 400 naming `cursor`."""
    if not cursor:
        return 0
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw)
    except (binascii.Error, ValueError):
        value = None
    at = value.get("at") if isinstance(value, dict) else None
    if (not isinstance(value, dict) or value.get("v") != 1 or value.get("list") != resource
            or not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= OFFSET_MAX):
        raise PagingError(400, "cursor", "Invalid or unknown cursor")
    return at


def reshape(window: Window, body: dict[str, Any]) -> dict[str, Any]:
    """The dialect's answer from the standard answer of the page `translate_query` asked for."""
    data: list[Any] = body["data"]
    standard = body["pagination"]
    total: int = standard["total"]
    if window.dialect == "page-limit":
        pages = math.ceil(total / window.size)
        pagination = {"page": standard["page"], "limit": window.size, "total": total, "totalPages": pages}
        return {"success": True, "data": data, "pagination": pagination}
    if window.dialect == "link":
        return {"success": True, "data": data, "pagination": {"page": standard["page"], "per_page": window.size}}
    items = data[window.skip:window.skip + window.size]
    has_more = bool(items) and window.offset + len(items) < total
    if window.dialect == "offset":
        pagination = {"total": total, "limit": window.size, "offset": window.offset, "has_more": has_more}
        return {"success": True, "items": items, "pagination": pagination}
    following = encode_cursor(window.resource, window.offset + len(items)) if has_more else None
    return {"success": True, "data": items, "pagination": {"next_cursor": following, "has_more": has_more}}


def next_link(window: Window, body: dict[str, Any], base_url: str, path: str) -> str | None:
    """The `link` dialect's `Link` header when a next page exists: absolute, same filters."""
    standard = body.get("pagination") or {}
    page = standard.get("page", 1)
    if page >= standard.get("total_pages", 0):
        return None
    query = urlencode([("page", str(page + 1)), ("per_page", str(window.size)), *window.filters])
    return f'<{base_url}{path}?{query}>; rel="next"'
