"""The week in review from a seeded week with known counts (support.review_week), and each
of its renderers: Markdown escaped, HTML self-contained and small, CSV read back by the csv
module and safe in a spreadsheet, JSON round-tripping with stable keys."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

import support.review_week as R
from warmline.review.build import build_review
from warmline.review.data import render_json
from warmline.review.html import LISTED, render_html
from warmline.review.markdown import md, render_markdown
from warmline.review.model import Money, Review
from warmline.review.period import day_range, parse_week
from warmline.review.table import COLUMNS, render_csv
from warmline.store import Store
from warmline.store.followups import FollowUps
from warmline.textsafe import FORMULA_START


@pytest.fixture
def week(tmp_path: Path) -> Iterator[tuple[Store, FollowUps]]:
    store, follow_ups = R.open_week(tmp_path)
    yield store, follow_ups
    follow_ups.close()
    store.close()


def review_of(week: tuple[Store, FollowUps], period: str = R.WEEK, now: datetime = R.NOW) -> Review:
    store, follow_ups = week
    return build_review(
        store, parse_week(period), now=now, cold_after_days=R.COLD_AFTER_DAYS, follow_ups=follow_ups
    )


def test_the_seeded_week_has_its_known_counts(week: tuple[Store, FollowUps]) -> None:
    review = review_of(week)
    expected = R.EXPECTED
    assert review.period.first == R.MONDAY and review.zone == "Europe/Berlin"
    assert review.activities == expected["activities"]
    assert [day.activities for day in review.days] == expected["by_day"]
    assert [day.notes for day in review.days] == expected["notes_by_day"]
    assert review.notes == expected["notes"]
    assert len(review.touched) == expected["touched"]
    assert [m.lead_id for m in review.warmed] == [R.DELTA]
    assert [m.lead_id for m in review.reached] == [R.ALPHA]
    assert [m.lead_id for m in review.went_cold] == [R.GAMMA, R.HOSTILE]
    assert (review.completed, review.dismissed) == (expected["completed"], expected["dismissed"])
    follow = review.follow_ups
    assert (follow.made, follow.done, follow.overdue) == expected["follow_ups"]
    assert (review.opened.count, review.won.count, review.lost.count) == expected["deals"]
    assert [(m.currency, m.total) for m in review.opened.values] == [("EUR", 12000.0)]
    assert [(m.currency, m.total) for m in review.won.values] == [("EUR", 12000.0)]
    assert [(m.currency, m.total) for m in review.lost.values] == [("USD", 5000.0)]
    assert [(s.lead_id, s.start, s.end) for s in review.scores] == expected["scores"]
    assert (review.pending.unsent, review.pending.failed) == (expected["unsent"], expected["failed"])
    assert (review.pending.activities, review.pending.notes, review.pending.decisions) == (1, 1, 5)


def test_days_are_the_reps_and_times_are_in_the_reps_zone(week: tuple[Store, FollowUps]) -> None:
    review = review_of(week)
    # The call at 23:30 UTC on Tuesday is Wednesday 00:30 in Berlin, and Alpha reached its
    # target with it.
    wednesday = review.days[2]
    assert wednesday.day == date(2026, 11, 18) and wednesday.by_type[review.types.index("call")] == 1
    reached = review.reached[0].at
    assert reached is not None and (reached.date(), reached.hour, reached.minute) == (date(2026, 11, 18), 0, 30)
    cold = review.went_cold[0].at
    assert cold is not None and cold.utcoffset() == timedelta(hours=1)


def test_score_points_are_dated_a_day_each(week: tuple[Store, FollowUps]) -> None:
    alpha = review_of(week).scores[0]
    assert [p.day for p in alpha.points] == [R.MONDAY + timedelta(days=k) for k in range(7)]
    assert [p.score for p in alpha.points] == [55, 55, 70, 70, 70, 70, 70]


def test_a_week_before_anything_happened_is_empty_but_says_what_is_pending(week: tuple[Store, FollowUps]) -> None:
    review = review_of(week, "2026-W40")
    assert review.is_empty and review.activities == 0 and review.scores == ()
    assert review.pending.unsent == R.EXPECTED["unsent"] and review.pending.in_period == 0


def test_the_running_week_stops_at_now(week: tuple[Store, FollowUps]) -> None:
    """Read on Wednesday: no score point for the days to come, and a follow-up due
    Wednesday is not overdue yet."""
    wednesday = datetime(2026, 11, 18, 12, 0, tzinfo=R.BERLIN)
    review = review_of(week, now=wednesday)
    assert all(len(move.points) == 3 for move in review.scores)
    assert review.follow_ups.overdue == 0


def test_a_range_covers_the_days_given(week: tuple[Store, FollowUps]) -> None:
    store, follow_ups = week
    period = day_range(date(2026, 11, 19), date(2026, 11, 20))
    review = build_review(store, period, now=R.NOW, cold_after_days=R.COLD_AFTER_DAYS, follow_ups=follow_ups)
    assert review.period.week is None and len(review.days) == 2
    assert review.activities == 2 and review.notes == 1
    assert (review.won.count, review.lost.count) == (1, 1)


# -- renderers --------------------------------------------------------------------------


def test_markdown_escapes_names_and_has_the_counts(week: tuple[Store, FollowUps]) -> None:
    text = render_markdown(review_of(week))
    assert "6 activities logged" in text and "3 made · 1 done · 1 overdue" in text
    assert "\x1b" not in text and "<b>" not in text and "**Co**" not in text
    assert md(R.HOSTILE_NAME) in text
    assert "7 actions still in the outbox" in text


def test_the_day_tables_name_their_last_column_alike(week: tuple[Store, FollowUps]) -> None:
    """Markdown's day table ended "| Notes | Total |" where the page's ends "Notes,
    Activities": its total counts activities only, not the notes beside it."""
    header = next(line for line in render_markdown(review_of(week)).splitlines() if line.startswith("| Day |"))
    assert header.endswith("| Notes | Activities |"), header
    assert ">Notes</th><th" in render_html(review_of(week)) and ">Activities</th>" in render_html(review_of(week))


