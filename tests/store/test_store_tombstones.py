"""A lead the service removed: tombstoned, hidden and its queued actions failed at once, in
one transaction; refused for new actions; back when a later listing has it again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import warmline.store.tombstones as tombstones
from warmline import actions
from warmline.api.errors import InputError
from warmline.store import Store

REASON = "Outreach lead not found"
GONE = "Acme GmbH was removed on the service (Outreach lead not found)"


Item = Callable[..., dict[str, Any]]


@pytest.fixture
def leads(store: Store, lead_item: Item) -> Store:
    store.upsert_leads([lead_item(1, "Acme GmbH"), lead_item(2, "Other AG")], "all")
    return store


def queue_three(store: Store) -> list[str]:
    return [
        actions.log_activity(store, 1, "Called Dana"),
        actions.add_note(store, 1, "Wants a demo"),
        actions.set_target_score(store, 1, 70),
    ]


def test_marking_a_lead_gone_fails_its_queued_ops_with_one_message(leads: Store) -> None:
    first, *others = queue_three(leads)
    untouched = actions.add_note(leads, 2, "Still here")
    assert leads.mark_in_flight(first)  # the send that met the 404

    tomb = leads.mark_lead_gone(1, REASON, first)

    assert (tomb.company_name, tomb.reason, tomb.failed, tomb.message) == ("Acme GmbH", REASON, 3, GONE)
    for op_id in (first, *others):
        op = leads.get_op(op_id)
        assert (op.state, op.last_error) == ("failed", GONE)
    assert leads.get_op(untouched).state == "pending"
    assert [row.id for row in leads.lead_page()] == [2] and leads.lead_count() == 1
    # Still readable: its page, the outbox's name for its ops, the count of what failed.
    assert leads.lead_detail(1).lead.company_name == "Acme GmbH"
    assert leads.get_lead(1).company_name == "Acme GmbH"
    assert leads.lead_tombstone(1).failed == 3
    assert leads.lead_tombstone(2) is None


def test_another_op_in_flight_is_left_to_its_own_answer(leads: Store) -> None:
    first, second, _ = queue_three(leads)
    assert leads.mark_in_flight(first)
    leads.mark_lead_gone(1, REASON)  # found by a read, not by this send
    assert leads.get_op(first).state == "in_flight"
    assert leads.get_op(second).state == "failed"


def test_the_marking_is_one_transaction(leads: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    ops = queue_three(leads)
    real_iso = tombstones.iso
    calls = []

    def failing_iso(moment: float) -> str:
        calls.append(moment)
        if len(calls) == 2:  # after the tombstone and the hiding, before the ops are failed
            raise RuntimeError("disk full")
        return real_iso(moment)

    monkeypatch.setattr(tombstones, "iso", failing_iso)
    with pytest.raises(RuntimeError):
        leads.mark_lead_gone(1, REASON)
    assert leads.lead_tombstone(1) is None and leads.lead_count() == 2
    assert {leads.get_op(op_id).state for op_id in ops} == {"pending"}


def test_new_actions_on_a_removed_lead_are_refused_by_name(leads: Store) -> None:
    leads.mark_lead_gone(1, REASON)
    with pytest.raises(InputError, match="Acme GmbH was removed on the service"):
        actions.log_activity(leads, 1, "Called again")
    with pytest.raises(InputError, match="Acme GmbH was removed on the service"):
        actions.change_lead_status(leads, 1, "warm")
    assert leads.outbox_counts().queued == 0


def test_a_listing_that_has_the_lead_again_removes_the_tombstone(leads: Store, clock: Any, lead_item: Item) -> None:
    queue_three(leads)
    asked = clock()
    clock.advance(5)
    leads.mark_lead_gone(1, REASON)
    # A listing asked for before the removal does not bring it back...
    leads.upsert_leads([lead_item(1, "Acme GmbH"), lead_item(2, "Other AG")], "all", asked)
    assert leads.lead_tombstone(1) is not None and leads.lead_count() == 1
    # ...one asked for after it does (the lead was added again on the service).
    clock.advance(60)
    leads.upsert_leads([lead_item(1, "Acme GmbH"), lead_item(2, "Other AG")], "all", clock())
    assert leads.lead_tombstone(1) is None and leads.lead_count() == 2
    assert actions.add_note(leads, 1, "Welcome back")


def test_a_rebase_keeps_a_removed_lead_hidden(leads: Store) -> None:
    ops = queue_three(leads)
    leads.mark_lead_gone(1, REASON)
    leads.discard(ops[0])  # re-applies the lead's remaining (failed) ops over its snapshot
    assert leads.lead_count() == 1 and leads.lead_tombstone(1).failed == 2


def test_a_removed_lead_without_a_row_is_named_by_id(store: Store) -> None:
    tomb = store.mark_lead_gone(42, REASON)
    assert tomb.company_name == "lead 42" and tomb.failed == 0
    with pytest.raises(InputError, match="lead 42 was removed"):
        actions.add_note(store, 42, "Anyone?")
