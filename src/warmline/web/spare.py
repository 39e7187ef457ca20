"""One cockpit kept started ahead of the next tab (`warmline.claim` is the cockpit's side).

A cockpit's start is mostly Python and its modules loading: in a browser the tab waited for
it after the page had loaded. `Spares` keeps one cockpit past that point, waiting, so a tab
that opens claims it and the cockpit goes straight to its configuration, the cache and
Today (read then, so never stale). The spare is not a session: no tab sees it and the
session cap does not count it. A spare that has died is dropped and a cockpit started for
the tab instead. The next spare starts only once the claimed cockpit has written to its tab
and `REST` seconds more, so that the two do not share the CPU during the tab's first paint.
`stop` ends the spare (it exits as its claim pipe closes); a server that dies leaves no
spare behind either (`warmline.claim`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import suppress

from warmline.web.session import CockpitSession

REST = 0.5
"""Seconds between a claimed cockpit's first output and the start of the next spare."""

log = logging.getLogger("warmline.web")


class Spares:
    """Keeps one spare made by `new` (a `CockpitSession` not yet spawned)."""

    def __init__(self, new: Callable[[], CockpitSession]) -> None:
        self._new = new
        self.spare: CockpitSession | None = None
        self._making: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()

    def make_ready(self, after: asyncio.Event | None = None) -> None:
        """Start a spare (once `after` is set, and `REST` later), unless one is on its way."""
        if not self._stopping.is_set() and (self._making is None or self._making.done()):
            self._making = asyncio.create_task(self._make(after))

    async def _make(self, after: asyncio.Event | None) -> None:
        if after is not None:
            await _first_set(after, self._stopping)
            with suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), REST)
        if self._stopping.is_set() or self.spare is not None:
            return
        session = self._new()
        try:
            await session.spawn()
        except Exception:  # noqa: BLE001 - the next tab starts its own cockpit and reports why
            log.exception("a spare cockpit could not start")
            await session.stop()
            return
        if self._stopping.is_set():
            await session.stop()
        else:
            self.spare = session

    async def take(self) -> CockpitSession:
        """The spare if it is still waiting to be claimed, else a cockpit started now."""
        if self._stopping.is_set():
            raise RuntimeError("the server is stopping")
        spare, self.spare = self.spare, None
        if spare is not None and spare.claimable:
            return spare
        if spare is not None:
            await spare.stop()
        session = self._new()
        await session.spawn()
        return session

    async def stop(self) -> None:
        """End the spare, and any on its way; none starts after this."""
        self._stopping.set()
        if self._making is not None:
            await self._making
        if self.spare is not None:
            spare, self.spare = self.spare, None
            await spare.stop()


async def _first_set(*events: asyncio.Event) -> None:
    waits = [asyncio.create_task(event.wait()) for event in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
