"""Time for the cache: one injectable clock (`EpochClock`) and one timestamp format.

Every stored timestamp uses the wire format (`2026-11-22T10:24:11.123Z`) so that the
indexed ones (last activity, creation) sort correctly as text whatever shape the server
or pydantic produced. Scheduling times (`next_attempt_at`, `next_poll_at`) are epoch
seconds: the sync engine does arithmetic on them, and tests drive them with a fake clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# The timestamp format lives in a leaf module (the queued operations below the store read it
# too); re-exported here, where the store and the cockpit have always found it.
from warmline.timestamps import LATE_SECONDS as LATE_SECONDS
from warmline.timestamps import epoch_of as epoch_of
from warmline.timestamps import iso as iso
from warmline.timestamps import normalize_ts as normalize_ts

EpochClock = Callable[[], float]
"""A clock giving epoch seconds (the store's, the engine's; `time.time` for real). The
cockpit's display clock gives aware datetimes instead: `warmline.tui.timefmt.DatetimeClock`."""

system_clock: EpochClock = time.time
