"""A real Chromium for the tests that need a browser: Debian's `chromium` and
`chromium-driver`, driven by selenium through the system driver (nothing downloaded).

`./dev test` installs the two packages where it can (root with apt-get). Where they are
missing, the `chromium` fixture skips with "skipped: no Chromium (...)", which `-rs` in
`./dev test` prints by name, so a run that did not execute the browser tests says so.

The flags are those a closed network needs: without the background-networking ones
Chromium keeps trying to reach Google's hosts, many connections at a time.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER_PATHS = ("/usr/bin/chromedriver",)
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
)


def _first(paths: tuple[str, ...]) -> str | None:
    return next((path for path in paths if Path(path).is_file()), None)


def missing_reason() -> str | None:
    """Why no browser test can run here, or None when Chromium and its driver are present."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "skipped: no Chromium (selenium is not installed: ./dev test installs it)"
    if _first(CHROMIUM_PATHS) is None:
        return "skipped: no Chromium (install Debian's chromium and chromium-driver)"
    if _first(DRIVER_PATHS) is None:
        return "skipped: no Chromium (chromium-driver is missing)"
    return None


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[object]:
    """A headless Chromium (a selenium `WebDriver`), closed after the test."""
    reason = missing_reason()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver  # deferred: only where Chromium is present
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _first(CHROMIUM_PATHS) or ""
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp_path)
    for flag in (*FLAGS, f"--user-data-dir={profile}", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=_first(DRIVER_PATHS)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
