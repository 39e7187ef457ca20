"""Contacts made offline (issue 23, item 6): queued under a local id, pinned and named by
activities at once; the pin and the activity wait for the create, and the service's id
takes the local one's place everywhere, exactly once, in the transaction that marks the
create done."""

from __future__ import annotations

import pytest

from support.sync_helpers import DROP_AFTER, RESET, FakeClock, FaultyTransport
from warmline import actions
from warmline.api.errors import InputError
from warmline.store import Store
from warmline.sync import SyncEngine

LEAD = 1


def _company(store: Store) -> int:
    lead = store.get_lead(LEAD)
    assert lead is not None and lead.company_id is not None
    return lead.company_id


def _server_contacts(sandbox, email: str) -> list[int]:
    with sandbox.state.db.read() as conn:
        return [r[0] for r in conn.execute("SELECT id FROM contacts WHERE email = ?", (email,))]


def _key_contacts(sandbox) -> set[int]:
    with sandbox.state.db.read() as conn:
        return {r[0] for r in conn.execute("SELECT contact_id FROM outreach_key_contacts WHERE lead_id = ?", (LEAD,))}


def _made(store: Store, first: str = "Lukas", email: str = "lukas@example.com") -> actions.QueuedContact:
    return actions.create_contact(store, {"first_name": first, "last_name": "Brandt", "email": email,
                                          "role": "champion", "company_id": _company(store)})


async def test_a_contact_made_offline_is_pinned_and_delivered_with_its_real_id(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport
) -> None:
    made = _made(store)
    assert made.local_id < 0
    pin = actions.pin_company_contact(store, LEAD, made.local_id)
    activity = actions.log_activity(store, LEAD, "Met Lukas at the booth", made.local_id)
    detail = store.lead_detail(LEAD)
    assert detail is not None
    shown = next(c for c in detail.contacts if c.contact_id == made.local_id)
    assert shown.is_selected and shown.pending

    # Offline: nothing leaves; the pin and the activity wait for the create.
    transport.fail_next(RESET)
    assert (await engine.flush()).offline
    assert store.get_op(pin).payload["contact_id"] == made.local_id

    report = await engine.flush()
    assert report.delivered == 3
    [remote] = _server_contacts(sandbox, "lukas@example.com")
    assert store.get_op(pin).payload["contact_id"] == remote
    assert store.get_op(activity).payload["contact_id"] == remote
    assert _key_contacts(sandbox) >= {remote}
    detail = store.lead_detail(LEAD)
    assert detail is not None
    ids = {c.contact_id: c for c in detail.contacts}
    assert made.local_id not in ids and ids[remote].is_selected and not ids[remote].pending
    assert store.scalar("SELECT count(*) FROM contacts WHERE id < 0") == 0
    assert store.scalar("SELECT count(*) FROM lead_contacts WHERE contact_id < 0") == 0
    assert store.scalar("SELECT count(*) FROM touchpoints WHERE contact_id = ?", (remote,)) == 1
    # The pin and the activity went out after the create, never with the local id.
    posts = [path for method, path, _key, _fault in transport.log if method != "GET"]
    assert posts[0].endswith("/contacts") and not any(str(made.local_id) in p for p in posts)


async def test_a_create_whose_answer_was_lost_is_found_not_made_twice(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport, clock: FakeClock
) -> None:
    made = _made(store, email="dana@example.com")
    pin = actions.pin_company_contact(store, LEAD, made.local_id)
    transport.only_mutations = True
    transport.fail_next(DROP_AFTER)
    report = await engine.flush()
    assert report.ambiguous == 1
    assert store.get_op(made.op_id).state == "ambiguous"
    assert store.get_op(pin).state == "pending"

    clock.advance(30)
    report = await engine.flush()
    assert report.reconciled == 1 and report.delivered == 1
    [remote] = _server_contacts(sandbox, "dana@example.com")  # adopted, never made twice
    assert store.get_op(pin).payload["contact_id"] == remote
    assert remote in _key_contacts(sandbox)


async def test_discarding_the_create_takes_what_names_it_along(engine: SyncEngine, store: Store) -> None:
    made = _made(store)
    pin = actions.pin_company_contact(store, LEAD, made.local_id)
    actions.discard(store, made.op_id)
    assert store.get_op(pin) is None
    assert store.scalar("SELECT count(*) FROM contacts WHERE id < 0") == 0
    detail = store.lead_detail(LEAD)
    assert detail is not None and all(c.contact_id > 0 for c in detail.contacts)


async def test_a_local_id_of_no_queued_create_is_refused(engine: SyncEngine, store: Store) -> None:
    with pytest.raises(InputError):
        actions.log_activity(store, LEAD, "Met someone", -42)
    with pytest.raises(InputError):
        actions.create_contact(store, {"email": "no-name@example.com"})
