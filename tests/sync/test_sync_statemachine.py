"""A hypothesis state machine over the outbox against the sandbox WITHOUT idempotency support.

Rules: enqueue appends (activities and notes, with repeated texts), flush with a planned
series of faults (ok, 429 with Retry-After, 503, 500 after applying, connection dropped
before or after the server applied, connection refused), crash mid-send and restart (a
new store on the same file recovers what was in flight), and clock advance.

Invariants after every step:
- no accepted op vanishes, none is failed (they are all valid);
- on the server, each lead's entries are a prefix of what the rep queued, in order, with
  no duplicate: at least one record per delivered op, at most one more for the one op
  whose answer was lost;
- no request is sent before a Retry-After the server gave has run out;
and at the end a fault-free drain delivers everything, so the server holds exactly what
the reference model says, and the cache shows every record as confirmed.

The examples are derandomized (the same every run, no example database), and the run
must have gone through what the invariants guard (`MUST_COVER`: answers lost after
applying and adopted, a crash after applying, a Retry-After, the same text twice on a
lead...): a fixed seed that never reached them would prove nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from support.sync_helpers import (
    DROP_AFTER,
    DROP_BEFORE,
    FAULTS,
    KEY,
    RATE_LIMITED,
    RETRY_AFTER,
    SERVER_ERROR,
    UNAVAILABLE,
    FakeClock,
    FaultyTransport,
    make_sandbox,
    server_rows,
)
from warmline.api import RateLimiter, ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline

LEADS = (1, 2, 3)
MARK = "sm:"
TABLES = {"log_activity": ("outreach_touchpoints", "description"), "add_note": ("outreach_notes", "content")}


CRASH_BEFORE = "crash_before"  # the process dies as the request leaves (not applied)
CRASH_AFTER = "crash_after"  # the process dies after the server applied it, before the answer
TWICE = "the same text twice on a lead"
ADOPTED = "adopted after a lost answer"
MUST_COVER = (
    TWICE, ADOPTED, CRASH_BEFORE, CRASH_AFTER, DROP_AFTER, DROP_BEFORE, SERVER_ERROR, RATE_LIMITED, UNAVAILABLE,
)
"""What a run must have gone through, counted in `COVERED` (faults: those that happened).

Not RESET: a refused connection halts the pass as offline, so whether a planned reset is
ever reached depends on the draws before it, and those differ with the op ids (uuid4) and
the tests run before this one in the process; test_sync_engine's offline tests cover it."""
COVERED: Counter[str] = Counter()


class SimulatedCrash(BaseException):
    """Raised through the sync code like a kill: nothing catches it, nothing more is recorded."""


class TimedTransport(FaultyTransport):
    """Records the fake time of each request (for the Retry-After invariant); can crash."""

    def __init__(self, inner: httpx.AsyncBaseTransport, clock: FakeClock) -> None:
        super().__init__(inner)
        self.clock = clock
        self.times: list[float] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.plan and self.plan[0] in (CRASH_BEFORE, CRASH_AFTER):
            if self.plan.popleft() == CRASH_AFTER:
                await self.inner.handle_async_request(request)
            raise SimulatedCrash()
        self.times.append(self.clock())
        return await super().handle_async_request(request)


class OutboxMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="warmline-sm-"))
        self.loop = asyncio.new_event_loop()
        self.clock = FakeClock()
        self.app = make_sandbox(self.dir / "sandbox.sqlite3", self.clock, leads=len(LEADS))
        self.transport = TimedTransport(httpx.ASGITransport(app=self.app), self.clock)
        self.rng = random.Random(7)
        self.model: list[tuple[str, int, str, str]] = []  # op id, lead, kind, text
        self.checked_requests = 0
        self.blocked_until = 0.0
        self.store: Store | None = None
        self.client: ServiceClient | None = None
        self._open()
        self.run(self.engine.refresh_leads())

    def _open(self) -> None:
        self.store = Store(self.dir / "cache.sqlite3", clock=self.clock)
        limiter = RateLimiter(clock=self.clock, sleep=self.clock.sleep)
        self.client = ServiceClient("http://127.0.0.1", KEY, transport=self.transport, limiter=limiter,
                                    clock=self.clock)
        self.engine = SyncEngine(self.store, self.client, clock=self.clock, rng=self.rng,
                                 backoff=Backoff(rng=self.rng), blocking=run_inline)

    def _close(self) -> None:
        self.run(self.client.aclose())
        self.store.close()

    def _die(self) -> None:
        """Like kill -9: the cache is closed first, so the dying tasks cannot record anything."""
        self.store.close()
        leftover = [task for task in asyncio.all_tasks(self.loop) if not task.done()]
        for task in leftover:
            task.cancel()
        if leftover:
            self.run(asyncio.gather(*leftover, return_exceptions=True))
        self.run(self.client.aclose())

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    # --- rules ---------------------------------------------------------------------------------

    @rule(lead=st.sampled_from(LEADS), kind=st.sampled_from(sorted(TABLES)), text=st.sampled_from("abc"))
    def enqueue(self, lead: int, kind: str, text: str) -> None:
        body = MARK + text
        payload = {"lead_id": lead, "description": body, "contact_id": None} if kind == "log_activity" else {
            "lead_id": lead, "content": body}
        op_id = self.store.enqueue(kind, payload, lead, {"guessed_type": "other"} if kind == "log_activity" else None)
        COVERED[TWICE] += (lead, kind, body) in {(lead_id, k, t) for _, lead_id, k, t in self.model}
        self.model.append((op_id, lead, kind, body))

    @rule(faults=st.lists(st.sampled_from(FAULTS), max_size=6), ignore_backoff=st.booleans())
    def flush(self, faults: list[str], ignore_backoff: bool) -> None:
        self.transport.plan.clear()
        self.transport.fail_next(*faults)
        sent = len(self.transport.log)
        report = self.run(self.engine.flush(ignore_backoff=ignore_backoff))
        self.transport.plan.clear()
        COVERED.update(entry[3] for entry in self.transport.log[sent:])
        COVERED[ADOPTED] += report.reconciled

    @rule(seconds=st.sampled_from([0.5, 2, 5, 31, 120, 400]))
    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)

    @rule(applied=st.booleans())
    def crash_and_restart(self, applied: bool) -> None:
        """The process dies while sending (before or after the server applied it); a new
        one opens the same cache file and recovers what was left in flight."""
        self.transport.plan.clear()
        crash = CRASH_AFTER if applied else CRASH_BEFORE
        self.transport.fail_next(crash)
        with contextlib.suppress(SimulatedCrash):
            self.run(self.engine.flush(ignore_backoff=True))
        COVERED[crash] += not self.transport.plan  # a send was due, and died
        self.transport.plan.clear()
        self._die()
        self._open()
        self.store.recover_after_crash()

    # --- invariants --------------------------------------------------------------------------------

    @invariant()
    def no_accepted_op_vanishes_or_fails(self) -> None:
        for op_id, *_ in self.model:
            op = self.store.get_op(op_id)
            assert op is not None, f"op {op_id} vanished"
            assert op.state in ("pending", "ambiguous", "done"), (op.state, op.last_error)

    @invariant()
    def server_holds_a_prefix_in_order_without_duplicates(self) -> None:
        for lead in LEADS:
            for kind, (table, column) in TABLES.items():
                ours = [text for text in server_rows(self.app, table, column, lead) if text.startswith(MARK)]
                queued = [(op_id, text) for op_id, lead_id, k, text in self.model if lead_id == lead and k == kind]
                assert ours == [text for _, text in queued][: len(ours)], (lead, kind, ours, queued)
                states = [self.store.get_op(op_id).state for op_id, _ in queued]
                done, unsure = states.count("done"), states.count("ambiguous")
                assert done <= len(ours) <= done + unsure, (lead, kind, ours, states)

    @invariant()
    def no_request_before_retry_after(self) -> None:
        log, times = self.transport.log, self.transport.times
        for index in range(self.checked_requests, len(log)):
            assert times[index] >= self.blocked_until, (log[index], times[index], self.blocked_until)
            if log[index][3] == RATE_LIMITED:
                self.blocked_until = max(self.blocked_until, times[index] + RETRY_AFTER)
        self.checked_requests = len(log)

    def teardown(self) -> None:
        try:
            self._drain_and_compare()
        finally:
            self._close()
            self.app.state.db.close()
            self.loop.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    def _drain_and_compare(self) -> None:
        """Fault-free drain: the server ends up holding exactly the reference model."""
        self.transport.plan.clear()
        for _ in range(len(self.model) + 5):
            self.clock.advance(400)
            self.run(self.engine.flush())
            if self.store.outbox_counts().queued == 0:
                break
        assert self.store.outbox_counts().queued == 0
        for lead in LEADS:
            for kind, (table, column) in TABLES.items():
                ours = [t for t in server_rows(self.app, table, column, lead) if t.startswith(MARK)]
                assert ours == [t for _, lead_id, k, t in self.model if lead_id == lead and k == kind]
            detail = self.store.lead_detail(lead)
            assert all(t.id is not None for t in detail.touchpoints if t.description.startswith(MARK))
            assert all(n.id is not None for n in detail.notes if n.content.startswith(MARK))


# The examples are fixed, but which planned fault a request meets is not quite: the
# sandbox answers some requests from a thread, so under a loaded machine concurrent sends
# finish in another order, and a fault planned after one that took the service offline
# is never met. With 60 examples the 503 went unmet in about one loaded run in five
# (session 8); 100 leave each fault many chances.
SETTINGS = settings(
    max_examples=100,
    stateful_step_count=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.slow
def test_outbox_state_machine() -> None:
    COVERED.clear()
    run_state_machine_as_test(OutboxMachine, settings=SETTINGS)
    missing = [what for what in MUST_COVER if not COVERED[what]]
    assert not missing, f"the fixed examples never reached {missing}: {dict(COVERED)}"
