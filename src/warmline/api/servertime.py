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

A sample more than `MAX_OFFSET` away from our clock is not believed: that is a service
lying, not a clock, and trusting it would let reconciliation adopt records made long
before our send. With no sample at all (no `Date`, no health `time`) there is no
estimate, and reconciliation falls back to comparing with our own clock.
"""

from __future__ import annotations

import statistics
from collections import deque
from email.utils import parsedate_to_datetime
from typing import NamedTuple

WINDOW = 15
"""Samples the estimate is the median of."""
MAX_OFFSET = 86_400.0
"""Seconds; a sample further from our clock than a day is ignored."""
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
        if abs(offset) > MAX_OFFSET or offset != offset:  # NaN never equals itself
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
        """The median offset of the recent samples with its uncertainty; else the seed; else None."""
        if not self._samples:
            return self._prior
        offsets = [offset for offset, _ in self._samples]
        offset = statistics.median(offsets)
        spread = statistics.median(abs(value - offset) for value in offsets)
        error = statistics.median(error for _, error in self._samples)
        return Estimate(offset, error + spread)

    def to_server(self, local: float) -> float | None:
        """`local` (our clock's epoch seconds) on the server's clock; None without an estimate."""
        estimate = self.estimate()
        return None if estimate is None else local + estimate.offset
