"""Which companies are in outreach already, and as what: the prospecting tables (lookup
results, found companies, the companies list) show it, so the rep does not add a company
twice."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warmline.store import Store

CHUNK = 500  # ids per query, well under SQLite's limit on bound parameters


def outreach_status(store: Store, company_ids: Iterable[int]) -> dict[int, str]:
    """The lead status (`cold`, `warm`) of each of `company_ids` that a cached lead is for.

    A lead whose removal is queued (hidden) is out of outreach already, as on the lead list
    (`Store.lead_of_company`)."""
    wanted = sorted({int(company_id) for company_id in company_ids})
    found: dict[int, str] = {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        marks = ", ".join("?" for _ in chunk)
        # By company alone, hidden tested here: "hidden = 0 AND company_id IN" walked every
        # listed lead in an index on hidden (tests/store/test_store_lookups_by_id.py).
        for row in store.rows(
            f"SELECT company_id, lead_status, hidden FROM leads WHERE company_id IN ({marks}) ORDER BY id",
            chunk,
        ):
            company_id = row["company_id"]
            if isinstance(company_id, int) and not row["hidden"]:
                found.setdefault(company_id, str(row["lead_status"] or "lead"))
    return found
