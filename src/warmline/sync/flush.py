"""Delivering the outbox: each queued action reaches the service exactly once.

A pass is a loop of one dispatcher and up to `concurrency` sends at a time:

1. In ONE write transaction (one disk sync, however many ops it covers) the dispatcher
   records the outcomes of the sends that finished and claims more due ops
   (`Store.claim_due`: each lead's oldest queued op, and lead-less ops). Claiming is
   committed before a request leaves, so a crash at any moment leaves an op either
   pending (never sent) or in flight (maybe sent: ambiguous at the next start), and it
   is also what keeps two processes from sending the same op.
2. Claimed ops are sent as slots free up; a few more than the slots are claimed ahead,
   so a finished send is replaced at once instead of after the next disk sync.
3. A lead's next op becomes due only once its previous op is recorded, so the server
   applies a lead's ops in the order the rep took them; other leads go on meanwhile.

For each op: an ambiguous op (sent before, answer lost) is first checked against the
server (`reconcile.already_applied`) and adopted if its effect is there; otherwise it is
sent with `Idempotency-Key: <op id>`. The outcome decides the next state (docs/sync.md):
- success: `mark_done` folds the server's answer into the cache;
- not applied but worth retrying (408/425/429/502/503/504): `mark_retry` with full-jitter
  backoff, never before the server's Retry-After / rate-limit reset (`not_before`);
- offline (not sent): back to the queue as it was; the pass stops, since offline is a
  state the engine probes out of, not a reason to back each op off;
- may have been applied (connection lost after sending, 500): `mark_ambiguous`,
  reconciled on a later pass; sent and not answered in time (hung, asleep): the same,
  and the pass stops as offline;
- any 2xx, whatever its body: delivered, and then confirmed (`confirm`): a set-to-value op
  whose change the service does not show (answer or re-read) fails with the likely cause;
- refused for good (validation, not found, already dismissed, plan limit): `mark_failed`
  with the server's message; set aside, the lead's later ops go on;
- the lead itself is gone ("Outreach lead not found"): `mark_lead_gone` fails the op and
  every other op queued on the lead with one message, and hides the lead;
- authentication refused: back to the queue untouched; the pass stops.

Only an answer counts as the service being there (`FlushReport.answered`), and only an op
settled with it as a sync (`FlushReport.settled`, the status line's "synced").
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass, field

from warmline.api import ServiceClient
from warmline.api.errors import (
    ApiError,
    AuthError,
    InputError,
    LeadNotFoundError,
    OfflineError,
    RateLimitedError,
    RecommendationGoneError,
    UnreadAnswerError,
    UnresponsiveSendError,
)
from warmline.ops.specs import spec_of
from warmline.store import Store
from warmline.store.clock import EpochClock, system_clock
from warmline.store.rows import AMBIGUOUS, PENDING, Op
from warmline.sync.backoff import Backoff, plan_retry
from warmline.sync.blocking import Blocking, LeadGone, in_thread
from warmline.sync.confirm import Refused, confirm
from warmline.sync.reconcile import already_applied
from warmline.sync.requests import Answer, annotated_late, payload_to_send, send

log = logging.getLogger("warmline.sync")

DONE = "done"
RECONCILED = "reconciled"
RESOLVED = "resolved"
ALREADY_DISMISSED = "already dismissed by the service"
FAILED = "failed"
RETRY = "retry"
AMBIGUOUS_OUTCOME = "ambiguous"
PUT_BACK = "put_back"
# Ops claimed ahead, per unit of concurrency: a finished send is replaced without waiting
# for a disk sync, and one sync covers many ops.
LOOKAHEAD = 4
# Why a claimed op stopped the whole pass (`Outcome.halt`).
HALT_OFFLINE = "offline"
HALT_AUTH = "auth"


@dataclass
class Outcome:
    """What became of one claimed op; recorded by the dispatcher in its next transaction."""

    op: Op
    kind: str
    answer: Answer | None = None
    message: str | None = None
    next_attempt_at: float | None = None  # always set for RETRY (`plan_retry`)
    not_before: float | None = None
    halt: str | None = None  # HALT_OFFLINE or HALT_AUTH: stop the pass
    lead_gone: bool = False  # failed because the lead itself is gone: so are its other ops
    answered: bool = True
    """False when no answer came (not sent, a transport failure, a hold of our own, a bug):
    no sign that the service is there."""


@dataclass
class FlushReport:
    """What one pass did; `offline` / `auth_error` say why it stopped early, if it did."""

    delivered: int = 0
    reconciled: int = 0
    resolved: int = 0  # decisions the service had already made for us (a card it dismissed)
    failed: int = 0
    retrying: int = 0
    ambiguous: int = 0
    offline: bool = False
    offline_error: str | None = None
    auth_error: str | None = None
    errors: list[str] = field(default_factory=list)

    answered: int = 0
    """Ops that got an answer this pass (`Outcome.answered`), an error status included:
    only an answer shows that the service is there."""

    @property
    def attempted(self) -> int:
        return self.delivered + self.reconciled + self.resolved + self.failed + self.retrying + self.ambiguous

    @property
    def settled(self) -> int:
        """Ops whose fate the service decided this pass (a sync): delivered, found applied,
        already decided, or refused."""
        return self.delivered + self.reconciled + self.resolved + self.failed

    def count(self, outcome: Outcome) -> None:
        attribute = {
            DONE: "delivered",
            RECONCILED: "reconciled",
            RESOLVED: "resolved",
            FAILED: "failed",
            RETRY: "retrying",
            PUT_BACK: "retrying",
            AMBIGUOUS_OUTCOME: "ambiguous",
        }[outcome.kind]
        setattr(self, attribute, getattr(self, attribute) + 1)
        self.answered += outcome.answered


def _decides_a_card(kind: str) -> bool:
    """A decision on a recommendation card: the card gone means it was decided already."""
    spec = spec_of(kind)
    return spec is not None and spec.done_if_card_gone


def already_dismissed(op: Op) -> Outcome:
    """A complete or dismiss of a card the service no longer has active (it dismissed it
    when a sibling card on the same post was completed, or another client handled it).

    Nothing is left for the rep to fix, so it is not a failure: the op is recorded as
    resolved, with the reason kept in its result for the outbox's history, and the card
    is folded in as dismissed (no points were awarded for it).
    """
    rec = {"id": op.payload.get("recommendation_id"), "status": "dismissed"}
    return Outcome(op, RESOLVED, answer={"recommendation": rec, "resolved": ALREADY_DISMISSED})


class _Pass:
    """The dispatcher's working state during one pass."""

    def __init__(self) -> None:
        self.settled: list[Outcome] = []  # finished sends not yet recorded
        self.ready: deque[Op] = deque()  # claimed, not yet sent
        self.running: set[asyncio.Task[Outcome]] = set()
        self.more_due = True
        self.commit: asyncio.Future[list[Op]] | None = None
        self._batch: list[Outcome] = []
        self._want = 0
        self._settled_meanwhile = False  # a send finished while the commit was under way

    @property
    def in_hand(self) -> int:
        return len(self.ready) + len(self.running)

    def start_commit(self, work: Awaitable[list[Op]], want: int) -> None:
        self._batch, self.settled, self._want = self.settled, [], want
        self._settled_meanwhile = False
        self.commit = asyncio.ensure_future(work)

    def send_settled(self, outcome: Outcome) -> None:
        """A send finished: its outcome waits for the next commit, after which its lead's
        next op may be due."""
        self.settled.append(outcome)
        self.more_due = True
        if self.commit is not None:
            self._settled_meanwhile = True

    def end_commit(self) -> list[Outcome]:
        """Take the finished commit's claims; returns the outcomes it recorded.

        A commit that claimed fewer ops than it asked for says nothing else was due when
        it looked, unless a send finished meanwhile: that send's lead may have its next op
        due once the send is recorded, by a later commit, which must still claim it."""
        commit, self.commit = self.commit, None
        assert commit is not None
        try:
            claimed = commit.result()
        except BaseException:
            # Rolled back: nothing was recorded or claimed. Keep the outcomes for the
            # pass's final attempt to record them.
            self.settled[:0], self._batch = self._batch, []
            raise
        if self._want > 0 and not self._settled_meanwhile:
            self.more_due = len(claimed) >= self._want  # fewer than asked: nothing else is due
        self.ready.extend(claimed)
        return self._batch


