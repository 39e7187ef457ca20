"""What a rep does on a lead: log, note, triage recommendations, status, target, contacts,
monitoring sources, deal, competitors, removal, signal scans and recommendation generation.

Every function returns the op id of the queued action (its Idempotency-Key too); the
effect is visible in the cache at once. What each kind checks, does and sends is its spec
(`warmline.ops.specs`); these functions only build the payload and queue it.
"""

from __future__ import annotations

from collections.abc import Iterable

from warmline.actions.queue import queue, require_lead
from warmline.api import limits
from warmline.api.errors import InputError
from warmline.ops.kinds import OpKind
from warmline.ops.validation import record_id
from warmline.store import Store

# --- activity and notes ------------------------------------------------------------------


def log_activity(store: Store, lead_id: int, description: str, contact_id: int | None = None) -> str:
    """Log what happened (1-5000 characters); shows at once as pending with a guessed type."""
    payload = {"lead_id": lead_id, "description": description, "contact_id": contact_id}
    return queue(store, OpKind.LOG_ACTIVITY, payload, lead_id=lead_id)


def add_note(store: Store, lead_id: int, content: str) -> str:
    """Add a note (1-10000 characters)."""
    return queue(store, OpKind.ADD_NOTE, {"lead_id": lead_id, "content": content}, lead_id=lead_id)


# --- recommendations -----------------------------------------------------------------------


def _close_recommendation(store: Store, kind: OpKind, recommendation_id: int, hold_seconds: float) -> str:
    lead_id = store.recommendation_lead(recommendation_id)
    if lead_id is None:
        raise InputError("recommendation_id", f"recommendation {recommendation_id} is not in the local cache")
    payload = {"lead_id": lead_id, "recommendation_id": recommendation_id}
    return queue(store, kind, payload, lead_id=lead_id, hold_seconds=hold_seconds)


def complete_recommendation(store: Store, recommendation_id: int, *, hold_seconds: float = 0.0) -> str:
    """Mark a recommendation done (the server awards its points); it leaves the queue at once,
    and so do the lead's other active cards on the same post (the service dismisses them)."""
    return _close_recommendation(store, OpKind.COMPLETE_RECOMMENDATION, recommendation_id, hold_seconds)


def dismiss_recommendation(store: Store, recommendation_id: int, *, hold_seconds: float = 0.0) -> str:
    """Dismiss a recommendation; it leaves the queue at once."""
    return _close_recommendation(store, OpKind.DISMISS_RECOMMENDATION, recommendation_id, hold_seconds)


# --- the lead's own fields ----------------------------------------------------------------------


def change_lead_status(store: Store, lead_id: int, lead_status: str, *, hold_seconds: float = 0.0) -> str:
    """Move a lead between cold (social warming) and warm (active nurturing)."""
    payload = {"lead_id": lead_id, "lead_status": lead_status}
    return queue(store, OpKind.CHANGE_LEAD_STATUS, payload, lead_id=lead_id, hold_seconds=hold_seconds)


def set_target_score(store: Store, lead_id: int, target_score: int) -> str:
    """Set the warming score (1-100) at which the lead is ready for direct outreach."""
    return queue(store, OpKind.SET_TARGET_SCORE, {"lead_id": lead_id, "target_score": target_score}, lead_id=lead_id)


def update_deal(
    store: Store,
    lead_id: int,
    *,
    deal_value: float | None = None,
    deal_currency: str | None = None,
    won: bool | None = None,
    lost: bool | None = None,
    closed_reason: str | None = None,
) -> str:
    """Update a warm lead's deal; only the given fields change (won / lost with a reason)."""
    payload = {"lead_id": lead_id, "deal_value": deal_value, "deal_currency": deal_currency, "won": won,
               "lost": lost, "closed_reason": closed_reason}
    return queue(store, OpKind.UPDATE_DEAL, payload, lead_id=lead_id)


# --- key contacts and monitoring sources ----------------------------------------------------------


