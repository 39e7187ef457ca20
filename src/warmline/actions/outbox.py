"""The rep's fixes to queued actions: undo the last one, retry, edit or discard a failed one.

Op ids may be given in full or by an unambiguous start (the CLI and the outbox screen
show short ids).
"""

from __future__ import annotations

from warmline.actions.queue import edit
from warmline.store import Op, Store
from warmline.store.outbox import DISCARDABLE


def undo(store: Store, op_id: str) -> Op:
    """Take back an action that has not been sent yet; its local effect reverts exactly."""
    return store.undo(store.find_op(op_id).op_id)


def undo_many(store: Store, op_ids: list[str]) -> list[Op]:
    """Take back one decision made of several ops (removing leads): all of them or none."""
    with store.write():
        return [store.undo(store.find_op(op_id).op_id) for op_id in op_ids]


def discard(store: Store, op_id: str) -> Op:
    """Give up on a waiting, unconfirmed or failed action; its local effect reverts. One
    left in flight by a sender that is gone is taken over first; one still being sent is
    refused with what to do (`Store.discard`)."""
    return store.discard(store.find_op(op_id).op_id)


def discard_all(store: Store) -> int:
    """Give up on every action not being sent (waiting, unconfirmed or failed, and those
    left in flight by a sender that is gone), in one transaction: all of their local
    effects revert, or none. Returns how many."""
    with store.write():
        store.recover_after_crash()
        ops = store.outbox_rows(DISCARDABLE)
        for op in ops:
            store.discard(op.op_id)
    return len(ops)


def retry(store: Store, op_id: str) -> bool:
    """Send a failed (or waiting) action again as soon as possible: an explicit retry also
    drops the wait the service asked for (`Store.clear_rate_limit`)."""
    retried = store.retry(store.find_op(op_id).op_id)
    if retried:
        store.clear_rate_limit()
    return retried


def retry_all(store: Store) -> int:
    """Every failed or waiting action, now; drops the service's wait as `retry` does."""
    count = store.retry_all()
    store.clear_rate_limit()
    return count


def edit_op(store: Store, op_id: str, /, **changes: object) -> str:
    """Fix a waiting or failed action (e.g. shorten a note); re-validated like a new one.

    Returns the op id, which is new when the action had been sent before. `store` and
    `op_id` are positional only, so that no field named like them can be mistaken for them.
    """
    return edit(store, op_id, changes)
