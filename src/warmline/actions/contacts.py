"""Contacts made in the cockpit or on the command line without waiting for the service.

A contact created here is queued like every change (`create_contact`, spec in
`warmline.ops.creates`): it shows at once, pending, under a local id (negative), and can
be pinned on a lead or named by an activity at once. Those ops wait for the create, and
the service's id replaces the local one everywhere when it is delivered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warmline.actions.queue import queue
from warmline.named_tuple import NamedTuple
from warmline.ops.creates import LOCAL_FIELD
from warmline.ops.kinds import OpKind
from warmline.store import Store


class QueuedContact(NamedTuple):
    """A contact made offline: its create's op id and the local id ops may name it by."""

    op_id: str
    local_id: int


def create_contact(store: Store, fields: Mapping[str, Any]) -> QueuedContact:
    """Queue a new contact (the service's contact fields: a first or last name at least);
    raises `InputError` naming the field, and nothing is stored, on bad input."""
    with store.write() as conn:
        local_id = store.next_local_id(conn)
        op_id = queue(store, OpKind.CREATE_CONTACT, {**fields, LOCAL_FIELD: local_id})
    return QueuedContact(op_id, local_id)
