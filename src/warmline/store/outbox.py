"""The action outbox: every action a rep takes, until the server has it exactly once.

States an op goes through (docs/sync.md tells the rep's side):

    pending --mark_in_flight--> in_flight --mark_done------> done
       ^                           |  \\--mark_retry------> pending (not applied; later)
       |                           |  \\--mark_failed-----> failed  (server said no)
       |                           \\----mark_ambiguous---> ambiguous (may have applied)
       +------- retry / edit ------ failed
    recover_after_crash: in_flight of a sender that is gone, or whose lease ran out -> ambiguous

`mark_in_flight` is committed before the request leaves, so a crash at any moment leaves
either a pending op (never sent) or one we know may have been sent (ambiguous), which
the sync engine reconciles against the server before sending it again.

A claim names its sender by pid, boot id, PID namespace and start time (`Claim`), so a
pid reused by another process does not keep a dead sender's op in flight; a sender this
process cannot check (another PID namespace, no /proc, an older Warmline) is trusted for
its lease (`CLAIM_LEASE_SECONDS`), which a live sender renews at each of its commits.

Every wait is stored with its length (`hold_seconds`, `wait_seconds`) and is never more
than that length past now (`heal_times`): a clock that jumped, either way, delays an op
by at most the wait it was given. Inside one process, the undo window is measured on a
monotonic clock (`_hold_here`): a jump of the wall clock neither ends nor stretches it.

First in, first out per lead: only a lead's oldest op still queued (pending, in flight or
ambiguous) is due; a failed op is set aside and does not hold back the ops behind it. Ops
without a lead (job starts, adding companies to outreach) are independent.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import time
import uuid
from collections.abc import Iterable
from pathlib import Path

from warmline.config import MAX_UNDO_SECONDS
from warmline.named_tuple import NamedTuple
from warmline.store.clock import EpochClock, epoch_of, iso, system_clock
from warmline.store.database import Database, StoreError
from warmline.store.mapping import dumps
from warmline.store.rows import (
    AMBIGUOUS,
    DONE,
    EFFECT_STATES,
    FAILED,
    IN_FLIGHT,
    PENDING,
    QUEUE_STATES,
    Op,
    OutboxCounts,
    loads,
    op_from_row,
)
from warmline.store.values import JsonMap, JsonObject, SqlValue, column, nullable

# What the rep may discard: an op that is not being sent or delivered.
DISCARDABLE = (PENDING, AMBIGUOUS, FAILED)
_LIVE_STATES = "(" + ", ".join(f"'{state}'" for state in EFFECT_STATES) + ")"

# Lead records an op makes before the server has them (they carry its op id).
OP_MADE_TABLES = ("touchpoints", "notes", "competitors")

CLAIM_LEASE_SECONDS = 600.0
"""How long a claim stands without renewal. A live sender renews its claims at each commit
of its pass, and no request outlives its deadline (minutes), so only a sender that is gone
or stopped lets its lease run out. It decides only for senders this process cannot check."""

HOLD_CAP_SECONDS = MAX_UNDO_SECONDS
"""The window of a hold stored without its length (none is, since the migration): the
longest undo window the configuration allows."""

WAIT_CAP_SECONDS = 3600.0
"""The length of a retry wait stored without it: the longest wait the service may ask for
(`warmline.api.errors.MAX_WAIT_SECONDS`)."""

_PROC = Path("/proc")


class OpStateError(StoreError):
    """The op is not in a state that allows this (e.g. undo after it was sent)."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, ValueError):  # not a pid this system can have
        return False
    return True


