"""Online or offline, syncing, rate-limited: what the rep is told, and how we get back online.

The status (`SyncStatus`, in the sync vocabulary `warmline.store.sync_vocabulary`) is
written to the store's sync state, because the flush loop may run in another process
(`warmline sync --watch`) than the cockpit, which reads it from there
(`Store.sync_status`). In the same process, listeners are also called with each new
`SyncStatus`, so a change is seen without polling the database.

A service that answers, but with errors or garbage where a list should be (a 503, an
answer that is not JSON or not the right shape, an empty 200), is "failing": reachable, so
not offline, but the cache is not being refreshed, and saying "online" would hide that.
The engine sets it from a failed read and clears it with the next successful one.

Offline is a state, not an error: a connection failure anywhere switches to offline, and
from then on only a health probe talks to the service, backing off (full jitter, 2 s up to
30 s) until it answers; then the engine flushes at once.

Online is a claim too, kept honest by the idle probe: while online, when the service has
not answered anything for `IDLE_PROBE_AFTER` seconds (the rep idles, nothing is queued),
the same probe asks it, with a short deadline, so a dead or silent service turns the status
offline within 45 s even when nothing else would have found out. The bounds (docs/sync.md):
going offline takes at most 20 s of quiet + a 1 s tick + the probe's deadline (5 s to
connect, 5 s for the answer) = 31 s; coming back at most a failed probe's 10 s + the 30 s
backoff cap + a 1 s tick = 41 s.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict, Unpack

from warmline.api import ServiceClient
from warmline.api.errors import ApiError, AuthError
from warmline.store.clock import EpochClock, system_clock
from warmline.store.sync_vocabulary import STORED_FIELDS, SyncStatus
from warmline.sync.backoff import Backoff

if TYPE_CHECKING:
    from warmline.store import Store

log = logging.getLogger("warmline.sync")

Listener = Callable[[SyncStatus], None]


class StatusChange(TypedDict, total=False):
    """The fields of `SyncStatus` the engine sets (`queued` and `failed` are counted in the
    outbox on every change)."""

    online: bool | None
    syncing: bool
    auth_failed: bool
    rate_limited_until: float | None
    last_sync_at: float | None
    last_error: str | None
    failing: str | None
    clock_note: str | None
    step: str | None


IDLE_PROBE_AFTER = 20.0
"""Seconds without any answer from the service before an online engine probes it."""
PROBE_TIMEOUT = 5.0
"""The probe's deadline, for connecting and for the answer (each), in seconds."""
OFFLINE_PROBE_CAP = 30.0
"""The longest wait between two probes while offline: the return is seen within 45 s."""


