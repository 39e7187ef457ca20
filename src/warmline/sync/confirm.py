"""Strict in what we believe: after a 2xx, does the service show the change?

Any 2xx answer to a mutation is delivery: the op is never left queued because the answer
lacked a field we hoped for (`{"success": true, "message": "..."}` where the spec shows
no response). But a 2xx is not proof: a service that reads a request field under another
name answers 200 and changes nothing. So each set-to-value op is checked:

- the answer shows the value: confirmed;
- the answer shows another value: refused, with the likely cause named;
- the answer does not say: the lead is read again (the op's reconciliation probe,
  `reconcile.already_applied`); the value there confirms the op, another value fails it,
  and a lead that does not carry the field at all (a sparse reading) leaves the 2xx
  standing: nothing contradicts it.

An append (activity, note, competitor) answered without its record is looked up the same
way, so the cache gets the service's record (and its id); if it is not there yet, the
delivery stands and the next refresh brings it. Job starts and the other kinds are taken
at the 2xx. The failure message names the operation and the field, and points to
`[service.fields]`, the way to fit a service that names the field otherwise
(`warmline.api.request_fields`, docs/wire.md).

What each kind's answer must show is its spec's `confirm` part (`warmline.ops.specs`, a
`warmline.ops.confirmation.Check`); this module is the driver that applies it.
"""

from __future__ import annotations

from dataclasses import dataclass

from warmline.api import ServiceClient
from warmline.ops.confirmation import Check
from warmline.ops.facts import CacheFacts
from warmline.ops.op import Answer, Op
from warmline.ops.specs import spec_of
from warmline.sync.reconcile import already_applied


@dataclass(frozen=True)
class Confirmed:
    """The answer to fold in (the service's own, or what the re-read found)."""

    answer: Answer


@dataclass(frozen=True)
class Refused:
    """The service accepted the request but does not show the change: the op fails."""

    message: str


def refusal(check: Check, op: Op) -> str:
    """The one line a rep reads when the service accepted a change it does not show."""
    assert check.what is not None
    hint = ""
    if check.operation:
        hint = (f"; it may name {check.field} differently (set [service.fields] {check.operation}"
                " in the config, docs/wire.md)")
    return f"The service accepted the request but {check.what(op)}{hint}"


async def _unshown(client: ServiceClient, op: Op, check: Check) -> bool:
    """True when the lead as the service gives it does not carry the field `op` changed at
    all (a sparse reading leaves out what it does not know): then nothing contradicts the
    2xx, and the change is taken as answered."""
    lead_id = op.payload.get("lead_id")
    if check.unshown is None or not isinstance(lead_id, int):
        return False
    detail = await client.get_lead(lead_id)
    return check.unshown(client, detail, op)


async def confirm(client: ServiceClient, cache: CacheFacts, op: Op, answer: Answer) -> Confirmed | Refused:
    """Whether the service shows `op`'s change after answering it with a 2xx (`answer`).

    Errors of the re-read propagate: the caller then keeps the op delivered as answered
    (the 2xx stands) rather than failing it on a read that did not happen."""
    spec = spec_of(op.kind)
    check = None if spec is None else spec.confirm
    if check is None:
        return Confirmed(answer)
    verdict = check.verdict(op, answer)
    if verdict is True:
        return Confirmed(answer)
    if verdict is False and check.what is not None:
        return Refused(refusal(check, op))
    found = await already_applied(client, cache, op)
    if found is not None:
        return Confirmed({**answer, **found})
    if check.what is None or await _unshown(client, op, check):
        return Confirmed(answer)  # an append not listed yet, or a field never shown: the 2xx stands
    return Refused(refusal(check, op))
