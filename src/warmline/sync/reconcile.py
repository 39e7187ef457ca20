"""Settling an ambiguous op (sent, answer lost) by reading the server before any resend.

The server may lack idempotency support (the sandbox's `--no-idempotency`), so the
Idempotency-Key alone cannot prevent a duplicate. For each kind we ask: does the server
already show this op's effect? If so, the op is adopted as delivered with an answer built
from what we read; if not, it is sent again (with the same key, which a server that
supports keys also deduplicates).

- Appends (activity, note, competitor): a record with the same lead, the same text, made
  at or after the op's first send (converted to the server's clock, as learned from its
  answers, less a margin; `_since`), and not already owned
  by another of our ops, is ours. For an activity, the text as sent may carry the
  late-activity annotation ("... (logged 13:05)"), so either form matches.
- Set-to-value ops (status, target, pins, toggles, deal, recommendation close, removal):
  if the server already shows the value, sending is skipped.
- Job starts: a signal scan started after our first send is ours; so is a recommendation
  generation under way, or recommendations created since our first send. A competitor
  scanned since our first send was scanned by us; companies that are all leads were added.
  Deep searches, contact searches, research runs, company research and adding found
  contacts have nothing readable to match, so they are resent under the same key: against
  a server without idempotency support that is at-least-once (docs/sync.md says so).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Protocol, TypeVar, cast

from warmline.api import ServiceClient
from warmline.api.errors import NotFoundError
from warmline.api.models import LeadDetail
from warmline.ops.kinds import OpKind
from warmline.store import Store
from warmline.store.clock import epoch_of, normalize_ts
from warmline.store.rows import Op
from warmline.sync.payloads import (
    AddCompetitor,
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
    ToggleMonitoringPage,
    UpdateDeal,
)
from warmline.sync.requests import Answer, annotated_description, dump

# Without any reading of the server's clock (no `Date` header, no health `time`): how far
# the server's clock may lag ours when we compare its created_at with our first send.
CLOCK_SKEW = 120.0
# With one: how much earlier than our first send (converted to the server's time) a record
# may say it was made, beyond the estimate's own uncertainty (`ServerClock`). It covers a
# created_at stamped by another host of the service than its Date header, and a few
# seconds of drift of either clock between the send and the check.
SERVER_TIME_MARGIN = 30.0

Probe = Callable[[ServiceClient, Store, Op], Awaitable[Answer | None]]
"""`probe(client, store, op)`: the answer to adopt when the server shows the op's effect."""

R = TypeVar("R")


def probe_of(probe: Callable[[ServiceClient, Store, Op, R], Awaitable[Answer | None]]) -> Probe:
    """The `Probe` of one kind, from its probe typed on the kind's request (`payloads`).

    The trust boundary of the table, as for the senders (`requests.request_of`): the stored
    payload is read as the shape the kind's action validated and queued."""

    async def probe_stored(client: ServiceClient, store: Store, op: Op) -> Answer | None:
        return await probe(client, store, op, cast(R, op.payload))

    return probe_stored


class Record(Protocol):
    """A record of the service's (touchpoint, note, contact, page, competitor, card)."""

    @property
    def id(self) -> int: ...


M = TypeVar("M", bound=Record)


# --- appends ------------------------------------------------------------------------------


def _claimed(store: Store, op: Op, table: str, answer_key: str) -> set[int]:
    """Server ids of `table` already owned by another of our ops (delivered or adopted)."""
    owned = store.ids_made_by_other_ops(table, op.lead_id, op.op_id)
    for result in store.other_done_results(op.lead_id, op.kind, op.op_id):
        record = result.get(answer_key)
        if isinstance(record, Mapping) and isinstance(record.get("id"), int):
            owned.add(record["id"])
    return owned


def _since(client: ServiceClient, op: Op) -> float | None:
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


def _oldest_match(records: Iterable[M], matches: Callable[[M], bool], claimed: set[int], since: float | None) -> M | None:
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


