"""Gone is gone: a lead removed on the service (by someone else) while actions on it are
queued. One send meets "Outreach lead not found"; that one answer fails every action on
the lead with one message, takes the lead out of the list, refuses new actions on it, and
tells the cockpit (`lead_gone`). A later listing that has the lead again brings it back."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from support.sync_helpers import FakeClock, FaultyTransport
from warmline import actions
from warmline.api import ServiceClient
from warmline.api.errors import InputError
from warmline.store import Store
from warmline.sync import SyncEngine

LEAD = 1
MESSAGE_END = "was removed on the service (Outreach lead not found)"


def server_lead(sandbox: FastAPI, lead_id: int) -> dict[str, Any]:
    with sandbox.state.db.read() as conn:
        return dict(conn.execute("SELECT * FROM outreach_leads WHERE id = ?", (lead_id,)).fetchone())


def put_back(sandbox: FastAPI, row: dict[str, Any]) -> None:
    """The service has the lead again under its id (restored on the service's side)."""
    with sandbox.state.db.transaction() as conn:
        names = ", ".join(row)
        conn.execute(f"INSERT INTO outreach_leads ({names}) VALUES ({', '.join('?' for _ in row)})", tuple(row.values()))


def sent_for(transport: FaultyTransport, since: int, lead_id: int) -> list[tuple[str, str]]:
    return [(method, path) for method, path, _key, _fault in transport.log[since:]
            if path.startswith(f"/v1/outreach/leads/{lead_id}/") or path == f"/v1/outreach/leads/{lead_id}"]


async def test_one_not_found_fails_every_queued_action_once_and_the_lead_leaves(
    engine: SyncEngine, store: Store, client: ServiceClient, sandbox: FastAPI, transport: FaultyTransport,
    clock: FakeClock,
) -> None:
    name = store.get_lead(LEAD).company_name
    row = server_lead(sandbox, LEAD)
    queued = [
        actions.log_activity(store, LEAD, "Called Dana"),
        actions.add_note(store, LEAD, "Wants a demo"),
        actions.set_target_score(store, LEAD, 70),
    ]
    elsewhere = actions.add_note(store, 2, "Unrelated lead, still delivered")
    await client.remove_leads([LEAD])  # a colleague removed it on the service
    gone: list[int] = []
    engine.on_lead_gone(gone.append)
    before = len(transport.log)

    report = await engine.flush()

    assert len(sent_for(transport, before, LEAD)) == 1  # one send found out, for all three
    message = f"{name} {MESSAGE_END}"
    assert [(store.get_op(op).state, store.get_op(op).last_error) for op in queued] == [("failed", message)] * 3
    assert store.get_op(elsewhere).state == "done"
    assert report.failed == 1 and report.delivered == 1
    assert LEAD in gone
    assert LEAD not in [lead.id for lead in store.lead_page()]
    assert store.lead_tombstone(LEAD).failed == 3
    with pytest.raises(InputError, match=f"{name} was removed on the service"):
        actions.log_activity(store, LEAD, "One more call")
    assert await engine.flush() and len(sent_for(transport, before, LEAD)) == 1  # nothing resent

    # The service has the lead again: the next full listing brings it back.
    put_back(sandbox, row)
    clock.advance(60)
    assert await engine.refresh_leads() is not None
    assert store.lead_tombstone(LEAD) is None
    assert LEAD in [lead.id for lead in store.lead_page()]
    assert actions.add_note(store, LEAD, "Welcome back")


async def test_opening_a_removed_lead_marks_it_gone_too(
    engine: SyncEngine, store: Store, client: ServiceClient, transport: FaultyTransport
) -> None:
    waiting = actions.add_note(store, LEAD, "Not sent yet")
    engine.connection.reached()
    await client.remove_leads([LEAD])
    gone: list[int] = []
    engine.on_lead_gone(gone.append)

    assert await engine.refresh_lead(LEAD) is False  # what the cockpit does when the rep opens it

    assert LEAD in gone
    assert store.get_op(waiting).state == "failed" and MESSAGE_END in store.get_op(waiting).last_error
    assert LEAD not in [lead.id for lead in store.lead_page()]
    # An answer from the service, not a sync failure: the status line has no error for it.
    assert engine.status.current.online is True and engine.status.current.last_error is None


async def test_a_recommendation_not_found_is_not_a_lead_gone(
    engine: SyncEngine, store: Store, client: ServiceClient
) -> None:
    assert await engine.refresh_recommendations()
    rec = store.active_recommendations()[0]
    await client.dismiss_recommendation(rec.lead_id, rec.id)  # dismissed elsewhere meanwhile
    op_id = actions.dismiss_recommendation(store, rec.id)
    later = actions.add_note(store, rec.lead_id, "Still reachable")

    await engine.flush()

    assert store.lead_tombstone(rec.lead_id) is None
    assert MESSAGE_END not in (store.get_op(op_id).last_error or "")
    assert store.get_op(later).state == "done"
    assert rec.lead_id in [lead.id for lead in store.lead_page()]
