"""One cockpit process for one browser tab: textual-serve's `AppService`, started safely.

textual-serve starts each session through `/bin/sh` with the server's whole environment, the
API key included. `CockpitSession` replaces that one method (`_open_app_process`): the
cockpit is `[sys.executable, "-m", "warmline"]`, run without a shell, in its own session
(a Ctrl+C meant for the server does not cut it short: the server quits it), with only the
environment `cockpit_environment` keeps. The key reaches it on a pipe it inherits, named by
`WARMLINE_API_KEY_FD` and read once at its start (`warmline.config.key_from_pipe`): never in
its environment, which every process it starts would inherit and `/proc/PID/environ`
shows for as long as it runs.

A session is started before its tab (`warmline.web.spare`): `spawn` starts the cockpit as
a spare, which loads its modules and waits on a claim pipe (`warmline.claim`) before it
reads its configuration, its key (written to its pipe at the spawn, read only after the
claim) or the cache; `claim` gives it a tab, writing the tab's size to that pipe.

The rest of `AppService` (the packet protocol, resizes, downloads) is textual-serve's, with
five changes: a link the cockpit asks the page to open must be a web or mail address (the
page opens what it is given, and a `javascript:` link would run in the cockpit's page); what
the cockpit writes on stderr reaches the server's terminal sanitised,
not raw; a cockpit that ends closes its tab's WebSocket (and so frees its place under the
session cap) even when it could not say goodbye; stopping a session ends the process
even when it does not answer "quit"; and the escape key reaches the cockpit in a form it
reads at once (`ESCAPE_KEY`).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from asyncio.subprocess import PIPE, Process
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from textual_serve.app_service import AppService

from warmline.claim import ENV_CLAIM_FD
from warmline.config import ENV_API_KEY_FD, ENV_BASE_URL, ENV_DATA_DIR
from warmline.textsafe import terminal_line

COCKPIT_COMMAND = (sys.executable, "-m", "warmline")
"""Plain `warmline`: the cockpit (warmline.launch), in this interpreter."""

PASSED = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM", "TMPDIR", "PYTHONPATH",
    # where platformdirs finds the config file, the cache and the log
    "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR",
    "APPDATA", "LOCALAPPDATA", "USERPROFILE", "SYSTEMROOT",
    # how the cockpit reaches the service from where the server runs
    "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
    "SSL_CERT_FILE", "SSL_CERT_DIR",
})
"""What the cockpit needs of the server's environment, besides `LC_*` and `WARMLINE_*`."""

TEXTUAL_SETTINGS = (
    "TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
    "COLUMNS", "ROWS",
)
"""What textual-serve sets for its sessions (the web driver, the size), taken from it."""

LINK_SCHEMES = ("http", "https", "mailto")
"""What a link the cockpit opens in the browser may be."""

STOP_SECONDS = 10.0
"""How long a cockpit may take to quit when told to, before it is terminated."""

ESCAPE_KEY = b"\x1b[27u"
"""The escape key as the kitty keyboard protocol writes it (CSI 27 u), which Textual reads
as escape at once. From a terminal a lone ESC may be the start of another key's sequence,
so Textual waits 100 ms for more before it takes it as escape (and the rep's "back" waits
with it). From the page a lone ESC is the escape key: each message is one key's input
(xterm.js's onData), and pasted text comes bracketed."""


def cockpit_environment(server: Mapping[str, str], *, base_url: str, data_dir: Path) -> dict[str, str]:
    """The session's environment: what `PASSED` names, the locale, the `WARMLINE_*` settings
    except any key, and the service and data dir the server was started with."""
    kept = {
        name: value for name, value in server.items()
        if name in PASSED or name.startswith("LC_") or (name.startswith("WARMLINE_") and "KEY" not in name)
    }
    return {**kept, ENV_BASE_URL: base_url, ENV_DATA_DIR: str(data_dir)}


