"""The reconcilable kinds, each as a request built from the seeded sandbox's state, shared
by the reconciliation tests of both directions (tests/sync/test_sync_reconcile*.py).

A case reads what it needs from the service (a contact, a card, a competitor) and gives
the op's kind, its payload, and a part of the path its request goes to (to count sends).
A colleague repeats it with `colleague_does`: the same request, from a client that is not
ours (no store, no outbox), so its record belongs to nobody's op.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from warmline.api import ServiceClient
from warmline.sync.requests import send

WARM = 2  # the seeded warm lead with a deal, contacts, competitors and recommendations
COLD = 1  # a seeded cold lead with contacts and no competitor


class Request(NamedTuple):
    kind: str
    payload: dict[str, Any]
    path: str


Case = Callable[[ServiceClient], Awaitable[Request]]


async def colleague_does(colleague: ServiceClient, request: Request) -> None:
    """Another client makes the same change (the sandbox keeps no idempotency key)."""
    await send(colleague, request.kind, request.payload, f"colleague-{request.kind}")


async def log_activity(client: ServiceClient) -> Request:
    contact = (await client.get_lead(WARM)).contacts[0]
    payload = {"lead_id": WARM, "description": "Called about the pilot", "contact_id": contact.id}
    return Request("log_activity", payload, "/touchpoints")


async def note(client: ServiceClient) -> Request:
    return Request("add_note", {"lead_id": WARM, "content": "Prefers email"}, "/notes")


async def status(client: ServiceClient) -> Request:
    return Request("change_lead_status", {"lead_id": COLD, "lead_status": "warm"}, "/status")


async def target_score(client: ServiceClient) -> Request:
    return Request("set_target_score", {"lead_id": COLD, "target_score": 33}, "/target-score")


async def pin_contact(client: ServiceClient) -> Request:
    contact = (await client.get_lead(WARM)).contacts[0]
    payload = {"lead_id": WARM, "contact_id": contact.id, "is_selected": not contact.is_selected}
    return Request("pin_contact", payload, "/contacts/")


async def toggle_page(client: ServiceClient) -> Request:
    page = (await client.get_lead(WARM)).monitoring_pages[0]
    payload = {"lead_id": WARM, "page_id": page.id, "is_selected": not page.is_selected}
    return Request("toggle_monitoring_page", payload, "/monitoring-pages/")


async def pin_competitor(client: ServiceClient) -> Request:
    competitor = (await client.get_lead(WARM)).competitors[0]
    payload = {"lead_id": WARM, "competitor_id": competitor.id, "is_pinned": not competitor.is_pinned}
    return Request("pin_competitor", payload, "/competitors/")


async def deal(client: ServiceClient) -> Request:
    payload = {"lead_id": WARM, "deal_value": 24000.0, "deal_currency": "EUR", "won": True}
    return Request("update_deal", payload, "/deal")


async def complete(client: ServiceClient) -> Request:
    rec = (await client.get_recommendations(WARM)).recommendations[0]
    return Request("complete_recommendation", {"lead_id": WARM, "recommendation_id": rec.id}, "/complete")


async def dismiss(client: ServiceClient) -> Request:
    rec = (await client.get_recommendations(WARM)).recommendations[0]
    return Request("dismiss_recommendation", {"lead_id": WARM, "recommendation_id": rec.id}, "/dismiss")


async def competitor(client: ServiceClient) -> Request:
    payload = {"lead_id": WARM, "name": "Northwind Analytics", "domain": "northwind.example"}
    return Request("add_competitor", payload, "/competitors")


async def remove(client: ServiceClient) -> Request:
    return Request("remove_lead", {"lead_id": 3, "lead_ids": [3]}, "/outreach/leads")


async def scan(client: ServiceClient) -> Request:
    return Request("start_signal_scan", {"lead_id": COLD}, "/signal-scan")


async def generate(client: ServiceClient) -> Request:
    return Request("generate_recommendations", {"lead_id": WARM}, "/generate")


async def scan_competitor(client: ServiceClient) -> Request:
    competitor = (await client.get_lead(WARM)).competitors[0]
    return Request("scan_competitor", {"lead_id": WARM, "competitor_id": competitor.id}, "/scan")


async def add_outreach(client: ServiceClient) -> Request:
    leads = {lead.company_id for lead in (await client.list_leads(None, 1, 200)).items}
    company = next(c.id for c in (await client.list_companies(1, 200)).items if c.id not in leads)
    return Request("add_to_outreach", {"company_ids": [company], "lead_status": "cold"}, "/outreach/leads")


EVERY_KIND: tuple[Case, ...] = (
    log_activity, note, status, target_score, pin_contact, toggle_page, pin_competitor, deal, complete, dismiss,
    competitor, remove, scan, generate, scan_competitor, add_outreach,
)
"""One case of each kind `warmline.sync.reconcile` has a probe for."""
