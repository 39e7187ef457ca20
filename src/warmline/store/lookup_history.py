"""The instant lookups whose answers the cache holds, newest first: an offline rep (or one
who does not want to spend another lookup) rereads an answer from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warmline.store.rows import loads
from warmline.store.values import JsonObject

if TYPE_CHECKING:
    from warmline.store import Store


@dataclass(frozen=True)
class EarlierLookup:
    """One cached lookup: its criteria as sent (`warmline.prospecting.lookup_criteria`, the
    key of its answer in `Store.cached_lookup`) and when its answer was fetched."""

    criteria: JsonObject
    fetched_at: str


def earlier_lookups(store: Store, limit: int) -> list[EarlierLookup]:
    """The `limit` most recently fetched lookups."""
    found = store.rows("SELECT request, fetched_at FROM lookups ORDER BY fetched_at DESC LIMIT ?", (limit,))
    lookups = [(loads(row["request"]), row["fetched_at"]) for row in found]
    return [EarlierLookup(criteria, str(at)) for criteria, at in lookups if isinstance(criteria, dict)]
