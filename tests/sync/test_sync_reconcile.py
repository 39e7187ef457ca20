"""Every reconcilable kind: applied on the server, answer lost (a 500 after applying), then
settled on the next pass by reading the server, without sending the request again. The
other direction (not applied, so sent; a colleague's record; an older record) is in
test_sync_reconcile_directions.py."""

from __future__ import annotations

import pytest

from support.reconcile_cases import EVERY_KIND, Case
from support.sync_helpers import SERVER_ERROR, FakeClock, FaultyTransport
from warmline.api import ServiceClient
from warmline.store import Store
from warmline.sync import SyncEngine


@pytest.mark.parametrize("case", EVERY_KIND)
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
