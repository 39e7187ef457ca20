"""Reads of a few named leads cost the same whatever the cache holds.

`hidden = 0 AND id IN (...)` let SQLite pick an index that starts with `hidden` (it covers
the query and the planner, with no statistics, takes an equality on its first column as
selective) and walk every listed lead's entry: 0.7 ms for 8 ids at 10,000 leads, growing
with the cache, on Today's first frame, the lead list's refresh of the rows on screen and
the lookup's Lead column. Counted here in SQLite's own steps (a progress handler), which do
not depend on the machine: the same read on a cache ten times larger takes no more.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from support.store_data import lead_item
from warmline.store import Store
from warmline.store.outreach import outreach_status
from warmline.store.today import unlisted_leads

STEP = 100
"""SQLite virtual-machine instructions between two calls of the progress handler."""


def store_of(path: Path, leads: int) -> Store:
    store = Store(path)
    store.upsert_leads([lead_item(n) for n in range(1, leads + 1)])
    return store


def steps(store: Store, read: Callable[[], object]) -> int:
    count = 0

    def tick() -> int:
        nonlocal count
        count += 1
        return 0

    store.conn.set_progress_handler(tick, STEP)
    try:
        read()
    finally:
        store.conn.set_progress_handler(None, STEP)
    return count


READS: dict[str, Callable[[Store], object]] = {
    "unlisted_leads": lambda store: unlisted_leads(store, [3, 5, 8, 99_999]),
    "leads_listed": lambda store: store.leads_listed([3, 5, 8]),
    "outreach_status": lambda store: outreach_status(store, [1003, 1005, 1008]),
}


@pytest.mark.parametrize("name", sorted(READS))
def test_a_read_by_id_does_not_grow_with_the_cache(tmp_path: Path, name: str) -> None:
    read = READS[name]
    small, large = store_of(tmp_path / "small.sqlite3", 200), store_of(tmp_path / "large.sqlite3", 2_000)
    try:
        assert read(small) == read(large)
        assert steps(large, lambda: read(large)) <= steps(small, lambda: read(small)) + 2
    finally:
        small.close()
        large.close()


def test_the_reads_still_leave_out_hidden_leads(tmp_path: Path) -> None:
    store = store_of(tmp_path / "cache.sqlite3", 10)
    with store.write() as conn:
        conn.execute("UPDATE leads SET hidden = 1 WHERE id = 5")
    assert unlisted_leads(store, [3, 5, 99]) == {5, 99}
    assert [row.id for row in store.leads_listed([3, 5, 8])] == [3, 8]
    assert outreach_status(store, [1003, 1005]) == {1003: "cold"}
    store.close()
