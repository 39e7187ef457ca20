"""Companies made by hand in the cockpit or on the command line without waiting for the
service.

A company created here is queued like every change (`create_company`, spec in
`warmline.ops.creates`): it shows at once, pending, under a local id (negative), and a
contact may be made on it, it may be added to outreach or researched at once. Those ops
wait for the create, and the service's id replaces the local one everywhere when it is
delivered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warmline.actions.queue import queue
from warmline.named_tuple import NamedTuple
from warmline.ops.creates import LOCAL_FIELD
from warmline.ops.kinds import OpKind
from warmline.store import Store


class QueuedCompany(NamedTuple):
    """A company made offline: its create's op id and the local id ops may name it by."""

    op_id: str
    local_id: int


def create_company(store: Store, fields: Mapping[str, Any]) -> QueuedCompany:
    """Queue a new company (the service's company fields: a name at least); raises
    `InputError` naming the field, and nothing is stored, on bad input."""
    with store.write() as conn:
        local_id = store.next_local_id(conn)
        op_id = queue(store, OpKind.CREATE_COMPANY, {**fields, LOCAL_FIELD: local_id})
    return QueuedCompany(op_id, local_id)
