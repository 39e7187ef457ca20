"""The recommendation queue: `complete_recommendation`, `dismiss_recommendation` and
`generate_recommendations`; their validation, request, reconciliation probe and
confirmation, each with its payload and `OpSpec` (`warmline.ops.specs` tables them by
kind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from warmline.api import limits
from warmline.api.errors import InputError
from warmline.ops import matching, starts
from warmline.ops.confirmation import (
    Check,
    Verdict,
    record_of,
)
from warmline.ops.effects import (
    CloseRecommendation,
    Reconcile,
    StartJob,
)
from warmline.ops.facts import CacheFacts
from warmline.ops.kinds import JobKind, OpKind
from warmline.ops.matching import by_id
from warmline.ops.op import Answer, Op
from warmline.ops.parts import dump, probe_of, request_of
from warmline.ops.spec import OpSpec, job_start
from warmline.ops.starts import OnLead
from warmline.ops.validation import require_lead

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient


# --- payloads: each kind's request as its validator writes it (`warmline.ops.parts`) ---


class OnRecommendation(TypedDict):
    """`complete_recommendation`, `dismiss_recommendation`."""

    lead_id: int
    recommendation_id: int


# --- complete_recommendation and dismiss_recommendation -------------------------------------


def valid_recommendation(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    rec_id = limits.check_id("recommendation_id", p.get("recommendation_id"))
    lead_id = require_lead(cache, p.get("lead_id"))
    state = cache.recommendation_state(rec_id, lead_id)
    if state is None:
        raise InputError("recommendation_id", f"recommendation {rec_id} is not known for lead {lead_id}")
    status, local_status = state
    if status != "active" or local_status is not None:
        done = local_status or status
        raise InputError("recommendation_id", f"recommendation {rec_id} is already {done}")
    return {"lead_id": lead_id, "recommendation_id": rec_id}


async def send_complete(client: ServiceClient, p: OnRecommendation, key: str) -> Answer:
    answer = await client.complete_recommendation(p["lead_id"], p["recommendation_id"], idempotency_key=key)
    return dump(answer)


async def send_dismiss(client: ServiceClient, p: OnRecommendation, key: str) -> Answer:
    answer = await client.dismiss_recommendation(p["lead_id"], p["recommendation_id"], idempotency_key=key)
    return {"recommendation": dump(answer)}


async def probe_closed(client: ServiceClient, cache: CacheFacts, op: Op, p: OnRecommendation) -> Answer | None:
    listing = await client.get_recommendations(p["lead_id"])
    rec_id = p["recommendation_id"]
    if by_id(listing.recommendations, rec_id) is not None:
        return None
    status = "completed" if op.kind == OpKind.COMPLETE_RECOMMENDATION else "dismissed"
    return {"recommendation": {"id": rec_id, "status": status}, "reconciled": True}


def closed_shown(op: Op, answer: Answer) -> Verdict:
    """A completed or dismissed card: the answer's status, when it gives one."""
    record = record_of(answer, "recommendation")
    status = None if record is None else record.get("status")
    if not isinstance(status, str):
        return None
    return status.casefold() in ("completed", "dismissed")


# --- generate_recommendations ---------------------------------------------------------------------


async def send_generate(client: ServiceClient, p: OnLead, key: str) -> Answer:
    return dump(await client.generate_recommendations(p["lead_id"], idempotency_key=key))


async def probe_generation(client: ServiceClient, cache: CacheFacts, op: Op, p: OnLead) -> Answer | None:
    """A generation under way, or recommendations made since our first send, are ours."""
    listing = await client.get_recommendations(p["lead_id"])
    since = matching.since(client, op)
    fresh = any(
        rec.created_at is not None and (since is None or rec.created_at.timestamp() >= since)
        for rec in listing.recommendations
    )
    if listing.generation_status not in ("pending", "running") and not fresh:
        return None
    return {"status": listing.generation_status or "completed", "reconciled": True}


# --- the specs (`warmline.ops.specs` tables them by kind) ---------------------------------


_CARD_STILL_ACTIVE = Check(closed_shown, lambda op: "the recommendation is still active", "", "", None)


COMPLETE_RECOMMENDATION_SPEC = OpSpec(
    payload=OnRecommendation,
    validate=valid_recommendation,
    editable=(),
    derive_meta=None,
    effect=CloseRecommendation("completed"),
    reconcile=Reconcile.SET,
    send=request_of(send_complete),
    annotate_late=False,
    probe=probe_of(probe_closed),
    confirm=_CARD_STILL_ACTIVE,
    done_if_card_gone=True,
)


DISMISS_RECOMMENDATION_SPEC = OpSpec(
    payload=OnRecommendation,
    validate=valid_recommendation,
    editable=(),
    derive_meta=None,
    effect=CloseRecommendation("dismissed"),
    reconcile=Reconcile.SET,
    send=request_of(send_dismiss),
    annotate_late=False,
    probe=probe_of(probe_closed),
    confirm=_CARD_STILL_ACTIVE,
    done_if_card_gone=True,
)


GENERATE_RECOMMENDATIONS_SPEC = job_start(
    payload=starts.OnLead,
    validate=starts.valid_lead_only,
    editable=(),
    effect=StartJob(job=JobKind.RECOMMENDATIONS, id_field=None, lead_field="generation_status"),
    send=request_of(send_generate),
    probe=probe_of(probe_generation),
)
