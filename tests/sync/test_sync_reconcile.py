"""Every reconcilable kind: applied on the server, answer lost (a 500 after applying), then
settled on the next pass by reading the server, without sending the request again."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from support.sync_helpers import SERVER_ERROR, FakeClock, FaultyTransport
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

WARM = 2  # the seeded warm lead with a deal, competitors and recommendations

Case = Callable[[ServiceClient], Awaitable[tuple[str, dict[str, Any], str]]]


async def status(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    return "change_lead_status", {"lead_id": 1, "lead_status": "warm"}, "/status"


async def pin_contact(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    contact = (await client.get_lead(WARM)).contacts[0]
    payload = {"lead_id": WARM, "contact_id": contact.id, "is_selected": not contact.is_selected}
    return "pin_contact", payload, "/contacts/"


async def toggle_page(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    page = (await client.get_lead(WARM)).monitoring_pages[0]
    payload = {"lead_id": WARM, "page_id": page.id, "is_selected": not page.is_selected}
    return "toggle_monitoring_page", payload, "/monitoring-pages/"


async def pin_competitor(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    competitor = (await client.get_lead(WARM)).competitors[0]
    payload = {"lead_id": WARM, "competitor_id": competitor.id, "is_pinned": not competitor.is_pinned}
    return "pin_competitor", payload, "/competitors/"


async def deal(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    return "update_deal", {"lead_id": WARM, "deal_value": 24000.0, "deal_currency": "EUR", "won": True}, "/deal"


async def complete(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    rec = (await client.get_recommendations(WARM)).recommendations[0]
    return "complete_recommendation", {"lead_id": WARM, "recommendation_id": rec.id}, "/complete"


async def competitor(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    return "add_competitor", {"lead_id": WARM, "name": "Northwind Analytics", "domain": "northwind.example"}, "/competitors"


async def remove(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    return "remove_lead", {"lead_id": 3, "lead_ids": [3]}, "/outreach/leads"


async def scan(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    return "start_signal_scan", {"lead_id": 1}, "/signal-scan"


async def generate(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    return "generate_recommendations", {"lead_id": WARM}, "/generate"


async def scan_competitor(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    competitor = (await client.get_lead(WARM)).competitors[0]
    return "scan_competitor", {"lead_id": WARM, "competitor_id": competitor.id}, "/scan"


async def add_outreach(client: ServiceClient) -> tuple[str, dict[str, Any], str]:
    leads = {lead.company_id for lead in (await client.list_leads(None, 1, 200)).items}
    company = next(c.id for c in (await client.list_companies(1, 200)).items if c.id not in leads)
    return "add_to_outreach", {"company_ids": [company], "lead_status": "cold"}, "/outreach/leads"


@pytest.mark.parametrize(
    "case",
    [status, pin_contact, toggle_page, pin_competitor, deal, complete, competitor, remove, scan, generate,
     scan_competitor, add_outreach],
)
async def test_applied_but_unanswered_is_adopted_without_a_resend(
    case: Case, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    kind, payload, path = await case(client)
    op_id = store.enqueue(kind, payload, payload.get("lead_id"))
    transport.only_mutations = True
    transport.fail_next(SERVER_ERROR)
    assert (await engine.flush()).ambiguous == 1
    clock.advance(600)
    report = await engine.flush()
    assert report.reconciled == 1, (report, store.get_op(op_id))
    mutations = [e for e in transport.sent() if e[0] != "GET" and path in e[1]]
    assert len(mutations) == 1  # only the first, lost, send
    assert store.get_op(op_id).state == "done"


async def test_an_unapplied_set_is_sent_again(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    op_id = store.enqueue("set_target_score", {"lead_id": 1, "target_score": 33}, 1)
    transport.only_mutations = True
    transport.fail_next("drop_before")
    assert (await engine.flush()).ambiguous == 1
    clock.advance(600)
    assert (await engine.flush()).delivered == 1
    assert (await client.get_lead(1)).target_score == 33 and store.get_op(op_id).state == "done"


@pytest.mark.parametrize("case", [scan_competitor, add_outreach])
async def test_a_scan_or_an_add_that_did_not_happen_is_sent_again(
    case: Case, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    """The other direction: the probe finds no effect, so the op is sent again (once)."""
    kind, payload, path = await case(client)
    op_id = store.enqueue(kind, payload, payload.get("lead_id"))
    transport.only_mutations = True
    transport.fail_next("drop_before")
    assert (await engine.flush()).ambiguous == 1
    clock.advance(600)
    assert (await engine.flush()).delivered == 1
    mutations = [e for e in transport.sent() if e[0] != "GET" and path in e[1]]
    assert len(mutations) == 1 and store.get_op(op_id).state == "done"  # the first never arrived
