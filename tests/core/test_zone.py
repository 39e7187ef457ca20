"""The rep's zone is a zone with rules, found the same way by the cockpit and the command
line (issue 21, item 9): `warmline.zone`.

Before, both took `datetime.now().astimezone().tzinfo`, today's offset: in November in
Berlin (+01:00) a July timestamp showed an hour early, and a follow-up's wall-clock time
was exported with the wrong offset on the far side of a DST change.
"""

from __future__ import annotations

import shutil
import time as _time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from warmline.actions.followups import rep_now as cli_now
from warmline.commands.common import shown_time
from warmline.commands.today import _rep_now as today_now
from warmline.tui.timefmt import local_datetime, local_zone
from warmline.zone import SystemRules, named_zone, system_zone, zone_label

ZONEINFO = Path("/usr/share/zoneinfo")
needs_zoneinfo = pytest.mark.skipif(not (ZONEINFO / "Europe" / "Berlin").exists(), reason="no system zoneinfo")


@pytest.fixture
def berlin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The rep's shell says TZ=Europe/Berlin; restored (and the C library told) after."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    _time.tzset()
    yield
    monkeypatch.undo()
    _time.tzset()


@pytest.mark.parametrize(
    ("tz", "expected"),
    [("Europe/Berlin", "Europe/Berlin"), (":America/New_York", "America/New_York"), ("UTC", "UTC")],
)
def test_tz_naming_a_zone_is_that_zone(tz: str, expected: str) -> None:
    assert zone_label(system_zone({"TZ": tz}, Path("/nonexistent"), use_tzlocal=False)) == expected


@pytest.mark.parametrize("tz", ["CET-1CEST,M3.5.0,M10.5.0/3", "Not/AZone", "../../etc/passwd", "/etc/passwd"])
def test_tz_that_names_no_zone_is_left_to_the_c_library(tz: str) -> None:
    assert isinstance(system_zone({"TZ": tz}, Path("/nonexistent"), use_tzlocal=False), SystemRules)
    assert named_zone(tz) is None


@needs_zoneinfo
def test_etc_localtime_is_read_by_its_link_or_as_a_tzfile(tmp_path: Path) -> None:
    link = tmp_path / "localtime"
    link.symlink_to(ZONEINFO / "America" / "New_York")
    assert zone_label(system_zone({}, link, use_tzlocal=False)) == "America/New_York"
    copied = tmp_path / "copied"
    shutil.copyfile(ZONEINFO / "Europe" / "Berlin", copied)
    zone = system_zone({}, copied, use_tzlocal=False)
    assert zone_label(zone) is None  # no name to give, but Berlin's rules
    assert datetime(2026, 7, 1, 12, tzinfo=zone).utcoffset() == timedelta(hours=2)
    assert datetime(2026, 1, 1, 12, tzinfo=zone).utcoffset() == timedelta(hours=1)


def test_nothing_found_is_still_the_c_librarys_rules_not_todays_offset(tmp_path: Path) -> None:
    assert isinstance(system_zone({}, tmp_path / "none", use_tzlocal=False), SystemRules)


def test_the_c_librarys_rules_give_each_date_its_offset(berlin: None) -> None:
    rules = SystemRules()
    summer, winter = datetime(2026, 7, 1, 10, tzinfo=rules), datetime(2026, 1, 15, 10, tzinfo=rules)
    assert (summer.utcoffset(), winter.utcoffset()) == (timedelta(hours=2), timedelta(hours=1))
    assert (summer.dst(), winter.dst()) == (timedelta(hours=1), timedelta(0))
    assert summer.tzname() == "CEST"
    moment = datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 CEST, just after the change
    assert moment.astimezone(rules).strftime("%H:%M") == "03:30"
    assert (moment - timedelta(hours=1)).astimezone(rules).strftime("%H:%M") == "01:30"


def test_cockpit_and_command_line_show_one_timestamp_alike(berlin: None) -> None:
    """Read in November (+01:00), a July timestamp is 10:00 in Berlin, not 09:00."""
    stamp = "2026-07-01T08:00:00.000Z"
    assert local_datetime(stamp, local_zone()) == "2026-07-01 10:00"
    assert shown_time(stamp) == shown_time(stamp, today_now().tzinfo) == "2026-07-01 10:00"
    for now in (cli_now(), today_now()):
        assert zone_label(now.tzinfo) == "Europe/Berlin"
    assert local_zone() == ZoneInfo("Europe/Berlin")