class Flusher:
    """Sends due outbox ops; one instance per engine (or per `warmline sync` run).

    `blocking` runs a store call off the event loop (SQLite commits wait for the disk);
    tests may pass `run_inline`. `notify(topic, lead_id)` is told about each settled op.
    `annotate_late_activities`: an activity first sent more than a minute after it was
    logged says when in its text (`requests.payload_to_send`).
    """

    def __init__(
        self,
        store: Store,
        client: ServiceClient,
        *,
        concurrency: int = 4,
        backoff: Backoff | None = None,
        clock: EpochClock = system_clock,
        blocking: Blocking = in_thread,
        on_lead_gone: LeadGone | None = None,
        annotate_late_activities: bool = False,
    ) -> None:
        self.store = store
        self.client = client
        self.concurrency = max(1, concurrency)
        self.backoff = backoff or Backoff()
        self.clock = clock
        self._blocking = blocking
        self._on_lead_gone = on_lead_gone
        self.annotate_late = annotate_late_activities
        # op id -> its first send time as the claim stored it, for ops claimed for their
        # first send: the annotation must use exactly what a resend will read.
        self._first_sent: dict[str, str | None] = {}

    # --- the dispatcher ------------------------------------------------------------------------

    async def flush(self, *, ignore_backoff: bool = False) -> FlushReport:
        """One pass: send every due op. `ignore_backoff` (the rep asked for a sync now) makes
        waiting ops due at once, but never before the server's Retry-After."""
        report = FlushReport()
        if ignore_backoff:
            await self._blocking(self._skip_backoff)
        pass_ = _Pass()
        try:
            while True:
                halted = self._halted(report)
                if not halted:
                    while pass_.ready and len(pass_.running) < self.concurrency:
                        pass_.running.add(asyncio.ensure_future(self._attempt(pass_.ready.popleft())))
                if pass_.commit is None and self._commit_now(pass_, halted):
                    want = 0 if halted or not pass_.more_due else self.concurrency * LOOKAHEAD - pass_.in_hand
                    # Recorded and claimed in the background: sends go on meanwhile.
                    pass_.start_commit(self._blocking(self._record_and_claim, pass_.settled, max(0, want)), want)
                waiting = pass_.running | ({pass_.commit} if pass_.commit is not None else set())
                if not waiting:
                    break  # nothing in flight, nothing to record, nothing more due
                finished, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if pass_.commit in finished:
                    self._tell(pass_.end_commit(), report)
                for task in pass_.running & finished:
                    pass_.running.discard(task)
                    pass_.send_settled(self._halt_on(task.result(), report))
        except asyncio.CancelledError:
            for task in pass_.running:
                task.cancel()  # each marks its own op ambiguous
            raise
        finally:
            await self._wind_down(pass_, report)
        return report

    def _commit_now(self, pass_: _Pass, halted: bool) -> bool:
        """Group commit: one disk sync for many ops, but never leave a slot idle for it.

        Outcomes are recorded when a slot would otherwise wait (nothing claimed to send,
        e.g. a lead's next op waits for its previous one to be recorded), when a slot's
        worth of them has gathered, or when the pass is ending; claims are topped up when
        the claimed-ahead buffer runs low.
        """
        idle_slot = not pass_.ready and len(pass_.running) < self.concurrency
        if pass_.settled and (halted or idle_slot or len(pass_.settled) >= self.concurrency):
            return True
        return not halted and pass_.more_due and len(pass_.ready) < self.concurrency

    def _halted(self, report: FlushReport) -> bool:
        """Offline, key refused, or the server asked us to wait: send nothing more now."""
        return report.offline or report.auth_error is not None or self.client.limiter.delay() > 0

    @staticmethod
    def _halt_on(outcome: Outcome, report: FlushReport) -> Outcome:
        if outcome.halt == HALT_OFFLINE:
            report.offline, report.offline_error = True, outcome.message
        elif outcome.halt == HALT_AUTH:
            report.auth_error = outcome.message
        return outcome

    async def _wind_down(self, pass_: _Pass, report: FlushReport) -> None:
        """Finish the commit under way and the sends in flight, record every outcome, and put
        claimed-but-unsent ops back, so that no op is left in flight by this pass."""
        if pass_.commit is not None:
            await asyncio.wait({pass_.commit})
            self._tell(pass_.end_commit(), report)
        if pass_.running:
            finished, _ = await asyncio.wait(pass_.running)
            pass_.settled.extend(
                self._halt_on(t.result(), report) for t in finished if not t.cancelled() and t.exception() is None
            )
        unsent = [Outcome(op, PUT_BACK, answered=False) for op in pass_.ready]
        pass_.ready.clear()
        if pass_.settled or unsent:
            await self._blocking(self._record, [*pass_.settled, *unsent])
            self._tell(pass_.settled, report)

    def _skip_backoff(self) -> None:
        with self.store.write():
            for op in self.store.outbox_rows((PENDING, AMBIGUOUS)):
                if op.next_attempt_at > self.clock():
                    self.store.retry(op.op_id)

    def _record_and_claim(self, outcomes: list[Outcome], want: int) -> list[Op]:
        """One transaction: the finished sends' outcomes, then the next due ops claimed."""
        with self.store.write():
            self._record(outcomes)
            claimed = self.store.claim_due(self.clock(), limit=want) if want > 0 else []
            self._note_first_sends(claimed)
            return claimed

    def _note_first_sends(self, claimed: list[Op]) -> None:
        """Read back the first send time the claim just stored (the ops are handed over as
        before the claim) for ops whose request may be annotated."""
        first = [op.op_id for op in claimed if op.first_sent_at is None and annotated_late(op.kind)]
        if not self.annotate_late or not first:
            return
        self._first_sent.update(self.store.first_sent_at(first))

    def _record(self, outcomes: list[Outcome]) -> None:
        with self.store.write():
            self.store.mark_done_many(
                [(o.op.op_id, o.answer) for o in outcomes if o.kind in (DONE, RECONCILED, RESOLVED)]
            )
            for o in outcomes:
                if o.kind == RETRY:
                    assert o.next_attempt_at is not None, "a retry is planned when it is classified"
                    self.store.mark_retry(o.op.op_id, o.next_attempt_at, o.message, o.not_before)
                elif o.kind == PUT_BACK:  # not tried: not an attempt
                    self.store.release_claim(o.op, o.message)
                elif o.kind == AMBIGUOUS_OUTCOME:
                    self.store.mark_ambiguous(o.op.op_id, o.next_attempt_at, o.message)
                elif o.kind == FAILED and o.lead_gone and o.op.lead_id is not None:
                    # One fact, one failure message: every op queued on the lead fails now.
                    self.store.mark_lead_gone(o.op.lead_id, o.message, o.op.op_id)
                elif o.kind == FAILED:
                    self.store.mark_failed(o.op.op_id, o.message or "refused by the service")


    def _tell(self, outcomes: list[Outcome], report: FlushReport) -> None:
        for outcome in outcomes:
            report.count(outcome)
            self._log(outcome)
            if outcome.lead_gone and outcome.op.lead_id is not None and self._on_lead_gone is not None:
                self._on_lead_gone(outcome.op.lead_id)

    def _log(self, outcome: Outcome) -> None:
        """One line in the log for each op settled (recorded): which op, what became of it
        and why, so that support can answer "why did this fail an hour ago"."""
        op = outcome.op
        lead = f" lead {op.lead_id}" if op.lead_id is not None else ""
        what = f"op {op.op_id} {op.kind}{lead} (attempt {op.attempts + 1})"
        why = f": {outcome.message}" if outcome.message else ""
        if outcome.kind in (DONE, RECONCILED, RESOLVED):
            how = {DONE: "delivered", RECONCILED: "found already applied (not resent)", RESOLVED: ALREADY_DISMISSED}
            log.info("%s %s", what, how[outcome.kind])
        elif outcome.kind == FAILED:
            gone = " (the lead is gone: its other queued ops fail too)" if outcome.lead_gone else ""
            log.info("%s failed%s%s", what, gone, why)  # the rep is told; stderr is not the place
        elif outcome.kind == PUT_BACK:  # not tried (offline, key refused) or claimed and left
            log.log(logging.INFO if outcome.message else logging.DEBUG, "%s put back unsent%s", what, why)
        else:  # RETRY or AMBIGUOUS_OUTCOME: tried again later
            state = "retry" if outcome.kind == RETRY else "may have been applied; checked before any resend"
            wait = (outcome.next_attempt_at or self.clock()) - self.clock()
            floor = ""
            if outcome.not_before is not None and outcome.not_before > self.clock():
                floor = f", not before the service's {outcome.not_before - self.clock():.0f} s"
            log.info("%s %s in %.0f s%s%s", what, state, max(0.0, wait), floor, why)

    # --- one op ------------------------------------------------------------------------------------

    async def _attempt(self, op: Op) -> Outcome:
        """Reconcile or send one claimed op and say what became of it (no store writes,
        except when cancelled mid-send, where nobody else is left to record it)."""
        try:
            if op.state == AMBIGUOUS:
                answer = await already_applied(self.client, self.store, op)
                if answer is not None:
                    return Outcome(op, RECONCILED, answer=answer)
            first_sent = op.first_sent_at or self._first_sent.pop(op.op_id, None)
            payload = payload_to_send(op, first_sent, self.annotate_late)
            try:
                answer = await send(self.client, op.kind, payload, op.op_id)
            except UnreadAnswerError as exc:
                log.info("op %s %s: answered 2xx without what we read (%s); confirming", op.op_id, op.kind, exc)
                answer = {}
            return await self._confirmed(op, answer)
        except asyncio.CancelledError:
            self.store.mark_ambiguous(op.op_id, self.clock(), "interrupted while sending")
            raise
        except ApiError as exc:
            return self._classify(op, exc)
        except Exception as exc:  # a bug must not leave the op in flight or lose it
            log.exception("unexpected error delivering %s %s", op.kind, op.op_id)
            message = f"internal error: {exc.__class__.__name__}: {exc}"
            return Outcome(op, AMBIGUOUS_OUTCOME, message=message, next_attempt_at=self._later(op), answered=False)

    async def _confirmed(self, op: Op, answer: Answer) -> Outcome:
        """A 2xx is delivery; whether the change shows decides done or failed (`confirm`).
        A re-read that fails leaves the delivery as answered: the 2xx stands."""
        try:
            verdict = await confirm(self.client, self.store, op, answer)
        except ApiError as exc:
            log.info("op %s %s delivered; could not read it back (%s)", op.op_id, op.kind, exc)
            return Outcome(op, DONE, answer=answer)
        if isinstance(verdict, Refused):
            return Outcome(op, FAILED, message=verdict.message)
        return Outcome(op, DONE, answer=verdict.answer)

    def _classify(self, op: Op, exc: ApiError) -> Outcome:
        now = self.clock()
        message = str(exc)
        answered = exc.status is not None  # an HTTP status came back (a gateway's counts)
        if isinstance(exc, RecommendationGoneError) and _decides_a_card(op.kind):
            return already_dismissed(op)
        if isinstance(exc, UnresponsiveSendError):
            # Sent, and no answer in time: it may have arrived (reconciled before any
            # resend), and a service that does not answer counts as offline: the pass stops.
            return Outcome(op, AMBIGUOUS_OUTCOME, message=message, next_attempt_at=self._later(op),
                           halt=HALT_OFFLINE, answered=False)
        if isinstance(exc, AuthError | OfflineError):
            halt = HALT_AUTH if isinstance(exc, AuthError) else HALT_OFFLINE
            return Outcome(op, PUT_BACK, message=message, halt=halt, answered=False)
        if isinstance(exc, InputError):
            return Outcome(op, FAILED, message=message)
        if isinstance(exc, LeadNotFoundError):
            return Outcome(op, FAILED, message=message, lead_gone=op.lead_id is not None)
        if exc.retryable:
            plan = plan_retry(self.backoff, op.attempts + 1, now, self._server_wait(exc, now))
            if op.state == AMBIGUOUS:
                # Our check or resend was refused unapplied; the first send is still unknown.
                return Outcome(op, AMBIGUOUS_OUTCOME, message=message, next_attempt_at=plan.next_attempt_at,
                               answered=answered)
            return Outcome(op, RETRY, message=message, next_attempt_at=plan.next_attempt_at,
                           not_before=plan.not_before, answered=answered)
        if exc.is_ambiguous:
            return Outcome(op, AMBIGUOUS_OUTCOME, message=message, next_attempt_at=self._later(op),
                           answered=answered)
        return Outcome(op, FAILED, message=message)

    def _later(self, op: Op) -> float:
        return self.clock() + self.backoff.delay(op.attempts + 1)

    def _server_wait(self, exc: ApiError, now: float) -> float | None:
        """Seconds the server asked us to wait: Retry-After, else the limiter's hold."""
        waits: list[float] = []
        if isinstance(exc, RateLimitedError) and exc.retry_after is not None:
            waits.append(exc.retry_after)
        blocked = self.client.limiter.state().blocked_until
        if blocked is not None and blocked > now:
            waits.append(blocked - now)
        return max(waits) if waits else None
