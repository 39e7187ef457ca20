"""Bringing server data into the cache: stale-while-revalidate.

The cockpit always paints from the cache; these calls fetch the fresh version, write it
(the store keeps the local effects of actions still queued on top) and tell listeners
what changed, so the screen updates in place. Nothing here decides when to refresh: the
engine runs `leads` and `recommendation_queue` on its interval, `directory` less often,
and `lead(id)` when the rep opens a lead and for every lead whose cached detail is missing
or stale (the prefetch, `warmline.sync.prefetch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from pydantic import BaseModel

from warmline.api import ServiceClient
from warmline.api.errors import LeadNotFoundError, NotFoundError
from warmline.api.limits import LIST_PAGES_MAX, check_list_pages
from warmline.api.models import Page, Pagination
from warmline.store import Store
from warmline.sync.blocking import Blocking, Notify, in_thread
from warmline.sync.requests import Answer, dump

log = logging.getLogger("warmline.sync")

PER_PAGE = 200
# A server that never says it is on the last page, or claims 10^6 of them, must not keep us
# paging (or hold what it sent): `limits.LIST_PAGES_MAX`, then `TooManyPagesError`.
MAX_PAGES = LIST_PAGES_MAX

M = TypeVar("M", bound=BaseModel)
PageFetch = Callable[[int], Awaitable[Page[M]]]
"""`fetch(page_number)`: one page of a list of `M` (leads, companies, contacts)."""


async def all_pages(fetch: PageFetch[M], what: str = "list") -> AsyncIterator[list[Answer]]:
    """Every page of a paginated list, as dicts, until the pagination says it was the last.

    Raises `TooManyPagesError` before yielding a page of a list that claims more than
    MAX_PAGES pages or has not ended by then: the caller must not take such a list."""
    page = 1
    while True:
        result = await fetch(page)
        more = result.has_next and bool(result.items)
        check_list_pages(what, page, result.pagination.total_pages, more)
        yield [dump(item) for item in result.items]
        if not more:
            return
        page += 1


class Listing:
    """One walk over a whole paginated list, watched page by page (`watch` wraps the page
    fetch), to tell afterwards whether it showed the whole list.

    A full list also says which cached rows the service no longer has, and those are
    dropped; a walk that says it wrongly would empty the cache. So rows are dropped only
    after a walk that is complete and consistent (`problem()` is None): it ended on a page
    that says it is the last, every page was the one asked for, no record came twice, every
    record has an id, and as many records came as the list's `total` says (the same on
    every page). A walk that
    fails on some page raises before anything is dropped. Either way the rows read are
    kept (upserted), and nothing else in the cache changes."""

    def __init__(self) -> None:
        self.ids: list[int | None] = []
        self._last: Pagination | None = None  # of the last page read
        self._last_has_next = False
        self._problem: str | None = None
        self._totals: set[int] = set()

    def watch(self, fetch: PageFetch[M]) -> PageFetch[M]:
        async def watched(number: int) -> Page[M]:
            page = await fetch(number)
            self._see(number, page)
            return page

        return watched

    def _see(self, number: int, page: Page[M]) -> None:
        self._last, self._last_has_next = page.pagination, page.has_next
        if page.pagination.page != number and self._problem is None:
            self._problem = f"page {number} came back as page {page.pagination.page}"
        self.ids.extend(getattr(item, "id", None) for item in page.items)
        if page.pagination.total is not None:
            self._totals.add(page.pagination.total)

    def problem(self) -> str | None:
        """Why this walk cannot tell which rows the service no longer has; None if it can."""
        last = self._last
        if last is None:
            return "no page was read"
        if self._problem is not None:
            return self._problem
        if self._last_has_next:
            return f"it stopped at page {last.page} of {last.total_pages}"
        if any(record_id is None for record_id in self.ids):
            return "records without an id"
        distinct = len(set(self.ids))
        if distinct != len(self.ids):
            return f"{len(self.ids) - distinct} record(s) came twice (the list changed while it was read?)"
        if len(self._totals) > 1:
            return f"its total changed while it was read ({min(self._totals)} to {max(self._totals)})"
        total = last.total
        if total is not None and total != distinct:
            return f"it claims {total} records but listed {distinct}"
        return None


class Refresher:
    """Reads from the service and writes into the store; one per engine."""

    def __init__(
        self,
        store: Store,
        client: ServiceClient,
        *,
        blocking: Blocking = in_thread,
        notify: Notify | None = None,
        per_page: int = PER_PAGE,
        concurrency: int = 4,
    ) -> None:
        self.store = store
        self.client = client
        self.concurrency = max(1, concurrency)
        self._blocking = blocking
        self._notify = notify
        self.per_page = per_page

    def _changed(self, topic: str, lead_id: int | None = None) -> None:
        if self._notify is not None:
            self._notify(topic, lead_id)

    async def leads(self) -> int:
        """The whole lead list (both statuses). Written in one go, because a full list also
        tells which cached leads the server no longer has."""
        items: list[Answer] = []
        asked_at = self.store.clock()  # a lead removed after this stays removed
        listing = Listing()
        async for page in all_pages(listing.watch(lambda n: self.client.list_leads(None, n, self.per_page)), "lead list"):
            items.extend(page)
        # Only a whole list may remove cached leads (`Listing`); else the leads read are kept.
        full = "all" if self._whole(listing, "lead list") else None
        count = await self._blocking(self.store.upsert_leads, items, full, asked_at)
        self._changed("leads")
        return count

    async def lead(self, lead_id: int) -> int:
        """One lead's full detail, its notes included (the detail does not carry them).

        A lead the service no longer has is marked removed at once (`Store.mark_lead_gone`:
        out of the lists, its queued actions failed with one message) and listeners are
        told (`lead_gone`) before the `LeadNotFoundError` goes on to the caller."""
        try:
            detail = dump(await self.client.get_lead(lead_id))
            detail["notes"] = [dump(note) for note in await self.client.list_notes(lead_id)]
        except LeadNotFoundError as exc:
            await self._blocking(self.store.mark_lead_gone, lead_id, str(exc))
            self._changed("lead_gone", lead_id)
            raise
        await self._blocking(self.store.upsert_lead_detail, detail)
        self._changed("lead", lead_id)
        return lead_id

    async def recommendations(self, lead_id: int) -> None:
        listing = await self.client.get_recommendations(lead_id)
        await self._blocking(self.store.upsert_recommendations, lead_id, dump(listing))
        self._changed("recommendations", lead_id)

    async def recommendation_queue(self) -> int:
        """Recommendations of the leads that have (or had) some, for the triage queue, which
        spans leads while the lead list only carries their count. Only leads whose list line
        changed since their recommendations were read (or never read) are read again, so
        run it after `leads`. Returns the leads read."""
        lead_ids = await self._blocking(self.store.leads_needing_recommendations)
        gate = asyncio.Semaphore(self.concurrency)

        async def one(lead_id: int) -> None:
            async with gate:
                with contextlib.suppress(NotFoundError):  # removed meanwhile: the list drops it
                    await self.recommendations(lead_id)

        await asyncio.gather(*(one(lead_id) for lead_id in lead_ids))
        return len(lead_ids)

    async def directory(self) -> int:
        """Saved companies and contacts, their custom field schemas, research templates;
        returns how many companies and contacts were read."""
        count = await self.companies() + await self.contacts()
        await self.templates()
        await self.field_schemas()
        return count

    async def companies(self) -> int:
        """Every saved company; cached ones the server no longer lists are dropped, after a
        whole list only (`Listing`): a walk cut or inconsistent drops nothing."""
        seen: list[int] = []
        listing = Listing()
        async for page in all_pages(listing.watch(lambda n: self.client.list_companies(n, self.per_page)), "company list"):
            await self._blocking(self.store.upsert_companies, page)
            seen.extend(item["id"] for item in page)
        if self._whole(listing, "company list"):
            await self._blocking(self._drop_unlisted, "companies", seen, self.store.delete_companies)
        self._changed("companies")
        return len(seen)

    def _whole(self, listing: Listing, what: str) -> bool:
        """True when `listing` showed the whole list, so unlisted rows may be dropped."""
        problem = listing.problem()
        if problem is not None:
            log.warning("the %s read was not the whole list (%s): no cached row was dropped", what, problem)
        return problem is None

    def _drop_unlisted(self, entity: str, seen: list[int], delete: Callable[[list[int]], None]) -> None:
        listed = set(seen)
        gone = [record_id for record_id in self.store.cached_ids(entity) if record_id not in listed]
        if gone:
            delete(gone)

    async def company_ids(self, company_ids: list[int]) -> int:
        """Re-read some companies (after a research run filled their custom fields)."""
        found = [dump(await self.client.get_company(company_id)) for company_id in company_ids]
        count = await self._blocking(self.store.upsert_companies, found)
        self._changed("companies")
        return count

    async def contacts(self) -> int:
        """Every contact; cached ones the server no longer lists are dropped, after a whole
        list only (`Listing`)."""
        seen: list[int] = []
        listing = Listing()
        async for page in all_pages(listing.watch(lambda n: self.client.list_contacts(n, self.per_page)), "contact list"):
            await self._blocking(self.store.upsert_contacts, page)
            seen.extend(item["id"] for item in page)
        if self._whole(listing, "contact list"):
            await self._blocking(self._drop_unlisted, "contacts", seen, self.store.delete_contacts)
        self._changed("contacts")
        return len(seen)

    async def templates(self) -> int:
        templates = [dump(t) for t in await self.client.list_research_templates()]
        count = await self._blocking(self.store.upsert_templates, templates)
        self._changed("templates")
        return count

    async def field_schemas(self) -> None:
        companies = [dump(f) for f in await self.client.company_fields()]
        contacts = [dump(f) for f in await self.client.contact_fields()]
        await self._blocking(self.store.upsert_field_schemas, "companies", companies)
        await self._blocking(self.store.upsert_field_schemas, "contacts", contacts)
        self._changed("fields")