class StatusBoard:
    """Holds the current `SyncStatus`, persists what changed, tells the listeners.

    What was changed is written when it differs from what the cache holds, not from what
    this board last saw: another process (`warmline sync --send`, a second engine) writes
    the same keys, and a board that compared with its memory alone would never correct a
    value that process left there (a "key refused" outliving the refusal).

    The engine changes the status from the event loop (`Connection.lost` when a read finds
    the service down) and from worker threads (`update` run through `Blocking`, since it
    writes to the store) at the same time. Each change reads the status, writes what
    differs and replaces it; done by two threads at once, the later would put back what
    the earlier changed (an engine offline in the store but online in memory, which no
    probe then corrects). So a change is made whole under a lock, store writes included;
    the lock is always taken before the store's, never inside a store transaction.
    """

    def __init__(self, store: Store, clock: EpochClock = system_clock) -> None:
        self.store = store
        self.clock = clock
        self.current = store.sync_status()
        self._listeners: list[Listener] = []
        # Reentrant: a listener may change the status again.
        self._changing = threading.RLock()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(status)` on every change; returns a function that unsubscribes."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def update(self, **changes: Unpack[StatusChange]) -> SyncStatus:
        """Change some fields of the status; recounts the outbox too."""
        with self._changing:
            cached = self.store.sync_status()
            new = self.current._replace(**changes, queued=cached.queued, failed=cached.failed)
            stored = {
                key: getattr(new, name)
                for name, key in STORED_FIELDS.items()
                if getattr(new, name) != getattr(self.current, name)
                or (name in changes and getattr(new, name) != getattr(cached, name))
            }
            if stored:
                with self.store.write():
                    for key, value in stored.items():
                        self.store.set_state(key, value)
            if new != self.current:
                self.current = new
                for listener in list(self._listeners):
                    try:
                        listener(new)
                    except Exception:  # a broken listener must not stop sync
                        log.exception("status listener failed")
            return new


class Connection:
    """Online/offline, and the health probe that brings us back, with its own backoff."""

    def __init__(
        self,
        client: ServiceClient,
        board: StatusBoard,
        *,
        clock: EpochClock = system_clock,
        backoff: Backoff | None = None,
        monotonic: EpochClock | None = None,
    ) -> None:
        self.client = client
        self.board = board
        # The probe's backoff runs on a monotonic clock: a wall clock set back a day would
        # otherwise keep the cockpit offline for that day. A clock given without a
        # monotonic one (a test's fake time) serves as both.
        self.clock = monotonic or (time.monotonic if clock is system_clock else clock)
        self.backoff = backoff or Backoff(cap=OFFLINE_PROBE_CAP)
        self.failures = 0
        self.next_probe_at = 0.0  # on `self.clock`
        self.idle_probe_after = IDLE_PROBE_AFTER
        self.probe_timeout = PROBE_TIMEOUT

    @property
    def offline(self) -> bool:
        return self.board.current.online is False

    def lost(self, error: str) -> None:
        """A request could not reach the service: offline until a probe succeeds.

        A key refused earlier is no longer the last word: the status says offline."""
        self.failures += 1
        self.next_probe_at = self.clock() + self.backoff.delay(self.failures)
        if not self.offline:
            log.info("offline: %s", error)
        self.board.update(online=False, auth_failed=False, syncing=False, last_error=error)

    def reached(self) -> None:
        """A request got an answer from the service (any answer: it is up, and did not
        refuse the key). Written even when this board already thinks so: another process
        may have stored a refusal or an offline since."""
        self.failures = 0
        current = self.board.current
        if current.online is False:
            log.info("online again")
        if current.online is not True or current.auth_failed:
            self.board.update(online=True, auth_failed=False, last_error=None)
        else:
            self.board.update(online=True, auth_failed=False)

    def refused_key(self, error: str) -> None:
        """The service answered but refused the key (401/403): nothing is sent until a probe
        passes. Shown only until the next outcome, whatever it is (`lost`, `reached`, a
        failing read)."""
        self.failures += 1
        self.next_probe_at = self.clock() + self.backoff.delay(self.failures)
        self.board.update(online=True, auth_failed=True, syncing=False, last_error=error)

    def probe_due(self) -> bool:
        """Unsure (offline, before the first answer, key refused) and the backoff ran out."""
        current = self.board.current
        unsure = current.online is not True or current.auth_failed
        return unsure and self.clock() >= self.next_probe_at

    def idle_probe_due(self) -> bool:
        """Online, and the service has answered nothing for `idle_probe_after` seconds.

        Any answer counts (a refresh, a send, a job poll, the cockpit's own lookups: the
        client sees them all), so a busy engine never probes; a failed request does not
        count, since it proves nothing about the service being up. While the service has
        asked us to wait (429), it answered recently: no probe."""
        current = self.board.current
        if current.online is not True or current.auth_failed or self.client.limiter.delay() > 0:
            return False
        return self.client.quiet_for >= self.idle_probe_after

    async def probe(self, *, timeout: float | None = None) -> bool:
        """Ask the health operation (which also checks the key); True when usable.

        `timeout` (the tick passes `probe_timeout`) bounds how long a silent service can
        keep the status unchanged; None uses the client's own timeout."""
        try:
            await self.client.health(timeout=timeout)
        except AuthError as exc:
            self.refused_key(str(exc))
            return False
        except ApiError as exc:
            if exc.status is None or exc.retryable or exc.unavailable:
                self.lost(str(exc))
                return False
            # The service answered (even with an error): it is reachable.
        self.reached()
        return True
