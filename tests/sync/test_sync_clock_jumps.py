"""Issue 21, item 1: holds and retry times that heal themselves after a clock jump.

The service keeps true time (the sandbox's clock, `clock`); this machine's wall clock
(`wall`) jumps, and its monotonic clock (`mono`) never does. Before: a decision held while
the wall clock was a year ahead stayed held for a year once it was corrected, and its
lead's later ops behind it; a backward step of an hour held it (and `q`) for an hour; a
forward jump sent it 1.3 s after the key, inside its 5 s window.

Now every wait is at most its length past now (`OutboxStore.heal_times`), and the
process that took a decision measures its undo window on the monotonic clock.
"""

from __future__ import annotations

import random
import signal
from collections.abc import AsyncIterator, Iterator
from datetime import UTC
from pathlib import Path

import pytest

from support.store_data import lead_item
from support.sync_helpers import KEY, START, UNAVAILABLE, FakeClock, FaultyTransport, server_rows
from warmline import actions
from warmline.api import RateLimiter, ServiceClient
from warmline.config import Config
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline.sync.status import Connection, StatusBoard

WARM = 2  # the seeded warm lead; its card 11 is active
CARD = 11
HOLD = 5.0
HOUR = 3600.0
DAY = 24 * HOUR
YEAR = 365 * DAY


@pytest.fixture
def wall() -> FakeClock:
    """This machine's wall clock: the one that jumps."""
    return FakeClock(START)


@pytest.fixture
def mono() -> FakeClock:
    """This machine's monotonic clock: it only moves with real time."""
    return FakeClock(1000.0)


def _store(path: Path, wall: FakeClock, mono: FakeClock | None = None) -> Store:
    """A process's store on the wall clock; `mono`: its monotonic clock."""
    store = Store(path, clock=wall)
    store.monotonic = mono or FakeClock(0.0)
    return store


@pytest.fixture
def cache(tmp_path: Path, wall: FakeClock, mono: FakeClock) -> Iterator[Store]:
    """The cockpit's store (the process that takes the decisions)."""
    store = _store(tmp_path / "cache.sqlite3", wall, mono)
    yield store
    store.close()


@pytest.fixture
async def wall_client(transport: FaultyTransport, wall: FakeClock) -> AsyncIterator[ServiceClient]:
    limiter = RateLimiter(clock=wall, sleep=wall.sleep)
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=wall) as client:
        yield client


def _engine(store: Store, client: ServiceClient, wall: FakeClock) -> SyncEngine:
    rng = random.Random(7)
    return SyncEngine(store, client, clock=wall, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)


@pytest.fixture
async def here(cache: Store, wall_client: ServiceClient, wall: FakeClock) -> SyncEngine:
    """The cockpit's engine, with the lead list and the recommendations cached."""
    engine = _engine(cache, wall_client, wall)
    assert await engine.refresh_leads() is not None
    assert await engine.refresh_recommendations() is not None
    return engine


def _decision_posts(transport: FaultyTransport) -> list[str]:
    return [path for method, path, _key, _fault in transport.sent("POST") if path.endswith(f"/{CARD}/dismiss")]


async def test_a_decision_held_while_the_clock_was_a_year_ahead_goes_within_its_window_once_corrected(
    here: SyncEngine, cache: Store, wall_client: ServiceClient, wall: FakeClock, transport: FaultyTransport,
    sandbox,
) -> None:
    wall.advance(YEAR)
    held = actions.dismiss_recommendation(cache, CARD, hold_seconds=HOLD)
    later = actions.add_note(cache, WARM, "Queued behind the decision")
    cache.close()  # the cockpit is gone; the clock is corrected; `sync --once` runs
    wall.advance(-YEAR)
    other = _store(cache.path, wall)
    try:
        engine = _engine(other, wall_client, wall)
        assert (await engine.run_once()).flush.attempted == 0  # its window is still running
        assert other.get_op(held).hold_until <= wall() + HOLD
        wall.advance(HOLD)
        report = await engine.run_once()
        assert report.flush.delivered == 2
        assert {other.get_op(op_id).state for op_id in (held, later)} == {"done"}
    finally:
        other.close()
    assert len(_decision_posts(transport)) == 1
    assert server_rows(sandbox, "outreach_notes", "content", WARM)[-1] == "Queued behind the decision"


async def test_a_backward_step_holds_a_decision_for_its_window_in_the_process_that_took_it(
    here: SyncEngine, cache: Store, wall: FakeClock, mono: FakeClock, transport: FaultyTransport
) -> None:
    held = actions.dismiss_recommendation(cache, CARD, hold_seconds=HOLD)
    wall.advance(-HOUR)
    mono.advance(HOLD - 0.1)
    assert (await here.flush()).attempted == 0
    assert cache.get_op(held).state == "pending"
    mono.advance(0.1)
    assert [op.op_id for op in cache.due_ops()] == [held]  # as the tick sees it: wake the flush
    assert (await here.flush()).delivered == 1  # not an hour later
    assert len(_decision_posts(transport)) == 1


