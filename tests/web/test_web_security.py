"""`warmline web`'s security model, against a real server process on a loopback port: the
one-time link and the cookie, the Host and Origin checks, the session cap, loopback only,
a page that loads nothing from elsewhere, and no API key in a cockpit's environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from support.waiting import until
from support.web_session import WebServer, browser_session, environ_of, sign_in, terminal
from warmline.web.server import CLIENT

pytestmark = pytest.mark.e2e


async def test_without_the_cookie_every_request_gets_403(web_server) -> None:
    server = web_server()
    async with browser_session() as client:
        for path in ("/", "/static/textual.js", "/static/cockpit.css", "/download/anything", "/ws"):
            async with client.get(server.origin + path) as answer:
                assert answer.status == 403, path
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(server.websocket_url, origin=server.origin)
        assert refused.value.status == 403
        async with client.get(server.origin + "/?token=not-the-token") as answer:
            assert answer.status == 403
            assert "used" in await answer.text()


async def test_the_link_works_once_and_sets_a_strict_http_only_cookie(web_server) -> None:
    server = web_server()
    async with browser_session() as first:
        async with first.get(server.link, allow_redirects=False) as answer:
            assert answer.status == 200
            cookie = answer.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        async with first.get(server.origin + "/") as page:
            assert page.status == 200
    async with browser_session() as second:  # another browser with the same link
        async with second.get(server.link) as answer:
            assert answer.status == 403
        async with second.get(server.origin + "/") as page:
            assert page.status == 403


async def test_a_foreign_or_missing_origin_cannot_open_a_session(web_server) -> None:
    server = web_server()
    async with browser_session() as client:
        await sign_in(client, server)
        port = server.origin.rsplit(":", 1)[1]
        for origin in ("http://evil.example", f"http://localhost:{port}", server.origin + ".evil.example", None):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(server.websocket_url, origin=origin)
            assert refused.value.status == 403, origin
        assert server.session_pids() == []


async def test_another_host_name_gets_403(web_server) -> None:
    """A page of another site whose name resolves to 127.0.0.1 (DNS rebinding) names its
    own host: refused, even with the cookie."""
    server = web_server()
    async with browser_session() as client:
        await sign_in(client, server)
        async with client.get(server.origin + "/", headers={"Host": "rebound.example"}) as answer:
            assert answer.status == 403


async def test_the_session_cap_holds_and_a_third_tab_is_told_why(web_server) -> None:
    server = web_server()  # the default cap: 2
    async with browser_session() as client:
        await sign_in(client, server)
        async with terminal(client, server) as one, terminal(client, server) as two:
            await one.shows("Today ·")
            await two.shows("Today ·")
            async with client.get(server.origin + "/") as page:
                assert page.status == 503
                assert "as many as this server allows (2)" in await page.text()
            async with terminal(client, server) as third:
                await until(lambda: third.websocket.closed, what="the third session being refused")
                assert third.websocket.close_code == aiohttp.WSCloseCode.TRY_AGAIN_LATER
                assert "Warmline is open in 2 browser sessions already" in third.text
            assert len(server.session_pids()) == 2
            await two.close()

            async def page_opens() -> bool:
                async with client.get(server.origin + "/") as answer:
                    return answer.status == 200

            await until(page_opens, what="a place freed by closing a tab")


async def test_the_server_listens_on_loopback_only(web_server) -> None:
    server = web_server()
    port = int(server.origin.rsplit(":", 1)[1])
    assert server.origin == f"http://127.0.0.1:{port}"
    listening = [line.split() for table in ("tcp", "tcp6") for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]]
    ours = [fields[1] for fields in listening if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port]
    assert ours == [f"0100007F:{port:04X}"]  # 127.0.0.1, and nothing else


def test_another_address_needs_allow_remote(service) -> None:
    refused = subprocess.run([sys.executable, "-m", "warmline", "web", "--host", "0.0.0.0"],
                             env=service.env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert refused.returncode == 2
    assert "--allow-remote" in refused.stderr


async def test_a_remote_server_warns(web_server) -> None:
    server = web_server("--host", "0.0.0.0", "--allow-remote", "--public-url", "http://cockpit.example:8123")
    assert server.link.startswith("http://cockpit.example:8123/?token=")
    server.stop()
    assert "other machines can reach this server" in server.stderr()


async def test_the_page_loads_nothing_from_elsewhere_and_no_directory_is_listed(web_server) -> None:
    server = web_server()
    async with browser_session() as client:
        await sign_in(client, server)
        async with client.get(server.origin + "/") as page:
            html = await page.text()
            policy = page.headers["Content-Security-Policy"]
            assert page.headers["X-Content-Type-Options"] == "nosniff"
            assert page.headers["Referrer-Policy"] == "no-referrer"
        assert "default-src 'none'" in policy and "script-src 'self';" in policy
        assert "frame-ancestors 'none'" in policy and "font-src 'self';" in policy
        assert "googleapis" not in html and "https://" not in html
        for name in ("textual.js", "textual-canvas.js", "xterm.css", "cockpit.css", "RobotoMono.ttf"):
            async with client.get(f"{server.origin}/static/{name}") as answer:
                assert answer.status == 200, name
        async with client.get(f"{server.origin}/static/cockpit.css") as answer:
            assert "googleapis" not in await answer.text()
        for path in ("/static/", "/static/js/", "/static/js/textual.js", "/static/images/background.png",
                     "/static/..%2F__init__.py", "/static/%2e%2e/server.py"):
            async with client.get(server.origin + path) as answer:
                assert answer.status == 404, path


async def test_the_api_key_is_not_in_a_cockpits_environment(web_server, service) -> None:
    server = web_server()
    async with browser_session() as client:
        await sign_in(client, server)
        async with terminal(client, server) as screen:
            await screen.shows("Today ·", "online")  # the key reached it: the service answered
            [cockpit] = server.session_pids()
            environment = environ_of(cockpit)
            command = Path(f"/proc/{cockpit}/cmdline").read_bytes().split(b"\0")[:-1]
    assert command == [sys.executable.encode(), b"-m", b"warmline"]  # no shell in between
    assert service.api_key not in "".join(f"{name}={value}" for name, value in environment.items())
    assert "WARMLINE_API_KEY" not in environment
    assert environment["WARMLINE_DATA_DIR"] == str(service.data_dir)
    assert environment["WARMLINE_BASE_URL"] == service.base_url
    assert environment["TEXTUAL_DRIVER"].endswith(":WebDriver")


async def test_only_what_the_cockpit_needs_reaches_its_environment(service) -> None:
    server = WebServer({**service.env, "SOME_TOKEN": "not-for-the-cockpit", "LC_TIME": "en_GB.UTF-8"})
    try:
        async with browser_session() as client:
            await sign_in(client, server)
            async with terminal(client, server) as screen:
                await screen.shows("Today ·")
                [cockpit] = server.session_pids()
                environment = environ_of(cockpit)
    finally:
        server.stop()
    assert "SOME_TOKEN" not in environment
    assert environment["LC_TIME"] == "en_GB.UTF-8"


async def test_the_page_draws_with_the_dom_renderer_unless_asked_for_the_canvas(web_server) -> None:
    """warmline.web.client: the DOM renderer's client by default, textual-serve's own on request."""
    server = web_server()
    shipped = CLIENT.read_bytes()
    async with browser_session() as client:
        await sign_in(client, server)
        for query, script in (("", "textual.js"), ("?renderer=canvas", "textual-canvas.js"),
                              ("?renderer=<script>", "textual.js")):
            async with client.get(f"{server.origin}/{query}") as page:
                assert f'<script src="/static/{script}"></script>' in await page.text(), query
        async with client.get(server.origin + "/static/textual-canvas.js") as answer:
            assert await answer.read() == shipped
        async with client.get(server.origin + "/static/textual.js") as answer:
            etag = answer.headers["ETag"]
            assert b"this.terminal.loadAddon(this.canvasAddon)" not in await answer.read()
        async with client.get(server.origin + "/static/textual.js", headers={"If-None-Match": etag}) as answer:
            assert answer.status == 304
