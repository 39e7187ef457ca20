"""The action outbox: every action a rep takes, until the server has it exactly once.

States an op goes through (docs/sync.md tells the rep's side):

    pending --mark_in_flight--> in_flight --mark_done------> done
       ^                           |  \\--mark_retry------> pending (not applied; later)
       |                           |  \\--mark_failed-----> failed  (server said no)
       |                           \\----mark_ambiguous---> ambiguous (may have applied)
       +------- retry / edit ------ failed
    recover_after_crash: in_flight of a dead process -> ambiguous

`mark_in_flight` is committed before the request leaves, so a crash at any moment leaves
either a pending op (never sent) or one we know may have been sent (ambiguous), which
the sync engine reconciles against the server before sending it again.

First in, first out per lead: only a lead's oldest op still queued (pending, in flight or
ambiguous) is due; a failed op is set aside and does not hold back the ops behind it. Ops
without a lead (job starts, adding companies to outreach) are independent.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterable
from pathlib import Path

from warmline.store.clock import EpochClock, iso, system_clock
from warmline.store.database import Database, StoreError
from warmline.store.effects import KINDS, fold_answer, forget_pending_rows, rebase
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
)
from warmline.store.values import JsonMap, JsonObject, SqlValue, column, nullable

# What the rep may discard: an op that is not being sent or delivered.
DISCARDABLE = (PENDING, AMBIGUOUS, FAILED)

# Lead records an op makes before the server has them (they carry its op id).
OP_MADE_TABLES = ("touchpoints", "notes", "competitors")


class OpStateError(StoreError):
    """The op is not in a state that allows this (e.g. undo after it was sent)."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class OutboxStore(Database):
    """Outbox operations; mixed into `warmline.store.Store`."""

    def __init__(self, path: Path | str, clock: EpochClock = system_clock) -> None:
        super().__init__(path, clock)
        # Who claims in-flight ops: this process and this Store, so that start-up recovery
        # can tell a crashed sender from a live one in another process.
        self.claimant = f"{os.getpid()}:{uuid.uuid4().hex[:8]}"

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
        if kind not in KINDS:
            raise StoreError(f"unknown op kind {kind!r}")
        now = self.clock()
        op_id = uuid.uuid4().hex
        info = {"queued_offline": self._offline(conn), **(meta or {})}
        hold_until = now + hold_seconds if hold_seconds > 0 else None
        conn.execute(
            "INSERT INTO outbox (op_id, kind, lead_id, payload, meta, state, attempts, created_at,"
            " next_attempt_at, hold_until, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)",
            (op_id, kind, lead_id, dumps(dict(payload)), dumps(info), iso(now), now, hold_until, iso(now)),
        )
        KINDS[kind].apply(conn, self._op_in(conn, op_id))
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
        return Op.from_row(dict(zip(names, found, strict=True)))

    def get_op(self, op_id: str) -> Op | None:
        found = self.row("SELECT * FROM outbox WHERE op_id = ?", (op_id,))
        return None if found is None else Op.from_row(found)

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
            "SELECT result FROM outbox WHERE lead_id = ? AND kind = ? AND state = 'done' AND op_id != ?",
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
        return Op.from_row(found[0])

    def outbox_rows(self, states: tuple[str, ...] = EFFECT_STATES, lead_id: int | None = None) -> list[Op]:
        """Ops for the outbox screen (all but delivered ones by default), oldest first."""
        marks = ", ".join("?" for _ in states)
        sql = f"SELECT * FROM outbox WHERE state IN ({marks})"
        params: list[SqlValue] = list(states)
        if lead_id is not None:
            sql += " AND lead_id = ?"
            params.append(lead_id)
        return [Op.from_row(r) for r in self.rows(sql + " ORDER BY seq", params)]

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
        holds back its lead's later ops, which keeps the lead's order.
        """
        moment = self.clock() if now is None else now
        rows = self.rows(
            "SELECT o.* FROM outbox o"
            " WHERE o.state IN ('pending', 'ambiguous')"
            " AND (? OR o.next_attempt_at <= ?) AND coalesce(o.not_before, 0) <= ?"
            " AND coalesce(o.hold_until, 0) <= ?"
            " AND (o.lead_id IS NULL OR o.seq = ("
            "   SELECT min(x.seq) FROM outbox x WHERE x.lead_id = o.lead_id"
            "   AND x.state IN ('pending', 'in_flight', 'ambiguous')))"
            " ORDER BY o.seq LIMIT ?",
            (1 if ignore_backoff else 0, moment, moment, moment, limit),
        )
        return [Op.from_row(r) for r in rows]

    def next_due_at(self) -> float | None:
        """When the earliest queued op becomes due (for the scheduler to sleep until)."""
        found = self.scalar(
            "SELECT min(max(next_attempt_at, coalesce(not_before, 0), coalesce(hold_until, 0))) FROM outbox"
            " WHERE state IN ('pending', 'ambiguous')"
        )
        return nullable(found, float)

    # --- outcomes (used by warmline.sync) ----------------------------------------------------

    def mark_in_flight(self, op_id: str) -> bool:
        """Claim the op for sending; committed before the request leaves. False if taken."""
        with self.write() as conn:
            return self._claim(conn, op_id)

    def _claim(self, conn: sqlite3.Connection, op_id: str) -> bool:
        now = iso(self.clock())
        claimed = conn.execute(
            "UPDATE outbox SET state = 'in_flight', attempts = attempts + 1,"
            " first_sent_at = coalesce(first_sent_at, ?), claimed_by = ?, updated_at = ?"
            " WHERE op_id = ? AND state IN ('pending', 'ambiguous')",
            (now, self.claimant, now, op_id),
        ).rowcount
        return claimed == 1

    def claim_due(self, now: float | None = None, limit: int = 100, *, ignore_backoff: bool = False) -> list[Op]:
        """`due_ops` and `mark_in_flight` for all of them in one transaction (one disk sync).

        The ops are returned as they were before the claim, so `state` still says which
        were ambiguous and must be reconciled before sending.
        """
        with self.write() as conn:
            due = self.due_ops(now, limit, ignore_backoff=ignore_backoff)
            return [op for op in due if self._claim(conn, op.op_id)]

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
                "UPDATE outbox SET state = ?, attempts = ?, first_sent_at = ?, next_attempt_at = ?,"
                " last_error = coalesce(?, last_error), claimed_by = NULL, updated_at = ?"
                " WHERE op_id = ? AND state = 'in_flight'",
                (op.state, op.attempts, op.first_sent_at, now, error, iso(now), op.op_id),
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
        with self.write() as conn:
            changed = conn.execute(
                f"UPDATE outbox SET state = ?, next_attempt_at = coalesce(?, next_attempt_at),"
                f" last_error = coalesce(?, last_error), not_before = ?, claimed_by = NULL, updated_at = ?"
                f" WHERE op_id = ? AND state IN ({marks})",
                (state, next_attempt_at, error, not_before, iso(now), op_id, *allowed),
            ).rowcount
        return changed == 1

    def release_holds(self, op_ids: Iterable[str]) -> int:
        """End the undo window of these ops now (the rep quit): they are sent at once."""
        ids = list(op_ids)
        if not ids:
            return 0
        marks = ", ".join("?" for _ in ids)
        with self.write() as conn:
            return conn.execute(
                f"UPDATE outbox SET hold_until = NULL WHERE hold_until IS NOT NULL AND op_id IN ({marks})",
                ids,
            ).rowcount

    def recover_after_crash(self) -> int:
        """At start-up: ops left in flight by a process that is gone become ambiguous."""
        now = self.clock()
        recovered = 0
        with self.write() as conn:
            for op_id, claimant in conn.execute(
                "SELECT op_id, claimed_by FROM outbox WHERE state = 'in_flight'"
            ).fetchall():
                if self._claim_is_live(claimant):
                    continue
                conn.execute(
                    "UPDATE outbox SET state = 'ambiguous', claimed_by = NULL, updated_at = ? WHERE op_id = ?",
                    (iso(now), op_id),
                )
                recovered += 1
        return recovered

    def _claim_is_live(self, claimant: str | None) -> bool:
        if not claimant:
            return False
        if claimant == self.claimant:
            return True
        pid_text = claimant.split(":", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            return False
        return _pid_alive(int(pid_text))

    # --- the rep's fixes (outbox screen, `warmline outbox ...`, undo) --------------------------

    def retry(self, op_id: str) -> bool:
        """Send again now: a failed op goes back to pending; a waiting op skips its backoff."""
        now = self.clock()
        with self.write() as conn:
            changed = conn.execute(
                "UPDATE outbox SET state = CASE state WHEN 'failed' THEN 'pending' ELSE state END,"
                " next_attempt_at = ?, updated_at = ? WHERE op_id = ? AND state IN ('failed', 'pending', 'ambiguous')",
                (now, iso(now), op_id),
            ).rowcount
        return changed == 1

    def retry_all(self) -> int:
        now = self.clock()
        with self.write() as conn:
            return conn.execute(
                "UPDATE outbox SET state = CASE state WHEN 'failed' THEN 'pending' ELSE state END,"
                " next_attempt_at = ?, updated_at = ? WHERE state IN ('failed', 'pending', 'ambiguous')",
                (now, iso(now)),
            ).rowcount

    def discard(self, op_id: str) -> Op:
        """Drop an op that is not being sent and revert its local effect."""
        return self._remove(op_id, DISCARDABLE, "is being sent or already delivered")

    def undo(self, op_id: str) -> Op:
        """Take back an action that was never sent: as if it had not happened."""
        with self.write():
            op = self._op_in(self.conn, op_id)
            if not op.undoable:
                raise OpStateError("too late to undo: it has already been sent")
            return self._remove(op_id, (PENDING,), "has already been sent")

    def _remove(self, op_id: str, allowed: tuple[str, ...], why: str) -> Op:
        with self.write() as conn:
            op = self._op_in(conn, op_id)
            if op.state not in allowed:
                raise OpStateError(f"cannot remove this action: it {why}")
            conn.execute("DELETE FROM outbox WHERE op_id = ?", (op_id,))
            rebase(conn, op.lead_id)
        return op

    def edit_in(self, conn: sqlite3.Connection, op_id: str, payload: JsonMap, meta: JsonMap | None = None) -> str:
        """Replace a pending or failed op's payload (already validated); returns its op id.

        An op that was sent before gets a new id: its old Idempotency-Key is tied to the
        old body on the server, and a pending or failed op is known not to have applied.
        """
        op = self._op_in(conn, op_id)
        if op.state not in (PENDING, FAILED):
            raise OpStateError("only a waiting or failed action can be edited")
        now = self.clock()
        new_id = op_id if op.attempts == 0 else uuid.uuid4().hex
        conn.execute(
            "UPDATE outbox SET op_id = ?, payload = ?, meta = ?, state = 'pending', attempts = 0,"
            " first_sent_at = NULL, next_attempt_at = ?, not_before = NULL, last_error = NULL,"
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