async def _touchpoint(client: ServiceClient, store: Store, op: Op, p: LogActivity) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    text, contact = p["description"], p.get("contact_id")
    # Whatever the setting is now, the first send may have carried the annotation.
    texts = {text, annotated_description(text, op.created_at, op.first_sent_at)}
    match = _oldest_match(
        detail.touchpoints,
        lambda t: t.description in texts and t.contact_id == contact,
        _claimed(store, op, "touchpoints", "touchpoint"),
        _since(client, op),
    )
    if match is None:
        return None
    return {
        "touchpoint": dump(match),
        "detected_type": match.detected_type,
        "warming_score": detail.warming_score,
        "reconciled": True,
    }


async def _note(client: ServiceClient, store: Store, op: Op, p: AddNote) -> Answer | None:
    notes = await client.list_notes(p["lead_id"])
    text = p["content"]
    match = _oldest_match(
        notes,
        lambda n: n.content == text,
        _claimed(store, op, "notes", "note"),
        _since(client, op),
    )
    return None if match is None else {"note": dump(match), "reconciled": True}


async def _competitor(client: ServiceClient, store: Store, op: Op, p: AddCompetitor) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    name, domain = p["name"], p.get("domain")
    # Competitors carry no creation time, so the window cannot narrow the match.
    match = _oldest_match(
        detail.competitors,
        lambda c: c.name == name and (domain is None or c.domain == domain),
        _claimed(store, op, "competitors", "competitor"),
        None,
    )
    return None if match is None else {"competitor": dump(match), "reconciled": True}


# --- set-to-value ----------------------------------------------------------------------------


def _by_id(records: Iterable[M], wanted: int) -> M | None:
    return next((record for record in records if record.id == wanted), None)


async def _lead_status(client: ServiceClient, store: Store, op: Op, p: ChangeLeadStatus) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    if detail.lead_status != p["lead_status"]:
        return None
    return {"id": detail.id, "lead_status": detail.lead_status, "reconciled": True}


async def _target_score(client: ServiceClient, store: Store, op: Op, p: SetTargetScore) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    if detail.target_score != p["target_score"]:
        return None
    return {"id": detail.id, "target_score": detail.target_score, "reconciled": True}


async def _contact_pin(client: ServiceClient, store: Store, op: Op, p: PinContact) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    contact = _by_id(detail.contacts, p["contact_id"])
    if contact is None or contact.is_selected != p["is_selected"]:
        return None
    return {"contact": dump(contact), "reconciled": True}


async def _page_toggle(client: ServiceClient, store: Store, op: Op, p: ToggleMonitoringPage) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    page = _by_id(detail.monitoring_pages, p["page_id"])
    if page is None or page.is_selected != p["is_selected"]:
        return None
    return {"page": dump(page), "reconciled": True}


async def _competitor_pin(client: ServiceClient, store: Store, op: Op, p: PinCompetitor) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    competitor = _by_id(detail.competitors, p["competitor_id"])
    if competitor is None or competitor.is_pinned != p["is_pinned"]:
        return None
    return {"competitor": dump(competitor), "reconciled": True}


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


async def _deal(client: ServiceClient, store: Store, op: Op, p: UpdateDeal) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    if not deal_holds(detail, p):
        return None
    fields = ("deal_value", "deal_currency", "won_at", "closed_at", "closed_reason")
    data = dump(detail)
    return {"id": detail.id, **{f: data.get(f) for f in fields}, "reconciled": True}


async def _recommendation_closed(
    client: ServiceClient, store: Store, op: Op, p: CloseRecommendation
) -> Answer | None:
    listing = await client.get_recommendations(p["lead_id"])
    rec_id = p["recommendation_id"]
    if _by_id(listing.recommendations, rec_id) is not None:
        return None
    status = "completed" if op.kind == OpKind.COMPLETE_RECOMMENDATION else "dismissed"
    return {"recommendation": {"id": rec_id, "status": status}, "reconciled": True}


