"""`warmline web` in a real Chromium (Debian's, through selenium and its system driver):
the one-time link, Today, the lead list, a lead, an activity logged, with screenshots.
Where Chromium is missing the test says "skipped: no Chromium" (tests/support/browser.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.web_session import TappedPage

pytestmark = pytest.mark.e2e

ACTIVITY = "Called the buyer from the browser"


async def test_a_rep_works_through_the_cockpit_in_chromium(chromium, web_server, tmp_path: Path) -> None:
    server = web_server()
    page = TappedPage(chromium)
    shots = tmp_path / "screenshots"
    shots.mkdir()

    chromium.get(server.link)  # the token for the cookie, then on to the clean URL
    await page.shows("Today ·", "Recommendations (", "online")
    assert chromium.current_url == server.origin + "/"
    assert chromium.title == "Warmline"
    chromium.save_screenshot(str(shots / "1-today.png"))

    page.press("L")
    await page.shows("Leads", "8 shown", "Score / target")
    chromium.save_screenshot(str(shots / "2-leads.png"))

    page.press("\ue007")  # enter: the lead under the cursor
    await page.shows("a Log activity", "Recent activity")
    chromium.save_screenshot(str(shots / "3-lead.png"))

    page.press("a")
    await page.shows("Log activity on")
    page.press(ACTIVITY)
    await page.shows(ACTIVITY, "ctrl+s send")
    chromium.save_screenshot(str(shots / "4-logging.png"))
    page.chord("\ue009", "s")  # ctrl+s: send
    await page.shows("Recent activity", ACTIVITY, "a Log activity")
    chromium.save_screenshot(str(shots / "5-logged.png"))

    assert len(server.session_pids()) == 1
    complaints = [entry["message"] for entry in chromium.get_log("browser") if "Content Security Policy" in entry["message"]]
    assert complaints == []  # the page needed nothing its policy forbids
    assert sorted(path.name for path in shots.iterdir()) == [
        "1-today.png", "2-leads.png", "3-lead.png", "4-logging.png", "5-logged.png"]
