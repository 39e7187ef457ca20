"""`warmline web` told to stop (SIGTERM, SIGHUP as when its terminal closes, SIGINT as
Ctrl+C) while a browser tab has a cockpit open: the server ends, and so does every
cockpit it started, the spare included; none is left running without its server (issue
25, clean exits)."""

from __future__ import annotations

import os
import signal

import pytest

from support.waiting import until
from support.web_session import browser_session, sign_in, terminal

pytestmark = pytest.mark.e2e


def _running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie, killed but not yet reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
async def test_a_signal_stops_the_server_and_every_cockpit_it_started(web_server, stop: signal.Signals) -> None:
    server = web_server()
    async with browser_session() as client:
        await sign_in(client, server)
        async with terminal(client, server) as screen:
            await screen.shows("Today ·")
            [cockpit] = server.session_pids()
            await until(server.spare_ready, what="the next spare ready")
            [spare] = server.spare_pids()
            os.kill(server.process.pid, stop)
            await until(lambda: server.process.poll() is not None, what="the server ending")
            await until(lambda: not _running(cockpit), what="the tab's cockpit ending with its server")
            await until(lambda: not _running(spare), what="the spare cockpit ending with its server")
            await until(lambda: screen.websocket.closed, what="the tab's session closing")
