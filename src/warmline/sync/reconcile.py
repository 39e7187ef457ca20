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
  generation under way, or recommendations created since our first send. Deep searches, contact searches, research runs and
  company research have nothing readable to match, so they are resent: against a server
  without idempotency support that is at-least-once (docs/sync.md says so).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from warmline.api import ServiceClient
from warmline.api.errors import NotFoundError
from warmline.store import effects as k
from warmline.store.clock import epoch_of, normalize_ts
from warmline.store.rows import Op
from warmline.sync.requests import annotated_description, dump

# Without any reading of the server's clock (no `Date` header, no health `time`): how far
# the server's clock may lag ours when we compare its created_at with our first send.
CLOCK_SKEW = 120.0
# With one: how much earlier than our first send (converted to the server's time) a record
# may say it was made, beyond the estimate's own uncertainty (`ServerClock`). It covers a
# created_at stamped by another host of the service than its Date header, and a few
# seconds of drift of either clock between the send and the check.
SERVER_TIME_MARGIN = 30.0

Answer = dict[str, Any]
Probe = Callable[[ServiceClient, Any, Op], Awaitable[Answer | None]]


# --- appends ------------------------------------------------------------------------------


def _claimed(store: Any, op: Op, table: str, answer_key: str) -> set[int]:
    """Server ids of `table` already owned by another of our ops (delivered or adopted)."""
    owned = store.ids_made_by_other_ops(table, op.lead_id, op.op_id)
    for result in store.other_done_results(op.lead_id, op.kind, op.op_id):
        record = result.get(answer_key)
        if isinstance(record, Mapping) and isinstance(record.get("id"), int):
            owned.add(record["id"])
    return owned


def _since(client: ServiceClient, op: Op) -> float | None:
    """The earliest server time a record made by `op` can carry: our first send on the
    server's clock (the offset learned from its answers), less the estimate's uncertainty
    and `SERVER_TIME_MARGIN`. Never knowing the server's clock, our clock less `CLOCK_SKEW`,
    which fails when our clock runs more than that ahead (docs/sync.md)."""
    first = epoch_of(op.first_sent_at)
    if first is None:
        return None
    estimate = client.server_clock.estimate()
    if estimate is None:
        return first - CLOCK_SKEW
    return first + estimate.offset - estimate.uncertainty - SERVER_TIME_MARGIN


def _oldest_match(
    records: Iterable[Mapping[str, Any]], matches: Callable[[Mapping[str, Any]], bool], claimed: set[int], since: float | None
) -> Mapping[str, Any] | None:
    """The earliest record that matches, is unclaimed, and is not older than our first send."""
    found = []
    for record in records:
        if record.get("id") in claimed or not matches(record):
            continue
        made = epoch_of(normalize_ts(record.get("created_at")))
        if since is not None and made is not None and made < since:
            continue
        found.append((made if made is not None else float("inf"), record.get("id") or 0, record))
    return min(found, key=lambda item: item[:2])[2] if found else None


