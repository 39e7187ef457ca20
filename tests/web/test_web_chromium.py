"""`warmline web` in a real Chromium (Debian's, through selenium and its system driver):
the one-time link, Today, the lead list, a lead, an activity logged, a comment copied and
a link handed to the browser, with screenshots.
Where Chromium is missing the test says "skipped: no Chromium" (tests/support/browser.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.waiting import until
from support.web_session import CELL_DRIFT, TappedPage, screen_size

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
    # Drawn by xterm.js's DOM renderer (warmline.web.client): rows of text, no canvas layers.
    assert chromium.execute_script("return document.querySelectorAll('.xterm-rows > div').length") > 0
    assert chromium.execute_script("return document.querySelectorAll('canvas').length") == 0

    page.press("L")
    await page.shows("Leads", "8 shown", "Score / target")
    chromium.save_screenshot(str(shots / "2-leads.png"))

    page.press("\ue007")  # enter: the lead under the cursor
    await page.shows("a Log activity", "Recent activity")
    chromium.save_screenshot(str(shots / "3-lead.png"))
    # Every run of text in its cell, give or take the sub-pixel rounding of a wide row (up
    # to ~1 px): a row with italic text (a recommendation's source) once drifted 6.6 px,
    # xterm.js having measured the italic face before it was loaded (static/cockpit.js).
    columns, _rows = screen_size(page.tap())
    assert chromium.execute_script(CELL_DRIFT, columns) < 2.5

    page.press("a")
    await page.shows("Log activity on")
    page.press(ACTIVITY)
    await page.shows(ACTIVITY, "ctrl+s send")
    chromium.save_screenshot(str(shots / "4-logging.png"))
    page.chord("\ue009", "s")  # ctrl+s: send
    await page.shows("Recent activity", ACTIVITY, "a Log activity")
    chromium.save_screenshot(str(shots / "5-logged.png"))
    page.press("\ue00c")  # escape, the rep's "back" (sent on as a key Textual reads at once)
    await page.shows("Leads", "Score / target")

    # The copy and link hooks reach the browser: a suggested comment copied says so, and a
    # card's post opens in a new tab of this browser (Textual's open_url), not on the server.
    page.press("r")
    await page.shows("y Copy")
    page.press("y")
    await page.shows("copied")
    chromium.save_screenshot(str(shots / "6-copied.png"))
    # Record what the page asks the browser to open (the browser may still block a tab a
    # page opens by itself; the rep's own browser asks to allow it).
    chromium.execute_script(
        "window.__opened = []; const open = window.open;"
        "window.open = function (url, target) { window.__opened.push([url, target]);"
        " return open.apply(this, arguments); };"
    )
    page.press("o")
    await until(lambda: chromium.execute_script("return window.__opened.length") > 0, cap=30,
                what="the card's link handed to the browser")
    [[url, target]] = chromium.execute_script("return window.__opened")
    assert url.startswith(("https://", "http://")) and target == "_blank", (url, target)

    assert len(server.session_pids()) == 1
    complaints = [entry["message"] for entry in chromium.get_log("browser") if "Content Security Policy" in entry["message"]]
    assert complaints == []  # the page needed nothing its policy forbids
    assert sorted(path.name for path in shots.iterdir()) == [
        "1-today.png", "2-leads.png", "3-lead.png", "4-logging.png", "5-logged.png", "6-copied.png"]
