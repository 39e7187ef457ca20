"""Times as a rep reads them: relative ("10 min ago") or in the rep's own time zone.

The service speaks UTC; the rep lives somewhere. A clock and a time zone are passed
in (not read from globals) so that snapshot tests render the same text every day.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, tzinfo

from warmline.store.clock import LATE_SECONDS
from warmline.zone import system_zone

DatetimeClock = Callable[[], datetime]
"""The cockpit's clock: an aware datetime (`utc_now` for real), what display code reads.
The store and the engine count in epoch seconds instead: `warmline.store.clock.EpochClock`."""


def utc_now() -> datetime:
    """The real clock: an aware UTC datetime."""
    return datetime.now(UTC)


def local_zone() -> tzinfo:
    """The machine's time zone, taken as the rep's: a zone with rules (`warmline.zone`), so
    a time after a DST change shows with its own offset, as the command line shows it."""
    return system_zone()


def parse_ts(value: str | datetime | None) -> datetime | None:
    """Parse the service's ISO 8601 timestamps (with a trailing `Z`) into aware datetimes.

    Naive values are taken as UTC, the service's zone; unparseable ones give None so a
    malformed cache value shows as "never" instead of crashing a screen.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        parsed = value
    else:
        try:
            parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


AHEAD = 600
"""Seconds a past moment may seem to lie ahead of ours and still read "just now": the
service's clock and ours differ by that much (the sandbox tests 180 s either way)."""


def relative(value: str | datetime | None, now: datetime, zone: tzinfo, *, never: str = "never",
             to_the_second: bool = False) -> str:
    """When something happened, shortly: "5 min ago"; older than a week, or further ahead of
    our clock than clocks differ (a clock set back, a bad date), its date in the rep's zone.
    Every moment shown this way is past (logged, synced, fetched, last activity): "in 5 min"
    for one of them, as the service's clock ran ahead of ours, said something to come.

    Within its first minute a moment is "just now", unless `to_the_second` ("25 s ago"): only
    the status line, drawn every second, keeps such a time true; a screen is read again only
    every half minute when nothing changes (`warmline.tui.app.TIMES_SECONDS`)."""
    moment = parse_ts(value)
    if moment is None:
        return never
    seconds = (now - moment).total_seconds()
    if -AHEAD <= seconds < (5 if to_the_second else 60):
        return "just now"
    if 0 < seconds < 60:
        return f"{int(seconds)} s ago"
    if 0 < seconds < 7 * 86400:
        return _span(seconds) + " ago"
    local = moment.astimezone(zone)
    if local.year == now.astimezone(zone).year:
        return local.strftime("%d %b")
    return local.strftime("%Y-%m-%d")


def _span(seconds: float) -> str:
    if seconds < 60:
        return f"{int(seconds)} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} d"


def clock_time(value: str | datetime | None, zone: tzinfo) -> str:
    """HH:MM in the rep's zone, for "rate-limited until 14:05"."""
    moment = parse_ts(value)
    return moment.astimezone(zone).strftime("%H:%M") if moment else "?"


def local_datetime(value: str | datetime | None, zone: tzinfo) -> str:
    """A full local date and time for detail views, e.g. "2026-11-22 09:14"."""
    moment = parse_ts(value)
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M") if moment else "-"


def elapsed(start: str | datetime | None, end: str | datetime | None, now: datetime) -> str:
    """Run time of a job: from start to end, or to now while it still runs."""
    began = parse_ts(start)
    if began is None:
        return "-"
    finished = parse_ts(end) or now
    seconds = max(0, int((finished - began).total_seconds()))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{(seconds % 3600) // 60:02d}m"


def _late(logged: datetime, delivered: datetime) -> bool:
    return abs((delivered - logged).total_seconds()) > LATE_SECONDS


def logged_delivered(logged_at: str | None, delivered_at: str | None, zone: tzinfo) -> str | None:
    """"logged 13:05, delivered 13:41" for a record that reached the service more than a
    minute after the rep took the action (queued offline, say); None when the two agree or
    either is unknown (records made elsewhere have no logged time). Dates are added when
    the two fall on different days in the rep's zone."""
    logged, delivered = parse_ts(logged_at), parse_ts(delivered_at)
    if logged is None or delivered is None or not _late(logged, delivered):
        return None
    logged, delivered = logged.astimezone(zone), delivered.astimezone(zone)
    shape = "%H:%M" if logged.date() == delivered.date() else "%d %b %H:%M"
    return f"logged {logged.strftime(shape)}, delivered {delivered.strftime(shape)}"


def logged_ago(logged_at: str | None, now: datetime, zone: tzinfo) -> str:
    """When an action not yet delivered was taken: "logged 13:05 · 36 min ago" (with the
    date when not today), or "just now" within its first minute."""
    logged = parse_ts(logged_at)
    if logged is None or not _late(logged, now):
        return relative(logged_at, now, zone)
    local = logged.astimezone(zone)
    shape = "%H:%M" if local.date() == now.astimezone(zone).date() else "%d %b %H:%M"
    return f"logged {local.strftime(shape)} · {relative(logged, now, zone)}"
