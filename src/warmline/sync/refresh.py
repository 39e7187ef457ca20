"""Bringing server data into the cache: stale-while-revalidate.

The cockpit always paints from the cache; these calls fetch the fresh version, write it
(the store keeps the local effects of actions still queued on top) and tell listeners
what changed, so the screen updates in place. Nothing here decides when to refresh: the
engine runs `leads` on its interval and `lead(id)` when the rep opens a lead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from warmline.api import ServiceClient
from warmline.api.models import Page
from warmline.sync.blocking import Blocking, Notify, in_thread
from warmline.sync.requests import dump

PER_PAGE = 200
# A server that never says it is on the last page must not keep us paging forever.
MAX_PAGES = 5000

M = TypeVar("M", bound=BaseModel)
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
    ) -> None:
        self.store = store
        self.client = client
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
        async for page in all_pages(lambda n: self.client.list_leads(None, n, self.per_page)):
            items.extend(page)
        count = await self._blocking(self.store.upsert_leads, items, "all")
        self._changed("leads")
        return count

    async def lead(self, lead_id: int) -> None:
        """One lead's full detail, its notes included (the detail does not carry them)."""
        detail = dump(await self.client.get_lead(lead_id))
        detail["notes"] = [dump(note) for note in await self.client.list_notes(lead_id)]
        await self._blocking(self.store.upsert_lead_detail, detail)
        self._changed("lead", lead_id)

    async def recommendations(self, lead_id: int) -> None:
        listing = await self.client.get_recommendations(lead_id)
        await self._blocking(self.store.upsert_recommendations, lead_id, dump(listing))
        self._changed("recommendations", lead_id)

    async def companies(self) -> int:
        count = 0
        async for page in all_pages(lambda n: self.client.list_companies(n, self.per_page)):
            count += await self._blocking(self.store.upsert_companies, page)
        self._changed("companies")
        return count

    async def company_ids(self, company_ids: list[int]) -> int:
        """Re-read some companies (after a research run filled their custom fields)."""
        found = [dump(await self.client.get_company(company_id)) for company_id in company_ids]
        count = await self._blocking(self.store.upsert_companies, found)
        self._changed("companies")
        return count

    async def contacts(self) -> int:
        count = 0
        async for page in all_pages(lambda n: self.client.list_contacts(n, self.per_page)):
            count += await self._blocking(self.store.upsert_contacts, page)
        self._changed("contacts")
        return count

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
