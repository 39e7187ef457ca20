"""Reconciliation in the directions test_sync_reconcile.py does not cover (issue 21, "Tests
that catch a broken core"): every probe against a service that did NOT apply the op (it
must be sent), against a colleague's identical change (the service shows the effect:
adopted, never doubled) or a near one (another contact, domain, card or lead: sent), and
against an identical record older than our first send (not ours: sent; and when ours was
applied too, ours is adopted, not the older one).

The sandbox ignores `Idempotency-Key`; our first send is lost before it reaches the
service (`DROP_BEFORE`) or after it applied (`DROP_AFTER`); a colleague's requests go
through a client of their own, so their records belong to none of our ops.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
import pytest
from fastapi import FastAPI

from support import reconcile_cases as cases
from support.reconcile_cases import EVERY_KIND, Case, Request, colleague_does
from support.sync_helpers import DROP_AFTER, DROP_BEFORE, KEY, FakeClock, FaultyTransport
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine

SENT = "sent again"
ADOPTED = "adopted"
LONG_BEFORE = 600.0  # seconds between a colleague's older record and our first send
JOB_SECONDS = 10.0  # how long the sandbox's jobs run (`make_sandbox`)


@pytest.fixture
async def colleague(sandbox: FastAPI, clock: FakeClock) -> AsyncIterator[ServiceClient]:
    """Another rep's client on the same service: no store, no outbox, no faults."""
    async with ServiceClient("http://127.0.0.1", KEY, transport=httpx.ASGITransport(app=sandbox), clock=clock) as other:
        yield other


async def _first_send_lost(
    request: Request, engine: SyncEngine, store: Store, transport: FaultyTransport, clock: FakeClock, fault: str
) -> str:
    """Queue `request` well after anything seeded or made before; its first send is lost
    with `fault`, so the op is ambiguous. Returns the op id."""
    clock.advance(LONG_BEFORE)
    op_id = store.enqueue(request.kind, request.payload, request.payload.get("lead_id"))
    transport.only_mutations = True
    transport.fail_next(fault)
    assert (await engine.flush()).ambiguous == 1
    return op_id


async def _settle(engine: SyncEngine, clock: FakeClock, transport: FaultyTransport, request: Request) -> str:
    """The next pass: what it did with the op, sent it again (once) or adopted it."""
    clock.advance(60)
    before = _sends(transport, request)
    report = await engine.flush()
    sends = _sends(transport, request) - before
    if (report.delivered, report.reconciled) == (1, 0):
        return SENT if sends == 1 else f"{SENT} x{sends}"
    assert (report.delivered, report.reconciled) == (0, 1), report
    return ADOPTED if sends == 0 else f"{ADOPTED} after {sends} sends"


def _sends(transport: FaultyTransport, request: Request) -> int:
    """Our requests of the op's kind that reached the service."""
    return len([e for e in transport.sent() if e[0] != "GET" and request.path in e[1]])


# --- not applied ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", EVERY_KIND)
async def test_an_op_the_service_did_not_apply_is_sent_again(
    case: Case, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport, clock: FakeClock
) -> None:
    """The seeded records (an old scan, recommendations made hours ago, the lead's current
    values) are not the op's effect."""
    request = await case(client)
    op_id = await _first_send_lost(request, engine, store, transport, clock, DROP_BEFORE)
    assert await _settle(engine, clock, transport, request) == SENT
    assert store.get_op(op_id).state == "done"


# --- a colleague's change --------------------------------------------------------------------------


@pytest.mark.parametrize("case", EVERY_KIND)
async def test_a_colleague_s_identical_change_after_our_lost_send_is_adopted(
    case: Case, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport,
    clock: FakeClock, colleague: ServiceClient,
) -> None:
    """The service shows the effect, made after our first send: nothing tells it from ours
    (docs/sync.md), and sending again could only double it."""
    request = await case(client)
    await _first_send_lost(request, engine, store, transport, clock, DROP_BEFORE)
    await colleague_does(colleague, request)
    assert await _settle(engine, clock, transport, request) == ADOPTED


Near = Callable[[ServiceClient], Awaitable[tuple[Request, Request]]]


async def _activity_other_contact(client: ServiceClient) -> tuple[Request, Request]:
    ours = await cases.log_activity(client)
    other = (await client.get_lead(cases.WARM)).contacts[1].id
    return ours, ours._replace(payload={**ours.payload, "contact_id": other})


async def _activity_no_contact(client: ServiceClient) -> tuple[Request, Request]:
    ours = await cases.log_activity(client)
    return ours, ours._replace(payload={**ours.payload, "contact_id": None})


async def _note_other_lead(client: ServiceClient) -> tuple[Request, Request]:
    ours = await cases.note(client)
    return ours, ours._replace(payload={**ours.payload, "lead_id": 4})


