"""How the async sync code calls the (synchronous) store, and how it reports changes.

A store write commits with `synchronous=FULL`, which waits for the disk; run on the event
loop it would stall every other request in flight (and the cockpit's screen). So store
calls go through a `Blocking` runner, by default a worker thread (the store is
thread-safe). Tests may pass `run_inline` to keep everything on one thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class Blocking(Protocol):
    """`await blocking(store.due_ops, None, 1)`: runs `fn(*args, **kwargs)` somewhere the
    event loop does not wait for, and gives back its result; the arguments are checked
    against `fn`'s own signature."""

    def __call__(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Awaitable[T]: ...


LeadGone = Callable[[int], None]
"""`lead_gone(lead_id)`: the service said the lead does not exist; it was marked removed
and its queued actions failed (`Store.lead_tombstone`). The one change the cockpit must be
told of: everything else it reads from the cache, which it watches by itself."""


async def in_thread(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    return await asyncio.to_thread(fn, *args, **kwargs)


async def run_inline(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    return fn(*args, **kwargs)
