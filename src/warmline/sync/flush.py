"""Delivering the outbox: each queued action reaches the service exactly once.

One pass reads the queue once and splits it into lanes: one lane per lead (its ops in
queue order) and one lane per lead-less op. Lanes run concurrently up to a small cap; a
lane runs its ops one after another and stops at the first op that must wait, so a
lead's ops are applied on the server in the order the rep took them.

For each op: claim it (`mark_in_flight`, committed before the request leaves, which is
also what stops two processes from sending the same op), then

- a never-sent or cleanly-failed op is sent with `Idempotency-Key: <op id>`;
- an ambiguous op (sent before, answer lost) is first checked against the server
  (`reconcile.already_applied`) and adopted if its effect is there, else resent.

The outcome decides the next state (see docs/sync.md):
- success: `mark_done` folds the server's answer into the cache; the lane goes on;
- not applied and worth retrying (offline, 408/425/429/502/503/504): `mark_retry` with
  full-jitter backoff, never before the server's Retry-After / rate-limit reset; the lane
  stops. Offline ops are not backed off: offline is a state the engine probes out of;
- may have been applied (connection lost after sending, 500, unreadable success):
  `mark_ambiguous`; reconciled on a later pass; the lane stops;
- refused for good (validation, not found, already dismissed, plan limit): `mark_failed`
  with the server's message; it is set aside and the lane goes on;
- authentication refused: the op goes back to the queue untouched and the whole pass
  stops, since every other request would be refused the same way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from warmline.api import ServiceClient
from warmline.api.errors import ApiError, AuthError, InputError, OfflineError, RateLimitedError
from warmline.store.rows import AMBIGUOUS, IN_FLIGHT, PENDING, Op
from warmline.sync.backoff import Backoff, plan_retry
from warmline.sync.blocking import Blocking, Notify, in_thread
from warmline.sync.reconcile import already_applied
from warmline.sync.requests import send

log = logging.getLogger("warmline.sync")


DONE = "done"
RECONCILED = "reconciled"
FAILED = "failed"
RETRY = "retry"
AMBIGUOUS_OUTCOME = "ambiguous"
HALTED = "halted"


@dataclass
class FlushReport:
    """What one pass did; `offline` / `auth_error` say why it stopped early, if it did."""

    delivered: int = 0
    reconciled: int = 0
    failed: int = 0
    retrying: int = 0
    ambiguous: int = 0
    offline: bool = False
    offline_error: str | None = None
    auth_error: str | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def attempted(self) -> int:
        return self.delivered + self.reconciled + self.failed + self.retrying + self.ambiguous

    def count(self, outcome: str) -> None:
        attribute = {
            DONE: "delivered",
            RECONCILED: "reconciled",
            FAILED: "failed",
            RETRY: "retrying",
            AMBIGUOUS_OUTCOME: "ambiguous",
        }.get(outcome)
        if attribute is not None:
            setattr(self, attribute, getattr(self, attribute) + 1)


def lanes_of(ops: list[Op]) -> list[list[Op]]:
    """Queue-ordered ops split into lanes: one per lead, one per lead-less op."""
    lanes: dict[Any, list[Op]] = {}
    for op in ops:
        key = ("lead", op.lead_id) if op.lead_id is not None else ("op", op.op_id)
        lanes.setdefault(key, []).append(op)
    return sorted(lanes.values(), key=lambda lane: lane[0].seq)


class Flusher:
    """Sends due outbox ops; one instance per engine (or per `warmline sync` run).

    `blocking` runs a store call off the event loop (SQLite commits wait for the disk);
    tests may pass a direct call. `notify(topic, lead_id)` is told about each settled op.
    """

    def __init__(
        self,
        store: Any,
        client: ServiceClient,
        *,
        concurrency: int = 4,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.time,
        blocking: Blocking = in_thread,
        notify: Notify | None = None,
    ) -> None:
        self.store = store
        self.client = client
        self.concurrency = max(1, concurrency)
        self.backoff = backoff or Backoff()
        self.clock = clock
        self._blocking = blocking
        self._notify = notify
        self._halt = False

    async def flush(self, *, ignore_backoff: bool = False) -> FlushReport:
        """One pass over the queue. `ignore_backoff` (the rep asked for a sync now) skips our
        own backoff but never the server's Retry-After or rate-limit reset."""
        report = FlushReport()
        self._halt = False
        queued = await self._blocking(self.store.outbox_rows, (PENDING, IN_FLIGHT, AMBIGUOUS))
        gate = asyncio.Semaphore(self.concurrency)

        async def run(lane: list[Op]) -> None:
            async with gate:
                await self._run_lane(lane, report, ignore_backoff)

        await asyncio.gather(*(run(lane) for lane in lanes_of(queued)))
        return report

    def _due(self, op: Op, ignore_backoff: bool) -> bool:
        now = self.clock()
        if op.not_before is not None and op.not_before > now:
            return False
        if self.client.limiter.delay() > 0:
            return False  # rate-limited: the server's word holds even when the rep asks
        return ignore_backoff or op.next_attempt_at <= now

    async def _run_lane(self, lane: list[Op], report: FlushReport, ignore_backoff: bool) -> None:
        for op in lane:
            if self._halt or op.state == IN_FLIGHT or not self._due(op, ignore_backoff):
                return
            if not await self._blocking(self.store.mark_in_flight, op.op_id):
                return  # another sender (another process) has it: keep the lead's order
            outcome = await self._settle(op, report)
            report.count(outcome)
            if self._notify is not None:
                self._notify("outbox", op.lead_id)
            if outcome not in (DONE, RECONCILED, FAILED):
                return

    async def _settle(self, op: Op, report: FlushReport) -> str:
        """Deliver one claimed op and record its outcome; never leaves it in flight."""
        try:
            return await self._deliver(op)
        except asyncio.CancelledError:
            # Shutdown mid-request: we cannot know whether it arrived.
            self.store.mark_ambiguous(op.op_id, self.clock(), "interrupted while sending")
            raise
        except ApiError as exc:
            return await self._failed(op, exc, report)
        except Exception as exc:  # a bug must not leave the op in flight or lose it
            log.exception("unexpected error delivering %s %s", op.kind, op.op_id)
            message = f"internal error: {exc.__class__.__name__}: {exc}"
            report.errors.append(message)
            await self._blocking(self.store.mark_ambiguous, op.op_id, self._later(op), message)
            return AMBIGUOUS_OUTCOME

    async def _deliver(self, op: Op) -> str:
        if op.state == AMBIGUOUS:
            answer = await already_applied(self.client, self.store, op)
            if answer is not None:
                await self._blocking(self.store.mark_done, op.op_id, answer)
                return RECONCILED
        answer = await send(self.client, op.kind, op.payload, op.op_id)
        await self._blocking(self.store.mark_done, op.op_id, answer)
        return DONE

    def _later(self, op: Op) -> float:
        return self.clock() + self.backoff.delay(op.attempts + 1)

    async def _failed(self, op: Op, exc: ApiError, report: FlushReport) -> str:
        now = self.clock()
        message = str(exc)
        was_ambiguous = op.state == AMBIGUOUS
        if isinstance(exc, AuthError):
            self._halt = True
            report.auth_error = message
            await self._put_back(op, now, message, was_ambiguous)
            return HALTED
        if isinstance(exc, OfflineError):
            # Not sent. Offline is a state: the engine probes and flushes again when back.
            self._halt = True
            report.offline = True
            report.offline_error = message
            await self._put_back(op, now, message, was_ambiguous)
            return RETRY
        if isinstance(exc, InputError):
            await self._blocking(self.store.mark_failed, op.op_id, message)
            return FAILED
        if exc.retryable:
            if was_ambiguous:
                # Our probe or resend was refused unapplied; what the first send did is still unknown.
                await self._blocking(self.store.mark_ambiguous, op.op_id, self._retry_at(op, exc, now), message)
                return AMBIGUOUS_OUTCOME
            plan = plan_retry(self.backoff, op.attempts + 1, now, self._server_wait(exc, now))
            await self._blocking(self.store.mark_retry, op.op_id, plan.next_attempt_at, message, plan.not_before)
            return RETRY
        if exc.is_ambiguous:
            await self._blocking(self.store.mark_ambiguous, op.op_id, self._later(op), message)
            return AMBIGUOUS_OUTCOME
        await self._blocking(self.store.mark_failed, op.op_id, message)
        return FAILED

    async def _put_back(self, op: Op, now: float, message: str, was_ambiguous: bool) -> None:
        if was_ambiguous:
            await self._blocking(self.store.mark_ambiguous, op.op_id, now, message)
        else:
            await self._blocking(self.store.mark_retry, op.op_id, now, message, None)

    def _server_wait(self, exc: ApiError, now: float) -> float | None:
        """Seconds the server asked us to wait: Retry-After, else the limiter's hold."""
        waits = []
        if isinstance(exc, RateLimitedError) and exc.retry_after is not None:
            waits.append(exc.retry_after)
        blocked = self.client.limiter.state().blocked_until
        if blocked is not None and blocked > now:
            waits.append(blocked - now)
        return max(waits) if waits else None

    def _retry_at(self, op: Op, exc: ApiError, now: float) -> float:
        plan = plan_retry(self.backoff, op.attempts + 1, now, self._server_wait(exc, now))
        return plan.next_attempt_at
