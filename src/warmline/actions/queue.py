"""The one path every action takes: validate, then apply locally and enqueue in one transaction.

Each kind of action has one validator, used both when the rep first takes the action and
when they edit a failed or waiting one from the outbox, so the two can never check
differently. Validators use the spec's limits from `warmline.api.limits` (never their
own copies) and the local cache (the lead must be known, the recommendation active...).
Bad input raises `InputError` naming the field, and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from warmline.api.errors import InputError
from warmline.api.limits import check_id
from warmline.store import Store

Validator = Callable[[Store, dict[str, Any]], dict[str, Any]]
# kind -> (validator, fields the rep may change when editing the op)
VALIDATORS: dict[str, tuple[Validator, tuple[str, ...]]] = {}


# Local-only facts derived from a payload, refreshed when the op is edited.
META_BUILDERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def derived_meta(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    builder = META_BUILDERS.get(kind)
    return builder(payload) if builder else {}


def validator(kind: str, editable: tuple[str, ...] = ()) -> Callable[[Validator], Validator]:
    def register(check: Validator) -> Validator:
        VALIDATORS[kind] = (check, editable)
        return check

    return register


def queue(
    store: Store,
    kind: str,
    payload: dict[str, Any],
    lead_id: int | None = None,
    meta: Mapping[str, Any] | None = None,
    hold_seconds: float = 0.0,
) -> str:
    """Validate the payload and, in one write transaction, apply and enqueue it.

    `hold_seconds`: the cockpit's undo window for one-key decisions; the op is not sent
    before it ends (the CLI queues with none)."""
    check, _ = VALIDATORS[kind]
    with store.write() as conn:
        clean = check(store, payload)
        info = {**derived_meta(kind, clean), **(meta or {})}
        return store.enqueue_in(conn, kind, clean, lead_id=lead_id, meta=info, hold_seconds=hold_seconds)


def edit(store: Store, op_id: str, changes: Mapping[str, Any]) -> str:
    """Change a waiting or failed op's editable fields, re-validated; returns its (maybe new) id."""
    with store.write() as conn:
        op = store.find_op(op_id)
        check, editable = VALIDATORS[op.kind]
        unknown = sorted(set(changes) - set(editable))
        if unknown:
            allowed = ", ".join(editable) or "nothing"
            raise InputError(unknown[0], f"{op.kind} cannot change {', '.join(unknown)} (editable: {allowed})")
        clean = check(store, {**op.payload, **changes})
        return store.edit_in(conn, op.op_id, clean, meta=derived_meta(op.kind, clean))


def require_lead(store: Store, lead_id: object) -> int:
    """A lead id that is in the local cache, not being removed, and not removed on the service."""
    lead = check_id("lead_id", lead_id)
    gone = store.lead_gone(lead)
    if gone is not None:
        raise InputError("lead_id", f"{gone.message}: it takes no more actions")
    hidden = store.lead_hidden(lead)
    if hidden is None:
        raise InputError("lead_id", f"lead {lead} is not in the local cache; run `warmline sync` first")
    if hidden:
        raise InputError("lead_id", f"lead {lead} is being removed from outreach")
    return lead
