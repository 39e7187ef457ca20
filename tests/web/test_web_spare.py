"""The spare cockpit `warmline web` starts ahead of the next tab (warmline.web.spare and
warmline.claim): it waits with its modules loaded but nothing of the rep's read (no key,
no cache), it is no session (the cap does not count it), a tab claims it and another is
made ready, a dead one is replaced, and none outlives its server."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from support.waiting import until
from support.web_session import browser_session, environ_of, sign_in, terminal
from warmline.config import ENV_API_KEY_FD

pytestmark = pytest.mark.e2e


def _fd_target(pid: int, number: str) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/fd/{number}")
    except OSError:
        return None


def _open_paths(pid: int) -> list[str]:
    found = []
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        target = _fd_target(pid, entry.name)
        if target is not None:
            found.append(target)
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_a_spare_waits_without_the_key_or_the_cache_then_a_tab_claims_it(web_server, service) -> None:
    server = web_server("--max-sessions", "1")
    await until(server.spare_ready, what="the spare ready")
    [spare] = server.spare_pids()
    assert server.session_pids() == []
    environment = environ_of(spare)
    assert service.api_key not in "\0".join(f"{name}={value}" for name, value in environment.items())
    key_pipe = _fd_target(spare, environment[ENV_API_KEY_FD])
    assert key_pipe is not None and key_pipe.startswith("pipe:")  # the key waits there, unread
    data_dir = str(service.data_dir.resolve())
    assert not [path for path in _open_paths(spare) if path.startswith(data_dir)]  # no cache open: nothing stale

    async with browser_session() as client:
        await sign_in(client, server)
        async with client.get(server.origin + "/") as page:
            assert page.status == 200  # the spare takes no place under the cap
        async with terminal(client, server) as tab:
            await tab.shows("Today ·", "Recommendations (")
            assert server.session_pids() == [spare]  # the tab got the spare
            assert _fd_target(spare, environment[ENV_API_KEY_FD]) != key_pipe  # the key read, the pipe closed
            await until(server.spare_ready, what="the next spare ready")
            [next_spare] = server.spare_pids()
            assert next_spare != spare
            async with client.get(server.origin + "/") as page:
                assert page.status == 503  # the one place is the tab's; the spare is not counted


async def test_a_dead_spare_is_replaced_by_a_cockpit_started_for_the_tab(web_server) -> None:
    server = web_server()
    await until(server.spare_ready, what="the spare ready")
    [spare] = server.spare_pids()
    os.kill(spare, signal.SIGKILL)
    await until(lambda: not _running(spare), what="the spare dead")
    async with browser_session() as client:
        await sign_in(client, server)
        async with terminal(client, server) as tab:
            await tab.shows("Today ·", "Recommendations (")
            [session] = server.session_pids()
            assert session != spare
            await until(server.spare_ready, what="a new spare ready")


async def test_a_spare_ends_with_its_server_even_when_the_server_is_killed(web_server) -> None:
    server = web_server()
    await until(server.spare_ready, what="the spare ready")
    [spare] = server.spare_pids()
    os.kill(server.process.pid, signal.SIGKILL)  # no handler runs: the claim pipe closes with the process
    await until(lambda: server.process.poll() is not None, what="the server ending")
    await until(lambda: not _running(spare), what="the spare ending by itself")
