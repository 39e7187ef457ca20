"""Bringing server data into the cache: stale-while-revalidate.

The cockpit always paints from the cache; these calls fetch the fresh version, write it
(the store keeps the local effects of actions still queued on top) and tell listeners
what changed, so the screen updates in place. Nothing here decides when to refresh: the
engine runs `leads` and `recommendation_queue` on its interval, `directory` less often,
and `lead(id)` when the rep opens a lead and for every lead whose cached detail is missing
or stale (the prefetch, `warmline.sync.prefetch`).

A listing with records that could not be read or stored (an id beyond 64 bits: the api
models skip them, naming each in the log) is written all the same, without them, and then
reported as `UnreadableRecords`: the engine's status says the service is failing with an
unreadable answer, while every other row is cached.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

from pydantic import BaseModel

from warmline.api import ServiceClient
from warmline.api.errors import BadResponseError, LeadNotFoundError, NotFoundError
from warmline.api.paging import ListWalk
from warmline.store import Store
from warmline.sync.blocking import Blocking, LeadGone, in_thread
from warmline.sync.requests import Answer, dump

log = logging.getLogger("warmline.sync")

PER_PAGE = 200
"""Records asked for a page; a service may give fewer (`paging.ListWalk` follows on)."""
LEAD_STATUSES = ("cold", "warm")

M = TypeVar("M", bound=BaseModel)


class UnreadableRecords(BadResponseError):
    """A listing held records that could not be read or stored; the rest were cached."""

    def __init__(self, what: str, skipped: int, cached: int) -> None:
        super().__init__(
            f"The service's {what} held {skipped} record(s) that could not be read or stored; "
            f"they were skipped (the log names them) and the other {cached} cached"
        )
        self.cached = cached


class WalkLog:
    """Whether each walk of one refresh saw its whole list (`ListWalk.problem`), and how
    many records the walks skipped as unreadable."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.skipped = 0

    async def records(self, walk: AsyncIterator[tuple[list[M], ListWalk]]) -> AsyncIterator[list[Answer]]:
        """The pages of `walk` as dicts; its problem, if any, noted when it ends."""
        state: ListWalk | None = None
        async for items, walked in walk:
            state = walked
            yield [dump(item) for item in items]
        problem = "no page was read" if state is None else state.problem()
        if problem is not None:
            what = "list" if state is None else state.what
            self.problems.append(f"{what}: {problem}")
        self.skipped += 0 if state is None else state.skipped

    def check_readable(self, what: str, cached: int) -> None:
        """Raise `UnreadableRecords` when a walk skipped records: called once what was read
        is written, so one bad record costs that record only."""
        if self.skipped:
            raise UnreadableRecords(what, self.skipped, cached)

    def whole(self, what: str) -> bool:
        """True when every walk noted here saw its whole list, so unlisted rows may go."""
        for problem in self.problems:
            log.warning("the %s read was not the whole list (%s): no cached row was dropped", what, problem)
        return not self.problems


