"""The request behind each kind of queued action, and its answer in the shape the store folds.

An op's payload is the request (path ids and body fields, named as in docs/wire.md), so
each sender only picks the client method. Answers are returned as plain dicts
(`model_dump(mode="json")`); where the client unwraps an object the store expects under a
key (`{"note": ...}`, `{"competitor": ...}`), the sender puts the key back, so that
`Store.mark_done` sees one shape whichever way the server wrapped it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from datetime import datetime, tzinfo
from typing import TypeVar, cast

from pydantic import BaseModel

from warmline.api import ServiceClient
from warmline.api.limits import DEEP_SEARCH_MAX_RESULTS_DEFAULT, MAX_ACTIVITY_CHARS
from warmline.ops.kinds import OpKind
from warmline.store.clock import LATE_SECONDS, epoch_of
from warmline.store.rows import Op
from warmline.store.values import JsonMap, JsonObject
from warmline.sync.payloads import (
    AddCompetitor,
    AddFoundContacts,
    AddNote,
    AddToOutreach,
    ChangeLeadStatus,
    CloseRecommendation,
    LogActivity,
    OnCompetitor,
    OnLead,
    PinCompetitor,
    PinContact,
    RemoveLead,
    SetTargetScore,
    StartCompanyResearch,
    StartContactSearch,
    StartDeepSearch,
    StartResearchRun,
    ToggleMonitoringPage,
    UpdateDeal,
)

Payload = JsonMap
"""An op's payload as stored: the request, not yet read as its kind's shape."""
Answer = JsonObject
"""The service's answer as JSON data, in the shape `Store.mark_done` folds."""
Sender = Callable[[ServiceClient, Payload, str], Awaitable[Answer]]
"""Sends one op: `sender(client, payload, op_id)`, the op id as the Idempotency-Key."""

R = TypeVar("R")


def request_of(sender: Callable[[ServiceClient, R, str], Awaitable[Answer]]) -> Sender:
    """The `Sender` of one kind, from its sender typed on the kind's request (`payloads`).

    The trust boundary of the table: the stored payload is read as the shape the kind's
    action validated and queued (`warmline.sync.payloads`)."""

    async def send_stored(client: ServiceClient, payload: Payload, key: str) -> Answer:
        return await sender(client, cast(R, payload), key)

    return send_stored


def dump(model: BaseModel) -> Answer:
    """A model as JSON-ready data: what the service sent (unknown fields included), and
    nothing it left out. A model's defaults must never reach the store as if the service
    had said them: the store merges only the fields an answer carries, so a sparse answer
    (a list item of the spec's fields only, `{success, message}` to a mutation) keeps what
    the cache knows instead of blanking it."""
    return model.model_dump(mode="json", exclude_unset=True)


def annotated_description(
    description: str, logged_at: str | None, first_sent_at: str | None, zone: tzinfo | None = None
) -> str:
    """The description with " (logged 13:05)" when its first send was late, else as it is.

    The service has no field for when an activity happened, so the opt-in setting
    `annotate_late_activities` writes it into the text: the rep's local time (`zone`,
    default the machine's), with the date when the first send fell on another day. It
    depends only on the op's creation and first send time (both stored), so a resend after
    a lost answer carries the same body under the same Idempotency-Key, and
    reconciliation can look for exactly this text. A description the note would push past
    the spec's limit is sent as it is.
    """
    logged, first = epoch_of(logged_at), epoch_of(first_sent_at)
    if logged is None or first is None or first - logged <= LATE_SECONDS:
        return description
    moment = datetime.fromtimestamp(logged, zone).astimezone(zone)
    same_day = moment.date() == datetime.fromtimestamp(first, zone).astimezone(zone).date()
    when = moment.strftime("%H:%M" if same_day else "%d %b %H:%M")
    annotated = f"{description} (logged {when})"
    return annotated if len(annotated) <= MAX_ACTIVITY_CHARS else description


# The kinds whose request `payload_to_send` may annotate.
ANNOTATED_KINDS = frozenset({OpKind.LOG_ACTIVITY})


def payload_to_send(op: Op, first_sent_at: str | None, annotate_late: bool) -> Payload:
    """The op's request; with `annotate_late`, a late activity's description is annotated
    (`first_sent_at`: the op's first send time as stored). The queued payload, and so the
    rep's pending row, keep the plain text."""
    description = op.payload.get("description")
    if not annotate_late or op.kind not in ANNOTATED_KINDS or not isinstance(description, str):
        return op.payload
    text = annotated_description(description, op.created_at, first_sent_at)
    return op.payload if text == description else {**op.payload, "description": text}


async def _log_activity(client: ServiceClient, p: LogActivity, key: str) -> Answer:
    answer = await client.log_touchpoint(
        p["lead_id"], p["description"], p.get("contact_id"), idempotency_key=key
    )
    return dump(answer)


async def _add_note(client: ServiceClient, p: AddNote, key: str) -> Answer:
    return {"note": dump(await client.add_note(p["lead_id"], p["content"], idempotency_key=key))}


async def _complete(client: ServiceClient, p: CloseRecommendation, key: str) -> Answer:
    answer = await client.complete_recommendation(p["lead_id"], p["recommendation_id"], idempotency_key=key)
    return dump(answer)


async def _dismiss(client: ServiceClient, p: CloseRecommendation, key: str) -> Answer:
    answer = await client.dismiss_recommendation(p["lead_id"], p["recommendation_id"], idempotency_key=key)
    return {"recommendation": dump(answer)}


async def _status(client: ServiceClient, p: ChangeLeadStatus, key: str) -> Answer:
    return dump(await client.set_lead_status(p["lead_id"], p["lead_status"], idempotency_key=key))