@functools.cache
def _boot_id() -> str:
    """This boot's id (Linux); "" where there is none to read. Constant while we run."""
    try:
        return (_PROC / "sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _pid_namespace() -> str:
    """The inode of this process's PID namespace ("4026531836"); "" where unknown."""
    try:
        link = os.readlink(_PROC / "self/ns/pid")
    except OSError:
        return ""
    return "".join(ch for ch in link if ch.isdigit())


def _start_ticks(pid: int) -> str | None:
    """When process `pid` started, in clock ticks after boot (/proc/<pid>/stat, field 22);
    None when no such process is running here (none, or a zombie: killed, not yet reaped)."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except (OSError, ValueError):
        return None
    fields = stat.rsplit(")", 1)[-1].split()  # after the command name, which may hold spaces
    if len(fields) <= 19 or fields[0] in ("Z", "X"):
        return None
    return fields[19]


class Claim(NamedTuple):
    """Who claimed an op: `pid:tag:boot/namespace/start` (`claimed_by`). `identity` is ""
    when the claimant could not say (no /proc) or wrote the older `pid:tag`."""

    pid: int | None
    identity: str

    @classmethod
    def of_this_process(cls) -> str:
        """A new claimant id for a Store of this process."""
        pid = os.getpid()
        parts = (_boot_id(), _pid_namespace(), _start_ticks(pid) or "")
        identity = "/".join(parts) if all(parts) else ""
        return f"{pid}:{uuid.uuid4().hex[:8]}:{identity}"

    @classmethod
    def parse(cls, claimant: str) -> Claim:
        pid_text, _tag, identity = (claimant.split(":", 2) + ["", ""])[:3]
        pid = int(pid_text) if pid_text.isascii() and pid_text.isdigit() else None
        return cls(pid, identity)

    def sender_alive(self) -> bool | None:
        """True: the process that claimed runs (its pid still has the start time it claimed
        with). False: it is gone (its pid is free or reused, or it ran before this boot).
        None: this process cannot tell (another PID namespace, no /proc, no identity)."""
        if self.pid is None:
            return False
        boot, _, rest = self.identity.partition("/")
        namespace, _, start = rest.partition("/")
        if not (boot and namespace and start and _boot_id()):
            return None
        if boot != _boot_id():
            return False
        if namespace != _pid_namespace():
            return None
        return _start_ticks(self.pid) == start


# An op naming a record made offline (a negative id anywhere in its payload, a list of
# company ids included, other than the create's own `local_id`) waits for the create: delivering it puts the service's id in the payload
# (`store.effects.substitute_id`), in the transaction that marks the create done.
_NAMES_NO_LOCAL_ID = (
    "NOT EXISTS (SELECT 1 FROM json_tree(o.payload) j"
    " WHERE j.type = 'integer' AND j.value < 0 AND j.key != 'local_id')"
)

# The wait of an op made due now (`?`: now) whose Retry-After still stands.
_WAIT_FOR_NOT_BEFORE = "max(0.0, coalesce(not_before, 0) - ?)"


class OutboxStore(Database):
    """Outbox operations; mixed into `warmline.store.Store`."""

    def __init__(self, path: Path | str, clock: EpochClock = system_clock) -> None:
        super().__init__(path, clock)
        # Who claims in-flight ops: this process (pid, boot, start time) and this Store, so
        # that recovery can tell a crashed sender from a live one in another process.
        self.claimant = Claim.of_this_process()
        self.monotonic: EpochClock = time.monotonic if clock is system_clock else clock
        """Measures the undo windows of this process's holds. A store on an injected clock
        (a test's) measures them on that clock."""
        self._holds_here: dict[str, float] = {}  # op id -> end of its window (self.monotonic)

    # --- queueing (used by warmline.actions) ---------------------------------------------

    def enqueue_in(
        self,
        conn: sqlite3.Connection,
        kind: str,
        payload: JsonMap,
        lead_id: int | None = None,
        meta: JsonMap | None = None,
        hold_seconds: float = 0.0,
    ) -> str:
        """Queue an op and apply its local effect, inside the caller's write transaction.

        `hold_seconds` (the cockpit's undo window) keeps the op from being sent before
        then by anyone: `due_ops` is the only way to an op, for every process.
        """
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import apply_op, knows_kind

        if not knows_kind(kind):
            raise StoreError(f"unknown op kind {kind!r}")
        now = self.clock()
        op_id = uuid.uuid4().hex
        info = {"queued_offline": self._offline(conn), **(meta or {})}
        held = hold_seconds if hold_seconds > 0 else None
        conn.execute(
            "INSERT INTO outbox (op_id, kind, lead_id, payload, meta, state, attempts, created_at,"
            " next_attempt_at, wait_seconds, hold_until, hold_seconds, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, 0, ?, ?, ?)",
            (op_id, kind, lead_id, dumps(dict(payload)), dumps(info), iso(now), now,
             None if held is None else now + held, held, iso(now)),
        )
        apply_op(conn, self._op_in(conn, op_id))
        if held is not None:
            self._hold_here(op_id, held)
        return op_id

    def enqueue(
        self,
        kind: str,
        payload: JsonMap,
        lead_id: int | None = None,
        meta: JsonMap | None = None,
        hold_seconds: float = 0.0,
    ) -> str:
        """Queue an op and apply its local effect in one transaction; returns the op id."""
        with self.write() as conn:
            return self.enqueue_in(conn, kind, payload, lead_id, meta, hold_seconds)

    def next_local_id(self, conn: sqlite3.Connection) -> int:
        """A local id for a record made offline, inside the caller's write transaction:
        below every id the contacts, the companies and the outbox hold, so never one in use
        or queued (contacts and companies draw from one sequence: a local id names one record)."""
        lowest = conn.execute(
            "SELECT min(-1, coalesce((SELECT min(id) FROM contacts), 0) - 1,"
            " coalesce((SELECT min(id) FROM companies), 0) - 1,"
            " coalesce((SELECT min(json_extract(payload, '$.local_id')) FROM outbox), 0) - 1)"
        ).fetchone()[0]
        return int(lowest)

    def made_offline(self, local_id: int) -> bool:
        """Whether `local_id` names a record made offline whose create is still live."""
        return bool(self.scalar(
            f"SELECT EXISTS (SELECT 1 FROM outbox WHERE state IN {_LIVE_STATES}"
            " AND json_extract(payload, '$.local_id') = ?)",
            (local_id,),
        ))

    def _offline(self, conn: sqlite3.Connection) -> bool:
        found = conn.execute("SELECT value FROM sync_state WHERE key = 'online'").fetchone()
        return found is not None and found[0] == "false"

    # --- reading ----------------------------------------------------------------------------

    def _op_in(self, conn: sqlite3.Connection, op_id: str) -> Op:
        cursor = conn.execute("SELECT * FROM outbox WHERE op_id = ?", (op_id,))
        names = [d[0] for d in cursor.description]
        found = cursor.fetchone()
        if found is None:
            raise OpStateError(f"no queued action {op_id}")
        return op_from_row(dict(zip(names, found, strict=True)))

    def get_op(self, op_id: str) -> Op | None:
        found = self.row("SELECT * FROM outbox WHERE op_id = ?", (op_id,))
        return None if found is None else op_from_row(found)

    def first_sent_at(self, op_ids: Iterable[str]) -> dict[str, str | None]:
        """When each op was first sent (stored by the claim that sent it)."""
        ids = list(op_ids)
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        found = self.rows(f"SELECT op_id, first_sent_at FROM outbox WHERE op_id IN ({marks})", ids)
        return {str(row["op_id"]): nullable(row["first_sent_at"], str) for row in found}

    def ids_made_by_other_ops(self, table: str, lead_id: int | None, op_id: str) -> set[int]:
        """Server ids of a lead's touchpoints, notes or competitors that an op other than
        `op_id` made (delivered, or adopted by reconciliation)."""
        if table not in OP_MADE_TABLES:
            raise ValueError(f"table must be one of {OP_MADE_TABLES}")
        found = self.ids(
            f"SELECT id FROM {table} WHERE lead_id = ? AND id IS NOT NULL AND op_id IS NOT NULL AND op_id != ?",
            (lead_id, op_id),
        )
        return set(found)

    def other_done_results(self, lead_id: int | None, kind: str, op_id: str) -> list[JsonObject]:
        """The answers the service gave the lead's other delivered ops of `kind`."""
        found = self.rows(
            "SELECT result FROM outbox WHERE lead_id IS ? AND kind = ? AND state = 'done' AND op_id != ?",
            (lead_id, kind, op_id),
        )
        results = [loads(row["result"], {}) for row in found]
        return [result for result in results if isinstance(result, dict)]

    def find_op(self, prefix: str) -> Op:
        """The op whose id starts with `prefix` (the CLI shows short ids)."""
        found = self.rows("SELECT * FROM outbox WHERE op_id LIKE ? || '%' LIMIT 2", (prefix.lower(),))
        if not found:
            raise OpStateError(f"no queued action {prefix}")
        if len(found) > 1:
            raise OpStateError(f"{prefix} matches several actions; give more of the id")
        return op_from_row(found[0])

    def outbox_rows(self, states: tuple[str, ...] = EFFECT_STATES, lead_id: int | None = None) -> list[Op]:
        """Ops for the outbox screen (all but delivered ones by default), oldest first."""
        marks = ", ".join("?" for _ in states)
        sql = f"SELECT * FROM outbox WHERE state IN ({marks})"
        params: list[SqlValue] = list(states)
        if lead_id is not None:
            sql += " AND lead_id = ?"
            params.append(lead_id)
        return [op_from_row(r) for r in self.rows(sql + " ORDER BY seq", params)]

    def outbox_counts(self) -> OutboxCounts:
        counts = dict.fromkeys((PENDING, IN_FLIGHT, AMBIGUOUS, FAILED), 0)
        for row in self.rows("SELECT state, count(*) AS n FROM outbox WHERE state != 'done' GROUP BY state"):
            counts[column(row["state"], str)] = column(row["n"], int)
        return OutboxCounts(counts[PENDING], counts[IN_FLIGHT], counts[AMBIGUOUS], counts[FAILED])

    def due_ops(self, now: float | None = None, limit: int = 100, *, ignore_backoff: bool = False) -> list[Op]:
        """Ops to send now: each lead's oldest queued op (if due) and due lead-less ops.

        `ignore_backoff` (for `warmline sync --once`, the rep asked) skips the backoff
        delay but still honours the server's Retry-After (`not_before`) and the rep's undo
        window (`hold_until`): nothing reaches an op but through here, so no path (a wake,
        the tick, `sync --once`, another process) sends a held op early. A held op also
        holds back its lead's later ops, which keeps the lead's order. An op this process
        holds goes by its monotonic window, not by `hold_until` (`_hold_here`).

        Waits stored under a clock that has since moved back are healed first
        (`heal_times`), so that no op, and no lead behind it, waits for the jump.
        """
        moment = self.clock() if now is None else now
        self.heal_times(moment)
        held, ended = self._holds_now()
        rows = self.rows(
            "SELECT o.* FROM outbox o"
            " WHERE o.state IN ('pending', 'ambiguous')"
            " AND (? OR o.next_attempt_at <= ?) AND coalesce(o.not_before, 0) <= ?"
            " AND (coalesce(o.hold_until, 0) <= ? OR o.op_id IN (SELECT value FROM json_each(?)))"
            " AND o.op_id NOT IN (SELECT value FROM json_each(?))"
            f" AND {_NAMES_NO_LOCAL_ID}"
            " AND (o.lead_id IS NULL OR o.seq = ("
            "   SELECT min(x.seq) FROM outbox x WHERE x.lead_id = o.lead_id"
            "   AND x.state IN ('pending', 'in_flight', 'ambiguous')))"
            " ORDER BY o.seq LIMIT ?",
            (1 if ignore_backoff else 0, moment, moment, moment, json.dumps(ended), json.dumps(held), limit),
        )
        return [op_from_row(r) for r in rows]

    def next_due_at(self) -> float | None:
        """When the earliest queued op becomes due (for the scheduler to sleep until)."""
        self.heal_times()
        found = self.scalar(
            "SELECT min(max(next_attempt_at, coalesce(not_before, 0), coalesce(hold_until, 0))) FROM outbox"
            " WHERE state IN ('pending', 'ambiguous')"
        )
        return nullable(found, float)

    # --- waits that heal themselves ------------------------------------------------------------

    # Rows with a wait further from now than its length: stored under a clock that was
    # ahead then, or that has moved back since (named parameters: `_cap_parameters`).
    _TIMES_OFF = (
        "state IN ('pending', 'in_flight', 'ambiguous', 'failed')"
        " AND (hold_until > :now + coalesce(hold_seconds, :hold_cap)"
        " OR next_attempt_at > :now + coalesce(wait_seconds, :wait_cap)"
        " OR not_before > :now + coalesce(wait_seconds, :wait_cap)"
        " OR claim_until > :now + :lease)"
    )

    @staticmethod
    def _cap_parameters(now: float) -> dict[str, float]:
        return {"now": now, "hold_cap": HOLD_CAP_SECONDS, "wait_cap": WAIT_CAP_SECONDS, "lease": CLAIM_LEASE_SECONDS}

    def heal_times(self, now: float | None = None) -> int:
        """Bring every wait to at most its length past now; returns how many ops it moved.

        A hold is at most its undo window away, a retry at most the wait it was given, a
        claim's lease at most `CLAIM_LEASE_SECONDS`. Written, not only read capped, so
        that the op then comes due as the wait would have. Only looks (no transaction)
        when nothing is off, the usual case; does nothing inside a read transaction.
        """
        params = self._cap_parameters(self.clock() if now is None else now)
        if self._txn == "read" or not self.scalar(f"SELECT EXISTS (SELECT 1 FROM outbox WHERE {self._TIMES_OFF})", params):
            return 0
        with self.write() as conn:
            return conn.execute(
                "UPDATE outbox SET hold_until = min(hold_until, :now + coalesce(hold_seconds, :hold_cap)),"
                " next_attempt_at = min(next_attempt_at, :now + coalesce(wait_seconds, :wait_cap)),"
                " not_before = min(not_before, :now + coalesce(wait_seconds, :wait_cap)),"
                f" claim_until = min(claim_until, :now + :lease) WHERE {self._TIMES_OFF}",
                params,
            ).rowcount

    # --- this process's undo windows ------------------------------------------------------------

    def _hold_here(self, op_id: str, seconds: float) -> None:
        """Hold an op this process queued for `seconds` on the monotonic clock. Its
        `hold_until` tells other processes; here the monotonic window decides, so a wall
        clock jumping forward does not send it early, nor one jumping back hold it longer."""
        with self._lock:
            self._holds_here[op_id] = self.monotonic() + seconds

    def _holds_now(self) -> tuple[list[str], list[str]]:
        """(ops this process still holds, ops whose window here has ended)."""
        moment = self.monotonic()
        with self._lock:
            held = [op_id for op_id, until in self._holds_here.items() if until > moment]
            ended = [op_id for op_id, until in self._holds_here.items() if until <= moment]
        return held, ended

    def release_own_holds(self) -> int:
        """End every undo window this process holds, now (it is quitting, or was told to
        stop: SIGTERM, SIGHUP): its decisions are sent by the next sync, by any process,
        instead of waiting out a window nobody can undo in any more."""
        with self._lock:
            op_ids = list(self._holds_here)
        return self.release_holds(op_ids)

    # --- outcomes (used by warmline.sync) ----------------------------------------------------

    def mark_in_flight(self, op_id: str) -> bool:
        """Claim the op for sending; committed before the request leaves. False if taken."""
        with self.write() as conn:
            return self._claim(conn, op_id)

    def _claim(self, conn: sqlite3.Connection, op_id: str) -> bool:
        moment = self.clock()
        now = iso(moment)
        claimed = conn.execute(
            "UPDATE outbox SET state = 'in_flight', attempts = attempts + 1,"
            " first_sent_at = coalesce(first_sent_at, ?), claimed_by = ?, claim_until = ?, updated_at = ?"
            " WHERE op_id = ? AND state IN ('pending', 'ambiguous')",
            (now, self.claimant, moment + CLAIM_LEASE_SECONDS, now, op_id),
        ).rowcount
        return claimed == 1

    def claim_due(self, now: float | None = None, limit: int = 100, *, ignore_backoff: bool = False) -> list[Op]:
        """`due_ops` and `mark_in_flight` for all of them in one transaction (one disk sync).

        The ops are returned as they were before the claim, so `state` still says which
        were ambiguous and must be reconciled before sending. The same transaction renews
        the lease of this Store's other claims (the sends of its pass still under way),
        and writes out the holds whose window here has ended.
        """
        with self.write() as conn:
            self._end_holds_here(conn)
            self._renew_claims(conn)
            due = self.due_ops(now, limit, ignore_backoff=ignore_backoff)
            return [op for op in due if self._claim(conn, op.op_id)]

    def _renew_claims(self, conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE outbox SET claim_until = ? WHERE state = 'in_flight' AND claimed_by = ?",
            (self.clock() + CLAIM_LEASE_SECONDS, self.claimant),
        )

    def _end_holds_here(self, conn: sqlite3.Connection) -> None:
        """Holds whose monotonic window here has ended: ended in the cache too, for every
        process, and forgotten here."""
        _held, ended = self._holds_now()
        if ended:
            conn.execute(
                "UPDATE outbox SET hold_until = NULL WHERE op_id IN (SELECT value FROM json_each(?))",
                (json.dumps(ended),),
            )
            self._forget_holds(ended)

    def _forget_holds(self, op_ids: Iterable[str]) -> None:
        with self._lock:
            for op_id in op_ids:
                self._holds_here.pop(op_id, None)

    def release_claim(self, op: Op, error: str | None = None) -> bool:
        """A claimed op that was not tried goes back exactly as it was claimed (`op` is the
        op as `claim_due` returned it: before the claim), due at once.

        For ops claimed ahead and never sent, sends that never reached the service
        (offline), and sends refused for our key before the service looked at them: none
        applied anything, so the attempt count and first send time are restored, and the
        op stays undoable and keeps its id when edited, like an op never sent.
        """
        now = self.clock()
        with self.write() as conn:
            released = conn.execute(
                f"UPDATE outbox SET state = ?, attempts = ?, first_sent_at = ?, next_attempt_at = ?,"
                f" wait_seconds = {_WAIT_FOR_NOT_BEFORE}, last_error = coalesce(?, last_error), claimed_by = NULL,"
                f" updated_at = ? WHERE op_id = ? AND state = 'in_flight'",
                (op.state, op.attempts, op.first_sent_at, now, now, error, iso(now), op.op_id),
            ).rowcount
        return released == 1

    def mark_done(self, op_id: str, result: JsonMap | None = None) -> bool:
        """The server has the op: fold its answer into the cache. False if already done or gone."""
        return self.mark_done_many([(op_id, result)]) == 1

    def mark_done_many(self, outcomes: Iterable[tuple[str, JsonMap | None]]) -> int:
        """Several delivered ops in one transaction (one disk sync); returns how many were new.

        Safe to defer: until this commits, a crash leaves the ops in flight, and recovery
        marks them ambiguous, which the sync engine reconciles against the server.
        """
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import fold_answer, rebase

        now = self.clock()
        recorded = 0
        with self.write() as conn:
            for op_id, result in outcomes:
                try:
                    op = self._op_in(conn, op_id)
                except OpStateError:
                    continue
                if op.state == DONE:
                    continue
                fold_answer(conn, op, result, now)
                conn.execute(
                    "UPDATE outbox SET state = 'done', result = ?, last_error = NULL, claimed_by = NULL,"
                    " updated_at = ? WHERE op_id = ?",
                    (dumps(dict(result or {})), iso(now), op_id),
                )
                rebase(conn, op.lead_id)
                recorded += 1
        return recorded

    def mark_retry(
        self,
        op_id: str,
        next_attempt_at: float,
        error: str | None = None,
        not_before: float | None = None,
    ) -> bool:
        """Not applied, try again later (`not_before`: the server's Retry-After, a hard floor)."""
        return self._set_state(
            op_id, PENDING, (IN_FLIGHT, PENDING, AMBIGUOUS), next_attempt_at, error, not_before
        )

    def mark_ambiguous(
        self, op_id: str, next_attempt_at: float | None = None, error: str | None = None
    ) -> bool:
        """Sent, but whether it applied is unknown: reconcile before sending again."""
        moment = self.clock() if next_attempt_at is None else next_attempt_at
        return self._set_state(op_id, AMBIGUOUS, (IN_FLIGHT, PENDING, AMBIGUOUS), moment, error, None)

    def mark_failed(self, op_id: str, message: str) -> bool:
        """The server refused it for good: set aside with its message for the rep to fix."""
        return self._set_state(op_id, FAILED, (IN_FLIGHT, PENDING, AMBIGUOUS), None, message, None)

    def _set_state(
        self,
        op_id: str,
        state: str,
        allowed: tuple[str, ...],
        next_attempt_at: float | None,
        error: str | None,
        not_before: float | None,
    ) -> bool:
        now = self.clock()
        marks = ", ".join("?" for _ in allowed)
        # The wait's length, kept so that a clock jump heals to it (`heal_times`).
        wait = None if next_attempt_at is None else max(0.0, max(next_attempt_at, not_before or 0.0) - now)
        with self.write() as conn:
            changed = conn.execute(
                f"UPDATE outbox SET state = ?, next_attempt_at = coalesce(?, next_attempt_at),"
                f" wait_seconds = coalesce(?, wait_seconds),"
                f" last_error = coalesce(?, last_error), not_before = ?, claimed_by = NULL, updated_at = ?"
                f" WHERE op_id = ? AND state IN ({marks})",
                (state, next_attempt_at, wait, error, not_before, iso(now), op_id, *allowed),
            ).rowcount
        return changed == 1

    def release_holds(self, op_ids: Iterable[str]) -> int:
        """End the undo window of these ops now (the rep quit): they are sent at once."""
        ids = list(op_ids)
        if not ids:
            return 0
        self._forget_holds(ids)
        with self.write() as conn:
            return conn.execute(
                "UPDATE outbox SET hold_until = NULL WHERE hold_until IS NOT NULL"
                " AND op_id IN (SELECT value FROM json_each(?))",
                (json.dumps(ids),),
            ).rowcount

    def recover_after_crash(self) -> int:
        """Ops left in flight by a sender that is gone, or whose lease ran out, become
        ambiguous: reconciled with the service before anything is resent, never resent
        blindly and never left in flight. Waits stored under a wrong clock heal too.

        Run at start-up, and by the engine now and then while it runs (a sender in another
        PID namespace may die at any time). Only looks (no transaction) when nothing is left.
        """
        now = self.clock()
        self.heal_times(now)
        in_flight = [op_from_row(row) for row in self.rows("SELECT * FROM outbox WHERE state = 'in_flight'")]
        stale = [(op.op_id, op.claimed_by) for op in in_flight if not self._claim_is_live(op, now)]
        if not stale:
            return 0
        recovered = 0
        with self.write() as conn:
            for op_id, claimant in stale:
                recovered += conn.execute(
                    "UPDATE outbox SET state = 'ambiguous', claimed_by = NULL, updated_at = ?"
                    " WHERE op_id = ? AND state = 'in_flight' AND claimed_by IS ?",
                    (iso(now), op_id, claimant),
                ).rowcount
        return recovered

    def _claim_is_live(self, op: Op, now: float) -> bool:
        """Whether an in-flight op's claim still stands.

        This Store's own claims stand. A sender this process can check stands while it
        runs: the same pid with the same start time, in this boot and PID namespace (a pid
        now used by another process is not it; an earlier Store of this very process has
        crashed or closed). One it cannot check (another PID namespace, no /proc, a claim
        written by an older Warmline) stands until its lease runs out, and an older claim
        whose pid is free here ends at once.
        """
        claimant = op.claimed_by
        if not claimant:
            return False
        if claimant == self.claimant:
            return True
        claim = Claim.parse(claimant)
        alive = claim.sender_alive()
        if alive is not None:
            return alive and claim.pid != os.getpid()
        if not claim.identity and (claim.pid is None or claim.pid == os.getpid() or not _pid_alive(claim.pid)):
            return False
        return now <= self._lease_end(op)

    @staticmethod
    def _lease_end(op: Op) -> float:
        """When a claim's lease runs out: an older claim, stored without one, from its time."""
        if op.claim_until is not None:
            return op.claim_until
        claimed_at = epoch_of(op.updated_at)
        return -1.0 if claimed_at is None else claimed_at + CLAIM_LEASE_SECONDS

    # --- the rep's fixes (outbox screen, `warmline outbox ...`, undo) --------------------------

    def retry(self, op_id: str) -> bool:
        """Send again now: a failed op goes back to pending; a waiting op skips its backoff."""
        return self._retry("op_id = ?", (op_id,)) == 1

    def retry_all(self) -> int:
        return self._retry("1", ())

    def _retry(self, which: str, params: tuple[SqlValue, ...]) -> int:
        now = self.clock()
        with self.write() as conn:
            return conn.execute(
                f"UPDATE outbox SET state = CASE state WHEN 'failed' THEN 'pending' ELSE state END,"
                f" next_attempt_at = ?, wait_seconds = {_WAIT_FOR_NOT_BEFORE}, updated_at = ?"
                f" WHERE {which} AND state IN ('failed', 'pending', 'ambiguous')",
                (now, now, iso(now), *params),
            ).rowcount

    def discard(self, op_id: str) -> Op:
        """Drop an op that is not being sent and revert its local effect.

        An op in flight whose claim no longer stands (its sender is gone, or its lease ran
        out) is taken over first: it may have reached the service, so it is dropped as an
        ambiguous op is. One still being sent is refused with what the rep can do."""
        with self.write() as conn:
            op = self._op_in(conn, op_id)
            if op.state == IN_FLIGHT:
                self._take_over(conn, op)
            return self._remove(op_id, DISCARDABLE, "was already delivered")

    def _take_over(self, conn: sqlite3.Connection, op: Op) -> None:
        """An in-flight op whose claim no longer stands becomes ambiguous; raises
        `OpStateError` saying what can be done while its sender is still at it."""
        now = self.clock()
        if not self._claim_is_live(op, now):
            conn.execute(
                "UPDATE outbox SET state = 'ambiguous', claimed_by = NULL, updated_at = ? WHERE op_id = ?",
                (iso(now), op.op_id),
            )
            return
        raise OpStateError(f"cannot discard it yet: {self._sender_words(op, now)}")

    def _sender_words(self, op: Op, now: float) -> str:
        """Who is sending an op, and what the rep can do meanwhile."""
        if op.claimed_by == self.claimant:
            return "it is being sent right now; once the service has answered, discard it if it is still queued"
        claim = Claim.parse(op.claimed_by or "")
        if claim.sender_alive():
            return (f"process {claim.pid} is sending it right now; discard it once that send has ended, or stop"
                    " that process (its send is then checked against the service before anything is resent)")
        left = max(0.0, self._lease_end(op) - now)
        return (f"process {claim.pid}, which this process cannot check, claimed it to send; if that process is"
                f" gone, its claim runs out in {left:.0f} s and it can be discarded then")

    def undo(self, op_id: str) -> Op:
        """Take back an action that was never sent: as if it had not happened."""
        with self.write():
            op = self._op_in(self.conn, op_id)
            if not op.undoable:
                raise OpStateError("too late to undo: it has already been sent")
            return self._remove(op_id, (PENDING,), "has already been sent")

    def _remove(self, op_id: str, allowed: tuple[str, ...], why: str) -> Op:
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import rebase

        with self.write() as conn:
            op = self._op_in(conn, op_id)
            if op.state not in allowed:
                raise OpStateError(f"cannot remove this action: it {why}")
            conn.execute("DELETE FROM outbox WHERE op_id = ?", (op_id,))
            rebase(conn, op.lead_id)
            dependents = self._dependents(conn, op)
            for lead_id in {lead for _, lead in dependents}:
                rebase(conn, lead_id)
        self._forget_holds([op_id, *(dependent for dependent, _ in dependents)])
        return op

    def _dependents(self, conn: sqlite3.Connection, op: Op) -> list[tuple[str, int | None]]:
        """Removing a create of a record made offline removes the ops that name it too:
        they can never be sent without it (none is in flight: they wait for the create).
        A create among them (a contact on a company made offline) takes its own along."""
        local = op.payload.get("local_id")
        if not isinstance(local, int) or local >= 0:
            return []
        return self._naming(conn, local)

    def _naming(self, conn: sqlite3.Connection, local: int) -> list[tuple[str, int | None]]:
        found = conn.execute(
            f"SELECT DISTINCT o.op_id, o.lead_id, json_extract(o.payload, '$.local_id')"
            f" FROM outbox o, json_tree(o.payload) j WHERE o.state IN {_LIVE_STATES}"
            " AND j.type = 'integer' AND j.key IS NOT 'local_id' AND j.value = ?",
            (local,),
        ).fetchall()
        conn.execute(
            "DELETE FROM outbox WHERE op_id IN (SELECT value FROM json_each(?))", (json.dumps([f[0] for f in found]),)
        )
        removed = [(str(f[0]), f[1]) for f in found]
        for _op_id, _lead_id, made in found:
            if isinstance(made, int) and made < 0:
                removed += self._naming(conn, made)
        return removed

    def edit_in(self, conn: sqlite3.Connection, op_id: str, payload: JsonMap, meta: JsonMap | None = None) -> str:
        """Replace a pending or failed op's payload (already validated); returns its op id.

        An op that was sent before gets a new id: its old Idempotency-Key is tied to the
        old body on the server, and a pending or failed op is known not to have applied.
        """
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import forget_pending_rows, rebase

        op = self._op_in(conn, op_id)
        if op.state not in (PENDING, FAILED):
            raise OpStateError("only a waiting or failed action can be edited")
        now = self.clock()
        new_id = op_id if op.attempts == 0 else uuid.uuid4().hex
        conn.execute(
            "UPDATE outbox SET op_id = ?, payload = ?, meta = ?, state = 'pending', attempts = 0,"
            " first_sent_at = NULL, next_attempt_at = ?, wait_seconds = 0, not_before = NULL, last_error = NULL,"
            " updated_at = ? WHERE op_id = ?",
            (new_id, dumps(dict(payload)), dumps({**op.meta, **(meta or {})}), now, iso(now), op_id),
        )
        forget_pending_rows(conn, op_id)
        rebase(conn, op.lead_id)
        return new_id

    def purge_done(self, before: float) -> int:
        """Forget delivered ops older than `before` (epoch seconds)."""
        with self.write() as conn:
            return conn.execute(
                "DELETE FROM outbox WHERE state = 'done' AND updated_at < ?", (iso(before),)
            ).rowcount


__all__ = ["OpStateError", "OutboxStore", "QUEUE_STATES"]
