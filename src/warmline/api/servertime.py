"""What time the service thinks it is: the offset of its clock from ours, learned from answers.

Reconciliation (`warmline.sync.reconcile`) compares the `created_at` the server stamped on
a record with the time we first sent the op, stamped by our clock. A client clock minutes
ahead of the server's made our own record look older than the send, so it was not
recognised and the op was sent again (a duplicate). So the client measures the offset on
every answer and reconciliation works in the server's time.

A sample comes from the health answer's `time` (millisecond resolution) or from the HTTP
`Date` header of any answer (1 s resolution, truncated). Each sample compares the server's
time with the middle of our request (sent..received), so its error is at most half the
round trip plus half the resolution. The estimate is the median of the last `WINDOW`
samples (one slow answer or one odd header does not move it), and its uncertainty is the
median sample error plus the median deviation of the samples from the estimate.

An offset of more than `MAX_OFFSET` (a day) is measured but not trusted: `estimate()`
gives nothing for it (the rate limiter and the service check do not use it), and
`distrust()` says so in words the status can show. Reconciliation still uses it: it asks
for `lowest_offset()`, the lowest offset any sample we hold allows (each less its
error), so its window is wide enough for every offset we measured, whether trusted or
not. A clock two days ahead was dropped as "a service lying" and our own records then
looked made before our send: 30 activities became 60. The window errs wide: what it
risks is adopting an identical record someone else made within it, never a duplicate.
A sample further than `MAX_MEASURED` (a `Date` in 1970 or in year 5000) is no clock at
all and is ignored. With no sample at all (no `Date`, no health `time`, nothing stored)
there is no estimate, and reconciliation falls back to comparing with our own clock.
"""

from __future__ import annotations

import statistics
from collections import deque
from email.utils import parsedate_to_datetime

from warmline.named_tuple import NamedTuple

WINDOW = 15
"""Samples the estimate is the median of."""
MAX_OFFSET = 86_400.0
"""Seconds; an offset larger than a day is measured but not trusted (`distrust`)."""
MAX_MEASURED = 400 * 86_400.0
"""Seconds; a sample further from our clock than 400 days (a clock a year off is still one)
is a service's nonsense, ignored."""
DATE_RESOLUTION = 1.0
"""The `Date` header's resolution (whole seconds, truncated)."""


class Estimate(NamedTuple):
    """`offset`: server time minus our time, in seconds; `uncertainty`: how far off it may be."""

    offset: float
    uncertainty: float


class ServerClock:
    """The service's clock as seen from ours; fed by `ServiceClient` with every answer."""

    def __init__(self, window: int = WINDOW) -> None:
        self._samples: deque[tuple[float, float]] = deque(maxlen=window)  # (offset, error)
        self._prior: Estimate | None = None

    def observe(self, server_time: float, sent: float, received: float, resolution: float = 0.0) -> None:
        """One answer: the server said `server_time` (truncated to `resolution`) while our
        clock went from `sent` to `received`."""
        if received < sent:
            sent, received = received, sent
        middle = (sent + received) / 2
        offset = server_time + resolution / 2 - middle
        if not abs(offset) <= MAX_MEASURED:  # NaN compares false too
            return
        self._samples.append((offset, (received - sent) / 2 + resolution / 2))

    def observe_date(self, header: str | None, sent: float, received: float) -> None:
        """The `Date` header of an answer, when it has a readable one."""
        if not header:
            return
        try:
            moment = parsedate_to_datetime(header)
        except (TypeError, ValueError, IndexError, OverflowError):
            return
        if moment is None or moment.tzinfo is None:
            return
        try:
            stamp = moment.timestamp()
        except (OverflowError, OSError, ValueError):
            return
        self.observe(stamp, sent, received, DATE_RESOLUTION)

    def seed(self, estimate: Estimate) -> None:
        """An estimate remembered from an earlier run, used until this run has a sample."""
        if abs(estimate.offset) <= MAX_OFFSET and estimate.uncertainty >= 0:
            self._prior = estimate

    @property
    def samples(self) -> int:
        return len(self._samples)

    def estimate(self) -> Estimate | None:
        """The median offset of the recent samples with its uncertainty, when it is within
        `MAX_OFFSET`; else the seed; else None."""
        measured = self.measured()
        return measured if measured is not None and abs(measured.offset) <= MAX_OFFSET else None

    def measured(self) -> Estimate | None:
        """The median offset of the recent samples with its uncertainty, trusted or not;
        else the seed; else None."""
        if not self._samples:
            return self._prior
        offsets = [offset for offset, _ in self._samples]
        offset = statistics.median(offsets)
        spread = statistics.median(abs(value - offset) for value in offsets)
        error = statistics.median(error for _, error in self._samples)
        return Estimate(offset, error + spread)

    def lowest_offset(self) -> float | None:
        """The lowest offset that what we measured allows: the least of every sample less
        its error, the estimate less its uncertainty, and the seed less its own (measured by
        an earlier run, when an op still unsettled may have been sent). None with nothing
        measured. Reconciliation's window starts there (see the module docstring)."""
        bounds = [offset - error for offset, error in self._samples]
        for known in (self.measured(), self._prior):
            if known is not None:
                bounds.append(known.offset - known.uncertainty)
        return min(bounds) if bounds else None

    def distrust(self) -> str | None:
        """Why the estimate is not trusted, for the status (`clock 2.0 d ahead of the
        service`); None while the clocks agree within `MAX_OFFSET` or nothing is known."""
        measured = self.measured()
        if measured is None or abs(measured.offset) <= MAX_OFFSET:
            return None
        side = "behind" if measured.offset > 0 else "ahead of"
        return f"clock {abs(measured.offset) / 86_400.0:.1f} d {side} the service"

    def to_server(self, local: float) -> float | None:
        """`local` (our clock's epoch seconds) on the server's clock; None without an estimate."""
        estimate = self.estimate()
        return None if estimate is None else local + estimate.offset
