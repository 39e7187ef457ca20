"""The one path every action takes: validate, then apply locally and enqueue in one transaction.

Each kind's validator, the fields an edit may change and the local-only facts derived
from the payload are parts of its spec (`warmline.ops.specs`), used both when the rep
first takes the action and when they edit a failed or waiting one from the outbox, so the
two can never check differently. Bad input raises `InputError` naming the field, and
nothing is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warmline.api.errors import InputError
from warmline.ops.kinds import OpKind
from warmline.ops.spec import OpSpec
from warmline.ops.specs import SPECS, spec_of
from warmline.ops.validation import require_lead as require_lead
from warmline.store import Store


def _spec(kind: str) -> OpSpec:
    spec = spec_of(kind)
    if spec is None:
        raise InputError("kind", f"{kind!r} is not an action this version knows")
    return spec


def derived_meta(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    builder = _spec(kind).derive_meta
    return builder(payload) if builder else {}


def editable_fields(kind: str) -> tuple[str, ...]:
    """What the rep may change in an op of `kind` (its spec says; nothing for an unknown kind)."""
    spec = spec_of(kind)
    return spec.editable if spec else ()


def queue(
    store: Store,
    kind: OpKind,
    payload: dict[str, Any],
    lead_id: int | None = None,
    meta: Mapping[str, Any] | None = None,
    hold_seconds: float = 0.0,
) -> str:
    """Validate the payload and, in one write transaction, apply and enqueue it.

    `hold_seconds`: the cockpit's undo window for one-key decisions; the op is not sent
    before it ends (the CLI queues with none)."""
    spec = SPECS[kind]
    with store.write() as conn:
        clean = spec.validate(store, payload)
        info = {**derived_meta(kind, clean), **(meta or {})}
        return store.enqueue_in(conn, kind, clean, lead_id=lead_id, meta=info, hold_seconds=hold_seconds)


def edit(store: Store, op_id: str, changes: Mapping[str, Any]) -> str:
    """Change a waiting or failed op's editable fields, re-validated; returns its (maybe new) id."""
    with store.write() as conn:
        op = store.find_op(op_id)
        spec = _spec(op.kind)
        unknown = sorted(set(changes) - set(spec.editable))
        if unknown:
            allowed = ", ".join(spec.editable) or "nothing"
            raise InputError(unknown[0], f"{op.kind} cannot change {', '.join(unknown)} (editable: {allowed})")
        clean = spec.validate(store, {**op.payload, **changes})
        return store.edit_in(conn, op.op_id, clean, meta=derived_meta(op.kind, clean))