class CockpitSession(AppService):
    """The cockpit behind one WebSocket (see the module's docstring). It is started as a
    spare (`spawn`), with no tab, and belongs to a tab once claimed (`claim`)."""

    def __init__(self, *, environment: Mapping[str, str], api_key: str | None, **service: Any) -> None:
        super().__init__(" ".join(COCKPIT_COMMAND), write_bytes=_no_tab, write_str=_no_tab, close=_no_tab, **service)
        self._environment = dict(environment)
        self._api_key = api_key
        self._label = "spare"
        self._claim_pipe: int | None = None
        """The write end of the pipe the spare waits on (`warmline.claim`), until claimed."""
        self._stderr_relay: asyncio.Task[None] | None = None
        self.first_output = asyncio.Event()
        """Set when the claimed cockpit has written to its tab (or ended)."""

    async def spawn(self) -> None:
        """Start the cockpit as a spare: it loads its modules, then waits for `claim`."""
        read_end, self._claim_pipe = os.pipe()
        try:
            await self._open_app_process(claim_fd=read_end)
        except BaseException:
            self._close_claim_pipe()
            raise
        finally:
            os.close(read_end)

    @property
    def claimable(self) -> bool:
        """A spare still running and not yet claimed."""
        process = self._process
        return self._claim_pipe is not None and process is not None and process.returncode is None

    async def claim(self, *, label: str, width: int, height: int, write_bytes: Callable[[bytes], Awaitable[None]],
                    write_str: Callable[[str], Awaitable[None]], close: Callable[[], Awaitable[object]]) -> None:
        """Hand the spare to a tab of `width` x `height`: it starts the cockpit proper."""
        assert self._claim_pipe is not None, "claimed twice"
        self._label = label
        self.remote_write_bytes, self.remote_write_str = write_bytes, write_str

        async def close_tab() -> None:
            await close()

        self.remote_close = close_tab
        with suppress(OSError):  # a spare that has just died: `run` finds its end
            os.write(self._claim_pipe, json.dumps({"width": width, "height": height}).encode())
        self._close_claim_pipe()
        self._task = asyncio.create_task(self.run())

    def _close_claim_pipe(self) -> None:
        if self._claim_pipe is not None:
            os.close(self._claim_pipe)
            self._claim_pipe = None

    async def send_bytes(self, data: bytes) -> bool:
        """The page's input for one key to the cockpit; the escape key as `ESCAPE_KEY`."""
        return await super().send_bytes(ESCAPE_KEY if data == b"\x1b" else data)

    async def on_data(self, payload: bytes) -> None:
        self.first_output.set()
        await super().on_data(payload)

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        textual = super()._build_environment(width=width, height=height)
        return {**self._environment, **{name: textual[name] for name in TEXTUAL_SETTINGS if name in textual}}

    async def _open_app_process(self, width: int = 80, height: int = 24, *, claim_fd: int | None = None) -> Process:
        environment = self._build_environment(width=width, height=height)
        handed: tuple[int, ...] = ()
        if claim_fd is not None:
            environment[ENV_CLAIM_FD] = str(claim_fd)
        if self._api_key:
            read_end, write_end = os.pipe()
            # A key is far under a pipe's buffer: written whole now, read by the child later.
            os.write(write_end, self._api_key.encode("utf-8") + b"\n")
            os.close(write_end)
            handed = (read_end,)
            environment[ENV_API_KEY_FD] = str(read_end)
        try:
            process = await asyncio.create_subprocess_exec(
                *COCKPIT_COMMAND, stdin=PIPE, stdout=PIPE, stderr=PIPE, env=environment,
                pass_fds=(*handed, *(() if claim_fd is None else (claim_fd,))), start_new_session=True,
            )
        finally:
            for fd in handed:
                os.close(fd)
        assert process.stdin is not None and process.stderr is not None
        self._process = process
        self._stdin = process.stdin
        # textual-serve's `run` copies a session's stderr raw to the server's stdout when it
        # ends; a traceback may quote the service's text, escapes and all. We relay it
        # ourselves, line by line and sanitised, and hand `run` a stream already at its end.
        self._stderr_relay = asyncio.create_task(self._relay_stderr(process.stderr))
        process.stderr = _ended_stream()
        return process

    async def _relay_stderr(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            print(f"{self._label}: {terminal_line(line.decode('utf-8', 'replace').rstrip())}", file=sys.stderr)

    async def on_meta(self, data: bytes) -> None:
        meta = json.loads(data)
        if meta.get("type") == "open_url" and not opens_safely(meta.get("url")):
            print(f"{self._label}: not opening a link that is not a web or mail address", file=sys.stderr)
            return
        await super().on_meta(data)

    async def run(self) -> None:
        await super().run()
        await self.remote_close()  # the cockpit has ended: so has its tab's session

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(super().stop(), STOP_SECONDS)
        except TimeoutError:
            pass
        finally:
            await self._end_process()

    async def _end_process(self) -> None:
        """Terminate the cockpit if it is still running, kill it if that is not enough (a
        spare's claim pipe is closed too: that alone would end it)."""
        self._close_claim_pipe()
        self.first_output.set()
        process = self._process
        if process is not None and process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._stderr_relay is not None:
            await self._stderr_relay
            self._stderr_relay = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None


def opens_safely(url: object) -> bool:
    """Whether the page may open `url` in a new tab: a web or mail address."""
    return isinstance(url, str) and urlsplit(url.strip()).scheme.lower() in LINK_SCHEMES


def _ended_stream() -> asyncio.StreamReader:
    stream = asyncio.StreamReader()
    stream.feed_eof()
    return stream


async def _no_tab(*_: object) -> None:
    """Where a spare's output would go: it writes nothing before it is claimed."""