def test_html_is_one_self_contained_file(week: tuple[Store, FollowUps]) -> None:
    page = render_html(review_of(week))
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page.lower() and "javascript:" not in page.lower()
    assert not re.search(r"https?://", page), "nothing fetched, no link out"
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert "<svg" in page and "@media print" in page
    assert "https:&#8203;//evil.example" in page, "an address in a name is not a link"
    assert "<b>Zeta</b>" not in page and "&lt;b&gt;Zeta&lt;/b&gt;" in page
    assert "\x1b" not in page


def test_html_stays_small_however_many_leads(week: tuple[Store, FollowUps]) -> None:
    review = review_of(week)
    many = tuple(replace(review.touched[0], lead_id=k, company=f"Company {k}") for k in range(20_000))
    page = render_html(replace(review, touched=many))
    assert len(page.encode()) < 300_000
    assert f"and {20_000 - LISTED:,} more" in page


def test_csv_reads_back_and_is_safe_in_a_spreadsheet(week: tuple[Store, FollowUps]) -> None:
    rows = list(csv.reader(io.StringIO(render_csv(review_of(week)))))
    assert tuple(rows[0]) == COLUMNS and all(len(row) == len(COLUMNS) for row in rows)
    summary = {row[1]: int(row[5]) for row in rows if row[0] == "summary"}
    assert summary["activity: activities logged"] == 6 and summary["follow-ups: overdue"] == 1
    by_day = {(row[1], row[2]): int(row[5]) for row in rows if row[0] == "activities"}
    assert by_day[("call", "2026-11-18")] == 1
    touched = [row for row in rows if row[0] == "touched"]
    assert len(touched) == 3
    for row in rows[1:]:
        for cell in row:
            assert not cell.lstrip(" ").startswith(FORMULA_START) or cell.startswith("'"), cell
    hostile = next(row[4] for row in touched if row[3] == str(R.HOSTILE))
    assert hostile.startswith("'=HYPERLINK") and "\x1b" not in hostile


def test_json_round_trips_with_stable_keys(week: tuple[Store, FollowUps]) -> None:
    review = review_of(week)
    first = render_json(review)
    data = json.loads(first)
    assert render_json(review) == first
    assert list(data) == [
        "format", "period", "zone", "generated_at", "activities", "notes", "leads", "cold_after_days",
        "recommendations", "follow_ups", "deals", "scores", "pending",
    ]  # fmt: skip
    assert data["period"] == {"week": "2026-W47", "first_day": "2026-11-16", "last_day": "2026-11-22", "days": 7}
    assert data["activities"]["total"] == 6 and [d["total"] for d in data["activities"]["by_day"]] == [2, 0, 1, 1, 1, 1, 0]
    assert data["deals"]["won"]["values"] == [{"currency": "EUR", "total": 12000.0, "deals": 1}]
    assert data["scores"][0]["by_day"][0] == {"day": "2026-11-16", "score": 55}
    assert data["pending"]["unsent"] == 7 and data["pending"]["failed"] == 1
    assert any(m["company"] == R.HOSTILE_NAME for m in data["leads"]["touched"])


CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("render", [render_markdown, render_html, render_csv, render_json])
def test_no_renderer_passes_a_control_character_through(week: tuple[Store, FollowUps], render) -> None:
    """Activity types, company names and currencies come from the service: an escape in any
    of them reaches no output (JSON writes them as \\u escapes)."""
    review = review_of(week)
    hostile = replace(
        review,
        types=tuple(f"{name}\x1b]0;pwned\x07\u202e" for name in review.types),
        scores=tuple(replace(move, company=R.HOSTILE_NAME + "\x9b2J") for move in review.scores),
        won=replace(review.won, values=(Money("E\x1b[2JUR", 1.0, 1),)),
    )
    assert not CONTROLS.search(render(hostile).replace("\r\n", "\n"))
