"""The industry, country and region names the cache has seen: the lookup form completes
its keyword fields from them and checks a typed keyword against them before a lookup is
spent. The service publishes no list of its values, so the names it has answered with
(cached companies, cached lookup answers, and the keywords of lookups that found
something) are the best list there is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warmline.store import Store

FIELDS = (("industries", "industry"), ("countries", "country"), ("regions", "region"))
"""Each lookup filter with the company field its values come from."""


@dataclass(frozen=True)
class LookupValues:
    """The known names of each lookup filter, sorted case-insensitively, each once."""

    industries: tuple[str, ...] = ()
    countries: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()

    def of(self, name: str) -> tuple[str, ...]:
        """The names of filter `name` (`industries`, `countries`, `regions`)."""
        values: tuple[str, ...] = getattr(self, name)
        return values


def _names(store: Store, filter_name: str, field: str) -> tuple[str, ...]:
    # `field` and `filter_name` come from FIELDS, never from input.
    found = store.rows(
        f"SELECT {field} AS value FROM companies WHERE {field} IS NOT NULL"
        f" UNION SELECT json_extract(item.value, '$.{field}') FROM lookups, json_each(lookups.response, '$.companies') AS item"
        f" UNION SELECT keyword.value FROM lookups, json_each(lookups.request, '$.{filter_name}') AS keyword"
        " WHERE json_array_length(lookups.response, '$.companies') > 0"
    )
    unique: dict[str, str] = {}
    for row in found:
        value = row["value"]
        if isinstance(value, str) and value.strip():
            unique.setdefault(value.strip().casefold(), value.strip())
    return tuple(sorted(unique.values(), key=str.casefold))


def lookup_values(store: Store) -> LookupValues:
    """Every industry, country and region name the cache holds."""
    return LookupValues(*(_names(store, filter_name, field) for filter_name, field in FIELDS))
