"""The parts of `warmline web` one by one: the kept environment, the key on a pipe, the
one-time token, which links the page may open, and the client script as served."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual._xterm_parser import XTermParser

from warmline.claim import ENV_CLAIM_FD, claimed_size, wait_for_claim
from warmline.config import ENV_API_KEY_FD, KEY_FROM_PIPE, ConfigError, key_from_pipe, load_config
from warmline.web import window
from warmline.web.access import Gate
from warmline.web.client import Client, without_renderer_addons
from warmline.web.server import CLIENT
from warmline.web.session import ESCAPE_KEY, CockpitSession, cockpit_environment, opens_safely


def test_the_cockpit_environment_keeps_only_what_it_needs() -> None:
    server = {
        "PATH": "/usr/bin", "HOME": "/home/rep", "LANG": "en_GB.UTF-8", "LC_TIME": "de_DE.UTF-8",
        "WARMLINE_CONFIG": "/home/rep/w.toml", "WARMLINE_LOG": "debug",
        "WARMLINE_API_KEY": "secret", "WARMLINE_SANDBOX_API_KEY": "secret2", ENV_API_KEY_FD: "9",
        "AWS_SECRET_ACCESS_KEY": "x", "SSH_AUTH_SOCK": "/tmp/agent", "_WARMLINE_COMPLETE": "bash_complete",
        "WARMLINE_BASE_URL": "http://old/", "WARMLINE_DATA_DIR": "/old",
    }
    kept = cockpit_environment(server, base_url="http://service/", data_dir=Path("/data"))
    assert kept == {
        "PATH": "/usr/bin", "HOME": "/home/rep", "LANG": "en_GB.UTF-8", "LC_TIME": "de_DE.UTF-8",
        "WARMLINE_CONFIG": "/home/rep/w.toml", "WARMLINE_LOG": "debug",
        "WARMLINE_BASE_URL": "http://service/", "WARMLINE_DATA_DIR": "/data",
    }


def test_the_key_is_read_from_the_pipe_once_and_the_variable_dropped(monkeypatch, tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"piped-key\n")
    os.close(write_end)
    monkeypatch.setenv(ENV_API_KEY_FD, str(read_end))
    monkeypatch.setenv("WARMLINE_API_KEY", "the-environment's")  # the pipe wins: the server's choice
    config = load_config(tmp_path / "none.toml")
    assert (config.api_key, config.key_source) == ("piped-key", KEY_FROM_PIPE)
    assert ENV_API_KEY_FD not in os.environ
    with pytest.raises(OSError):
        os.fstat(read_end)  # closed: nothing this process starts inherits it


def test_a_pipe_that_cannot_be_read_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="not a file descriptor"):
        key_from_pipe("three")
    read_end, write_end = os.pipe()
    os.close(write_end)
    with pytest.raises(ConfigError, match="printed nothing"):
        key_from_pipe(str(read_end))


def test_the_token_is_spent_once() -> None:
    gate = Gate("http://127.0.0.1:8123")
    assert gate.link == f"http://127.0.0.1:8123/?token={gate.token}"
    assert gate.websocket_url == "ws://127.0.0.1:8123/ws"
    assert gate.cookie_name == "warmline_8123"
    assert not gate.spend_token("guess")
    assert gate.spend_token(gate.token)
    assert not gate.spend_token(gate.token)
    assert Gate("http://127.0.0.1:8123").token != gate.token


@pytest.mark.parametrize(("url", "opens"), [
    ("https://example.com/about", True), ("http://example.com", True), ("mailto:rep@example.com", True),
    ("javascript:alert(1)", False), (" JavaScript:alert(1)", False), ("java\tscript:alert(1)", False),
    ("data:text/html,<script>alert(1)</script>", False), ("file:///etc/passwd", False), ("", False), (None, False),
])
def test_which_links_the_page_may_open(url: object, opens: bool) -> None:
    assert opens_safely(url) is opens


async def test_a_link_the_page_may_not_open_never_reaches_it() -> None:
    sent: list[str] = []

    async def write_str(text: str) -> None:
        sent.append(text)

    session = CockpitSession(environment={}, api_key=None, download_manager=None)
    session.remote_write_str = write_str  # as `claim` sets it: the tab's side
    for url in ("javascript:fetch('/ws')", "https://example.com/"):
        await session.on_meta(json.dumps({"type": "open_url", "url": url, "new_tab": True}).encode())
    assert [json.loads(text) for text in sent] == [["open_url", {"url": "https://example.com/", "new_tab": True}]]


class _Pipe:
    """A cockpit's stdin as the session writes to it."""

    def __init__(self) -> None:
        self.written = b""

    def write(self, data: bytes) -> None:
        self.written += data

    async def drain(self) -> None:
        pass


