"""`warmline web` as a browser uses it, at the protocol level: a real server process on a
loopback port, the one-time link, the WebSocket, keys sent, and the screen rebuilt from
what the cockpit sends (pyte) and read."""

from __future__ import annotations

import pytest

from support.waiting import until
from support.web_session import browser_session, sign_in, terminal

pytestmark = pytest.mark.e2e


async def test_a_browser_session_shows_today_then_the_lead_list_then_quits(web_server) -> None:
    server = web_server()
    async with browser_session() as client:
        await sign_in(client, server)
        async with client.get(server.origin + "/") as page:
            assert page.status == 200
            assert f'data-session-websocket-url="{server.websocket_url}"' in await page.text()
        async with terminal(client, server) as screen:
            today = await screen.shows("Today ·", "Recommendations (", "online")
            assert "Traceback" not in today
            await screen.press("L")
            leads = await screen.shows("Leads", "8 shown", "Score / target")
            rows = [line for line in leads.splitlines() if " cold " in line or " warm " in line]
            assert len(rows) >= 8  # the eight leads (and the filter line)
            # The escape key, as the page sends it (a lone ESC: the session passes it on as
            # a key Textual reads at once), closes a form and goes back.
            await screen.press("\r")
            await screen.shows("Recent activity")
            await screen.press("a")
            await screen.shows("Log activity on")
            await screen.press("\x1b")
            await until(lambda: "Log activity on" not in screen.text, what="the form closing on escape")
            assert "Recent activity" in screen.text
            await screen.press("\x1b")
            await screen.shows("Score / target")
            [cockpit] = server.session_pids()
            await screen.press("q")  # the cockpit quits: its tab's session ends with it
            await until(lambda: screen.websocket.closed, what="the session closing after q")
        await until(lambda: server.session_pids() == [], what="the cockpit process ending")
    assert server.stop() in (0, -15)