async def _competitor_other_domain(client: ServiceClient) -> tuple[Request, Request]:
    ours = await cases.competitor(client)
    return ours, ours._replace(payload={**ours.payload, "domain": "northwind.elsewhere"})


async def _pin_other_contact(client: ServiceClient) -> tuple[Request, Request]:
    ours = await cases.pin_contact(client)
    other = (await client.get_lead(cases.WARM)).contacts[1].id
    return ours, ours._replace(payload={**ours.payload, "contact_id": other})


async def _dismiss_other_card(client: ServiceClient) -> tuple[Request, Request]:
    ours = await cases.dismiss(client)
    other = (await client.get_recommendations(cases.WARM)).recommendations[1].id
    return ours, ours._replace(payload={**ours.payload, "recommendation_id": other})


async def _status_other_lead(client: ServiceClient) -> tuple[Request, Request]:
    ours = await cases.status(client)
    return ours, ours._replace(payload={"lead_id": 3, "lead_status": "warm"})


@pytest.mark.parametrize(
    "near",
    [_activity_other_contact, _activity_no_contact, _note_other_lead, _competitor_other_domain, _pin_other_contact,
     _dismiss_other_card, _status_other_lead],
)
async def test_a_colleague_s_near_identical_change_is_not_ours(
    near: Near, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport,
    clock: FakeClock, colleague: ServiceClient,
) -> None:
    """The same words on another contact, a competitor of the same name at another domain,
    another contact pinned, another card dismissed, another lead: our op is still to do."""
    ours, theirs = await near(client)
    await _first_send_lost(ours, engine, store, transport, clock, DROP_BEFORE)
    await colleague_does(colleague, theirs)
    assert await _settle(engine, clock, transport, ours) == SENT


# --- an older record -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", [cases.log_activity, cases.note, cases.scan, cases.generate, cases.scan_competitor])
async def test_an_identical_record_older_than_our_first_send_is_not_ours(
    case: Case, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport,
    clock: FakeClock, colleague: ServiceClient,
) -> None:
    """Made 10 minutes before our send (a colleague's, or an earlier scan or generation):
    adopting it would lose our op."""
    request = await case(client)
    await colleague_does(colleague, request)
    await _watch_the_jobs_end(colleague, clock, request.payload["lead_id"])
    await _first_send_lost(request, engine, store, transport, clock, DROP_BEFORE)
    assert await _settle(engine, clock, transport, request) == SENT


RECORD = {"log_activity": "touchpoint", "add_note": "note", "add_competitor": "competitor"}


@pytest.mark.parametrize("case", [cases.log_activity, cases.note])
async def test_ours_applied_beside_an_older_identical_record_adopts_ours(
    case: Case, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport,
    clock: FakeClock, colleague: ServiceClient,
) -> None:
    request = await case(client)
    await colleague_does(colleague, request)
    theirs = await _newest_id(client, request)
    op_id = await _first_send_lost(request, engine, store, transport, clock, DROP_AFTER)
    ours = await _newest_id(client, request)
    assert await _settle(engine, clock, transport, request) == ADOPTED
    adopted = store.get_op(op_id).result[RECORD[request.kind]]["id"]
    assert adopted == ours != theirs


@pytest.mark.parametrize("case", [cases.log_activity, cases.note, cases.competitor])
async def test_ours_applied_and_a_colleague_s_identical_record_after_it_adopts_ours(
    case: Case, engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport,
    clock: FakeClock, colleague: ServiceClient,
) -> None:
    """Both records stand (two reps did it); ours, the older, is adopted; none is added."""
    request = await case(client)
    op_id = await _first_send_lost(request, engine, store, transport, clock, DROP_AFTER)
    ours = await _newest_id(client, request)
    await colleague_does(colleague, request)
    assert await _settle(engine, clock, transport, request) == ADOPTED
    assert store.get_op(op_id).result[RECORD[request.kind]]["id"] == ours


async def _watch_the_jobs_end(colleague: ServiceClient, clock: FakeClock, lead: int) -> None:
    """The colleague waits for the lead's scan and generation to end and reads them (the
    sandbox ends a job when it is read after its time: its cards are made then)."""
    clock.advance(JOB_SECONDS + 1)
    await colleague.get_signal_scan(lead)
    await colleague.get_recommendations(lead)


async def _newest_id(client: ServiceClient, request: Request) -> int:
    """The id of the newest record of the request's kind on its lead."""
    lead = request.payload["lead_id"]
    if request.kind == "add_note":
        return max(n.id for n in await client.list_notes(lead))
    detail = await client.get_lead(lead)
    records = detail.touchpoints if request.kind == "log_activity" else detail.competitors
    return max(record.id for record in records)
