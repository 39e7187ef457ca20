"""Walking a whole list to its end, whatever paging style the service chose.

The spec says only that paginated answers carry a `pagination` object. A faithful service
may page by `page`/`per_page`/`total_pages` (ours), `page`/`limit`/`totalPages`,
`limit`/`offset`/`has_more`/`total`, `cursor`/`next_cursor`/`has_more`, or a `Link`
header, and may give fewer records a page than we asked for. `ListWalk` asks for the first
page in a way every style understands (`page=1`, `per_page` and `limit`), reads the style
from the answer, and follows it to the end within `LIST_PAGES_MAX` pages. An answer with no
paging at all is asked for a second page once: the same records again (or none) prove the
first answer held the whole list.

A walk also says whether it saw the whole list (`problem()` is None), because only then may
the cache drop the records the service no longer lists: it ended where the service said the
list ends, every page was the one asked for, no record came twice or without an id, no
record was unreadable, and as many came as the list's `total` says.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from warmline.api.limits import check_list_pages

PAGE = "page"  # page / per_page / total_pages (docs/wire.md)
PAGE_LIMIT = "page-limit"  # page / limit / totalPages
OFFSET = "offset"  # limit / offset / has_more / total
CURSOR = "cursor"  # cursor / next_cursor / has_more
LINK = "link"  # a Link header with rel="next"
SINGLE = "single"  # no paging: one answer holds the list
STYLES = (PAGE, PAGE_LIMIT, OFFSET, CURSOR, LINK, SINGLE)


def _first(values: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        if values.get(name) is not None:
            return values[name]
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    return None


@dataclass(frozen=True)
class PageInfo:
    """What one answer says about where it is in the list."""

    style: str
    page: int | None = None
    total: int | None = None
    total_pages: int | None = None
    offset: int | None = None
    has_more: bool | None = None
    next_cursor: str | None = None
    next_link: dict[str, str] | None = None


def _pagination_object(body: Any) -> Mapping[str, Any] | None:
    if not isinstance(body, Mapping):
        return None
    for holder in (body, body.get("data"), body.get("meta")):
        if isinstance(holder, Mapping):
            found = _first(holder, "pagination", "paging", "page_info", "pageInfo", "meta")
            if isinstance(found, Mapping):
                return found
    # Paging fields at top level beside the list (`{items, total, has_more}`).
    keys = {"total_pages", "totalPages", "has_more", "hasMore", "next_cursor", "nextCursor", "offset"}
    return body if keys & set(body) else None


_LINK_NEXT = re.compile(r'<([^>]*)>\s*;[^,]*\brel\s*=\s*"?next"?', re.IGNORECASE)


def next_link(headers: Mapping[str, str], path: str) -> dict[str, str] | None:
    """The query of a `Link: <...>; rel="next"` header that points at the same list, or None.

    A next link to another path is not followed: it would walk something else."""
    value = next((v for k, v in headers.items() if k.lower() == "link"), None)
    match = _LINK_NEXT.search(value or "")
    if match is None:
        return None
    parts = urlsplit(match.group(1))
    if parts.path and parts.path.rstrip("/") != path.rstrip("/"):
        return None
    return dict(parse_qsl(parts.query, keep_blank_values=True))


def read_paging(body: Any, headers: Mapping[str, str], path: str) -> PageInfo:
    """The paging style and position one answer shows."""
    link = next_link(headers, path)
    found = _pagination_object(body)
    if found is None:
        return PageInfo(LINK, next_link=link) if link is not None else PageInfo(SINGLE)
    cursor = _first(found, "next_cursor", "nextCursor", "next", "cursor_next")
    has_more = _flag(_first(found, "has_more", "hasMore", "has_next", "hasNext", "has_next_page", "more"))
    total = _int(_first(found, "total", "total_count", "totalCount", "count", "total_items", "totalItems"))
    pages = _int(_first(found, "total_pages", "totalPages", "pages", "page_count", "pageCount", "last_page", "lastPage"))
    page = _int(_first(found, "page", "current_page", "currentPage", "page_number"))
    offset = _int(found.get("offset"))
    if link is not None:
        style = LINK
    elif isinstance(cursor, str) or ("next_cursor" in found or "nextCursor" in found):
        style = CURSOR
    elif offset is not None:
        style = OFFSET
    elif "totalPages" in found or ("limit" in found and "per_page" not in found):
        style = PAGE_LIMIT
    else:
        style = PAGE
    return PageInfo(
        style,
        page=page,
        total=total,
        total_pages=pages,
        offset=offset,
        has_more=has_more,
        next_cursor=cursor if isinstance(cursor, str) and cursor else None,
        next_link=link,
    )


class ListWalk:
    """The state of one walk over a list: which page to ask for next, and whether what was
    seen is the whole list. No I/O here: `ServiceClient.walk` asks, this decides."""

    def __init__(self, what: str, size: int, style: str | None = None) -> None:
        self.what = what
        self.size = size
        self.style = style if style in STYLES else None
        self.ids: list[Any] = []
        self._seen: set[Any] = set()
        self.pages = 0
        self.skipped = 0
        self._totals: set[int] = set()
        self._problem: str | None = None
        self._ended = False
        self._asked_page = 1
        self._first_ids: list[Any] | None = None
        self._probing = False
        self.repeated = False
        """The last page held only records seen before (its caller need not use it)."""

    def first_params(self) -> dict[str, Any]:
        """The first page's query: understood by every style we know."""
        if self.style in (OFFSET, CURSOR):
            return {"limit": self.size}
        if self.style == PAGE_LIMIT:
            return {"page": 1, "limit": self.size}
        if self.style in (PAGE, LINK):
            return {"page": 1, "per_page": self.size}
        return {"page": 1, "per_page": self.size, "limit": self.size}

    def see(self, info: PageInfo, ids: list[Any], skipped: int) -> dict[str, Any] | None:
        """Take one answer; returns the query of the next page, or None when the walk ended.

        Raises `TooManyPagesError` (before the caller uses the page) for a list that claims,
        or keeps going past, `LIST_PAGES_MAX` pages."""
        self.pages += 1
        if self._probing:
            return self._end_probe(ids)
        if self.pages > 1 and info.style != self.style:
            # Later pages are read in the first page's style: the last page of a Link walk
            # has no next link, a sparse last cursor page leaves out its null next_cursor,
            # and pages found by the probe say nothing of where they are.
            info = replace(info, style=self.style or PAGE)
        if self.pages == 1:
            self.style = info.style
        self.repeated = bool(ids) and self._seen.issuperset(ids)
        if self.repeated:
            self.ids.extend(ids)
            self._note(f"page {self.pages} repeated records of earlier pages")
            self._ended = True
            return None
        self._seen.update(ids)
        self.ids.extend(ids)
        self.skipped += skipped
        if info.total is not None:
            self._totals.add(info.total)
        if info.style in (PAGE, PAGE_LIMIT) and info.page is not None and info.page != self._asked_page:
            self._note(f"page {self._asked_page} came back as page {info.page}")
        following = self._next(info, len(ids))
        check_list_pages(self.what, self.pages, info.total_pages, following is not None)
        if following is None:
            self._ended = True
        return following

    def _next(self, info: PageInfo, count: int) -> dict[str, Any] | None:
        if info.style == LINK:
            return info.next_link
        if info.style == CURSOR:
            if info.next_cursor is None or info.has_more is False:
                return None
            return {"cursor": info.next_cursor, "limit": self.size}
        if info.style == OFFSET:
            start = info.offset or 0
            more = info.has_more
            if more is None:
                more = info.total is not None and start + count < info.total
            if not more:
                return None
            if count == 0:
                self._note(f"an empty page at offset {start} before the end")
                return None
            return {"offset": start + count, "limit": self.size}
        if info.style == SINGLE:
            if count == 0:
                return None
            self._probing, self._first_ids = True, list(self.ids)
            return self._page_params(2)
        current = info.page if info.page is not None else self._asked_page
        if info.total_pages is not None:
            more = current < info.total_pages
        elif info.has_more is not None:
            more = info.has_more
        elif info.total is not None:
            more = len(self.ids) < info.total
        else:
            more = count > 0  # no end given: ask on until an empty page
            if more:
                self._asked_page = current + 1
                return self._page_params(current + 1)
            return None
        if more and count == 0:
            self._note(f"an empty page {current} before the end")
            return None
        if not more:
            return None
        self._asked_page = current + 1
        return self._page_params(current + 1)

    def _page_params(self, number: int) -> dict[str, Any]:
        if self.style == PAGE_LIMIT:
            return {"page": number, "limit": self.size}
        if self.style == PAGE:
            return {"page": number, "per_page": self.size}
        return {"page": number, "per_page": self.size, "limit": self.size}

    def _end_probe(self, ids: list[Any]) -> dict[str, Any] | None:
        """The second page of an answer with no paging: empty or the same records means the
        first held the whole list; anything else means it pages without saying so."""
        self._probing = False
        self.repeated = bool(ids) and self._seen.issuperset(ids)
        if not ids or ids == self._first_ids:
            self._ended = True
            return None
        if self.repeated:
            self._note("the second page repeated records of the first")
            self._ended = True
            return None
        self.style = PAGE
        self._seen.update(ids)
        self.ids.extend(ids)
        self._asked_page = 3
        return self._page_params(3)

    def _note(self, problem: str) -> None:
        if self._problem is None:
            self._problem = problem

    def problem(self) -> str | None:
        """Why what was seen cannot be taken as the whole list; None when it can."""
        if self.pages == 0:
            return "no page was read"
        if self._problem is not None:
            return self._problem
        if not self._ended:
            return "it stopped before the end"
        if self.skipped:
            return f"{self.skipped} record(s) could not be read"
        if any(record_id is None for record_id in self.ids):
            return "records without an id"
        distinct = len(set(self.ids))
        if distinct != len(self.ids):
            return f"{len(self.ids) - distinct} record(s) came twice (the list changed while it was read?)"
        if len(self._totals) > 1:
            return f"its total changed while it was read ({min(self._totals)} to {max(self._totals)})"
        total = next(iter(self._totals)) if self._totals else None
        if total is not None and total != distinct:
            return f"it claims {total} records but listed {distinct}"
        return None