class Refresher:
    """Reads from the service and writes into the store; one per engine."""

    def __init__(
        self,
        store: Store,
        client: ServiceClient,
        *,
        blocking: Blocking = in_thread,
        on_lead_gone: LeadGone | None = None,
        per_page: int = PER_PAGE,
        concurrency: int = 4,
    ) -> None:
        self.store = store
        self.client = client
        self.concurrency = max(1, concurrency)
        self._blocking = blocking
        self._on_lead_gone = on_lead_gone
        self.per_page = per_page


    async def leads(self) -> int:
        """The whole lead list, both statuses, each asked for by name: a service's
        unfiltered default may hold one status only, and a filter default is never taken as
        the whole list. Written in one go, because a full list also tells which cached leads
        the server no longer has; that needs both walks whole, and each lead in the walk of
        its own status (else the service ignored our filter and we cannot tell)."""
        items: dict[int, Answer] = {}
        asked_at = self.store.clock()  # a lead removed after this stays removed
        walks = WalkLog()
        strays: set[str] = set()
        for status in LEAD_STATUSES:
            async for page in walks.records(self.client.walk_leads(status, size=self.per_page)):
                for item in page:
                    if item.get("lead_status", status) != status:
                        strays.add(f"{item.get('lead_status')} leads came in the {status} list (the filter was not applied)")
                    items.setdefault(int(item["id"]), item)
        walks.problems.extend(sorted(strays))
        full = "all" if walks.whole("lead list") else None
        count = await self._blocking(self.store.upsert_leads, list(items.values()), full, asked_at)
        walks.check_readable("lead list", count)
        return count

    async def lead(self, lead_id: int) -> int:
        """One lead's full detail, its notes included (the detail does not carry them).

        A lead the service no longer has is marked removed at once (`Store.mark_lead_gone`:
        out of the lists, its queued actions failed with one message) and listeners are
        told (`on_lead_gone`) before the `LeadNotFoundError` goes on to the caller."""
        try:
            detail = dump(await self.client.get_lead(lead_id))
            detail["notes"] = [dump(note) for note in await self.client.list_notes(lead_id)]
        except LeadNotFoundError as exc:
            await self._blocking(self.store.mark_lead_gone, lead_id, str(exc))
            if self._on_lead_gone is not None:
                self._on_lead_gone(lead_id)
            raise
        await self._blocking(self.store.upsert_lead_detail, detail)
        return lead_id

    async def recommendations(self, lead_id: int) -> None:
        listing = await self.client.get_recommendations(lead_id)
        await self._blocking(self.store.upsert_recommendations, lead_id, dump(listing))

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
        returns how many companies and contacts were read. Unreadable records in one list
        are reported (`UnreadableRecords`) once every part is read."""
        count = 0
        unreadable: list[UnreadableRecords] = []
        for part in (self.companies, self.contacts):
            try:
                count += await part()
            except UnreadableRecords as exc:
                count += exc.cached
                unreadable.append(exc)
        await self.templates()
        await self.field_schemas()
        if unreadable:
            raise unreadable[0]
        return count

    async def companies(self) -> int:
        """Every saved company; cached ones the server no longer lists are dropped, after a
        whole list only (`ListWalk.problem`): a walk cut or inconsistent drops nothing."""
        return await self._records("companies", self.client.walk_companies(size=self.per_page),
                                   self.store.upsert_companies, self.store.delete_companies)

    async def _records(
        self,
        entity: str,
        walk: AsyncIterator[tuple[list[M], ListWalk]],
        upsert: Callable[[list[Answer]], int],
        delete: Callable[[list[int]], None],
    ) -> int:
        seen: list[int] = []
        walks = WalkLog()
        async for page in walks.records(walk):
            await self._blocking(upsert, page)
            seen.extend(item["id"] for item in page)
        if walks.whole(entity):
            await self._blocking(self._drop_unlisted, entity, seen, delete)
        walks.check_readable(entity, len(seen))
        return len(seen)

    def _drop_unlisted(self, entity: str, seen: list[int], delete: Callable[[list[int]], None]) -> None:
        listed = set(seen)
        gone = [record_id for record_id in self.store.cached_ids(entity) if record_id not in listed]
        if gone:
            delete(gone)

    async def company_ids(self, company_ids: list[int]) -> int:
        """Re-read some companies (after a research run filled their custom fields)."""
        found = [dump(await self.client.get_company(company_id)) for company_id in company_ids]
        count = await self._blocking(self.store.upsert_companies, found)
        return count

    async def contacts(self) -> int:
        """Every contact; cached ones the server no longer lists are dropped, after a whole
        list only."""
        return await self._records("contacts", self.client.walk_contacts(size=self.per_page),
                                   self.store.upsert_contacts, self.store.delete_contacts)

    async def templates(self) -> int:
        templates = [dump(t) for t in await self.client.list_research_templates()]
        count = await self._blocking(self.store.upsert_templates, templates)
        return count

    async def field_schemas(self) -> None:
        companies = [dump(f) for f in await self.client.company_fields()]
        contacts = [dump(f) for f in await self.client.contact_fields()]
        await self._blocking(self.store.upsert_field_schemas, "companies", companies)
        await self._blocking(self.store.upsert_field_schemas, "contacts", contacts)