async def _target(client: ServiceClient, p: SetTargetScore, key: str) -> Answer:
    return dump(await client.set_target_score(p["lead_id"], p["target_score"], idempotency_key=key))


async def _pin_contact(client: ServiceClient, p: PinContact, key: str) -> Answer:
    answer = await client.pin_contact(p["lead_id"], p["contact_id"], p["is_selected"], idempotency_key=key)
    return {"contact": dump(answer)}


async def _toggle_page(client: ServiceClient, p: ToggleMonitoringPage, key: str) -> Answer:
    answer = await client.set_monitoring_page(
        p["lead_id"], p["page_id"], p["is_selected"], idempotency_key=key
    )
    return {"page": dump(answer)}


async def _deal(client: ServiceClient, p: UpdateDeal, key: str) -> Answer:
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


async def _add_competitor(client: ServiceClient, p: AddCompetitor, key: str) -> Answer:
    answer = await client.add_competitor(p["lead_id"], p["name"], p.get("domain"), idempotency_key=key)
    return {"competitor": dump(answer)}


async def _scan_competitor(client: ServiceClient, p: OnCompetitor, key: str) -> Answer:
    answer = await client.scan_competitor(p["lead_id"], p["competitor_id"], idempotency_key=key)
    return {"competitor": dump(answer)}


async def _pin_competitor(client: ServiceClient, p: PinCompetitor, key: str) -> Answer:
    answer = await client.pin_competitor(
        p["lead_id"], p["competitor_id"], p["is_pinned"], idempotency_key=key
    )
    return {"competitor": dump(answer)}


async def _add_to_outreach(client: ServiceClient, p: AddToOutreach, key: str) -> Answer:
    answer = await client.add_leads(list(p["company_ids"]), p.get("lead_status") or "cold", idempotency_key=key)
    return dump(answer)


async def _remove_lead(client: ServiceClient, p: RemoveLead, key: str) -> Answer:
    ids = list(p.get("lead_ids") or [p["lead_id"]])
    return dump(await client.remove_leads(ids, idempotency_key=key))


async def _signal_scan(client: ServiceClient, p: OnLead, key: str) -> Answer:
    return dump(await client.start_signal_scan(p["lead_id"], idempotency_key=key))


async def _generate(client: ServiceClient, p: OnLead, key: str) -> Answer:
    return dump(await client.generate_recommendations(p["lead_id"], idempotency_key=key))


async def _deep_search(client: ServiceClient, p: StartDeepSearch, key: str) -> Answer:
    count = p.get("max_results")
    if count is None:
        count = DEEP_SEARCH_MAX_RESULTS_DEFAULT
    return dump(await client.start_deep_search(p["query"], count, idempotency_key=key))


async def _contact_search(client: ServiceClient, p: StartContactSearch, key: str) -> Answer:
    answer = await client.start_contact_search(p["company_id"], p.get("roles"), idempotency_key=key)
    return dump(answer)


async def _add_found_contacts(client: ServiceClient, p: AddFoundContacts, key: str) -> Answer:
    answer = await client.add_contacts(p["job_id"], list(p["contact_ids"]), idempotency_key=key)
    return dump(answer)


async def _research_run(client: ServiceClient, p: StartResearchRun, key: str) -> Answer:
    answer = await client.start_research_run(
        list(p["company_ids"]),
        template_id=p.get("template_id"),
        template_name=p.get("template_name"),
        idempotency_key=key,
    )
    return dump(answer)


async def _company_research(client: ServiceClient, p: StartCompanyResearch, key: str) -> Answer:
    answer = await client.start_company_research(p["company_id"], p.get("focus"), idempotency_key=key)
    return dump(answer)


SENDERS: dict[str, Sender] = {
    OpKind.LOG_ACTIVITY: request_of(_log_activity),
    OpKind.ADD_NOTE: request_of(_add_note),
    OpKind.COMPLETE_RECOMMENDATION: request_of(_complete),
    OpKind.DISMISS_RECOMMENDATION: request_of(_dismiss),
    OpKind.CHANGE_LEAD_STATUS: request_of(_status),
    OpKind.SET_TARGET_SCORE: request_of(_target),
    OpKind.PIN_CONTACT: request_of(_pin_contact),
    OpKind.TOGGLE_MONITORING_PAGE: request_of(_toggle_page),
    OpKind.UPDATE_DEAL: request_of(_deal),
    OpKind.ADD_COMPETITOR: request_of(_add_competitor),
    OpKind.SCAN_COMPETITOR: request_of(_scan_competitor),
    OpKind.PIN_COMPETITOR: request_of(_pin_competitor),
    OpKind.ADD_TO_OUTREACH: request_of(_add_to_outreach),
    OpKind.REMOVE_LEAD: request_of(_remove_lead),
    OpKind.START_SIGNAL_SCAN: request_of(_signal_scan),
    OpKind.GENERATE_RECOMMENDATIONS: request_of(_generate),
    OpKind.START_DEEP_SEARCH: request_of(_deep_search),
    OpKind.START_CONTACT_SEARCH: request_of(_contact_search),
    OpKind.ADD_FOUND_CONTACTS: request_of(_add_found_contacts),
    OpKind.START_RESEARCH_RUN: request_of(_research_run),
    OpKind.START_COMPANY_RESEARCH: request_of(_company_research),
}
"""The request behind each kind of queued action (every kind in `effects.KINDS`)."""


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
    try:
        sender = SENDERS[kind]
    except KeyError:
        raise LookupError(f"no request is known for queued action kind {kind!r}") from None
    return await sender(client, payload, idempotency_key(client, kind, op_id))
