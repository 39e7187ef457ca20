"""Companies made offline (issue 23, item 6): queued under a local id, a contact made on
them and an add to outreach at once; those wait for the create, and the service's id takes
the local one's place in every payload and cached row, exactly once, in the transaction
that marks the create done."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from support.sync_helpers import DROP_AFTER, RESET, FakeClock, FaultyTransport, make_sandbox
from warmline import actions
from warmline.store import Store
from warmline.sync import SyncEngine


@pytest.fixture(params=[True, False], ids=["keys-kept", "keys-ignored"])
def sandbox(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> Iterator[FastAPI]:
    """Each case against a service that keeps Idempotency-Keys and one that ignores them
    (then a lost answer is settled by the probe alone)."""
    app = make_sandbox(tmp_path / "sandbox.sqlite3", clock, idempotency=request.param)
    yield app
    app.state.db.close()


def _server_companies(sandbox, name: str) -> list[int]:
    with sandbox.state.db.read() as conn:
        return [r[0] for r in conn.execute("SELECT id FROM companies WHERE name = ?", (name,))]


def _server_contact_company(sandbox, email: str) -> list[int]:
    with sandbox.state.db.read() as conn:
        return [r[0] for r in conn.execute("SELECT company_id FROM contacts WHERE email = ?", (email,))]


def _server_leads_of(sandbox, company_id: int) -> int:
    with sandbox.state.db.read() as conn:
        return int(conn.execute("SELECT count(*) FROM outreach_leads WHERE company_id = ?", (company_id,)).fetchone()[0])


async def test_a_company_made_offline_takes_a_contact_and_outreach_delivered_once(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport
) -> None:
    made = actions.create_company(store, {"name": "Brandt Maschinenbau", "domain": "brandt-mb.example"})
    assert made.local_id < 0
    contact = actions.create_contact(store, {"first_name": "Lukas", "last_name": "Brandt",
                                             "email": "lukas@brandt-mb.example", "company_id": made.local_id})
    outreach = actions.add_to_outreach(store, [made.local_id])
    assert contact.local_id < made.local_id  # one sequence: a local id names one record
    assert store.scalar("SELECT name FROM companies WHERE id = ?", (made.local_id,)) == "Brandt Maschinenbau"

    transport.fail_next(RESET)
    assert (await engine.flush()).offline
    assert store.get_op(outreach).payload["company_ids"] == [made.local_id]

    report = await engine.flush()
    assert report.delivered == 3
    [remote] = _server_companies(sandbox, "Brandt Maschinenbau")
    assert store.get_op(contact.op_id).payload["company_id"] == remote
    assert store.get_op(outreach).payload["company_ids"] == [remote]
    assert _server_contact_company(sandbox, "lukas@brandt-mb.example") == [remote]
    assert _server_leads_of(sandbox, remote) == 1
    assert store.scalar("SELECT count(*) FROM companies WHERE id < 0") == 0
    assert store.scalar("SELECT count(*) FROM contacts WHERE company_id < 0") == 0
    posts = [path for method, path, _key, _fault in transport.log if method != "GET"]
    assert posts[0].endswith("/companies") and not any(str(made.local_id) in p for p in posts)


async def test_a_company_create_whose_answer_was_lost_is_found_not_made_twice(
    engine: SyncEngine, store: Store, sandbox, transport: FaultyTransport, clock: FakeClock
) -> None:
    made = actions.create_company(store, {"name": "Kessler Logistik"})
    outreach = actions.add_to_outreach(store, [made.local_id])
    transport.only_mutations = True
    transport.fail_next(DROP_AFTER)
    report = await engine.flush()
    assert report.ambiguous == 1
    assert store.get_op(outreach).state == "pending"

    clock.advance(30)
    report = await engine.flush()
    assert report.reconciled == 1 and report.delivered == 1
    [remote] = _server_companies(sandbox, "Kessler Logistik")  # found by the probe, never made twice
    assert store.get_op(outreach).payload["company_ids"] == [remote]
    assert _server_leads_of(sandbox, remote) == 1


async def test_discarding_the_company_takes_its_contact_and_what_names_that_along(
    engine: SyncEngine, store: Store
) -> None:
    made = actions.create_company(store, {"name": "Vogel GmbH"})
    contact = actions.create_contact(store, {"first_name": "Ida", "company_id": made.local_id})
    outreach = actions.add_to_outreach(store, [made.local_id])
    actions.discard(store, made.op_id)
    assert store.get_op(contact.op_id) is None and store.get_op(outreach) is None
    assert store.scalar("SELECT count(*) FROM companies WHERE id < 0") == 0
    assert store.scalar("SELECT count(*) FROM contacts WHERE id < 0") == 0
