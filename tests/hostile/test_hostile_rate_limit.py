"""Issue 11, item 1: one absurd rate-limit answer must not stop sync for good.

Every wait the service asks for is capped at MAX_WAIT_SECONDS (an hour), values that are
not finite are capped rather than raised, the stored hold is capped, belongs to one base
URL and key, and an explicit retry drops it."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from support.hostile_server import HostileServer, json_reply
from warmline import actions
from warmline.api import RateLimiter, ServiceClient
from warmline.api.errors import (
    MAX_WAIT_SECONDS,
    RateLimitedError,
    parse_retry_after,
    retry_after_from_headers,
)
from warmline.store import Store
from warmline.store.sync_vocabulary import StateKey
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline
from warmline.tui.feed import status_from_store
from warmline.tui.status import describe

KEY = "hostile-key"
NOTES = "/v1/outreach/leads/1/notes"
ABSURD = {"Retry-After": "99999999999"}
YEAR_5000 = "95617584000"  # 5000-01-01 in epoch seconds
NOTE = {"id": 77, "content": "Budget approved", "created_at": "2026-01-01T10:00:00Z"}



def engine_for(store: Store, url: str, key: str = KEY) -> SyncEngine:
    return SyncEngine(store, ServiceClient(url, key), blocking=run_inline)


@pytest.mark.parametrize(
    "value", ["99999999999", "1e400", "inf", "nan", "Fri, 01 Jan 5000 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT"]
)
def test_a_retry_after_of_any_size_is_capped_at_an_hour(value: str) -> None:
    assert parse_retry_after(value, now=1_000.0) == MAX_WAIT_SECONDS
    limiter = RateLimiter(clock=lambda: 1_000.0)
    limiter.update({"Retry-After": value}, 429)
    assert limiter.delay() == MAX_WAIT_SECONDS


@pytest.mark.parametrize("reset", [YEAR_5000, "1e400", "inf", "-inf", "nan", "-5"])
def test_a_window_reset_of_any_value_is_capped_or_ignored_without_an_exception(reset: str) -> None:
    limiter = RateLimiter(clock=lambda: 1_000.0)
    limiter.update({"X-RateLimit-Limit": "1e400", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}, 200)
    assert 0.0 <= limiter.delay() <= MAX_WAIT_SECONDS
    wait = retry_after_from_headers({"X-RateLimit-Reset": reset}, now=1_000.0)
    assert wait is not None and 0.0 <= wait <= MAX_WAIT_SECONDS


def test_negative_waits_are_no_wait() -> None:
    assert parse_retry_after("-30", now=0.0) == 0.0
    limiter = RateLimiter(clock=lambda: 1_000.0)
    limiter.update({"Retry-After": "-30"}, 429)
    assert limiter.delay() == 0.0


async def test_the_client_reads_absurd_headers_from_the_wire(hostile: HostileServer) -> None:
    hostile.on("/v1/health", json_reply({"status": "ok"}, 200, {
        "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1e400"}))
    hostile.on(NOTES, json_reply({"success": False, "error": "slow down"}, 429, ABSURD))
    async with ServiceClient(hostile.url, KEY) as client:
        assert (await client.health()).status == "ok"  # no OverflowError
        assert 0 < client.limiter.delay() <= MAX_WAIT_SECONDS
        client.limiter.clear()
        with pytest.raises(RateLimitedError) as info:
            await client.add_note(1, "hello", idempotency_key="op-1")
    assert info.value.retry_after == MAX_WAIT_SECONDS
    assert client.limiter.delay() <= MAX_WAIT_SECONDS


async def test_an_absurd_429_holds_at_most_an_hour_and_an_explicit_retry_sends_at_once(
    hostile: HostileServer, store: Store
) -> None:
    hostile.on("/v1/health", json_reply({"status": "ok"}))
    hostile.on(NOTES, json_reply({"error": "slow down"}, 429, ABSURD), json_reply(NOTE, 201))
    op_id = actions.add_note(store, 1, "Budget approved")

    first = engine_for(store, hostile.url)
    report = await first.run_once()
    await first.client.aclose()
    assert report.rate_limited_until is not None
    assert report.rate_limited_until <= time.time() + MAX_WAIT_SECONDS
    assert store.sync_status().rate_limited_until <= time.time() + MAX_WAIT_SECONDS
    op = store.get_op(op_id)
    assert op is not None and op.state == "pending" and op.not_before <= time.time() + MAX_WAIT_SECONDS

    # The status line says until when, an hour away at most.
    until = datetime.fromtimestamp(store.sync_status().rate_limited_until, UTC)
    words = [part.text for part in describe(status_from_store(store, lambda: datetime.now(UTC)), datetime.now(UTC), UTC)]
    assert f"rate-limited until {until:%H:%M}" in words

    # The next `sync --once` keeps the (capped) hold: nothing is sent.
    held = engine_for(store, hostile.url)
    again = await held.run_once()
    await held.client.aclose()
    assert again.rate_limited_until is not None and len(hostile.requests_to(NOTES)) == 1

    # `warmline outbox retry --all` (or the cockpit's retry): the hold is gone, the note goes.
    actions.retry_all(store)
    assert store.sync_status().rate_limited_until is None
    after = engine_for(store, hostile.url)
    flushed = await after.flush()
    await after.client.aclose()
    assert flushed.delivered == 1 and store.get_op(op_id).state == "done"
    assert len(hostile.requests_to(NOTES)) == 2


async def test_a_running_engine_drops_its_hold_when_the_rep_retries_elsewhere(
    hostile: HostileServer, store: Store
) -> None:
    hostile.on(NOTES, json_reply({"error": "slow down"}, 429, ABSURD), json_reply(NOTE, 201))
    op_id = actions.add_note(store, 1, "Budget approved")
    engine = engine_for(store, hostile.url)
    await engine.flush()
    assert engine.client.limiter.delay() > 0
    other = Store(store.path)  # `warmline outbox retry OP` in another process
    actions.retry(other, op_id)
    other.close()
    report = await engine.flush()
    await engine.client.aclose()
    assert report.delivered == 1 and engine.client.limiter.delay() == 0
    assert engine.status.current.rate_limited_until is None


@pytest.mark.parametrize("change", ["key", "base_url"])
async def test_a_stored_hold_is_dropped_when_the_service_or_key_changes(
    hostile: HostileServer, store: Store, change: str
) -> None:
    hostile.on(NOTES, json_reply({"error": "slow down"}, 429, ABSURD))
    actions.add_note(store, 1, "Budget approved")
    engine = engine_for(store, hostile.url)
    await engine.flush()
    await engine.client.aclose()
    assert store.sync_status().rate_limited_until is not None
    assert store.get_state(StateKey.RATE_LIMIT_SERVICE) == engine.client.service_id
    assert KEY not in str(store.get_state(StateKey.RATE_LIMIT_SERVICE))

    url = hostile.url.replace("127.0.0.1", "localhost") if change == "base_url" else hostile.url
    moved = engine_for(store, url, key="another-key" if change == "key" else KEY)
    assert moved.client.limiter.delay() == 0
    assert store.sync_status().rate_limited_until is None
    await moved.client.aclose()


async def test_a_hold_stored_for_centuries_is_cut_to_an_hour_at_start(hostile: HostileServer, store: Store) -> None:
    client = ServiceClient(hostile.url, KEY)
    store.set_state(StateKey.RATE_LIMIT_SERVICE, client.service_id)
    store.set_state(StateKey.RATE_LIMITED_UNTIL, time.time() + 99999999999)
    engine = SyncEngine(store, client, blocking=run_inline)
    await client.aclose()
    assert 0 < engine.client.limiter.delay() <= MAX_WAIT_SECONDS
    assert store.sync_status().rate_limited_until <= time.time() + MAX_WAIT_SECONDS
