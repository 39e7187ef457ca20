"""The rep's time zone: a zone with rules (IANA, `Europe/Berlin`), never a fixed offset.

`datetime.now().astimezone().tzinfo` is the offset in force *now*: a follow-up at 10:00
after the March change, shown or exported with the offset of February, was an hour off,
and the cockpit and the command line disagreed by an hour about one timestamp. Every
place that shows or exports a time asks `system_zone()` instead, so one moment reads the
same everywhere and each date gets its own offset.

Where the zone comes from, first found wins:
1. `TZ` naming an IANA zone (`Europe/Berlin`, `:Europe/Berlin`);
2. `/etc/localtime` as a link into a zoneinfo directory (Linux, macOS), or as a tzfile;
3. `tzlocal`, when installed (it knows Windows and the other Unix configuration files);
4. the C library's own rules (`SystemRules`): still right on both sides of a DST change,
   for a `TZ` written as POSIX rules (`CET-1CEST,M3.5.0,M10.5.0/3`) or a system without
   the zone database.
The cheap reads come first: `warmline log` asks for the zone and must stay light.

Standard library only (tzlocal is optional and imported only when the files say nothing).
"""

from __future__ import annotations

import os
import re
import time as _time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

LOCALTIME = Path("/etc/localtime")
_ZONEINFO_DIR = re.compile(r"/zoneinfo(?:-leaps|-posix)?/(?P<key>.+)$")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class SystemRules(tzinfo):
    """The C library's local time (`time.localtime`/`mktime`), DST included: the last resort
    when the zone has no IANA name Python can load. Unlike a fixed offset it gives each date
    its own offset. An ambiguous wall time (the repeated hour in autumn) is read as the
    C library reads it; `fold` is honoured where the library lets it be."""

    def _local(self, moment: datetime) -> _time.struct_time:
        fields = (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second,
                  moment.weekday(), 0, -1)  # fmt: skip
        try:
            return _time.localtime(_time.mktime(fields))
        except (OverflowError, ValueError, OSError):  # outside the C library's range
            return _time.localtime(0)

    def utcoffset(self, dt: datetime | None) -> timedelta:
        return timedelta(seconds=self._local(dt).tm_gmtoff) if dt is not None else timedelta(0)

    def dst(self, dt: datetime | None) -> timedelta:
        if dt is None or self._local(dt).tm_isdst <= 0:
            return timedelta(0)
        winter = self._local(dt.replace(month=1, day=1)).tm_gmtoff
        summer = self._local(dt.replace(month=7, day=1)).tm_gmtoff
        return timedelta(seconds=abs(summer - winter))

    def tzname(self, dt: datetime | None) -> str:
        return self._local(dt).tm_zone if dt is not None else "local"

    def fromutc(self, dt: datetime) -> datetime:
        stamp = (dt.replace(tzinfo=UTC) - _EPOCH).total_seconds()
        local = _time.localtime(stamp)
        return datetime(*local[:6], dt.microsecond, tzinfo=self)

    def __repr__(self) -> str:
        return "SystemRules()"


def named_zone(name: str) -> ZoneInfo | None:
    """The IANA zone `name`, or None when it names none this machine knows (a typo, a
    POSIX rule string, a path outside the zone database)."""
    key = name.lstrip(":").strip()
    if not key or key.startswith("/") or ".." in key:
        return None
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def _from_localtime(path: Path) -> ZoneInfo | None:
    """The zone `/etc/localtime` names: by its link's target, else read as a tzfile."""
    try:
        target = os.path.realpath(path) if path.is_symlink() else None
    except OSError:
        target = None
    found = _ZONEINFO_DIR.search(target) if target else None
    if found:
        zone = named_zone(found.group("key"))
        if zone is not None:
            return zone
    try:
        with path.open("rb") as handle:
            return ZoneInfo.from_file(handle, key="localtime")
    except (OSError, ValueError):
        return None


def _from_tzlocal() -> tzinfo | None:
    """tzlocal's answer, when the package is installed and finds a named zone."""
    try:
        import tzlocal  # deferred: first frame (optional, only when the files say nothing)
    except ImportError:
        return None
    try:
        zone = tzlocal.get_localzone()
    except Exception:  # noqa: BLE001 - any misconfiguration it reports means "no answer"
        return None
    return zone if isinstance(zone, ZoneInfo) else None


def system_zone(env: Mapping[str, str] | None = None, localtime: Path = LOCALTIME, *, use_tzlocal: bool = True) -> tzinfo:
    """The rep's zone, with its rules: see the module's docstring for where it comes from."""
    env = os.environ if env is None else env
    configured = env.get("TZ")
    if configured:
        zone = named_zone(configured)
        return zone if zone is not None else SystemRules()  # a POSIX rule string: the C library reads it
    found = _from_localtime(localtime) or (_from_tzlocal() if use_tzlocal else None)
    return found if found is not None else SystemRules()


def rep_now(zone: tzinfo | None = None) -> datetime:
    """Now, aware, in the rep's zone (`system_zone()` unless given): what "tomorrow" and
    "today" are read against, with the zone's rules rather than today's offset."""
    return datetime.now(zone if zone is not None else system_zone())


def zone_label(zone: tzinfo | None) -> str | None:
    """The IANA name of `zone` (`Europe/Berlin`), None for one without a name (an offset,
    the C library's rules)."""
    key = getattr(zone, "key", None)
    return key if isinstance(key, str) and key != "localtime" else None
