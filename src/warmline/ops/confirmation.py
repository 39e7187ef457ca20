"""How one kind is confirmed after a 2xx: what its answer says of the change.

A spec's `confirm` part is a `Check`; the driver that applies it (re-reading the lead when
the answer is silent) is `warmline.sync.confirm`. A kind without a `Check` is taken at the
2xx (job starts, and the kinds whose answers carry nothing to compare).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from warmline.api.dialect import LEAD_STATUS
from warmline.named_tuple import NamedTuple
from warmline.ops.effects import ChildFlag
from warmline.ops.op import Answer, Op, Payload

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient
    from warmline.api.models import LeadDetail

Verdict = bool | None
"""What an answer says of the change: True shown, False another value shown, None silent."""
Unshown = Callable[["ServiceClient", "LeadDetail", Op], bool]
"""Whether the lead as the service just gave it (`LeadDetail`) does not carry the field the
op changed at all (a sparse reading leaves out what it does not know): then nothing
contradicts the 2xx."""


class Check(NamedTuple):
    """How one kind is confirmed: what the answer says, and what to call the failure.

    `what` None: an append, never failed for a silent answer. `operation` and `field`:
    the `[service.fields]` entry that fits a service naming the field otherwise ("" for
    none: the spec shows the field's name). `unshown` None: a lead always carries the
    field, so a re-read without the value fails the op."""

    verdict: Callable[[Op, Answer], Verdict]
    what: Callable[[Op], str] | None
    operation: str
    field: str
    unshown: Unshown | None


def record_of(answer: Answer, key: str) -> Payload | None:
    value = answer.get(key)
    return value if isinstance(value, Mapping) else None


def field_verdict(answer: Payload | None, field: str, wanted: object) -> Verdict:
    if answer is None or field not in answer or answer[field] is None:
        return None
    value = answer[field]
    if isinstance(wanted, str):
        return str(LEAD_STATUS(value)).casefold() == wanted.casefold()
    return bool(value == wanted)


def appended(key: str) -> Check:
    """An append: confirmed when the answer carries the record (with its id)."""

    def check(op: Op, answer: Answer) -> Verdict:
        record = record_of(answer, key)
        return True if record is not None and record.get("id") is not None else None

    return Check(check, None, "", "", None)


def flag_verdict(effect: ChildFlag) -> Callable[[Op, Answer], Verdict]:
    """A pin or toggle: the flag on the record the answer carries (`effect.answer_key`)."""

    def check(op: Op, answer: Answer) -> Verdict:
        return field_verdict(record_of(answer, effect.answer_key), effect.flag, op.payload[effect.flag])

    return check


def flag_unshown(effect: ChildFlag) -> Unshown:
    """A record of the lead (`effect.detail_list`) that does not carry the flag at all."""

    def unshown(client: ServiceClient, detail: LeadDetail, op: Op) -> bool:
        records = getattr(detail, effect.detail_list)
        record = next((r for r in records if r.id == op.payload.get(effect.id_field)), None)
        return record is not None and effect.flag not in record.model_fields_set

    return unshown
