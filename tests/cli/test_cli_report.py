"""`warmline report week|range`: the week in review from a seeded cache (support.review_week)
at a fixed moment, in each format, to stdout or a file, and one line for a bad week or day."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import support.review_week as R
from warmline.cli import main
from warmline.exit_codes import EXIT_BAD_INPUT


@pytest.fixture
def desk(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("warmline.commands.report.rep_now", lambda: R.NOW)
    store, follow_ups = R.open_week(data_dir)
    store.close()
    follow_ups.close()
    return data_dir


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_the_default_is_this_weeks_markdown_on_stdout(desk: Path) -> None:
    result = run("report", "week")
    assert result.exit_code == 0, result.output
    assert "Week in review · 2026-W48" in result.stdout  # NOW is Monday of W48
    assert "1 activity logged" in result.stdout  # Beta's call at 00:30 on Monday 23


def test_a_named_week_in_each_format(desk: Path) -> None:
    markdown = run("report", "week", "--week", "2026-W47")
    assert markdown.exit_code == 0 and "6 activities logged" in markdown.stdout
    data = json.loads(run("report", "week", "--week", "2026-W47", "--format", "json").stdout)
    assert data["activities"]["total"] == 6 and data["pending"]["unsent"] == 7
    rows = list(csv.DictReader(io.StringIO(run("report", "week", "--week", "2026-W47", "--format", "csv").stdout)))
    assert {r["metric"]: r["count"] for r in rows if r["section"] == "summary"}["deals: won"] == "1"
    page = run("report", "week", "--week", "2026-W47", "--format", "html").stdout
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page


def test_out_writes_the_file_and_says_so(desk: Path, tmp_path: Path) -> None:
    target = tmp_path / "week.html"
    result = run("report", "week", "--week", "2026-W47", "--format", "html", "--out", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and f"to {target}" in result.stderr
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_range_of_days(desk: Path) -> None:
    result = run("report", "range", "--from", "2026-11-19", "--to", "2026-11-20", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["period"] == {"week": None, "first_day": "2026-11-19", "last_day": "2026-11-20", "days": 2}
    assert data["activities"]["total"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["week", "--week", "2026-48"], "'2026-48' is not a week: write it as 2026-W48"),
        (["week", "--week", "2026-W60"], "2026 has no week 60"),
        (["range", "--from", "2026-11-19", "--to", "yesterday"], "the last day 'yesterday' is not a date"),
        (["range", "--from", "2026-11-20", "--to", "2026-11-19"], "before it starts"),
    ],
)
def test_a_bad_week_or_day_is_one_line(desk: Path, args: list[str], message: str) -> None:
    result = run("report", *args)
    assert result.exit_code == EXIT_BAD_INPUT
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""
