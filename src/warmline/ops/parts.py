"""The types of a spec's parts (`warmline.ops.spec.OpSpec`), and the two adapters that
read a stored payload as its kind's request shape.

Every part is typed against the service client and the cache through names only the type
checker loads (`ServiceClient`, pydantic's `BaseModel`) or a `Protocol` (`CacheFacts`):
the command line's queue path imports the operations and must not load the HTTP stack.

Payloads. Each kind's request is a `TypedDict` beside its parts, in its family's module
(`appends`, `lead_fields`, `children`, `recommendations`, `starts`). An op's payload is
stored as JSON (`Op.payload`), written by the action that queued it after its spec's
validator checked and normalised every field; the `TypedDict` says the same for the type
checker, so a sender or a probe that reads a field the validator does not write, or
passes it where another type is wanted, fails the check. A field read with `.get` (left
out, or None, in ops queued by older versions or by hand) is `NotRequired`. The stored
payload is read as its kind's shape in one place each, `request_of` and `probe_of` below:
that is where the stored JSON is trusted to be what the validator wrote. The client checks
every value again before it leaves (`warmline.api.limits`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

from warmline.ops.facts import CacheFacts
from warmline.ops.op import Answer, Op, Payload

if TYPE_CHECKING:
    from pydantic import BaseModel

    from warmline.api.client import ServiceClient

Validator: TypeAlias = Callable[[CacheFacts, dict[str, Any]], dict[str, Any]]
"""Checks and normalises a payload against the spec's limits and the cache (`InputError`
naming the field); used both when the rep acts and when they edit the op."""
MetaBuilder: TypeAlias = Callable[[dict[str, Any]], dict[str, Any]]
"""Local-only facts derived from a validated payload (refreshed when the op is edited)."""
Sender: TypeAlias = "Callable[[ServiceClient, Payload, str], Awaitable[Answer]]"
"""Sends one op: `send(client, payload, key)`, under the Idempotency-Key `key`."""
Probe: TypeAlias = "Callable[[ServiceClient, CacheFacts, Op], Awaitable[Answer | None]]"
"""`probe(client, cache, op)`: the answer to adopt when the service already shows the op."""

R = TypeVar("R")


def request_of(sender: Callable[[ServiceClient, R, str], Awaitable[Answer]]) -> Sender:
    """The `Sender` of one kind, from its sender typed on the kind's request (`payloads`).

    The trust boundary: the stored payload is read as the shape the kind's validator
    checked and queued."""

    async def send_stored(client: ServiceClient, payload: Payload, key: str) -> Answer:
        return await sender(client, cast(R, payload), key)

    return send_stored


def probe_of(probe: Callable[[ServiceClient, CacheFacts, Op, R], Awaitable[Answer | None]]) -> Probe:
    """The `Probe` of one kind, from its probe typed on the kind's request, as `request_of`."""

    async def probe_stored(client: ServiceClient, cache: CacheFacts, op: Op) -> Answer | None:
        return await probe(client, cache, op, cast(R, op.payload))

    return probe_stored


def dump(model: BaseModel) -> Answer:
    """A model as JSON-ready data: what the service sent (unknown fields included), and
    nothing it left out. A model's defaults must never reach the store as if the service
    had said them: the store merges only the fields an answer carries, so a sparse answer
    (a list item of the spec's fields only, `{success, message}` to a mutation) keeps what
    the cache knows instead of blanking it."""
    return model.model_dump(mode="json", exclude_unset=True)
