"""`outbox edit` (the cockpit's outbox screen, `actions.edit_op`): only an op known not to
have applied can take a new body.

A pending or failed op is known not to have applied: it gets the new body (and, if it was
sent before, a new id, since its old Idempotency-Key is tied to the old body). An
ambiguous op may have applied: a new body resent under a new id could make a second
record beside the first. An op in flight is being sent. Neither may be edited (issue 21:
a mutant that accepted ambiguous ops survived every test).
"""

from __future__ import annotations

import pytest

from warmline import actions
from warmline.store import AMBIGUOUS, IN_FLIGHT, OpStateError, Store


@pytest.fixture
def lead(store: Store, lead_item) -> int:
    store.upsert_leads([lead_item(1)])
    return 1


def _note(store: Store, lead: int, text: str) -> str:
    return actions.add_note(store, lead, text)


def _edit(store: Store, op_id: str, content: str) -> str:
    with store.write() as conn:
        return store.edit_in(conn, op_id, {"lead_id": 1, "content": content})


def _unchanged(store: Store, op_id: str, state: str, content: str) -> None:
    op = store.get_op(op_id)
    assert op is not None and (op.state, op.payload["content"]) == (state, content)


def test_an_ambiguous_op_cannot_be_edited(store: Store, lead: int) -> None:
    op_id = _note(store, lead, "Sent, answer lost")
    assert store.mark_in_flight(op_id)
    assert store.mark_ambiguous(op_id, error="connection lost after sending")

    with pytest.raises(OpStateError, match="only a waiting or failed action"):
        _edit(store, op_id, "A new body")
    with pytest.raises(OpStateError):
        actions.edit_op(store, op_id, content="A new body")

    _unchanged(store, op_id, AMBIGUOUS, "Sent, answer lost")
    assert [n.content for n in store.lead_detail(lead).notes] == ["Sent, answer lost"]


def test_an_op_in_flight_cannot_be_edited(store: Store, lead: int) -> None:
    op_id = _note(store, lead, "Being sent")
    assert store.mark_in_flight(op_id)
    with pytest.raises(OpStateError):
        _edit(store, op_id, "A new body")
    _unchanged(store, op_id, IN_FLIGHT, "Being sent")


def test_a_failed_op_takes_a_new_body_under_a_new_id(store: Store, lead: int) -> None:
    op_id = _note(store, lead, "Refused")
    assert store.mark_in_flight(op_id)
    assert store.mark_failed(op_id, "content too long")

    new_id = actions.edit_op(store, op_id, content="Fixed")

    assert new_id != op_id and store.get_op(op_id) is None
    edited = store.get_op(new_id)
    assert (edited.state, edited.attempts, edited.payload["content"]) == ("pending", 0, "Fixed")


def test_a_waiting_op_never_sent_keeps_its_id(store: Store, lead: int) -> None:
    op_id = _note(store, lead, "Typo")
    assert actions.edit_op(store, op_id, content="Fixed") == op_id
    _unchanged(store, op_id, "pending", "Fixed")
