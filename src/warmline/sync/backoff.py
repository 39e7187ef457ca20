"""When to try again after a failure: exponential backoff with full jitter.

Full jitter (a uniform draw between zero and the exponential ceiling) spreads the retries
of many ops, and of many Warmline installs behind one office connection, instead of
letting them hammer a recovering service in lockstep. The server's own word
(`Retry-After`, `X-RateLimit-Reset`) is a floor that jitter never undercuts: see
`RetryPlan`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

DEFAULT_BASE = 2.0
DEFAULT_CAP = 300.0


@dataclass
class Backoff:
    """Delay before attempt number `attempts + 1`, given `attempts` failures so far."""

    base: float = DEFAULT_BASE
    cap: float = DEFAULT_CAP
    rng: random.Random = field(default_factory=random.Random)

    def ceiling(self, attempts: int) -> float:
        """The exponential ceiling: base, 2*base, 4*base, ... up to cap."""
        exponent = max(0, attempts - 1)
        # Past 2**30 the cap has long been reached; avoid huge floats.
        return min(self.cap, self.base * 2.0 ** min(exponent, 30))

    def delay(self, attempts: int) -> float:
        """A full-jitter draw in [0, ceiling(attempts)]."""
        return self.rng.uniform(0.0, self.ceiling(attempts))


@dataclass(frozen=True)
class RetryPlan:
    """When a failed op may go again: `next_attempt_at` (our backoff, skippable when the rep
    asks for a sync now) and `not_before` (the server's Retry-After: never skipped)."""

    next_attempt_at: float
    not_before: float | None


def plan_retry(backoff: Backoff, attempts: int, now: float, server_wait: float | None) -> RetryPlan:
    """Combine our backoff with the server's requested wait (seconds), if any."""
    not_before = now + server_wait if server_wait is not None and server_wait > 0 else None
    next_at = now + backoff.delay(attempts)
    if not_before is not None:
        next_at = max(next_at, not_before)
    return RetryPlan(next_attempt_at=next_at, not_before=not_before)
