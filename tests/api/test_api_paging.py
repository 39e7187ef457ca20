"""Walking a whole list in every paging style a faithful service may use (api/paging.py).

Each fake service below caps the page size below what we ask (a service that ignores our
page size must not make us stop early) and pages 23 records in its own style; the walk
must read every record exactly once and call the listing whole. The negative rows show
that a walk that cannot prove it saw everything says so."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

import httpx
import pytest

from support.api_samples import API_KEY, BASE_URL
from warmline.api import ServiceClient
from warmline.api.errors import TooManyPagesError
from warmline.api.paging import CURSOR, LINK, OFFSET, PAGE, PAGE_LIMIT, SINGLE, ListWalk, PageInfo

PATH = "/v1/companies"
RECORDS = [{"id": n, "name": f"Company {n}"} for n in range(1, 24)]
CAP = 5

Handler = Callable[[httpx.Request], httpx.Response]


def _int(request: httpx.Request, name: str, default: int) -> int:
    return int(request.url.params.get(name, default))


def page_style(request: httpx.Request) -> httpx.Response:
    page, size = _int(request, "page", 1), min(_int(request, "per_page", 50), CAP)
    items = RECORDS[(page - 1) * size: page * size]
    pages = (len(RECORDS) + size - 1) // size
    return httpx.Response(200, json={"success": True, "data": items, "pagination": {
        "page": page, "per_page": size, "total": len(RECORDS), "total_pages": pages}})


def page_limit_style(request: httpx.Request) -> httpx.Response:
    page, size = _int(request, "page", 1), min(_int(request, "limit", 25), CAP)
    items = RECORDS[(page - 1) * size: page * size]
    pages = (len(RECORDS) + size - 1) // size
    return httpx.Response(200, json={"success": True, "data": items, "pagination": {
        "page": page, "limit": size, "total": len(RECORDS), "totalPages": pages}})


def offset_style(request: httpx.Request) -> httpx.Response:
    start, size = _int(request, "offset", 0), min(_int(request, "limit", 30), CAP)
    items = RECORDS[start: start + size]
    return httpx.Response(200, json={"success": True, "items": items, "pagination": {
        "total": len(RECORDS), "limit": size, "offset": start, "has_more": start + size < len(RECORDS)}})


def cursor_style(request: httpx.Request) -> httpx.Response:
    raw = request.url.params.get("cursor")
    start = json.loads(base64.urlsafe_b64decode(raw))["at"] if raw else 0
    size = min(_int(request, "limit", 20), CAP)
    items = RECORDS[start: start + size]
    more = start + size < len(RECORDS)
    cursor = base64.urlsafe_b64encode(json.dumps({"at": start + size}).encode()).decode() if more else None
    return httpx.Response(200, json={"success": True, "data": items, "pagination": {
        "next_cursor": cursor, "has_more": more}})


def link_style(request: httpx.Request) -> httpx.Response:
    page, size = _int(request, "page", 1), min(_int(request, "per_page", 15), CAP)
    items = RECORDS[(page - 1) * size: page * size]
    headers = {}
    if page * size < len(RECORDS):
        headers["Link"] = f'<{BASE_URL.rstrip("/")}{PATH}?page={page + 1}&per_page={size}>; rel="next"'
    return httpx.Response(200, headers=headers, json={"success": True, "data": items,
                                                      "pagination": {"page": page, "per_page": size}})


def unpaged(request: httpx.Request) -> httpx.Response:
    """No paging at all, every record in one answer whatever the query says."""
    return httpx.Response(200, json=RECORDS)


def pages_without_saying(request: httpx.Request) -> httpx.Response:
    """Pages by `page`, but says nothing of paging: the probe of page 2 finds more."""
    page = _int(request, "page", 1)
    return httpx.Response(200, json={"data": RECORDS[(page - 1) * CAP: page * CAP]})


async def _walk(handler: Handler) -> tuple[list[int], ListWalk, list[httpx.Request]]:
    asked: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return handler(request)

    ids: list[int] = []
    state: ListWalk | None = None
    async with ServiceClient(BASE_URL, API_KEY, transport=httpx.MockTransport(record)) as client:
        async for items, walked in client.walk_companies():
            state = walked
            ids.extend(item.id for item in items)
    assert state is not None
    return ids, state, asked


@pytest.mark.parametrize(
    ("handler", "style"),
    [
        (page_style, PAGE),
        (page_limit_style, PAGE_LIMIT),
        (offset_style, OFFSET),
        (cursor_style, CURSOR),
        (link_style, LINK),
        (unpaged, SINGLE),
        (pages_without_saying, PAGE),
    ],
    ids=lambda v: v if isinstance(v, str) else v.__name__,
)
async def test_every_style_is_walked_to_the_end_once_each(handler: Handler, style: str) -> None:
    ids, walk, _ = await _walk(handler)
    assert ids == [r["id"] for r in RECORDS]
    assert walk.style == style
    assert walk.problem() is None


async def test_the_first_page_is_asked_in_words_every_style_understands() -> None:
    _, _, asked = await _walk(offset_style)
    first = dict(asked[0].url.params)
    assert first == {"page": "1", "per_page": "200", "limit": "200"}
    assert dict(asked[1].url.params) == {"offset": "5", "limit": "200"}


async def test_the_style_found_is_remembered_for_the_path() -> None:
    async with ServiceClient(BASE_URL, API_KEY, transport=httpx.MockTransport(cursor_style)) as client:
        async for _ in client.walk_companies():
            pass
        assert client.paging[PATH] == CURSOR
        first: list[httpx.Request] = []

        def spy(request: httpx.Request) -> httpx.Response:
            first.append(request)
            return cursor_style(request)

        client._http._transport = httpx.MockTransport(spy)  # the same client, a spying transport
        async for _ in client.walk_companies():
            break
    assert dict(first[0].url.params) == {"limit": "200"}


def test_a_cursor_list_that_stops_without_an_end_is_not_whole() -> None:
    walk = ListWalk("company list", 5)
    walk.first_params()
    assert walk.see(PageInfo(CURSOR, next_cursor="abc", has_more=True), [1, 2], 0) == {"cursor": "abc", "limit": 5}
    assert walk.problem() == "it stopped before the end"


@pytest.mark.parametrize(
    ("info", "ids", "skipped", "problem"),
    [
        (PageInfo(OFFSET, offset=0, total=3, has_more=False), [1, 2], 0, "it claims 3 records but listed 2"),
        (PageInfo(PAGE, page=1, total_pages=1), [1, 1], 0, None),  # repeats within a page: see below
        (PageInfo(PAGE, page=1, total_pages=1), [1, None], 0, "records without an id"),
        (PageInfo(PAGE, page=1, total_pages=1), [1], 1, "1 record(s) could not be read"),
        (PageInfo(PAGE, page=2, total_pages=2), [1], 0, "page 1 came back as page 2"),
    ],
)
def test_a_walk_that_cannot_prove_it_saw_everything_says_why(
    info: PageInfo, ids: list, skipped: int, problem: str | None
) -> None:
    walk = ListWalk("company list", 5)
    walk.first_params()
    walk.see(info, ids, skipped)
    if problem is None:
        assert walk.problem() == "1 record(s) came twice (the list changed while it was read?)"
    else:
        assert walk.problem() == problem


async def test_an_unpaged_answer_costs_one_probe_and_a_repeat_ends_it() -> None:
    _, walk, asked = await _walk(unpaged)
    assert len(asked) == 2 and walk.problem() is None


async def test_pages_that_repeat_forever_stop_and_are_not_whole() -> None:
    def stuck(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": RECORDS[:CAP], "pagination": {"page": 1, "has_more": True}})

    ids, walk, asked = await _walk(stuck)
    assert len(asked) == 2 and ids == [1, 2, 3, 4, 5]
    assert walk.problem() is not None


async def test_a_list_claiming_too_many_pages_is_refused_before_its_first_page_is_used() -> None:
    def huge(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": RECORDS[:1], "pagination": {"page": 1, "total_pages": 10**6}})

    with pytest.raises(TooManyPagesError):
        await _walk(huge)