async def _touchpoint(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    detail = await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    text, contact = op.payload["description"], op.payload.get("contact_id")
    # Whatever the setting is now, the first send may have carried the annotation.
    texts = {text, annotated_description(text, op.created_at, op.first_sent_at)}
    match = _oldest_match(
        (dump(t) for t in detail.touchpoints),
        lambda t: t.get("description") in texts and t.get("contact_id") == contact,
        _claimed(store, op, "touchpoints", "touchpoint"),
        _since(client, op),
    )
    if match is None:
        return None
    return {
        "touchpoint": dict(match),
        "detected_type": match.get("detected_type"),
        "warming_score": detail.warming_score,
        "reconciled": True,
    }


async def _note(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    notes = await client.list_notes(op.lead_id)  # type: ignore[arg-type]
    text = op.payload["content"]
    match = _oldest_match(
        (dump(n) for n in notes),
        lambda n: n.get("content") == text,
        _claimed(store, op, "notes", "note"),
        _since(client, op),
    )
    return None if match is None else {"note": dict(match), "reconciled": True}


async def _competitor(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    detail = await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    name, domain = op.payload["name"], op.payload.get("domain")
    # Competitors carry no creation time, so the window cannot narrow the match.
    match = _oldest_match(
        (dump(c) for c in detail.competitors),
        lambda c: c.get("name") == name and (domain is None or c.get("domain") == domain),
        _claimed(store, op, "competitors", "competitor"),
        None,
    )
    return None if match is None else {"competitor": dict(match), "reconciled": True}


# --- set-to-value ----------------------------------------------------------------------------


def _find(items: Iterable[Any], key: str, wanted: Any) -> Any | None:
    return next((item for item in items if getattr(item, key) == wanted), None)


async def _lead_field(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    field = "lead_status" if op.kind == k.CHANGE_LEAD_STATUS else "target_score"
    detail = await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    if getattr(detail, field) != op.payload[field]:
        return None
    return {"id": detail.id, field: getattr(detail, field), "reconciled": True}


async def _contact_pin(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    detail = await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    contact = _find(detail.contacts, "id", op.payload["contact_id"])
    if contact is None or contact.is_selected != op.payload["is_selected"]:
        return None
    return {"contact": dump(contact), "reconciled": True}


async def _page_toggle(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    detail = await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    page = _find(detail.monitoring_pages, "id", op.payload["page_id"])
    if page is None or page.is_selected != op.payload["is_selected"]:
        return None
    return {"page": dump(page), "reconciled": True}


async def _competitor_pin(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    detail = await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    competitor = _find(detail.competitors, "id", op.payload["competitor_id"])
    if competitor is None or competitor.is_pinned != op.payload["is_pinned"]:
        return None
    return {"competitor": dump(competitor), "reconciled": True}


def deal_holds(detail: Any, payload: Mapping[str, Any]) -> bool:
    """True when every field the deal update names already has the requested value."""
    checks = {
        "deal_value": lambda: detail.deal_value == payload["deal_value"],
        "deal_currency": lambda: (detail.deal_currency or "").upper() == str(payload["deal_currency"]).upper(),
        "closed_reason": lambda: detail.closed_reason == payload["closed_reason"],
        "won": lambda: (detail.won_at is not None) == bool(payload["won"]),
        "lost": lambda: (detail.closed_at is not None) == bool(payload["lost"]),
    }
    return all(check() for name, check in checks.items() if payload.get(name) is not None)


async def _deal(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    detail = await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    if not deal_holds(detail, op.payload):
        return None
    fields = ("deal_value", "deal_currency", "won_at", "closed_at", "closed_reason")
    data = dump(detail)
    return {"id": detail.id, **{f: data.get(f) for f in fields}, "reconciled": True}


async def _recommendation_closed(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    listing = await client.get_recommendations(op.lead_id)  # type: ignore[arg-type]
    rec_id = op.payload["recommendation_id"]
    if _find(listing.recommendations, "id", rec_id) is not None:
        return None
    status = "completed" if op.kind == k.COMPLETE_RECOMMENDATION else "dismissed"
    return {"recommendation": {"id": rec_id, "status": status}, "reconciled": True}


async def _lead_removed(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    try:
        await client.get_lead(op.lead_id)  # type: ignore[arg-type]
    except NotFoundError:
        return {"removed": 1, "reconciled": True}
    return None


# --- job starts ------------------------------------------------------------------------------


async def _scan_started(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    scan = await client.get_signal_scan(op.lead_id)  # type: ignore[arg-type]
    since = _since(client, op)
    started = scan.started_at.timestamp() if scan.started_at is not None else None
    if scan.status == "none" or started is None or (since is not None and started < since):
        return None
    return {**dump(scan), "reconciled": True}


async def _generation_started(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    """A generation under way, or recommendations made since our first send, are ours."""
    listing = await client.get_recommendations(op.lead_id)  # type: ignore[arg-type]
    since = _since(client, op)
    fresh = any(
        rec.created_at is not None and (since is None or rec.created_at.timestamp() >= since)
        for rec in listing.recommendations
    )
    if listing.generation_status not in ("pending", "running") and not fresh:
        return None
    return {"status": listing.generation_status or "completed", "reconciled": True}


PROBES: dict[str, Probe] = {
    k.LOG_ACTIVITY: _touchpoint,
    k.ADD_NOTE: _note,
    k.ADD_COMPETITOR: _competitor,
    k.CHANGE_LEAD_STATUS: _lead_field,
    k.SET_TARGET_SCORE: _lead_field,
    k.PIN_CONTACT: _contact_pin,
    k.TOGGLE_MONITORING_PAGE: _page_toggle,
    k.PIN_COMPETITOR: _competitor_pin,
    k.UPDATE_DEAL: _deal,
    k.COMPLETE_RECOMMENDATION: _recommendation_closed,
    k.DISMISS_RECOMMENDATION: _recommendation_closed,
    k.REMOVE_LEAD: _lead_removed,
    k.START_SIGNAL_SCAN: _scan_started,
    k.GENERATE_RECOMMENDATIONS: _generation_started,
}


async def already_applied(client: ServiceClient, store: Any, op: Op) -> Answer | None:
    """The answer to adopt when the server already shows `op`'s effect, else None (resend).

    Transport and server errors propagate: the caller keeps the op ambiguous and tries
    again later, because resending without knowing could duplicate it.
    """
    probe = PROBES.get(op.kind)
    if probe is None:
        return None
    return await probe(client, store, op)
