"""Online or offline, syncing, rate-limited: what the rep is told, and how we get back online.

The status is written to the store's sync state (`online`, `last_sync_at`,
`rate_limited_until`, `last_error`, plus `syncing`, `auth_failed` and `service_failing`), because the flush
loop may run in another process (`warmline sync --watch`) than the cockpit, which reads it
from there. In the same process, listeners (the TUI) are also called with each new
`EngineStatus`, so the status line changes without polling the database.

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
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from warmline.api import ServiceClient
from warmline.api.errors import ApiError, AuthError
from warmline.store.state import LAST_ERROR, LAST_SYNC_AT, ONLINE, RATE_LIMITED_UNTIL
from warmline.sync.backoff import Backoff

log = logging.getLogger("warmline.sync")

SYNCING = "syncing"
AUTH_FAILED = "auth_failed"
SERVICE_FAILING = "service_failing"

STATE_ONLINE = "online"
STATE_OFFLINE = "offline"
STATE_SYNCING = "syncing"
STATE_RATE_LIMITED = "rate_limited"
STATE_AUTH_FAILED = "auth_failed"
STATE_FAILING = "failing"
STATE_UNKNOWN = "unknown"

Listener = Callable[["EngineStatus"], None]

IDLE_PROBE_AFTER = 20.0
"""Seconds without any answer from the service before an online engine probes it."""
PROBE_TIMEOUT = 5.0
"""The probe's deadline, for connecting and for the answer (each), in seconds."""
OFFLINE_PROBE_CAP = 30.0
"""The longest wait between two probes while offline: the return is seen within 45 s."""


@dataclass(frozen=True)
class EngineStatus:
    """One snapshot of the sync state. `online` is None before the first contact."""

    online: bool | None = None
    syncing: bool = False
    auth_failed: bool = False
    rate_limited_until: float | None = None
    queued: int = 0
    failed: int = 0
    last_sync_at: float | None = None
    last_error: str | None = None
    failing: str | None = None
    """What the service failed to give us, briefly ("lead list (HTTP 503)"); None when the
    last read of each part succeeded."""

    def state(self, now: float) -> str:
        """The one word for the status line; the most pressing condition wins."""
        if self.auth_failed:
            return STATE_AUTH_FAILED
        if self.online is False:
            return STATE_OFFLINE
        if self.failing:
            return STATE_FAILING
        if self.rate_limited_until is not None and self.rate_limited_until > now:
            return STATE_RATE_LIMITED
        if self.syncing:
            return STATE_SYNCING
        return STATE_ONLINE if self.online else STATE_UNKNOWN


def read_status(store: Any) -> EngineStatus:
    """The status as the store has it (written by whichever process runs the engine)."""
    shared = store.sync_status()
    return EngineStatus(
        online=shared.online,
        syncing=bool(store.get_state(SYNCING, False)),
        auth_failed=bool(store.get_state(AUTH_FAILED, False)),
        failing=_text_or_none(store.get_state(SERVICE_FAILING)),
        rate_limited_until=shared.rate_limited_until,
        queued=shared.queued,
        failed=shared.failed,
        last_sync_at=shared.last_sync_at,
        last_error=shared.last_error,
    )


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


class StatusBoard:
    """Holds the current `EngineStatus`, persists what changed, tells the listeners."""

    _KEYS = {
        "online": ONLINE,
        "syncing": SYNCING,
        "auth_failed": AUTH_FAILED,
        "rate_limited_until": RATE_LIMITED_UNTIL,
        "last_sync_at": LAST_SYNC_AT,
        "last_error": LAST_ERROR,
        "failing": SERVICE_FAILING,
    }

    def __init__(self, store: Any, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.current = read_status(store)
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(status)` on every change; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def update(self, **changes: Any) -> EngineStatus:
        """Change some fields (names of `EngineStatus`); recounts the outbox too."""
        counts = self.store.outbox_counts()
        new = replace(self.current, **changes, queued=counts.queued, failed=counts.failed)
        stored = {
            key: getattr(new, name)
            for name, key in self._KEYS.items()
            if getattr(new, name) != getattr(self.current, name)
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
        clock: Callable[[], float] = time.time,
        backoff: Backoff | None = None,
    ) -> None:
        self.client = client
        self.board = board
        self.clock = clock
        self.backoff = backoff or Backoff(cap=OFFLINE_PROBE_CAP)
        self.failures = 0
        self.next_probe_at = 0.0
        self.idle_probe_after = IDLE_PROBE_AFTER
        self.probe_timeout = PROBE_TIMEOUT

    @property
    def offline(self) -> bool:
        return self.board.current.online is False

    def lost(self, error: str) -> None:
        """A request could not reach the service: offline until a probe succeeds."""
        self.failures += 1
        self.next_probe_at = self.clock() + self.backoff.delay(self.failures)
        if not self.offline:
            log.info("offline: %s", error)
        self.board.update(online=False, syncing=False, last_error=error)

    def reached(self) -> None:
        """A request got an answer from the service (any answer: it is up)."""
        self.failures = 0
        if self.board.current.online is not True or self.board.current.auth_failed:
            self.board.update(online=True, auth_failed=False, last_error=None)

    def refused_key(self, error: str) -> None:
        """The service answered but refused the key: nothing is sent until a probe passes."""
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
            if exc.status is None or exc.retryable:
                self.lost(str(exc))
                return False
            # The service answered (even with an error): it is reachable.
        self.reached()
        return True