async def test_the_escape_key_reaches_the_cockpit_as_a_key_it_need_not_wait_on() -> None:
    """From a terminal a lone ESC may start a key's sequence, so Textual waits 100 ms for
    more before it takes it as escape. From the page it cannot: each message is one key
    (xterm.js's onData). The session sends the escape key in the unambiguous form Textual
    reads at once (CSI 27 u); anything else goes as it came."""
    session = CockpitSession(environment={}, api_key=None, download_manager=None)
    pipe = session._stdin = _Pipe()
    sent = []
    for keys in (b"\x1b", b"\x1bx", b"j", b"\x1b[A"):
        pipe.written = b""
        assert await session.send_bytes(keys)
        assert pipe.written[:1] == b"D" and int.from_bytes(pipe.written[1:5], "big") == len(pipe.written) - 5
        sent.append(pipe.written[5:])
    assert sent == [ESCAPE_KEY, b"\x1bx", b"j", b"\x1b[A"]
    keys = list(XTermParser().feed(ESCAPE_KEY.decode()))
    assert [key.key for key in keys] == ["escape"]  # at once: no tick, no wait


def test_the_browser_gets_a_private_page_not_the_link_on_its_command_line(monkeypatch, tmp_path: Path) -> None:
    """`--open`: any user can read a command line (`ps`); the link holds the token."""
    started: list[list[str]] = []
    monkeypatch.setattr(window.shutil, "which", lambda name: f"/usr/bin/{name}" if name == "chromium" else None)
    monkeypatch.setattr(window.subprocess, "Popen", lambda argv, **options: started.append(argv))
    link = "http://127.0.0.1:8123/?token=abc&x=<1>"
    launcher = window.write_launcher(tmp_path, link)
    assert launcher.stat().st_mode & 0o777 == 0o600
    assert 'content="0; url=http://127.0.0.1:8123/?token=abc&amp;x=&lt;1&gt;"' in launcher.read_text()
    assert window.open_window(launcher) == "an app window of chromium"
    assert started == [["/usr/bin/chromium", f"--app={launcher.as_uri()}"]]
    assert "token" not in " ".join(started[0])


def test_the_client_is_served_without_its_webgl_and_canvas_addons() -> None:
    """textual-serve's own bundle, as installed: if a release changes the two statements,
    this fails (and the server serves the bundle as it is, with a warning)."""
    original = CLIENT.read_text(encoding="utf-8")
    served = Client.from_bundle(CLIENT).body.decode("utf-8")
    for statement in ("this.terminal.loadAddon(this.webglAddon)", "this.terminal.loadAddon(this.canvasAddon)"):
        assert statement in original
        assert statement not in served
    assert len(original) - len(served) < 200  # nothing else is taken out
    assert "this.terminal.loadAddon(this.fitAddon)" in served


def test_a_client_without_both_addon_loads_is_left_as_it_is() -> None:
    webgl = "this.webglAddon=new p.WebglAddon,this.terminal.loadAddon(this.webglAddon),"
    canvas = "this.canvasAddon=new m.CanvasAddon,this.terminal.loadAddon(this.canvasAddon),"
    assert without_renderer_addons(f"a,{webgl}{canvas}b") == "a,b"
    assert without_renderer_addons(f"a,{webgl}b") is None
    assert without_renderer_addons(f"a,{webgl}{canvas}{canvas}b") is None
    assert without_renderer_addons("a,b") is None


def test_a_client_the_server_does_not_know_is_served_as_it_is(tmp_path: Path, caplog) -> None:
    bundle = tmp_path / "textual.js"
    bundle.write_text("new Terminal();")
    assert Client.from_bundle(bundle).body == b"new Terminal();"
    assert "served as it is" in caplog.text


def _claim_pipe(monkeypatch, claim: bytes) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, claim)
    os.close(write_end)
    monkeypatch.setenv(ENV_CLAIM_FD, str(read_end))


def test_a_claimed_spare_takes_the_tabs_size_and_drops_the_variable(monkeypatch) -> None:
    _claim_pipe(monkeypatch, b'{"width": 132, "height": 41}')
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("ROWS", "24")
    wait_for_claim()
    assert (os.environ["COLUMNS"], os.environ["ROWS"]) == ("132", "41")
    assert ENV_CLAIM_FD not in os.environ


def test_a_spare_dropped_unclaimed_exits_quietly(monkeypatch) -> None:
    _claim_pipe(monkeypatch, b"")
    with pytest.raises(SystemExit) as exit_:
        wait_for_claim()
    assert exit_.value.code == 0


@pytest.mark.parametrize("claim", [b"", b"{", b"[120, 40]", b'{"width": 0, "height": 40}',
                                   b'{"width": "120", "height": 40}', b'{"width": 120}'])
def test_a_claim_that_is_not_a_size_is_refused(claim: bytes) -> None:
    with pytest.raises(SystemExit) as exit_:
        claimed_size(claim)
    assert "not a terminal size" in str(exit_.value.code)


def test_a_claim_pipe_that_cannot_be_read_is_refused(monkeypatch) -> None:
    monkeypatch.setenv(ENV_CLAIM_FD, "not-a-number")
    with pytest.raises(SystemExit) as exit_:
        wait_for_claim()
    assert "cannot be read" in str(exit_.value.code)
