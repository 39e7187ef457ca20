"""The cockpit looks for damaged pages after its first frame: Today reads through indexes
and would not meet a damaged table page that the lead list reads, so without the check a
damaged cache would surface in the middle of the rep's day instead of at start."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from support.damage import overwrite_page, root_page
from support.waiting import until
from warmline.store import Store
from warmline.tui.app import WarmlineApp


def cache_with_a_lead(path: Path) -> Path:
    store = Store(path)
    store.upsert_leads([{"id": 7, "company_name": "Acme"}])
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return path


async def test_a_damaged_table_page_closes_the_cockpit_for_its_one_line(tmp_path: Path) -> None:
    db = cache_with_a_lead(tmp_path / "cache.sqlite3")
    overwrite_page(db, root_page(db, "leads"))
    store = Store(db)  # opens: the schema pages are intact
    app = WarmlineApp(store, check_cache=True)
    async with app.run_test() as pilot:
        await until(lambda: app.cache_error is not None, pilot=pilot, what="the cache check")
    assert isinstance(app.cache_error, sqlite3.DatabaseError)
    store.close()


async def test_an_intact_cache_keeps_the_cockpit_open(tmp_path: Path) -> None:
    store = Store(cache_with_a_lead(tmp_path / "cache.sqlite3"))
    app = WarmlineApp(store, check_cache=True)
    async with app.run_test() as pilot:
        await until(lambda: app.cache_checked, pilot=pilot, what="the cache check")
        await pilot.pause()
        assert app.cache_error is None and app.is_running
    store.close()
