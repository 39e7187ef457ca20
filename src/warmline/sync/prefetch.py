"""Prefetch: every lead's detail in the cache, so that any lead opens offline.

Opening a lead reads its detail then; a rep on a train opens leads they never opened.
After the lead list is refreshed, `Prefetcher.run` reads the detail (and notes: two
requests) of each lead the store names in `leads_needing_detail`: never fetched, or its
list line changed since (see `warmline.store.signature`), most useful first.

The rep's own actions keep priority over this background reading: the prefetch spends at
most half of what the rate-limit window had left when it first saw that window
(`Budget`), then waits for the window to reset; two leads at most are in flight, so a
flush's requests never queue behind a burst of reads. A lead the service no longer has
(404) is skipped; losing the connection or the key ends the pass, and the next pass
resumes where it stopped, since fetched leads are no longer stale.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from warmline.api.errors import ApiError, AuthError, NotFoundError, OfflineError, RateLimitedError
from warmline.api.ratelimit import RateLimiter
from warmline.store.clock import EpochClock, system_clock
from warmline.sync.refresh import Refresher

log = logging.getLogger("warmline.sync")

Sleep = Callable[[float], Awaitable[object]]

REQUESTS_PER_LEAD = 2  # the detail and the notes
SHARE = 0.5  # of the window's remaining requests, at most, for the prefetch
CONCURRENCY = 2
# A service that sends no rate-limit headers: this many requests per period, one lead at a time.
DEFAULT_REQUESTS = 10
DEFAULT_PERIOD = 10.0
# The longest single wait for a window to reset; the budget is looked at again after it.
WAIT_CAP = 60.0


@dataclass
class PrefetchReport:
    """One pass: leads it set out to read, what became of them, what it cost."""

    wanted: int = 0
    fetched: int = 0  # `requests` counts what was taken from the budget (2 a lead)
    gone: int = 0
    failed: int = 0
    requests: int = 0
    waits: int = 0
    waited: float = 0.0
    finished: bool = False
    errors: list[str] = field(default_factory=list)


class Budget:
    """The prefetch's share of the rate limit, one window at a time.

    The first time a window is seen (the limiter knows its `remaining` and a `reset_at`
    still ahead), the prefetch may spend `share` of what remained then; the rest, and
    whatever the service grants later in the window, is left to the rep's actions,
    refreshes and polls. Once that share is spent, `take` answers how long until the
    window resets. Before any headers are known the window is a guess: one lead at a
    time (the first answer tells the real figures), at most `default_requests` per
    `default_period` for a service that never says.
    """

    def __init__(
        self,
        limiter: RateLimiter,
        clock: EpochClock = system_clock,
        *,
        share: float = SHARE,
        default_requests: int = DEFAULT_REQUESTS,
        default_period: float = DEFAULT_PERIOD,
    ) -> None:
        self.limiter = limiter
        self.clock = clock
        self.share = share
        self.default_requests = default_requests
        self.default_period = default_period
        self._ends: float | None = None
        self._known = False
        self._allowed = 0
        self._spent = 0

    def take(self, requests: int, in_flight: int = 0) -> float | None:
        """Count `requests` and answer 0 when they may go now; else the seconds to wait
        before asking again, or None when the answer of a request in flight (`in_flight`
        of ours) will tell more than waiting would."""
        blocked = self.limiter.delay()
        if blocked > 0:
            return blocked
        now = self.clock()
        if self._ends is not None and now >= self._ends:
            self._ends = None  # that window is over
        state = self.limiter.state()
        known = state.remaining is not None and state.reset_at is not None and state.reset_at > now
        if self._ends is None:
            self._known, self._spent = False, 0
            self._ends, self._allowed = now + self.default_period, self.default_requests
        if known and not self._known:
            # The window's real figures: what we spent guessing counts against our share.
            assert state.remaining is not None and state.reset_at is not None
            self._known, self._ends = True, state.reset_at
            self._allowed = int((state.remaining + self._spent) * self.share)
        if not self._known and in_flight > 0:
            return None
        if self._spent + requests <= self._allowed:
            self._spent += requests
            return 0.0
        return max(self._ends - now, 0.001)


class Prefetcher:
    """Reads stale or missing lead details within the budget; one per engine."""

    def __init__(
        self,
        refresher: Refresher,
        limiter: RateLimiter,
        *,
        clock: EpochClock = system_clock,
        sleep: Sleep = asyncio.sleep,
        concurrency: int = CONCURRENCY,
        wait_cap: float = WAIT_CAP,
        budget: Budget | None = None,
    ) -> None:
        self.refresher = refresher
        self.clock = clock
        self.sleep = sleep
        self.concurrency = max(1, concurrency)
        self.wait_cap = wait_cap
        self.budget = budget if budget is not None else Budget(limiter, clock)

    async def run(
        self,
        lead_ids: Iterable[int],
        *,
        wait: bool = True,
        fetch: Callable[[int], Awaitable[object]] | None = None,
        cost: int = REQUESTS_PER_LEAD,
    ) -> PrefetchReport:
        """Fetch the detail of `lead_ids` (or whatever `fetch(lead_id)` reads, at `cost`
        requests a lead), in that order, within the budget.

        With `wait`, a spent budget is waited out (each wait capped, then the budget looked
        at again) until every lead is read; without it, the pass ends there (`finished` is
        False). Raises the `OfflineError` or `AuthError` that ends a pass; other failures of
        one lead are counted and the pass goes on."""
        read = fetch if fetch is not None else self.refresher.lead
        pending = deque(lead_ids)
        report = PrefetchReport(wanted=len(pending))
        gate = asyncio.Condition()
        in_flight = 0
        stop: list[BaseException | None] = []  # None: end quietly

        async def grant() -> int | None:
            """The next lead to read, once the budget allows; None when the pass ends."""
            nonlocal in_flight
            async with gate:
                while pending and not stop:
                    pause = self.budget.take(cost, in_flight)
                    if pause == 0:
                        in_flight += 1
                        report.requests += cost
                        return pending.popleft()
                    if pause is None:
                        await gate.wait()  # an answer in flight brings the window's figures
                    elif not wait:
                        return None
                    else:
                        pause = min(pause, self.wait_cap)
                        report.waits += 1
                        report.waited += pause
                        await self.sleep(pause)
                return None

        async def done() -> None:
            nonlocal in_flight
            async with gate:
                in_flight -= 1
                gate.notify_all()

        async def worker() -> None:
            while (lead_id := await grant()) is not None:
                try:
                    await read(lead_id)
                    report.fetched += 1
                except NotFoundError:
                    report.gone += 1  # removed on the service: the next list drops it
                except RateLimitedError:
                    # Squeezed anyway (the rep's actions took the rest): leave the window to
                    # them; the next pass, after the wait, resumes with this lead.
                    pending.appendleft(lead_id)
                    stop.append(None)
                except (OfflineError, AuthError) as exc:
                    stop.append(exc)
                except ApiError as exc:
                    if exc.retryable or exc.is_ambiguous:
                        stop.append(exc)  # the service is struggling: the next pass resumes
                    else:
                        report.failed += 1
                        report.errors.append(f"lead {lead_id}: {exc}")
                        log.info("prefetch of lead %s failed: %s", lead_id, exc)
                finally:
                    await done()

        await asyncio.gather(*(worker() for _ in range(self.concurrency)))
        report.finished = not pending
        failure = next((exc for exc in stop if exc is not None), None)
        if failure is not None:
            raise failure
        return report
