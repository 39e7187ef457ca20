"""Sending a queued action: its request as the spec's sender makes it, under its key.

Each kind's sender is a part of its spec (`warmline.ops.specs`): it picks the client
method, and where the client unwraps an object the store expects under a key
(`{"note": ...}`, `{"competitor": ...}`), puts the key back, so that `Store.mark_done`
sees one shape whichever way the server wrapped it. Here: the Idempotency-Key, the
late-activity annotation, and `send`.
"""

from __future__ import annotations

import hashlib
import json

from warmline.api import ServiceClient
from warmline.ops.appends import annotated_description as annotated_description
from warmline.ops.op import Answer as Answer
from warmline.ops.op import Op, Payload
from warmline.ops.parts import dump as dump
from warmline.ops.specs import spec_of


def payload_to_send(op: Op, first_sent_at: str | None, annotate_late: bool) -> Payload:
    """The op's request; with `annotate_late`, a late activity's description is annotated
    (`first_sent_at`: the op's first send time as stored) when its spec says its text may
    be (`annotate_late`). The queued payload, and so the rep's pending row, keep the
    plain text."""
    description = op.payload.get("description")
    if not annotate_late or not annotated_late(op.kind) or not isinstance(description, str):
        return op.payload
    text = annotated_description(description, op.created_at, first_sent_at)
    return op.payload if text == description else {**op.payload, "description": text}


def annotated_late(kind: str) -> bool:
    """Whether a late op of `kind` has its text annotated with when it was logged."""
    spec = spec_of(kind)
    return spec is not None and spec.annotate_late


def idempotency_key(client: ServiceClient, kind: str, op_id: str) -> str:
    """The op id, or, when `[service.fields]` renames this kind's request fields, the op id
    and a short mark of the renames: the same op sent under other names is another request
    body, which an idempotent service would refuse under the first one's key (a rep who
    fixes the names after "it may name this field differently" retries the failed op)."""
    renamed = client.request_fields.renamed(kind)
    if not renamed:
        return op_id
    mark = hashlib.sha256(json.dumps(renamed, sort_keys=True).encode()).hexdigest()[:8]
    return f"{op_id}.{mark}"


async def send(client: ServiceClient, kind: str, payload: Payload, op_id: str) -> Answer:
    """Send one queued action under its Idempotency-Key (`idempotency_key`); returns the answer."""
    spec = spec_of(kind)
    if spec is None:
        raise LookupError(f"no request is known for queued action kind {kind!r}")
    return await spec.send(client, payload, idempotency_key(client, kind, op_id))