async def _lead_removed(client: ServiceClient, store: Store, op: Op, p: RemoveLead) -> Answer | None:
    try:
        await client.get_lead(p["lead_id"])
    except NotFoundError:
        return {"removed": 1, "reconciled": True}
    return None


async def _competitor_scanned(client: ServiceClient, store: Store, op: Op, p: OnCompetitor) -> Answer | None:
    """A competitor scanned at or after our first send was scanned by us."""
    detail = await client.get_lead(p["lead_id"])
    competitor = _by_id(detail.competitors, p["competitor_id"])
    since = _since(client, op)
    scanned = competitor.last_scanned_at if competitor is not None else None
    if scanned is None or (since is not None and scanned.timestamp() < since):
        return None
    return {"competitor": dump(competitor), "reconciled": True} if competitor is not None else None


async def _added_to_outreach(client: ServiceClient, store: Store, op: Op, p: AddToOutreach) -> Answer | None:
    """Every company of the op is a lead (of either status): adding them is done."""
    wanted = set(p["company_ids"])
    found: dict[int, Answer] = {}
    for status in ("cold", "warm"):
        async for items, _walk in client.walk_leads(status):
            found.update({lead.company_id: dump(lead) for lead in items if lead.company_id in wanted})
    if set(found) != wanted:
        return None
    return {"added": len(found), "leads": list(found.values()), "reconciled": True}


# --- job starts ------------------------------------------------------------------------------


async def _scan_started(client: ServiceClient, store: Store, op: Op, p: OnLead) -> Answer | None:
    scan = await client.get_signal_scan(p["lead_id"])
    since = _since(client, op)
    started = scan.started_at.timestamp() if scan.started_at is not None else None
    if scan.status == "none" or started is None or (since is not None and started < since):
        return None
    return {**dump(scan), "reconciled": True}


async def _generation_started(client: ServiceClient, store: Store, op: Op, p: OnLead) -> Answer | None:
    """A generation under way, or recommendations made since our first send, are ours."""
    listing = await client.get_recommendations(p["lead_id"])
    since = _since(client, op)
    fresh = any(
        rec.created_at is not None and (since is None or rec.created_at.timestamp() >= since)
        for rec in listing.recommendations
    )
    if listing.generation_status not in ("pending", "running") and not fresh:
        return None
    return {"status": listing.generation_status or "completed", "reconciled": True}


PROBES: dict[str, Probe] = {
    OpKind.LOG_ACTIVITY: probe_of(_touchpoint),
    OpKind.ADD_NOTE: probe_of(_note),
    OpKind.ADD_COMPETITOR: probe_of(_competitor),
    OpKind.CHANGE_LEAD_STATUS: probe_of(_lead_status),
    OpKind.SET_TARGET_SCORE: probe_of(_target_score),
    OpKind.PIN_CONTACT: probe_of(_contact_pin),
    OpKind.TOGGLE_MONITORING_PAGE: probe_of(_page_toggle),
    OpKind.PIN_COMPETITOR: probe_of(_competitor_pin),
    OpKind.UPDATE_DEAL: probe_of(_deal),
    OpKind.COMPLETE_RECOMMENDATION: probe_of(_recommendation_closed),
    OpKind.DISMISS_RECOMMENDATION: probe_of(_recommendation_closed),
    OpKind.REMOVE_LEAD: probe_of(_lead_removed),
    OpKind.SCAN_COMPETITOR: probe_of(_competitor_scanned),
    OpKind.ADD_TO_OUTREACH: probe_of(_added_to_outreach),
    OpKind.START_SIGNAL_SCAN: probe_of(_scan_started),
    OpKind.GENERATE_RECOMMENDATIONS: probe_of(_generation_started),
}


async def already_applied(client: ServiceClient, store: Store, op: Op) -> Answer | None:
    """The answer to adopt when the server already shows `op`'s effect, else None (resend).

    Transport and server errors propagate: the caller keeps the op ambiguous and tries
    again later, because resending without knowing could duplicate it.
    """
    probe = PROBES.get(op.kind)
    if probe is None:
        return None
    return await probe(client, store, op)
