"""A refresh that fails, or reads a list that is not whole (issue #11, items 7 and 8).

Item 8: the service answers the lead list with a 503, garbage, the wrong shape or an empty
200. `run_once` reports one line per failed part, the status says "failing" (not online)
until the next good read, and the status line words it.

Item 7: a walk over a paginated list that fails on page N, or whose pages do not add up
(an empty page while more are claimed, a record twice, a total that is not what came,
junk items), never drops a cached row: rows the service no longer lists are dropped only
after a whole, consistent walk.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import httpx
import pytest
from fastapi import FastAPI

from support.sync_helpers import FakeClock
from warmline.store import Store
from warmline.store.sync_vocabulary import SyncState, SyncStatus
from warmline.sync import SyncEngine
from warmline.sync.requests import dump
from warmline.tui.feed import status_from_store
from warmline.tui.status import CockpitStatus, describe

LEADS_PATH = "/v1/outreach/leads"
COMPANIES_PATH = "/v1/companies"
CONTACTS_PATH = "/v1/contacts"

Rewrite = Callable[[httpx.Request, dict], httpx.Response]


def _json(body: object, status: int = 200) -> httpx.Response:
    return httpx.Response(status, headers={"Content-Type": "application/json"}, content=json.dumps(body).encode())


def unavailable(request: httpx.Request, body: dict) -> httpx.Response:
    return _json({"success": False, "message": "Service temporarily unavailable", "errors": None}, 503)


def garbage(request: httpx.Request, body: dict) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "text/html"}, content=b"<html>upstream error</html>")


def wrong_shape(request: httpx.Request, body: dict) -> httpx.Response:
    return _json({"success": True, "data": {"leads": "none today"}})


def empty_200(request: httpx.Request, body: dict) -> httpx.Response:
    return httpx.Response(200, content=b"")


def empty_page(request: httpx.Request, body: dict) -> httpx.Response:
    return _json({**body, "data": []})  # while its pagination still claims the later pages


def twice(request: httpx.Request, body: dict) -> httpx.Response:
    return _json({**body, "data": body["data"] + body["data"][:1]})


def inflated_total(request: httpx.Request, body: dict) -> httpx.Response:
    return _json({**body, "pagination": {**body["pagination"], "total": body["pagination"]["total"] + 5}})


def junk_items(request: httpx.Request, body: dict) -> httpx.Response:
    return _json({**body, "data": [{"junk": True, "n": n} for n in range(len(body["data"]))]})


def wrong_page(request: httpx.Request, body: dict) -> httpx.Response:
    return _json({**body, "pagination": {**body["pagination"], "page": 1}})


class Rewriting(httpx.AsyncBaseTransport):
    """The sandbox's answers, except those a rule rewrites: rules[(path, page)] (page None:
    every page) takes the request and the sandbox's decoded answer and returns a response."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.rules: dict[tuple[str, int | None], Rewrite] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        page = int(request.url.params.get("page", "1"))
        rule = self.rules.get((request.url.path, page)) or self.rules.get((request.url.path, None))
        if rule is None:
            return response
        body = json.loads(await response.aread())
        return rule(request, body)


@pytest.fixture
def transport(sandbox: FastAPI) -> Rewriting:  # replaces the sync conftest's fault transport
    return Rewriting(httpx.ASGITransport(app=sandbox))


def _at(clock: FakeClock) -> Callable[[], datetime]:
    return lambda: datetime.fromtimestamp(clock(), UTC)


# --- item 8: the failure is said, and the status is "failing" -----------------------------------


@pytest.mark.parametrize("rewrite", [unavailable, garbage, wrong_shape, empty_200], ids=lambda f: f.__name__)
async def test_a_failed_lead_list_refresh_is_reported_and_the_status_says_failing(
    engine: SyncEngine, transport: Rewriting, store: Store, clock: FakeClock, rewrite: Rewrite
) -> None:
    transport.rules[(LEADS_PATH, None)] = rewrite
    report = await engine.run_once()
    assert report.reachable and report.offline_error is None and report.auth_error is None
    assert report.leads_refreshed is None
    assert len(report.refresh_failures) == 1
    assert report.refresh_failures[0].startswith("Refresh of the lead list failed: ")
    status = engine.status.current
    assert status.state(clock()) == "failing"
    brief = {unavailable: "HTTP 503", empty_200: "unreadable answer"}.get(rewrite, "unreadable answer")
    assert status.failing == f"lead list ({brief})"
    shown = status_from_store(store, _at(clock))  # what the cockpit reads, maybe in another process
    assert shown.state == SyncState.FAILING and shown.sync.failing == status.failing
    assert describe(shown, _at(clock)(), UTC)[0].text == f"✗ service failing: lead list ({brief})"

    del transport.rules[(LEADS_PATH, None)]
    report = await engine.run_once()  # the next good read clears it
    assert report.refresh_failures == [] and report.leads_refreshed == 4
    assert engine.status.current.failing is None and engine.status.current.state(clock()) == "online"
    assert status_from_store(store, _at(clock)).state == SyncState.ONLINE


