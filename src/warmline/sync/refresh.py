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
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from warmline.api import ServiceClient
from warmline.api.errors import LeadNotFoundError, NotFoundError
from warmline.api.models import Page
from warmline.sync.blocking import Blocking, Notify, in_thread
from warmline.sync.requests import dump

PER_PAGE = 200
# A server that never says it is on the last page must not keep us paging forever.
MAX_PAGES = 5000

PageFetch = Callable[[int], Awaitable[Page[Any]]]


async def all_pages(fetch: PageFetch) -> AsyncIterator[list[dict[str, Any]]]:
    """Every page of a paginated list, as dicts, until the pagination says it was the last."""
    page = 1
    while page <= MAX_PAGES:
        result = await fetch(page)
        yield [dump(item) for item in result.items]
        if not result.has_next or not result.items:
            return
        page += 1


class Refresher:
    """Reads from the service and writes into the store; one per engine."""

    def __init__(
        self,
        store: Any,
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
        items: list[dict[str, Any]] = []
        asked_at = self.store.clock()  # a lead removed after this stays removed
        async for page in all_pages(lambda n: self.client.list_leads(None, n, self.per_page)):
            items.extend(page)
        count = await self._blocking(self.store.upsert_leads, items, "all", asked_at)
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
        """Every saved company; cached ones the server no longer lists are dropped."""
        seen: list[int] = []
        async for page in all_pages(lambda n: self.client.list_companies(n, self.per_page)):
            await self._blocking(self.store.upsert_companies, page)
            seen.extend(item["id"] for item in page)
        await self._blocking(self._drop_unlisted, "companies", seen, self.store.delete_companies)
        self._changed("companies")
        return len(seen)

    def _drop_unlisted(self, table: str, seen: list[int], delete: Callable[[list[int]], None]) -> None:
        listed = set(seen)
        gone = [row["id"] for row in self.store.rows(f"SELECT id FROM {table}") if row["id"] not in listed]
        if gone:
            delete(gone)

    async def company_ids(self, company_ids: list[int]) -> int:
        """Re-read some companies (after a research run filled their custom fields)."""
        found = [dump(await self.client.get_company(company_id)) for company_id in company_ids]
        count = await self._blocking(self.store.upsert_companies, found)
        self._changed("companies")
        return count

    async def contacts(self) -> int:
        """Every contact; cached ones the server no longer lists are dropped."""
        seen: list[int] = []
        async for page in all_pages(lambda n: self.client.list_contacts(n, self.per_page)):
            await self._blocking(self.store.upsert_contacts, page)
            seen.extend(item["id"] for item in page)
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