async def test_a_backward_step_holds_a_decision_for_its_window_in_another_process(
    here: SyncEngine, cache: Store, wall_client: ServiceClient, wall: FakeClock, transport: FaultyTransport
) -> None:
    actions.dismiss_recommendation(cache, CARD, hold_seconds=HOLD)
    wall.advance(-HOUR)
    other = _store(cache.path, wall)  # `warmline sync --watch` in a terminal
    try:
        engine = _engine(other, wall_client, wall)
        assert (await engine.flush(ignore_backoff=True)).attempted == 0
        wall.advance(HOLD)
        assert (await engine.flush()).delivered == 1
    finally:
        other.close()
    assert len(_decision_posts(transport)) == 1


async def test_a_forward_jump_does_not_send_a_held_decision_early(
    here: SyncEngine, cache: Store, wall: FakeClock, mono: FakeClock, transport: FaultyTransport
) -> None:
    held = actions.dismiss_recommendation(cache, CARD, hold_seconds=HOLD)
    mono.advance(1.3)
    wall.advance(YEAR)
    assert (await here.flush(ignore_backoff=True)).attempted == 0
    await here._tick_job()
    assert (await here.run_once()).flush.attempted == 0
    assert _decision_posts(transport) == []
    assert cache.get_op(held).state == "pending"
    mono.advance(HOLD - 1.3)
    assert (await here.flush()).delivered == 1


async def test_a_retry_set_while_the_clock_was_a_day_ahead_waits_no_longer_than_its_backoff(
    here: SyncEngine, cache: Store, wall: FakeClock, transport: FaultyTransport
) -> None:
    wall.advance(DAY)
    op_id = actions.add_note(cache, WARM, "Sent while the clock was a day ahead")
    transport.fail_next(UNAVAILABLE)
    assert (await here.flush()).retrying == 1
    wait = cache.get_op(op_id).next_attempt_at - wall()
    assert 0 <= wait <= here.flusher.backoff.cap
    wall.advance(-DAY)
    assert cache.get_op(op_id).next_attempt_at > wall() + DAY - 1  # as stored: a day away
    assert cache.due_ops() == []  # the read heals it to its own wait from now
    assert cache.get_op(op_id).next_attempt_at == pytest.approx(wall() + wait)
    wall.advance(wait)
    assert (await here.flush()).delivered == 1


def test_the_service_wait_stored_under_a_clock_an_hour_behind_heals_to_its_length(
    cache: Store, wall: FakeClock
) -> None:
    """`not_before` (the service's Retry-After) is skipped by nothing, `sync --once`
    included: stored a day away by a clock that then moved back, it would hold the op,
    and its lead, for the day."""
    cache.upsert_leads([lead_item(WARM)])
    op_id = actions.add_note(cache, WARM, "Rate limited")
    assert cache.mark_in_flight(op_id)
    wall.advance(DAY)
    assert cache.mark_retry(op_id, wall() + 30, "HTTP 429", not_before=wall() + 30)
    wall.advance(-DAY)
    assert cache.due_ops(ignore_backoff=True) == []
    op = cache.get_op(op_id)
    assert op.not_before <= wall() + 30 and op.next_attempt_at <= wall() + 30
    wall.advance(30)
    assert [op.op_id for op in cache.due_ops(ignore_backoff=True)] == [op_id]


def test_a_claim_lease_stored_under_a_clock_ahead_heals_to_the_lease(cache: Store, wall: FakeClock) -> None:
    from warmline.store.outbox import CLAIM_LEASE_SECONDS

    cache.upsert_leads([lead_item(WARM)])
    op_id = actions.add_note(cache, WARM, "Claimed with the clock ahead")
    wall.advance(YEAR)
    assert cache.mark_in_flight(op_id)
    wall.advance(-YEAR)
    assert cache.heal_times() == 1
    assert cache.get_op(op_id).claim_until == pytest.approx(wall() + CLAIM_LEASE_SECONDS)