async def test_failing_is_kept_per_part_until_that_part_reads_well(
    engine: SyncEngine, transport: Rewriting, clock: FakeClock
) -> None:
    transport.rules[(CONTACTS_PATH, None)] = unavailable
    assert await engine.refresh_directory() is False
    assert await engine.refresh_leads() == 4  # another part reading well does not hide it
    assert engine.status.current.failing == "saved companies and contacts (HTTP 503)"
    transport.rules[(LEADS_PATH, None)] = garbage
    assert await engine.refresh_leads() is None
    assert engine.status.current.failing == "saved companies and contacts (HTTP 503) and 1 more"
    transport.rules.clear()
    assert await engine.refresh_directory() is True
    assert engine.status.current.failing == "lead list (unreadable answer)"
    assert await engine.refresh_leads() == 4
    assert engine.status.current.failing is None


async def test_a_failure_stored_by_another_run_ends_with_the_first_good_read(
    engine: SyncEngine, transport: Rewriting, store: Store, client, clock: FakeClock
) -> None:
    transport.rules[(LEADS_PATH, None)] = unavailable
    await engine.refresh_leads()
    later = SyncEngine(store, client, clock=clock)
    assert later.status.current.failing == "lead list (HTTP 503)"  # read back from the store
    transport.rules.clear()
    assert await later.refresh_leads() == 4
    assert later.status.current.failing is None and status_from_store(store, _at(clock)).sync.failing is None


def _failing(what: str) -> CockpitStatus:
    return CockpitStatus(SyncState.FAILING, SyncStatus(online=True, failing=what))


def test_the_status_line_words_failing_and_strips_what_the_service_put_in_it() -> None:
    now = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
    parts = describe(_failing("lead list (HTTP 503)"), now, UTC)
    assert (parts[0].text, parts[0].role) == ("✗ service failing: lead list (HTTP 503)", "bad")
    hostile = describe(_failing("lead\x1b]52;c;aGk=\x07 list\x1b[2J" + "x" * 200), now, UTC)[0].text
    assert "\x1b" not in hostile and "\x07" not in hostile and len(hostile) <= len("✗ service failing: ") + 48
    assert describe(CockpitStatus(SyncState.FAILING), now, UTC)[0].text == "✗ service failing"


def test_what_fails_cut_to_its_width_ends_with_an_ellipsis() -> None:
    """Found in tmux against a flaky service: "✗ service failing: saved companies and
    contacts (no complete answer" had lost its ")" to the cut, with nothing to say so."""
    now = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
    long = "saved companies and contacts (no complete answer)"
    shown = describe(_failing(long), now, UTC)[0].text
    assert shown == "✗ service failing: " + long[:47] + "…"
    assert len(shown) == len("✗ service failing: ") + 48
    fits = "lead list (no complete answer)"
    assert describe(_failing(fits), now, UTC)[0].text == f"✗ service failing: {fits}"


# --- item 7: a list read in part never drops cached rows ---------------------------------------


@pytest.fixture
def small_pages(engine: SyncEngine) -> Iterator[None]:
    engine.refresher.per_page = 10  # the sandbox's 30 companies on 3 pages
    yield


LOCAL_ONLY = 999_001


def _cache_with_a_row_the_service_lacks(store: Store) -> tuple[int, int]:
    """A company and a contact only the cache has: a whole listing drops them."""
    store.upsert_companies([{"id": LOCAL_ONLY, "name": "Only In The Cache Ltd"}])
    store.upsert_contacts([{"id": LOCAL_ONLY, "first_name": "Only", "last_name": "Cached"}])
    return _counts(store)


def _counts(store: Store) -> tuple[int, int]:
    return store.scalar("SELECT count(*) FROM companies"), store.scalar("SELECT count(*) FROM contacts")


def _has_local_only(store: Store) -> tuple[bool, bool]:
    return (
        store.scalar("SELECT count(*) FROM companies WHERE id = ?", (LOCAL_ONLY,)) == 1,
        store.scalar("SELECT count(*) FROM contacts WHERE id = ?", (LOCAL_ONLY,)) == 1,
    )


