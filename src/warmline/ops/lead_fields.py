"""The lead's own fields: `change_lead_status`, `set_target_score`, `update_deal`, and
`remove_lead`. Each sets a value; its validation, request, reconciliation probe (the
service already shows the value: sending is skipped) and confirmation, each with its
payload and `OpSpec` (`warmline.ops.specs` tables them by kind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from warmline.api import limits
from warmline.api.errors import InputError, NotFoundError
from warmline.ops.confirmation import (
    Check,
    Verdict,
    field_verdict,
)
from warmline.ops.effects import (
    HideLead,
    Reconcile,
    SetDeal,
    SetLeadField,
)
from warmline.ops.facts import CacheFacts
from warmline.ops.op import Answer, Op
from warmline.ops.parts import dump, probe_of, request_of
from warmline.ops.spec import OpSpec
from warmline.ops.validation import require_lead

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient
    from warmline.api.models import LeadDetail


# --- payloads: each kind's request as its validator writes it (`warmline.ops.parts`) ---


class ChangeLeadStatus(TypedDict):
    lead_id: int
    lead_status: str


class SetTargetScore(TypedDict):
    lead_id: int
    target_score: int


class UpdateDeal(TypedDict):
    """Only the fields the rep changed are given."""

    lead_id: int
    deal_value: NotRequired[float | None]
    deal_currency: NotRequired[str | None]
    won: NotRequired[bool | None]
    lost: NotRequired[bool | None]
    closed_reason: NotRequired[str | None]


class RemoveLead(TypedDict):
    """One op per lead; `lead_ids` is `[lead_id]` when given."""

    lead_id: int
    lead_ids: NotRequired[list[int] | None]


# --- change_lead_status ----------------------------------------------------------------------


def valid_status(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(cache, p.get("lead_id")), "lead_status": limits.check_lead_status(p.get("lead_status"))}


async def send_status(client: ServiceClient, p: ChangeLeadStatus, key: str) -> Answer:
    return dump(await client.set_lead_status(p["lead_id"], p["lead_status"], idempotency_key=key))


async def probe_status(client: ServiceClient, cache: CacheFacts, op: Op, p: ChangeLeadStatus) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    if detail.lead_status != p["lead_status"]:
        return None
    return {"id": detail.id, "lead_status": detail.lead_status, "reconciled": True}


def status_shown(op: Op, answer: Answer) -> Verdict:
    return field_verdict(answer, "lead_status", op.payload["lead_status"])


# --- set_target_score ---------------------------------------------------------------------------


def valid_target(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(cache, p.get("lead_id")), "target_score": limits.check_target_score(p.get("target_score"))}


async def send_target(client: ServiceClient, p: SetTargetScore, key: str) -> Answer:
    return dump(await client.set_target_score(p["lead_id"], p["target_score"], idempotency_key=key))


async def probe_target(client: ServiceClient, cache: CacheFacts, op: Op, p: SetTargetScore) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    if detail.target_score != p["target_score"]:
        return None
    return {"id": detail.id, "target_score": detail.target_score, "reconciled": True}


def target_shown(op: Op, answer: Answer) -> Verdict:
    return field_verdict(answer, "target_score", op.payload["target_score"])


def target_unshown(client: ServiceClient, detail: LeadDetail, op: Op) -> bool:
    return "target_score" not in client.lead_fields_seen


# --- update_deal ---------------------------------------------------------------------------------

DEAL_BODY = ("deal_value", "deal_currency", "won", "lost", "closed_reason")
# Each deal field of the request, and the lead's field that shows it (won / lost by their dates).
_DEAL_SHOWN = {"deal_value": "deal_value", "deal_currency": "deal_currency", "won": "won_at",
               "lost": "closed_at", "closed_reason": "closed_reason"}


def valid_deal(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(cache, p.get("lead_id"))
    body = limits.check_deal(**{k: p.get(k) for k in DEAL_BODY})
    lead = cache.get_lead(lead_id)
    assert lead is not None  # require_lead found it
    if lead.lead_status != "warm":
        raise InputError("lead_status", "Deal tracking is only available for warm leads")
    return {"lead_id": lead_id, **body}


async def send_deal(client: ServiceClient, p: UpdateDeal, key: str) -> Answer:
    # A field left out (or None) is not sent: the client leaves None out of the body.
    answer = await client.update_deal(
        p["lead_id"],
        deal_value=p.get("deal_value"),
        deal_currency=p.get("deal_currency"),
        won=p.get("won"),
        lost=p.get("lost"),
        closed_reason=p.get("closed_reason"),
        idempotency_key=key,
    )
    return dump(answer)


def deal_holds(detail: LeadDetail, payload: UpdateDeal) -> bool:
    """True when every field the deal update names already has the requested value."""
    value, currency, reason = payload.get("deal_value"), payload.get("deal_currency"), payload.get("closed_reason")
    won, lost = payload.get("won"), payload.get("lost")
    return (
        (value is None or detail.deal_value == value)
        and (currency is None or (detail.deal_currency or "").upper() == currency.upper())
        and (reason is None or detail.closed_reason == reason)
        and (won is None or (detail.won_at is not None) == won)
        and (lost is None or (detail.closed_at is not None) == lost)
    )


async def probe_deal(client: ServiceClient, cache: CacheFacts, op: Op, p: UpdateDeal) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    if not deal_holds(detail, p):
        return None
    fields = ("deal_value", "deal_currency", "won_at", "closed_at", "closed_reason")
    data = dump(detail)
    return {"id": detail.id, **{f: data.get(f) for f in fields}, "reconciled": True}


def deal_shown(op: Op, answer: Answer) -> Verdict:
    """Every deal field the op names, as the answer shows it (won/lost by their dates)."""
    verdicts: list[Verdict] = []
    for ours, shown in _DEAL_SHOWN.items():
        wanted = op.payload.get(ours)
        if wanted is None:
            continue
        if shown not in answer:
            return None
        value = answer[shown]
        if ours in ("won", "lost"):
            verdicts.append((value is not None) == wanted)
        elif ours == "deal_currency":
            verdicts.append(isinstance(value, str) and value.upper() == str(wanted).upper())
        elif ours == "deal_value":
            verdicts.append(isinstance(value, int | float) and float(value) == float(wanted))
        else:
            verdicts.append(value == wanted)
    return all(verdicts) if verdicts else None


def deal_unshown(client: ServiceClient, detail: LeadDetail, op: Op) -> bool:
    # A deal field this service has shown on some lead is null here, not unknown.
    named = [shown for ours, shown in _DEAL_SHOWN.items() if op.payload.get(ours) is not None]
    return any(shown not in client.lead_fields_seen for shown in named)


# --- remove_lead -----------------------------------------------------------------------------------


def valid_remove(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(cache, p.get("lead_id"))
    return {"lead_id": lead_id, "lead_ids": [lead_id]}


async def send_remove(client: ServiceClient, p: RemoveLead, key: str) -> Answer:
    ids = list(p.get("lead_ids") or [p["lead_id"]])
    return dump(await client.remove_leads(ids, idempotency_key=key))


async def probe_removed(client: ServiceClient, cache: CacheFacts, op: Op, p: RemoveLead) -> Answer | None:
    try:
        await client.get_lead(p["lead_id"])
    except NotFoundError:
        return {"removed": 1, "reconciled": True}
    return None


def removal_shown(op: Op, answer: Answer) -> Verdict:
    removed = answer.get("removed")
    if isinstance(removed, bool) or not isinstance(removed, int):
        return None
    return removed > 0


# --- the specs (`warmline.ops.specs` tables them by kind) ---------------------------------


_DEAL_FIELDS = "deal_value, deal_currency, won, lost or closed_reason"


CHANGE_LEAD_STATUS_SPEC = OpSpec(
    payload=ChangeLeadStatus,
    validate=valid_status,
    editable=("lead_status",),
    derive_meta=None,
    effect=SetLeadField("lead_status"),
    reconcile=Reconcile.SET,
    send=request_of(send_status),
    annotate_late=False,
    probe=probe_of(probe_status),
    confirm=Check(
        verdict=status_shown,
        what=lambda op: f"the lead is still not {op.payload['lead_status']}",
        operation="change_lead_status",
        field="lead_status",
        unshown=None,
    ),
    done_if_card_gone=False,
)


SET_TARGET_SCORE_SPEC = OpSpec(
    payload=SetTargetScore,
    validate=valid_target,
    editable=("target_score",),
    derive_meta=None,
    effect=SetLeadField("target_score"),
    reconcile=Reconcile.SET,
    send=request_of(send_target),
    annotate_late=False,
    probe=probe_of(probe_target),
    confirm=Check(
        verdict=target_shown,
        what=lambda op: f"the lead's target is still not {op.payload['target_score']}",
        operation="",
        field="",
        unshown=target_unshown,
    ),
    done_if_card_gone=False,
)


UPDATE_DEAL_SPEC = OpSpec(
    payload=UpdateDeal,
    validate=valid_deal,
    editable=DEAL_BODY,
    derive_meta=None,
    effect=SetDeal(),
    reconcile=Reconcile.SET,
    send=request_of(send_deal),
    annotate_late=False,
    probe=probe_of(probe_deal),
    confirm=Check(
        verdict=deal_shown,
        what=lambda op: "the lead's deal does not show the change",
        operation="update_deal",
        field=_DEAL_FIELDS,
        unshown=deal_unshown,
    ),
    done_if_card_gone=False,
)


REMOVE_LEAD_SPEC = OpSpec(
    payload=RemoveLead,
    validate=valid_remove,
    editable=(),
    derive_meta=None,
    effect=HideLead(),
    reconcile=Reconcile.SET,
    send=request_of(send_remove),
    annotate_late=False,
    probe=probe_of(probe_removed),
    confirm=Check(
        verdict=removal_shown,
        what=lambda op: "the lead is still in outreach",
        operation="remove_lead",
        field="lead_ids",
        unshown=None,
    ),
    done_if_card_gone=False,
)
