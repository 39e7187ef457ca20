"""The HTML week in review in a real browser (Debian's Chromium, headless): it renders its
charts, fetches nothing, fits the page, prints, and a screenshot of it is saved (the PNG is
in the test's tmp dir, `review.png`, to look at). Skipped, saying so, without Chromium."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import support.review_week as R
from warmline.review.build import build_review
from warmline.review.html import render_html
from warmline.review.period import parse_week

pytestmark = pytest.mark.e2e  # starts a browser


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Path]:
    store, follow_ups = R.open_week(tmp_path / "data")
    review = build_review(store, parse_week(R.WEEK), now=R.NOW, cold_after_days=R.COLD_AFTER_DAYS,
                          follow_ups=follow_ups)  # fmt: skip
    path = tmp_path / "review.html"
    path.write_text(render_html(review), encoding="utf-8")
    yield path
    follow_ups.close()
    store.close()


def test_the_report_renders_in_chromium_and_is_screenshotted(chromium: Any, page: Path) -> None:
    chromium.get(page.as_uri())
    assert chromium.title.startswith("Week in review · 2026-W47")
    charts = chromium.find_elements("css selector", "svg")
    assert len(charts) == 3  # the day chart and two sparklines
    bars = chromium.find_elements("css selector", "svg rect")
    assert len(bars) == 6  # an activity a bar segment this week
    assert all(bar.size["height"] > 0 for bar in bars)
    assert chromium.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert chromium.execute_script("return document.scripts.length") == 0
    width = chromium.execute_script("return document.documentElement.scrollWidth")
    assert width <= 1280, "fits the window: no sideways scrolling"
    body = chromium.find_element("tag name", "body").text
    assert "6 activities logged" in body and "<b>Zeta</b> [bold red]&[/] **Co**" in body
    shot = page.with_suffix(".png")
    assert chromium.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000


def test_the_report_prints(chromium: Any, page: Path) -> None:
    chromium.get(page.as_uri())
    printed = chromium.execute_cdp_cmd("Page.printToPDF", {"printBackground": True})
    pdf = base64.b64decode(printed["data"])
    assert pdf.startswith(b"%PDF") and len(pdf) > 5_000