async def test_a_whole_listing_drops_what_the_service_no_longer_has(
    engine: SyncEngine, store: Store, small_pages: None
) -> None:
    """The control: without faults the row only the cache has goes, so the tests below can fail."""
    assert await engine.refresh_directory()
    _cache_with_a_row_the_service_lacks(store)
    assert await engine.refresh_directory()
    assert _has_local_only(store) == (False, False)


@pytest.mark.parametrize(
    "rewrite",
    [unavailable, garbage, empty_200, junk_items, empty_page, twice, inflated_total, wrong_page],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize("path", [COMPANIES_PATH, CONTACTS_PATH], ids=["companies", "contacts"])
async def test_a_listing_cut_or_inconsistent_on_page_2_drops_nothing(
    engine: SyncEngine, transport: Rewriting, store: Store, small_pages: None, path: str, rewrite: Rewrite
) -> None:
    assert await engine.refresh_directory()
    before = _cache_with_a_row_the_service_lacks(store)
    transport.rules[(path, 2)] = rewrite
    await engine.refresh_directory()
    which = 0 if path == COMPANIES_PATH else 1
    assert _has_local_only(store)[which]
    assert _counts(store)[which] == before[which]  # every cached row still there


async def _cache_a_lead_the_service_lacks(engine: SyncEngine, store: Store) -> None:
    item = dump((await engine.client.list_leads(None, 1, 1)).items[0])
    store.upsert_leads([{**item, "id": LOCAL_ONLY, "company_name": "Only In The Cache Ltd"}])


def _lead_ids(store: Store) -> list[int]:
    return [row["id"] for row in store.rows("SELECT id FROM leads ORDER BY id")]


async def test_a_whole_lead_list_drops_a_lead_the_service_no_longer_has(engine: SyncEngine, store: Store) -> None:
    await _cache_a_lead_the_service_lacks(engine, store)
    assert await engine.refresh_leads() == 4
    assert LOCAL_ONLY not in _lead_ids(store)


@pytest.mark.parametrize("rewrite", [unavailable, junk_items, empty_page, twice, inflated_total, wrong_page],
                         ids=lambda f: f.__name__)
async def test_a_lead_list_cut_or_inconsistent_removes_no_cached_lead(
    engine: SyncEngine, transport: Rewriting, store: Store, rewrite: Rewrite
) -> None:
    engine.refresher.per_page = 1  # each status of the sandbox's 4 leads on 2 pages
    await _cache_a_lead_the_service_lacks(engine, store)
    before = _lead_ids(store)
    transport.rules[(LEADS_PATH, 2)] = rewrite
    await engine.refresh_leads()
    assert _lead_ids(store) == before


def one_unreadable_lead(request: httpx.Request, body: dict) -> httpx.Response:
    """The lead list with one record whose id no store can hold (10^23) added."""
    items = list(body.get("data") or [])
    if request.url.params.get("status") == "cold":
        items.append({**items[0], "id": 10**23, "company_name": "Broken"} if items else {"id": 10**23})
    return _json({**body, "data": items})


async def test_a_partly_unreadable_lead_list_is_cached_and_the_reads_after_it_still_run(
    engine: SyncEngine, transport: Rewriting, store: Store, clock: FakeClock
) -> None:
    """One unreadable record is one record: the others are cached, the status says the
    service sent something unreadable, and the recommendations and directory are still read."""
    asked: list[str] = []
    inner = transport.inner

    class Spy(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            asked.append(request.url.path)
            return await inner.handle_async_request(request)

    transport.inner = Spy()
    transport.rules[(LEADS_PATH, None)] = one_unreadable_lead
    report = await engine.run_once()
    assert report.leads_refreshed == 4
    assert [f for f in report.refresh_failures if "could not be read or stored" in f]
    assert any(path.endswith("/recommendations") for path in asked)
    assert COMPANIES_PATH in asked
    assert engine.status.current.state(clock()) == "failing"


def test_a_sync_after_the_clock_was_set_back_reads_just_now() -> None:
    """The wall clock set back an hour after a sync: "synced in 1 h" said a sync was still to
    come. A sync is past; it reads "just now" until the clock catches up."""
    now = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
    later = now.timestamp() + 3600
    parts = describe(CockpitStatus(SyncState.ONLINE, SyncStatus(online=True, last_sync_at=later)), now, UTC)
    assert [p.text for p in parts][:2] == ["● online", "synced just now"]
