"""The queued operation record (`Op`), the states it moves through, and the JSON it carries.

The record sits here, below the store, so that every part of an operation's spec
(`warmline.ops.specs`) can read it: the store builds it from an outbox row
(`warmline.store.rows.op_from_row`) and re-exports it as `warmline.store.Op`.

`kind` stays a plain string: a row written by an older or newer version may name a kind
this one does not know, and reading the outbox must not fail on it (`specs.spec_of`).
"""

from collections.abc import Mapping
from typing import Any

from warmline.named_tuple import NamedTuple

# Outbox states. Ops in QUEUE_STATES block later ops of their lead (first in, first out);
# ops in EFFECT_STATES still show their local effect (a failed op shows until discarded).
PENDING = "pending"
IN_FLIGHT = "in_flight"
AMBIGUOUS = "ambiguous"
FAILED = "failed"
DONE = "done"
QUEUE_STATES = (PENDING, IN_FLIGHT, AMBIGUOUS)
EFFECT_STATES = (PENDING, IN_FLIGHT, AMBIGUOUS, FAILED)

Payload = Mapping[str, Any]
"""An op's payload as stored: the request (path ids and body fields, named as in
docs/wire.md), not yet read as its kind's shape (`warmline.ops.parts`, "Payloads")."""
Answer = dict[str, Any]
"""The service's answer as JSON data, in the shape the store folds (`Store.mark_done`)."""
JsonObject = dict[str, Any]
"""A JSON object kept whole: its values are read with checks (as `warmline.store.values`)."""


class Op(NamedTuple):
    """One queued action. `op_id` is also the request's Idempotency-Key."""

    seq: int
    op_id: str
    kind: str
    lead_id: int | None
    payload: JsonObject
    meta: JsonObject
    state: str
    attempts: int
    created_at: str
    first_sent_at: str | None
    next_attempt_at: float
    not_before: float | None
    claimed_by: str | None
    last_error: str | None
    result: JsonObject | None
    updated_at: str
    hold_until: float | None = None
    # While in flight: when the claim's lease runs out unless its sender renews it.
    claim_until: float | None = None

    @property
    def undoable(self) -> bool:
        """Never sent and not being sent: undo reverts it as if it never happened."""
        return self.state == PENDING and self.attempts == 0
