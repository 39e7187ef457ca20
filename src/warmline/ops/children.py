"""The lead's records: `pin_contact`, `toggle_monitoring_page`, `scan_competitor`,
`pin_competitor`. Each sets a flag of one record the cache knows on the lead (its local
effect is a `ChildFlag`); its validation, request, reconciliation probe and failure words
(each with its payload and `OpSpec`; `warmline.ops.specs` tables them by kind).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from warmline.api import limits
from warmline.ops import matching
from warmline.ops.confirmation import Check, flag_unshown, flag_verdict
from warmline.ops.effects import (
    ChildFlag,
    ChildTable,
    Reconcile,
)
from warmline.ops.facts import CacheFacts
from warmline.ops.matching import by_id
from warmline.ops.op import Answer, Op
from warmline.ops.parts import dump, probe_of, request_of
from warmline.ops.spec import OpSpec
from warmline.ops.validation import check_flag, record_id, require_child, require_lead

if TYPE_CHECKING:
    from warmline.api.client import ServiceClient


# --- payloads: each kind's request as its validator writes it (`warmline.ops.parts`) ---


class PinContact(TypedDict):
    lead_id: int
    contact_id: int
    is_selected: bool


class ToggleMonitoringPage(TypedDict):
    lead_id: int
    page_id: int
    is_selected: bool


class OnCompetitor(TypedDict):
    """`scan_competitor`."""

    lead_id: int
    competitor_id: int


class PinCompetitor(TypedDict):
    lead_id: int
    competitor_id: int
    is_pinned: bool


# --- pin_contact ------------------------------------------------------------------------------


def valid_pin_contact(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(cache, p.get("lead_id"))
    contact_id = record_id(cache, "contact_id", p.get("contact_id"))
    require_child(cache, "contact", lead_id, "contact_id", contact_id)
    return {"lead_id": lead_id, "contact_id": contact_id, "is_selected": check_flag("is_selected", p.get("is_selected"))}


async def send_pin_contact(client: ServiceClient, p: PinContact, key: str) -> Answer:
    answer = await client.pin_contact(p["lead_id"], p["contact_id"], p["is_selected"], idempotency_key=key)
    return {"contact": dump(answer)}


async def probe_pin_contact(client: ServiceClient, cache: CacheFacts, op: Op, p: PinContact) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    contact = by_id(detail.contacts, p["contact_id"])
    if contact is None or contact.is_selected != p["is_selected"]:
        return None
    return {"contact": dump(contact), "reconciled": True}


def contact_still(op: Op) -> str:
    return "the key contact is still " + ("unpinned" if op.payload["is_selected"] else "pinned")


# --- toggle_monitoring_page ----------------------------------------------------------------------


def valid_page(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    lead_id = require_lead(cache, p.get("lead_id"))
    page_id = limits.check_id("page_id", p.get("page_id"))
    require_child(cache, "monitoring_page", lead_id, "page_id", page_id)
    return {"lead_id": lead_id, "page_id": page_id, "is_selected": check_flag("is_selected", p.get("is_selected"))}


async def send_page(client: ServiceClient, p: ToggleMonitoringPage, key: str) -> Answer:
    answer = await client.set_monitoring_page(
        p["lead_id"], p["page_id"], p["is_selected"], idempotency_key=key
    )
    return {"page": dump(answer)}


async def probe_page(client: ServiceClient, cache: CacheFacts, op: Op, p: ToggleMonitoringPage) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    page = by_id(detail.monitoring_pages, p["page_id"])
    if page is None or page.is_selected != p["is_selected"]:
        return None
    return {"page": dump(page), "reconciled": True}


def page_still(op: Op) -> str:
    return "the monitoring source is still " + ("off" if op.payload["is_selected"] else "on")


# --- scan_competitor and pin_competitor -------------------------------------------------------------


def _valid_known_competitor(cache: CacheFacts, p: dict[str, Any]) -> tuple[int, int]:
    lead_id = require_lead(cache, p.get("lead_id"))
    competitor_id = limits.check_id("competitor_id", p.get("competitor_id"))
    require_child(cache, "competitor", lead_id, "competitor_id", competitor_id)
    return lead_id, competitor_id


def valid_scan(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    lead_id, competitor_id = _valid_known_competitor(cache, p)
    return {"lead_id": lead_id, "competitor_id": competitor_id}


async def send_scan(client: ServiceClient, p: OnCompetitor, key: str) -> Answer:
    answer = await client.scan_competitor(p["lead_id"], p["competitor_id"], idempotency_key=key)
    return {"competitor": dump(answer)}


async def probe_scan(client: ServiceClient, cache: CacheFacts, op: Op, p: OnCompetitor) -> Answer | None:
    """A competitor scanned at or after our first send was scanned by us."""
    detail = await client.get_lead(p["lead_id"])
    competitor = by_id(detail.competitors, p["competitor_id"])
    since = matching.since(client, op)
    scanned = competitor.last_scanned_at if competitor is not None else None
    if scanned is None or (since is not None and scanned.timestamp() < since):
        return None
    return {"competitor": dump(competitor), "reconciled": True} if competitor is not None else None


def valid_pin_competitor(cache: CacheFacts, p: dict[str, Any]) -> dict[str, Any]:
    lead_id, competitor_id = _valid_known_competitor(cache, p)
    return {"lead_id": lead_id, "competitor_id": competitor_id, "is_pinned": check_flag("is_pinned", p.get("is_pinned"))}


async def send_pin_competitor(client: ServiceClient, p: PinCompetitor, key: str) -> Answer:
    answer = await client.pin_competitor(
        p["lead_id"], p["competitor_id"], p["is_pinned"], idempotency_key=key
    )
    return {"competitor": dump(answer)}


async def probe_pin_competitor(client: ServiceClient, cache: CacheFacts, op: Op, p: PinCompetitor) -> Answer | None:
    detail = await client.get_lead(p["lead_id"])
    competitor = by_id(detail.competitors, p["competitor_id"])
    if competitor is None or competitor.is_pinned != p["is_pinned"]:
        return None
    return {"competitor": dump(competitor), "reconciled": True}


def competitor_still(op: Op) -> str:
    return "the competitor is still " + ("unpinned" if op.payload["is_pinned"] else "pinned")


# --- the specs (`warmline.ops.specs` tables them by kind) ---------------------------------


def _flag(table: ChildTable, id_field: str, flag: str, detail_list: str, answer_key: str) -> ChildFlag:
    return ChildFlag(table, id_field, flag, from_payload=True, detail_list=detail_list, answer_key=answer_key)


_CONTACT_PIN = _flag("lead_contacts", "contact_id", "is_selected", "contacts", "contact")


_PAGE_TOGGLE = _flag("monitoring_pages", "page_id", "is_selected", "monitoring_pages", "page")


_COMPETITOR_PIN = _flag("competitors", "competitor_id", "is_pinned", "competitors", "competitor")


_COMPETITOR_SCAN = ChildFlag(
    "competitors", "competitor_id", "scan_queued", from_payload=False, detail_list="competitors", answer_key="competitor"
)


PIN_CONTACT_SPEC = OpSpec(
    payload=PinContact,
    validate=valid_pin_contact,
    editable=("is_selected",),
    derive_meta=None,
    effect=_CONTACT_PIN,
    reconcile=Reconcile.SET,
    send=request_of(send_pin_contact),
    annotate_late=False,
    probe=probe_of(probe_pin_contact),
    confirm=Check(
        verdict=flag_verdict(_CONTACT_PIN),
        what=contact_still,
        operation="",
        field="",
        unshown=flag_unshown(_CONTACT_PIN),
    ),
    done_if_card_gone=False,
)


TOGGLE_MONITORING_PAGE_SPEC = OpSpec(
    payload=ToggleMonitoringPage,
    validate=valid_page,
    editable=("is_selected",),
    derive_meta=None,
    effect=_PAGE_TOGGLE,
    reconcile=Reconcile.SET,
    send=request_of(send_page),
    annotate_late=False,
    probe=probe_of(probe_page),
    confirm=Check(
        verdict=flag_verdict(_PAGE_TOGGLE),
        what=page_still,
        operation="toggle_monitoring_page",
        field="is_selected",
        unshown=flag_unshown(_PAGE_TOGGLE),
    ),
    done_if_card_gone=False,
)


SCAN_COMPETITOR_SPEC = OpSpec(
    payload=OnCompetitor,
    validate=valid_scan,
    editable=(),
    derive_meta=None,
    effect=_COMPETITOR_SCAN,
    reconcile=Reconcile.KEYED,
    send=request_of(send_scan),
    annotate_late=False,
    probe=probe_of(probe_scan),
    confirm=None,
    done_if_card_gone=False,
)


PIN_COMPETITOR_SPEC = OpSpec(
    payload=PinCompetitor,
    validate=valid_pin_competitor,
    editable=("is_pinned",),
    derive_meta=None,
    effect=_COMPETITOR_PIN,
    reconcile=Reconcile.SET,
    send=request_of(send_pin_competitor),
    annotate_late=False,
    probe=probe_of(probe_pin_competitor),
    confirm=Check(
        verdict=flag_verdict(_COMPETITOR_PIN),
        what=competitor_still,
        operation="pin_competitor",
        field="is_pinned",
        unshown=flag_unshown(_COMPETITOR_PIN),
    ),
    done_if_card_gone=False,
)
