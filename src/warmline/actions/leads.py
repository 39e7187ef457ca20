"""What a rep does on a lead: log, note, triage recommendations, status, target, contacts,
monitoring sources, deal, competitors, removal, signal scans and recommendation generation.

Every function returns the op id of the queued action (its Idempotency-Key too); the
effect is visible in the cache at once (see `warmline.store.effects`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warmline.actions.activity_type import guess_activity_type
from warmline.actions.queue import META_BUILDERS, queue, require_lead, validator
from warmline.api import limits
from warmline.api.errors import InputError
from warmline.ops.kinds import OpKind
from warmline.store import Store


def check_flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InputError(field, f"{field} must be true or false (got {value!r})")
    return value


def _optional_id(field: str, value: object) -> int | None:
    return None if value is None else limits.check_id(field, value)


def _require_child(store: Store, part: str, lead_id: int, field: str, value: int) -> None:
    """The contact, page or competitor must be one the cache knows on this lead."""
    if not store.lead_has(part, lead_id, value):
        raise InputError(field, f"{field} {value} is not known for lead {lead_id}; refresh the lead first")


# --- activity and notes ------------------------------------------------------------------


@validator(OpKind.LOG_ACTIVITY, editable=("description", "contact_id"))
def _valid_activity(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    return {
        "lead_id": require_lead(store, p.get("lead_id")),
        "description": limits.check_activity_description(p.get("description")),
        "contact_id": _optional_id("contact_id", p.get("contact_id")),
    }


META_BUILDERS[OpKind.LOG_ACTIVITY] = lambda p: {"guessed_type": guess_activity_type(p["description"])}


def log_activity(store: Store, lead_id: int, description: str, contact_id: int | None = None) -> str:
    """Log what happened (1-5000 characters); shows at once as pending with a guessed type."""
    payload = {"lead_id": lead_id, "description": description, "contact_id": contact_id}
    return queue(store, OpKind.LOG_ACTIVITY, payload, lead_id=lead_id)


@validator(OpKind.ADD_NOTE, editable=("content",))
def _valid_note(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(store, p.get("lead_id")), "content": limits.check_note_content(p.get("content"))}


def add_note(store: Store, lead_id: int, content: str) -> str:
    """Add a note (1-10000 characters)."""
    return queue(store, OpKind.ADD_NOTE, {"lead_id": lead_id, "content": content}, lead_id=lead_id)


# --- recommendations -----------------------------------------------------------------------


def _valid_recommendation(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    rec_id = limits.check_id("recommendation_id", p.get("recommendation_id"))
    lead_id = require_lead(store, p.get("lead_id"))
    state = store.recommendation_state(rec_id, lead_id)
    if state is None:
        raise InputError("recommendation_id", f"recommendation {rec_id} is not known for lead {lead_id}")
    status, local_status = state
    if status != "active" or local_status is not None:
        done = local_status or status
        raise InputError("recommendation_id", f"recommendation {rec_id} is already {done}")
    return {"lead_id": lead_id, "recommendation_id": rec_id}


validator(OpKind.COMPLETE_RECOMMENDATION)(_valid_recommendation)
validator(OpKind.DISMISS_RECOMMENDATION)(_valid_recommendation)


def _close_recommendation(store: Store, kind: str, recommendation_id: int, hold_seconds: float) -> str:
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


@validator(OpKind.CHANGE_LEAD_STATUS, editable=("lead_status",))
def _valid_status(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(store, p.get("lead_id")), "lead_status": limits.check_lead_status(p.get("lead_status"))}


def change_lead_status(store: Store, lead_id: int, lead_status: str, *, hold_seconds: float = 0.0) -> str:
    """Move a lead between cold (social warming) and warm (active nurturing)."""
    payload = {"lead_id": lead_id, "lead_status": lead_status}
    return queue(store, OpKind.CHANGE_LEAD_STATUS, payload, lead_id=lead_id, hold_seconds=hold_seconds)


@validator(OpKind.SET_TARGET_SCORE, editable=("target_score",))
def _valid_target(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(store, p.get("lead_id")), "target_score": limits.check_target_score(p.get("target_score"))}


def set_target_score(store: Store, lead_id: int, target_score: int) -> str:
    """Set the warming score (1-100) at which the lead is ready for direct outreach."""
    return queue(store, OpKind.SET_TARGET_SCORE, {"lead_id": lead_id, "target_score": target_score}, lead_id=lead_id)


_DEAL_BODY = ("deal_value", "deal_currency", "won", "lost", "closed_reason")


@validator(OpKind.UPDATE_DEAL, editable=_DEAL_BODY)
def _valid_deal(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(store, p.get("lead_id"))
    body = limits.check_deal(**{k: p.get(k) for k in _DEAL_BODY})
    lead = store.get_lead(lead_id)
    assert lead is not None  # require_lead found it
    if lead.lead_status != "warm":
        raise InputError("lead_status", "Deal tracking is only available for warm leads")
    return {"lead_id": lead_id, **body}


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


@validator(OpKind.PIN_CONTACT, editable=("is_selected",))
def _valid_pin_contact(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(store, p.get("lead_id"))
    contact_id = limits.check_id("contact_id", p.get("contact_id"))
    _require_child(store, "contact", lead_id, "contact_id", contact_id)
    return {"lead_id": lead_id, "contact_id": contact_id, "is_selected": check_flag("is_selected", p.get("is_selected"))}


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
    contact_id = limits.check_id("contact_id", contact_id)
    if not store.adopt_lead_contact(lead_id, contact_id):
        raise InputError(
            "contact_id", f"contact {contact_id} is not a cached contact of lead {lead_id}'s company"
        )
    return pin_contact(store, lead_id, contact_id, True, hold_seconds=hold_seconds)


@validator(OpKind.TOGGLE_MONITORING_PAGE, editable=("is_selected",))
def _valid_page(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(store, p.get("lead_id"))
    page_id = limits.check_id("page_id", p.get("page_id"))
    _require_child(store, "monitoring_page", lead_id, "page_id", page_id)
    return {"lead_id": lead_id, "page_id": page_id, "is_selected": check_flag("is_selected", p.get("is_selected"))}


def toggle_monitoring_page(
    store: Store, lead_id: int, page_id: int, enabled: bool, *, hold_seconds: float = 0.0
) -> str:
    """Enable or disable one discovered monitoring source."""
    payload = {"lead_id": lead_id, "page_id": page_id, "is_selected": enabled}
    return queue(store, OpKind.TOGGLE_MONITORING_PAGE, payload, lead_id=lead_id, hold_seconds=hold_seconds)


# --- competitors ----------------------------------------------------------------------------------


@validator(OpKind.ADD_COMPETITOR, editable=("name", "domain"))
def _valid_competitor(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    domain = p.get("domain")
    domain = limits.check_competitor_domain(domain.strip() if isinstance(domain, str) else domain)
    if domain == "":
        raise InputError("domain", "domain must be text, or left out")
    return {
        "lead_id": require_lead(store, p.get("lead_id")),
        "name": limits.check_competitor_name(p.get("name")),
        "domain": domain,
    }


def add_competitor(store: Store, lead_id: int, name: str, domain: str | None = None) -> str:
    """Track a competitor of the lead."""
    return queue(store, OpKind.ADD_COMPETITOR, {"lead_id": lead_id, "name": name, "domain": domain}, lead_id=lead_id)


def _valid_known_competitor(store: Store, p: dict[str, Any]) -> tuple[int, int]:
    lead_id = require_lead(store, p.get("lead_id"))
    competitor_id = limits.check_id("competitor_id", p.get("competitor_id"))
    _require_child(store, "competitor", lead_id, "competitor_id", competitor_id)
    return lead_id, competitor_id


@validator(OpKind.SCAN_COMPETITOR)
def _valid_scan(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    lead_id, competitor_id = _valid_known_competitor(store, p)
    return {"lead_id": lead_id, "competitor_id": competitor_id}


@validator(OpKind.PIN_COMPETITOR, editable=("is_pinned",))
def _valid_pin_competitor(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    lead_id, competitor_id = _valid_known_competitor(store, p)
    return {"lead_id": lead_id, "competitor_id": competitor_id, "is_pinned": check_flag("is_pinned", p.get("is_pinned"))}


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


@validator(OpKind.REMOVE_LEAD)
def _valid_remove(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(store, p.get("lead_id"))
    return {"lead_id": lead_id, "lead_ids": [lead_id]}


def remove_leads(store: Store, lead_ids: Iterable[int], *, hold_seconds: float = 0.0) -> list[str]:
    """Remove leads from outreach (frees their signal slots): one op per lead, all or none."""
    # No cap on how many: each lead is its own op, sent as a request naming only that lead.
    ids = limits.check_id_list("lead_ids", lead_ids, max_items=None)
    with store.write():
        return [
            queue(store, OpKind.REMOVE_LEAD, {"lead_id": i}, lead_id=i, hold_seconds=hold_seconds)
            for i in dict.fromkeys(ids)
        ]


def _valid_lead_only(store: Store, p: dict[str, Any]) -> dict[str, Any]:
    return {"lead_id": require_lead(store, p.get("lead_id"))}


validator(OpKind.START_SIGNAL_SCAN)(_valid_lead_only)
validator(OpKind.GENERATE_RECOMMENDATIONS)(_valid_lead_only)


def start_signal_scan(store: Store, lead_id: int) -> str:
    """Start an AI signal scan of the lead (occupies one site signal slot)."""
    return queue(store, OpKind.START_SIGNAL_SCAN, {"lead_id": lead_id}, lead_id=lead_id)


def generate_recommendations(store: Store, lead_id: int) -> str:
    """Ask for new engagement recommendations from the lead's enabled sources."""
    return queue(store, OpKind.GENERATE_RECOMMENDATIONS, {"lead_id": lead_id}, lead_id=lead_id)
