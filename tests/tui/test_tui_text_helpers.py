"""Pure helpers of the cockpit: safe text, times, charts, columns, status wording."""

from datetime import UTC, datetime, timedelta, timezone

from rich.cells import cell_len
from rich.text import Text

from warmline.store.sync_vocabulary import SyncState, SyncStatus
from warmline.tui.charts import is_ready, score_bar, score_bar_segments
from warmline.tui.columns import Column, cell, header, line, widths
from warmline.tui.safe import plain, safe_text
from warmline.tui.status import CockpitStatus, describe
from warmline.tui.timefmt import (
    clock_time,
    elapsed,
    logged_ago,
    logged_delivered,
    parse_ts,
    relative,
)

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
BERLIN = timezone(timedelta(hours=1))


def test_safe_text_strips_escape_sequences_and_controls() -> None:
    hostile = "Acme\x1b[31m Red\x1b[0m\x07\x1b]0;title\x07 Co\u202e\x9b2J"
    assert safe_text(hostile) == "Acme Red Co"


def test_safe_text_keeps_markup_characters_literally() -> None:
    assert safe_text("[bold red]x[/]") == "[bold red]x[/]"
    text = plain("[bold red]x[/]")
    assert isinstance(text, Text)
    assert text.plain == "[bold red]x[/]"
    assert text.spans == []


def test_safe_text_folds_newlines_unless_multiline() -> None:
    assert safe_text("a\nb\tc\r\nd") == "a b c d"
    assert safe_text("a\r\nb\n\x1b[2Jc\x00", multiline=True) == "a\nb\nc"
    assert safe_text(None) == ""


def test_relative_times() -> None:
    assert relative(None, NOW, UTC) == "never"
    assert relative(NOW - timedelta(seconds=2), NOW, UTC) == "just now"
    # To the second only where it is drawn every second (the status line's "synced"); on a
    # screen, read again only every half minute when nothing changes, the first minute is "just now".
    assert relative(NOW - timedelta(seconds=10), NOW, UTC, to_the_second=True) == "10 s ago"
    assert relative(NOW - timedelta(seconds=2), NOW, UTC, to_the_second=True) == "just now"
    assert relative(NOW - timedelta(seconds=10), NOW, UTC) == "just now"
    assert relative(NOW - timedelta(seconds=59), NOW, UTC) == "just now"
    assert relative(NOW - timedelta(seconds=60), NOW, UTC) == "1 min ago"
    assert relative("2026-11-22T08:55:00.000Z", NOW, UTC) == "5 min ago"
    assert relative(NOW - timedelta(hours=3), NOW, UTC) == "3 h ago"
    assert relative(NOW - timedelta(days=2), NOW, UTC) == "2 d ago"
    # A past moment ahead of our clock: the service's clock runs ahead (minutes), or ours was
    # set back or the date is wrong (beyond that: the date, never "in 5 min").
    assert relative(NOW + timedelta(minutes=5), NOW, UTC) == "just now"
    assert relative(NOW + timedelta(hours=3), NOW, UTC) == NOW.strftime("%d %b")
    assert relative(datetime(2031, 1, 2, tzinfo=UTC), NOW, UTC) == "2031-01-02"
    assert relative("not a time", NOW, UTC) == "never"


def test_old_dates_are_shown_in_the_reps_zone() -> None:
    late_evening_utc = datetime(2026, 10, 1, 23, 30, tzinfo=UTC)
    assert relative(late_evening_utc, NOW, UTC) == "01 Oct"
    assert relative(late_evening_utc, NOW, BERLIN) == "02 Oct"
    assert relative(datetime(2025, 3, 1, tzinfo=UTC), NOW, UTC) == "2025-03-01"
    assert clock_time("2026-11-22T13:05:00Z", BERLIN) == "14:05"


