"""How a reconciliation probe recognises the op's own record on the service.

An append (activity, note, competitor) is ours when a record with the same lead and text,
made at or after the op's first send (converted to the server's clock, as learned from its
answers, less a margin; `since`), is not already owned by another of our ops. A
set-to-value op finds its record by id (`by_id`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol, TypeVar

from warmline.ops.facts import CacheFacts
from warmline.ops.op import Op
from warmline.timestamps import epoch_of, normalize_ts

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient

# Without any reading of the server's clock (no `Date` header, no health `time`): how far
# the server's clock may lag ours when we compare its created_at with our first send.
CLOCK_SKEW = 120.0
# With one: how much earlier than our first send (converted to the server's time) a record
# may say it was made, beyond the estimate's own uncertainty (`ServerClock`). It covers a
# created_at stamped by another host of the service than its Date header, and a few
# seconds of drift of either clock between the send and the check.
SERVER_TIME_MARGIN = 30.0


class Record(Protocol):
    """A record of the service's (touchpoint, note, contact, page, competitor, card)."""

    @property
    def id(self) -> int: ...


M = TypeVar("M", bound=Record)


def claimed(cache: CacheFacts, op: Op, table: str, answer_key: str) -> set[int]:
    """Server ids of `table` already owned by another of our ops (delivered or adopted)."""
    owned = cache.ids_made_by_other_ops(table, op.lead_id, op.op_id)
    for result in cache.other_done_results(op.lead_id, op.kind, op.op_id):
        record = result.get(answer_key)
        if isinstance(record, Mapping) and isinstance(record.get("id"), int):
            owned.add(record["id"])
    return owned


def since(client: ServiceClient, op: Op) -> float | None:
    """The earliest server time a record made by `op` can carry: our first send on the
    server's clock, with the lowest offset anything we measured allows (trusted or not:
    a clock days ahead is still measured; `ServerClock.lowest_offset`), less
    `SERVER_TIME_MARGIN`. Never knowing the server's clock, our clock less `CLOCK_SKEW`,
    which fails when our clock runs more than that ahead (docs/sync.md)."""
    first = epoch_of(op.first_sent_at)
    if first is None:
        return None
    lowest = client.server_clock.lowest_offset()
    if lowest is None:
        return first - CLOCK_SKEW
    return first + lowest - SERVER_TIME_MARGIN


def _made_at(record: Record) -> float | None:
    """When the service says it made `record`, to the millisecond as the cache stores it.

    Read whether the model declares `created_at` or the service sent it unasked (a
    competitor declares none: the models keep unknown fields)."""
    created: object = getattr(record, "created_at", None)
    return epoch_of(normalize_ts(created))


def oldest_match(records: Iterable[M], matches: Callable[[M], bool], claimed: set[int], since: float | None) -> M | None:
    """The earliest record that matches, is unclaimed, and is not older than our first send."""
    found: list[tuple[float, int, M]] = []
    for record in records:
        if record.id in claimed or not matches(record):
            continue
        made = _made_at(record)
        if since is not None and made is not None and made < since:
            continue
        found.append((made if made is not None else float("inf"), record.id, record))
    return min(found, key=lambda item: item[:2])[2] if found else None


def by_id(records: Iterable[M], wanted: int) -> M | None:
    return next((record for record in records if record.id == wanted), None)