def pin_contact(
    store: Store, lead_id: int, contact_id: int, pinned: bool = True, *, hold_seconds: float = 0.0
) -> str:
    """Pin (or unpin) a key contact of the lead."""
    payload = {"lead_id": lead_id, "contact_id": contact_id, "is_selected": pinned}
    return queue(store, OpKind.PIN_CONTACT, payload, lead_id=lead_id, hold_seconds=hold_seconds)


def pin_company_contact(store: Store, lead_id: int, contact_id: int, *, hold_seconds: float = 0.0) -> str:
    """Pin a contact of the lead's company as a key contact, also one the lead's cached
    detail does not list yet (just created, or cached from the company's contacts since).

    The service lists every contact of the lead's company on the lead, so such a contact
    is made one of the lead's in the cache first (`Store.adopt_lead_contact`: what the next
    refresh brings anyway), then pinned like any key contact (`pin_contact`, queued)."""
    lead_id = require_lead(store, lead_id)
    contact_id = record_id(store, "contact_id", contact_id)
    if not store.adopt_lead_contact(lead_id, contact_id):
        raise InputError(
            "contact_id", f"contact {contact_id} is not a cached contact of lead {lead_id}'s company"
        )
    return pin_contact(store, lead_id, contact_id, True, hold_seconds=hold_seconds)


def toggle_monitoring_page(
    store: Store, lead_id: int, page_id: int, enabled: bool, *, hold_seconds: float = 0.0
) -> str:
    """Enable or disable one discovered monitoring source."""
    payload = {"lead_id": lead_id, "page_id": page_id, "is_selected": enabled}
    return queue(store, OpKind.TOGGLE_MONITORING_PAGE, payload, lead_id=lead_id, hold_seconds=hold_seconds)


# --- competitors ----------------------------------------------------------------------------------


def add_competitor(store: Store, lead_id: int, name: str, domain: str | None = None) -> str:
    """Track a competitor of the lead."""
    return queue(store, OpKind.ADD_COMPETITOR, {"lead_id": lead_id, "name": name, "domain": domain}, lead_id=lead_id)


def scan_competitor(store: Store, lead_id: int, competitor_id: int) -> str:
    """Scan a tracked competitor's website (a competitor still being added cannot be scanned yet)."""
    return queue(store, OpKind.SCAN_COMPETITOR, {"lead_id": lead_id, "competitor_id": competitor_id}, lead_id=lead_id)


def pin_competitor(
    store: Store, lead_id: int, competitor_id: int, pinned: bool = True, *, hold_seconds: float = 0.0
) -> str:
    """Pin (or unpin) a tracked competitor."""
    payload = {"lead_id": lead_id, "competitor_id": competitor_id, "is_pinned": pinned}
    return queue(store, OpKind.PIN_COMPETITOR, payload, lead_id=lead_id, hold_seconds=hold_seconds)


# --- removal and AI work on a lead ------------------------------------------------------------------


def remove_leads(store: Store, lead_ids: Iterable[int], *, hold_seconds: float = 0.0) -> list[str]:
    """Remove leads from outreach (frees their signal slots): one op per lead, all or none."""
    # No cap on how many: each lead is its own op, sent as a request naming only that lead.
    ids = limits.check_id_list("lead_ids", lead_ids, max_items=None)
    with store.write():
        return [
            queue(store, OpKind.REMOVE_LEAD, {"lead_id": i}, lead_id=i, hold_seconds=hold_seconds)
            for i in dict.fromkeys(ids)
        ]


def start_signal_scan(store: Store, lead_id: int) -> str:
    """Start an AI signal scan of the lead (occupies one site signal slot)."""
    return queue(store, OpKind.START_SIGNAL_SCAN, {"lead_id": lead_id}, lead_id=lead_id)


def generate_recommendations(store: Store, lead_id: int) -> str:
    """Ask for new engagement recommendations from the lead's enabled sources."""
    return queue(store, OpKind.GENERATE_RECOMMENDATIONS, {"lead_id": lead_id}, lead_id=lead_id)