def test_logged_and_delivered_times_in_the_reps_zone() -> None:
    # 12:05 UTC is 13:05 in Berlin; shown only when the two differ by more than a minute.
    assert logged_delivered("2026-11-22T12:05:00Z", "2026-11-22T12:41:00Z", BERLIN) == (
        "logged 13:05, delivered 13:41")
    assert logged_delivered("2026-11-22T12:05:00Z", "2026-11-22T12:06:00Z", BERLIN) is None
    assert logged_delivered(None, "2026-11-22T12:41:00Z", BERLIN) is None  # made elsewhere
    assert logged_delivered("2026-11-21T22:30:00Z", "2026-11-22T08:10:00Z", BERLIN) == (
        "logged 21 Nov 23:30, delivered 22 Nov 09:10")


def test_an_undelivered_action_says_when_it_was_logged() -> None:
    assert logged_ago("2026-11-22T08:24:00Z", NOW, BERLIN) == "logged 09:24 · 36 min ago"
    assert logged_ago("2026-11-22T08:59:30Z", NOW, BERLIN) == "just now"
    assert logged_ago("2026-11-20T08:00:00Z", NOW, BERLIN) == "logged 20 Nov 09:00 · 2 d ago"


def test_parse_and_elapsed() -> None:
    assert parse_ts("2026-11-22T10:24:11.123Z") == datetime(2026, 11, 22, 10, 24, 11, 123000, tzinfo=UTC)
    assert parse_ts(datetime(2026, 1, 1)).tzinfo is UTC
    assert elapsed(NOW - timedelta(seconds=75), None, NOW) == "1m15s"
    assert elapsed(NOW - timedelta(hours=2), NOW - timedelta(hours=1), NOW) == "1h00m"
    assert elapsed(None, None, NOW) == "-"


def test_score_bar_marks_the_target_on_the_same_scale() -> None:
    assert score_bar(64, 80, 10).plain == "██████░░│░░  64/80 "
    assert score_bar(0, None, 10).plain == "░░░░░░░░░░    0/-  "
    assert score_bar(100, 100, 10).plain == "██████████│ 100/100"


def test_ready_when_score_reaches_target() -> None:
    assert is_ready(80, 80)
    assert not is_ready(79, 80)
    assert not is_ready(50, None)
    ready, not_ready = score_bar(85, 80, 10), score_bar(40, 80, 10)
    assert ready.spans[0].style != not_ready.spans[0].style


def plain_of(segments) -> str:
    return "".join(segment.text for segment in segments)


def test_columns_fill_width_and_align() -> None:
    cols = (Column("A", 3), Column("Name"), Column("N", 4, "right"))
    assert widths(cols, 20) == [3, 11, 4]
    row = line(cols, [cell("x"), cell("a very long company name"), cell("7")], 20)
    assert plain_of(row) == "x   a very lon…    7"
    assert plain_of(header(cols, 20)) == "A   Name           N"
    wide = line(cols, [cell("x"), cell("株式会社ひかり物流"), cell("7")], 20)
    assert cell_len(plain_of(wide)) == 20


def test_score_bar_segments_match_the_text_bar() -> None:
    assert plain_of(score_bar_segments(64, 80, 10)) == score_bar(64, 80, 10).plain


def test_status_wording() -> None:
    synced = (NOW - timedelta(seconds=10)).timestamp()
    online = CockpitStatus(SyncState.ONLINE, SyncStatus(online=True, queued=2, failed=1, last_sync_at=synced))
    assert [p.text for p in describe(online, NOW, UTC)] == [
        "● online", "synced 10 s ago", "2 pending", "1 failure needs attention",
    ]
    offline = describe(CockpitStatus(SyncState.OFFLINE, SyncStatus(online=False, queued=7)), NOW, UTC)
    assert [p.text for p in offline] == ["○ offline", "7 pending"]
    until = (NOW + timedelta(minutes=5)).timestamp()
    limited = CockpitStatus(SyncState.RATE_LIMITED, SyncStatus(online=True, rate_limited_until=until))
    assert describe(limited, NOW, BERLIN)[0].text == "rate-limited until 10:05"
    assert describe(CockpitStatus(SyncState.SYNCING, running_jobs=2), NOW, UTC)[-1].text == "2 jobs running"
    refused = describe(CockpitStatus(SyncState.AUTH_FAILED, SyncStatus(online=True)), NOW, UTC)
    assert refused[0].text == "✗ API key refused: run `warmline key set`"
