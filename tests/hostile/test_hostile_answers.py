"""Issue 11, item 7: hostile answers (deep JSON, huge bodies, absurd headers, endless lists)
end as one `BadResponseError` line each, with bounded memory and no partial list taken.

(Peak memory against the 480 MB answer is measured by bench/bench_hostile.py, not here.)"""

from __future__ import annotations

import json

import pytest

from support.hostile_server import (
    Canned,
    CloseMidBody,
    HostileServer,
    Huge,
    endless_pages,
    json_reply,
    nested_json,
)
from warmline.api import ServiceClient
from warmline.api.client import MAX_ANSWER_BYTES
from warmline.api.errors import (
    AmbiguousError,
    AnswerTooDeepError,
    AnswerTooLargeError,
    BadResponseError,
    ServerError,
    TooManyPagesError,
)
from warmline.api.jsonbounds import MAX_JSON_DEPTH, json_depth
from warmline.api.limits import LIST_PAGES_MAX
from warmline.api.paging import PAGE, ListWalk, PageInfo
from warmline.store import Store
from warmline.sync.blocking import run_inline
from warmline.sync.refresh import Refresher

KEY = "hostile-key"
LEADS = "/v1/outreach/leads"
LEAD = {"id": 1, "company_id": 1, "company_name": "Acme", "lead_status": "cold"}


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and "Traceback" not in text
    return text



@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1000, 100_000])
async def test_json_nested_too_deep_is_refused_unparsed(hostile: HostileServer, depth: int) -> None:
    hostile.on(LEADS, nested_json(depth))
    async with ServiceClient(hostile.url, KEY) as client:
        with pytest.raises(AnswerTooDeepError) as info:
            await client.list_leads()
    assert one_line(info.value) == (
        f"The service's answer to GET {LEADS} nests deeper than {MAX_JSON_DEPTH} levels; it was not read"
    )


async def test_json_at_the_depth_limit_is_read(hostile: HostileServer) -> None:
    hostile.on("/v1/outreach/leads/1/notes", json_reply({"data": [], "x": json.loads(nested_json(MAX_JSON_DEPTH - 1).body)}))
    async with ServiceClient(hostile.url, KEY) as client:
        assert await client.list_notes(1) == []


def test_depth_ignores_brackets_inside_strings() -> None:
    assert json_depth(json.dumps({"name": "[[[[{{{{", "q": 'say \\"[[[', "a": [[1]]}).encode()) == 3
    assert json_depth(b'"[[["') == 0 and json_depth(b"3") == 0


async def test_a_deep_error_answer_is_still_one_plain_error(hostile: HostileServer) -> None:
    hostile.on(LEADS, Canned(500, nested_json(100_000).body))
    async with ServiceClient(hostile.url, KEY) as client:
        with pytest.raises(ServerError) as info:
            await client.list_leads()
    assert one_line(info.value) == "The service failed (HTTP 500)"


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
async def test_an_answer_past_the_size_limit_stops_being_read(hostile: HostileServer, chunked: bool) -> None:
    hostile.on(LEADS, Huge(size=MAX_ANSWER_BYTES + 5 * 1024 * 1024, item=json.dumps(LEAD).encode(), chunked=chunked))
    async with ServiceClient(hostile.url, KEY) as client:
        with pytest.raises(AnswerTooLargeError) as info:
            await client.list_leads()
    assert one_line(info.value) == f"The service's answer to GET {LEADS} is larger than 20 MiB; reading stopped there"
    assert isinstance(info.value, BadResponseError)


async def test_an_answer_under_the_size_limit_is_read(hostile: HostileServer) -> None:
    hostile.on(LEADS, Huge(size=2 * 1024 * 1024, item=json.dumps(LEAD).encode(), chunked=True))
    async with ServiceClient(hostile.url, KEY) as client:
        page = await client.list_leads()
    assert len(page.items) > 10_000


async def test_an_answer_cut_mid_body_is_a_transport_failure(hostile: HostileServer) -> None:
    hostile.on(LEADS, CloseMidBody())
    async with ServiceClient(hostile.url, KEY) as client:
        with pytest.raises(AmbiguousError) as info:
            await client.list_leads()
    one_line(info.value)


@pytest.mark.parametrize("reset", ["1e400", "-1e400", "nan", "95617584000"])
async def test_overflowing_rate_limit_headers_do_not_break_an_answer(hostile: HostileServer, reset: str) -> None:
    headers = {"X-RateLimit-Limit": "1e400", "X-RateLimit-Remaining": "1e400", "X-RateLimit-Reset": reset}
    hostile.on(LEADS, json_reply({"data": [LEAD], "pagination": {"page": 1, "total_pages": 1}}, 200, headers))
    async with ServiceClient(hostile.url, KEY) as client:
        page = await client.list_leads()
    assert [lead.id for lead in page.items] == [1]


async def test_a_list_claiming_a_million_pages_is_refused_at_its_first_page_and_the_cache_kept(
    hostile: HostileServer, store: Store
) -> None:
    store.upsert_leads([{"id": 501, "company_name": "Kept Co"}], "all")
    hostile.on(LEADS, endless_pages(lambda n: {**LEAD, "id": n + 1, "company_name": f"Junk {n}"}))
    async with ServiceClient(hostile.url, KEY) as client:
        with pytest.raises(TooManyPagesError) as info:
            await Refresher(store, client, blocking=run_inline).leads()
    assert one_line(info.value) == (
        f"The service's lead list claims 1000000 pages; at most {LIST_PAGES_MAX} are read, so it was not taken"
    )
    assert len(hostile.requests_to(LEADS)) == 1
    assert [lead.id for lead in store.lead_page(limit=10)] == [501]


def test_a_list_that_never_ends_stops_at_the_page_limit_without_yielding_it() -> None:
    """Always "page 1 of 2", whatever page was asked: it never ends. The walk refuses the
    last page before its caller (`ServiceClient.walk`) yields it."""
    walk = ListWalk("lead list", 1)
    asked: list[dict] = []
    params: dict | None = walk.first_params()
    with pytest.raises(TooManyPagesError, match=f"did not end within {LIST_PAGES_MAX} pages"):
        while params is not None:
            asked.append(params)
            params = walk.see(PageInfo(PAGE, page=1, total_pages=2), [len(asked)], 0)
    assert len(asked) == LIST_PAGES_MAX
    assert walk.problem() is not None
