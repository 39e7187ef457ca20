"""The status line's data comes from the store, where the sync engine (any process) writes it."""

from __future__ import annotations

from datetime import timedelta

import support.tui_wire_data as W
from warmline.store import Store
from warmline.store.sync_vocabulary import SyncState
from warmline.tui.feed import mark_jobs_seen, status_from_store


def clock():
    return W.NOW


def test_connection_states_in_order_of_urgency(empty_store: Store) -> None:
    assert status_from_store(empty_store, clock).state == SyncState.UNKNOWN
    empty_store.set_state("online", True)
    assert status_from_store(empty_store, clock).state == SyncState.ONLINE
    empty_store.set_state("syncing", True)
    assert status_from_store(empty_store, clock).state == SyncState.SYNCING
    empty_store.set_state("rate_limited_until", W.NOW.timestamp() + 60)
    status = status_from_store(empty_store, clock)
    assert status.state == SyncState.RATE_LIMITED
    assert status.sync.rate_limited_until == W.NOW.timestamp() + 60
    empty_store.set_state("online", False)
    assert status_from_store(empty_store, clock).state == SyncState.OFFLINE
    empty_store.set_state("auth_failed", True)
    assert status_from_store(empty_store, clock).state == SyncState.AUTH_FAILED


def test_counts_and_last_sync(store: Store) -> None:
    store.enqueue("add_note", {"lead_id": 100, "content": "a"}, lead_id=100)
    failed = store.enqueue("add_note", {"lead_id": 101, "content": "b"}, lead_id=101)
    store.mark_in_flight(failed)
    store.mark_failed(failed, "no")
    status = status_from_store(store, clock)
    assert (status.sync.queued, status.sync.failed) == (1, 1)
    assert status.sync.last_sync_at == (W.NOW - timedelta(seconds=10)).timestamp()


def test_finished_jobs_are_announced_until_the_monitor_is_seen(store: Store) -> None:
    store.record_job("deep_search", 1, {"status": "running", "progress": 10})
    store.record_job("deep_search", 2, {"status": "completed", "completed_at": W.ts(timedelta(hours=8))})
    status = status_from_store(store, clock)
    assert (status.running_jobs, status.finished_jobs) == (1, 1)
    mark_jobs_seen(store, clock)
    assert status_from_store(store, clock).finished_jobs == 0
    store.record_job("deep_search", 1, {"status": "completed", "completed_at": W.ts(timedelta(seconds=-5))})
    status = status_from_store(store, clock)
    assert (status.running_jobs, status.finished_jobs) == (0, 1)


def test_seen_covers_a_job_finished_ahead_of_our_clock_but_not_years_ahead(store: Store) -> None:
    store.record_job("deep_search", 1, {"status": "completed", "completed_at": W.ts(timedelta(minutes=-3))})
    mark_jobs_seen(store, clock)  # the service's clock runs 3 min ahead of ours
    assert status_from_store(store, clock).finished_jobs == 0
    store.record_job("deep_search", 2, {"status": "completed", "completed_at": "9999-01-01T00:00:00Z"})
    mark_jobs_seen(store, clock)  # a bogus time moves the mark a day at most
    store.record_job("deep_search", 3, {"status": "completed", "completed_at": W.ts(timedelta(days=-2))})
    assert status_from_store(store, clock).finished_jobs == 2  # the bogus one, and the new one
