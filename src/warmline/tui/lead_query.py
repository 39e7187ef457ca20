"""The lead list's query over the store, for its virtual list: a count and a window, both indexed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warmline.store import Store
    from warmline.store.rows import LeadRow

LEAD_SORTS = ("gap", "score", "activity")
SORT_LABELS = {"gap": "gap to target", "score": "warming score", "activity": "last activity"}


@dataclass(frozen=True)
class LeadQuery:
    """One view of the lead list: a status tab, a company-name filter and a sort.

    `counter` gives the store to count on (the virtual list counts off the event loop; a
    second connection keeps a long count from holding the one the screens page through).
    """

    store: Store
    status: str | None = None
    text: str = ""
    sort: str = "gap"
    counter: Callable[[], Store] | None = None

    def count(self) -> int:
        store = self.counter() if self.counter is not None else self.store
        return store.lead_count(status=self.status, text=self.text)

    def rows(self, offset: int, limit: int) -> Sequence[LeadRow]:
        return self.store.lead_page(
            status=self.status, text=self.text, sort=self.sort, offset=offset, limit=limit
        )

    def fresh(self, rows: Sequence[LeadRow]) -> Sequence[LeadRow]:
        """`rows` as the cache has them now, in the same order; a lead that left this view
        (removed, or moved to another tab) is left out."""
        found = self.store.leads_listed([row.id for row in rows])
        return [row for row in found if self.status is None or row.lead_status == self.status]

    def index_of(self, row: LeadRow) -> int | None:
        """The row `row`'s lead is on now (None when it left this view)."""
        return self.store.lead_index(row.id, status=self.status, text=self.text, sort=self.sort)


def next_sort(sort: str) -> str:
    """The sort after `sort` in the `s` key's cycle."""
    return LEAD_SORTS[(LEAD_SORTS.index(sort) + 1) % len(LEAD_SORTS)] if sort in LEAD_SORTS else LEAD_SORTS[0]
