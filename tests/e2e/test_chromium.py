"""The browser the web and report tests use starts, renders a page and screenshots it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


def test_chromium_renders_a_local_page_and_screenshots_it(chromium, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<!doctype html><title>Warmline check</title><h1 id=h>Hello, rep</h1>", encoding="utf-8")
    chromium.get(page.as_uri())
    assert chromium.title == "Warmline check"
    assert chromium.find_element("id", "h").text == "Hello, rep"
    shot = tmp_path / "page.png"
    assert chromium.save_screenshot(str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