async def test_the_undo_hint_counts_the_window_whatever_the_wall_clock_does(
    here: SyncEngine, cache: Store, wall: FakeClock, mono: FakeClock
) -> None:
    """Before: "u undoes dismiss · 3604s" after a backward step of an hour."""
    from warmline.tui.app import WarmlineApp

    app = WarmlineApp(cache, config=Config(undo_seconds=HOLD), clock=lambda: wall.now(), zone=UTC, opener=lambda url: True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.decide("dismiss", actions.dismiss_recommendation, CARD)
        wall.advance(-HOUR)
        mono.advance(1)
        app.poll_status()
        assert app.sync_status.undo == "u undoes dismiss · 4s"
        wall.advance(YEAR)
        app.poll_status()
        assert app.sync_status.undo == "u undoes dismiss · 4s"
        assert app.last_decision() is not None  # `u` still takes it back


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
async def test_a_termination_signal_releases_the_cockpit_holds_and_closes_it(
    here: SyncEngine, cache: Store, wall_client: ServiceClient, wall: FakeClock, name: str
) -> None:
    """The held decision goes with the next sync, by any process, at once: not after a
    window nobody can undo in any more. The handler from before the cockpit is back once
    it has closed. (`WarmlineApp.run` stops it so; the pilot runs the app with `run_test`.)"""
    from warmline.tui.app import WarmlineApp

    number = getattr(signal, name)

    def launcher_handler(signum: int, frame: object) -> None:
        raise AssertionError("the cockpit's own handler should have run")

    previous = signal.signal(number, launcher_handler)
    try:
        app = WarmlineApp(cache, config=Config(undo_seconds=60.0), clock=lambda: wall.now(), zone=UTC, opener=lambda url: True)
        with app.stopped_by_signals():
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                assert signal.getsignal(number) is not launcher_handler  # the cockpit's own is in place
                (held,) = app.decide("dismiss", actions.dismiss_recommendation, CARD)
                assert cache.get_op(held).hold_until is not None
                signal.raise_signal(number)
                await pilot.pause()
        assert not app.is_running
        assert signal.getsignal(number) is launcher_handler
    finally:
        signal.signal(number, previous)
    assert cache.get_op(held).hold_until is None
    other = _store(cache.path, wall)
    try:
        assert [op.op_id for op in other.due_ops()] == [held]
    finally:
        other.close()


async def test_stopping_the_engine_releases_this_process_holds_only(
    here: SyncEngine, cache: Store, wall: FakeClock
) -> None:
    """`sync --watch` and the cockpit stop their engine when told to stop (SIGTERM,
    SIGHUP): the holds this process took end; another process's stand."""
    mine = actions.dismiss_recommendation(cache, CARD, hold_seconds=60.0)
    other = _store(cache.path, wall)  # another cockpit
    try:
        theirs = actions.complete_recommendation(other, 12, hold_seconds=60.0)
        await here.stop()
        assert cache.get_op(mine).hold_until is None
        assert cache.get_op(theirs).hold_until == wall() + 60.0
    finally:
        other.close()


def test_a_cache_of_the_version_before_gets_the_lengths_of_its_waits(tmp_path: Path, wall: FakeClock) -> None:
    """Ops queued by the version before carry no lengths: the upgrade takes them from the
    op's last change, so they heal like new ones."""
    from warmline.store.clock import iso
    from warmline.store.database import Database
    from warmline.store.schema import MIGRATIONS, migrate

    path = tmp_path / "old.sqlite3"
    old = Database(path)
    migrate(old.conn, MIGRATIONS[:5])
    now = wall()
    old.conn.execute(
        "INSERT INTO outbox (op_id, kind, lead_id, payload, state, attempts, created_at, next_attempt_at,"
        " hold_until, updated_at) VALUES ('held', 'add_note', NULL, '{}', 'pending', 0, ?, ?, ?, ?),"
        " ('waiting', 'add_note', NULL, '{}', 'pending', 1, ?, ?, NULL, ?)",
        (iso(now), now, now + HOLD, iso(now), iso(now), now + 120, iso(now)),
    )
    old.close()
    wall.advance(-HOUR)
    store = _store(path, wall)
    try:
        assert store.schema_version == len(MIGRATIONS)
        assert store.due_ops() == []
        assert store.get_op("held").hold_until == pytest.approx(wall() + HOLD)
        assert store.get_op("waiting").next_attempt_at == pytest.approx(wall() + 120)
        wall.advance(120)
        assert sorted(op.op_id for op in store.due_ops()) == ["held", "waiting"]
    finally:
        store.close()


@pytest.mark.parametrize("jump", [-DAY, -HOUR, YEAR])
def test_the_offline_probe_comes_back_on_time_after_a_wall_clock_jump(
    wall: FakeClock, mono: FakeClock, jump: float
) -> None:
    """Offline, the next health probe is due after its backoff (at most 30 s). The wall
    clock is then set back a day (or an hour), or a year ahead: the probe is still due once
    the backoff has run on the monotonic clock, not a day later, and not at once. Before,
    the backoff was a wall-clock moment: set back a day, the cockpit stayed offline a day."""

    with Store(":memory:") as store:
        connection = Connection(
            None,  # type: ignore[arg-type]  # no request is made
            StatusBoard(store, wall),
            clock=wall,
            monotonic=mono,
            backoff=Backoff(base=10.0, cap=10.0, rng=random.Random(1)),
        )
        connection.lost("connection refused")
        assert not connection.probe_due()
        wall.advance(jump)
        assert not connection.probe_due()
        mono.advance(10.0)
        wall.advance(10.0)
        assert connection.probe_due()
