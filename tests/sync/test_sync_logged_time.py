"""Offline time kept: an activity keeps when the rep logged it, whenever it is delivered;
with `annotate_late_activities` a late one says so in the text the service stores, the
same text on every send, and reconciliation recognises it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

from support.sync_helpers import DROP_AFTER, DROP_BEFORE, FakeClock, FaultyTransport, server_rows
from warmline.api import ServiceClient
from warmline.api.limits import MAX_ACTIVITY_CHARS
from warmline.ops.appends import annotated_description
from warmline.store import Store
from warmline.store.clock import iso
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline

LEAD = 1
HALF_HOUR = 1800.0


def log(store: Store, text: str) -> str:
    return store.enqueue("log_activity", {"lead_id": LEAD, "description": text, "contact_id": None}, LEAD,
                         {"guessed_type": "other"})


def local_hhmm(epoch: float) -> str:
    """The rep's local HH:MM, as the annotation writes it (the machine's zone)."""
    return datetime.fromtimestamp(epoch).astimezone().strftime("%H:%M")


async def annotating_engine(store: Store, client: ServiceClient, clock: FakeClock) -> SyncEngine:
    rng = random.Random(1)
    engine = SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline,
                        annotate_late_activities=True)
    assert await engine.refresh_leads() is not None
    return engine


def mine(store: Store, prefix: str):
    return [t for t in store.lead_detail(LEAD).touchpoints if t.description.startswith(prefix)]


# --- the annotation text ------------------------------------------------------------------


def test_the_annotation_names_the_logged_time_only_when_the_first_send_was_late() -> None:
    logged = datetime(2026, 11, 22, 13, 5, 30, tzinfo=UTC)
    at = logged.timestamp()
    assert annotated_description("Called Dana", iso(at), iso(at + 60), UTC) == "Called Dana"
    assert annotated_description("Called Dana", iso(at), iso(at + 61), UTC) == "Called Dana (logged 13:05)"
    assert annotated_description("Called Dana", iso(at), None, UTC) == "Called Dana"  # never sent
    # In the rep's zone, with the date once the first send falls on another day there.
    plus_two = timezone(timedelta(hours=2))
    assert annotated_description("Called", iso(at), iso(at + 3600), plus_two) == "Called (logged 15:05)"
    next_day = iso(at + 12 * 3600)
    assert annotated_description("Called", iso(at), next_day, UTC) == "Called (logged 22 Nov 13:05)"
    # A description the note would push past the spec's limit is sent as it is.
    long = "x" * (MAX_ACTIVITY_CHARS - 5)
    assert annotated_description(long, iso(at), iso(at + 3600), UTC) == long


# --- delivery with the sandbox ------------------------------------------------------------------


async def test_an_activity_delivered_late_keeps_the_time_it_was_logged(
    engine: SyncEngine, store: Store, sandbox, clock: FakeClock
) -> None:
    logged = clock()
    log(store, "Called Dana from the train")
    clock.advance(HALF_HOUR)  # offline for half an hour, then delivered

    assert (await engine.flush()).delivered == 1

    [touchpoint] = mine(store, "Called Dana from the train")
    assert touchpoint.id is not None
    assert touchpoint.logged_at == iso(logged)
    assert touchpoint.created_at == iso(logged + HALF_HOUR)  # the service's time: on arrival
    # Off by default: the service's text is the rep's.
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD)[-1] == "Called Dana from the train"
    # A later refresh of the lead keeps it.
    clock.advance(600)
    assert await engine.refresh_lead(LEAD)
    assert mine(store, "Called Dana from the train")[0].logged_at == iso(logged)


async def test_with_the_setting_a_late_activity_says_when_it_was_logged(
    store: Store, client: ServiceClient, sandbox, clock: FakeClock
) -> None:
    engine = await annotating_engine(store, client, clock)
    logged = clock()
    log(store, "Emailed the deck")
    log(store, "Called back")
    assert [t.description for t in store.lead_detail(LEAD).touchpoints[:2]] == ["Called back", "Emailed the deck"]
    clock.advance(HALF_HOUR)

    assert (await engine.flush()).delivered == 2

    note = f" (logged {local_hhmm(logged)})"
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD)[-2:] == [
        "Emailed the deck" + note, "Called back" + note]
    [touchpoint] = mine(store, "Emailed the deck")
    assert touchpoint.logged_at == iso(logged)

    # On time (within a minute): no note.
    log(store, "Met at the fair")
    clock.advance(30)
    assert (await engine.flush()).delivered == 1
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD)[-1] == "Met at the fair"


async def test_a_late_activity_whose_answer_was_lost_is_recognised_not_sent_twice(
    store: Store, client: ServiceClient, sandbox, clock: FakeClock, transport: FaultyTransport
) -> None:
    engine = await annotating_engine(store, client, clock)
    logged = clock()
    op_id = log(store, "Left a voicemail")
    clock.advance(HALF_HOUR)
    transport.only_mutations = True
    transport.fail_next(DROP_AFTER)  # applied with its note, the answer lost

    assert (await engine.flush()).ambiguous == 1
    clock.advance(600)
    report = await engine.flush()

    assert report.reconciled == 1 and report.delivered == 0
    annotated = f"Left a voicemail (logged {local_hhmm(logged)})"
    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD).count(annotated) == 1
    assert len(transport.sent("POST", "/touchpoints")) == 1
    [touchpoint] = mine(store, "Left a voicemail")
    assert (touchpoint.id is not None, touchpoint.op_id, touchpoint.logged_at) == (True, op_id, iso(logged))


async def test_a_resend_carries_the_text_its_first_send_decided(
    store: Store, client: ServiceClient, sandbox, clock: FakeClock, transport: FaultyTransport
) -> None:
    engine = await annotating_engine(store, client, clock)
    op_id = log(store, "Sent the proposal")
    clock.advance(30)  # first sent on time...
    transport.only_mutations = True
    transport.fail_next(DROP_BEFORE)  # ...but it never reached the service

    assert (await engine.flush()).ambiguous == 1
    clock.advance(HALF_HOUR)  # resent half an hour later, under the same key
    assert (await engine.flush()).delivered == 1

    assert server_rows(sandbox, "outreach_touchpoints", "description", LEAD)[-1] == "Sent the proposal"
    keys = [key for method, path, key, _ in transport.log if method == "POST" and "/touchpoints" in path]
    assert keys == [op_id, op_id]
