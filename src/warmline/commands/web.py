"""`warmline web`: the cockpit in a browser (`warmline.web`), and `serve_cockpit`, which
`warmline demo --web` uses too.

The server and its packages (textual-serve, aiohttp) are the optional `web` extra, imported
inside the command only: `warmline --help` and the other commands never load them.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import click

from warmline.commands.common import CommandError, NumberType, open_config
from warmline.commands.sandbox import demo_install_hint
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_ERROR

if TYPE_CHECKING:
    from warmline.config import Config

WILDCARD_HOSTS = ("0.0.0.0", "::", "")
DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class WebOptions:
    """How `warmline web` serves: where it listens, under which address browsers reach it,
    how many sessions at once, and whether it opens the browser itself."""

    host: str = "127.0.0.1"
    port: int = 0
    allow_remote: bool = False
    public_url: str | None = None
    max_sessions: int = 2
    open_browser: bool = False


def require_web_extra() -> None:
    """Stop with one line naming what to install when textual-serve is missing."""
    try:
        found = importlib.util.find_spec("textual_serve") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise CommandError(
            f"`warmline web` needs the optional web packages (textual-serve): {demo_install_hint('web')}", EXIT_ERROR
        )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_origin(options: WebOptions, port: int) -> str:
    """The origin browsers use (`scheme://host[:port]`): `--public-url`'s, else the bound
    address's (a wildcard address: this machine's name). The Origin and Host checks hold
    requests to exactly this."""
    if options.public_url:
        parts = urlsplit(options.public_url)
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.query:
            raise CommandError("--public-url must be an address like http://NAME:PORT (no path)", EXIT_BAD_INPUT)
        return f"{parts.scheme}://{parts.netloc}"
    host = socket.gethostname() if options.host in WILDCARD_HOSTS else options.host
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}" if port == DEFAULT_PORTS["http"] else f"http://{shown}:{port}"


def serve_cockpit(config: Config, options: WebOptions | None = None) -> None:
    """Serve the cockpit on `config` to browsers until Ctrl+C (or SIGTERM, SIGHUP)."""
    options = options or WebOptions()
    require_web_extra()
    if not is_loopback(options.host):
        if not options.allow_remote:
            raise CommandError(
                f"--host {options.host} lets other machines reach the cockpit; add --allow-remote if that is meant",
                EXIT_BAD_INPUT,
            )
        click.echo(
            f"Warning: serving on {options.host}: other machines can reach this server. Its link and cookie "
            "travel unencrypted over plain HTTP; use a network you trust, or put TLS in front (--public-url https://...).",
            err=True,
        )
    # deferred: command line (the optional web extra: aiohttp, textual-serve)
    from warmline.web.access import Gate
    from warmline.web.server import CockpitServer, Sessions, bind, run
    from warmline.web.session import cockpit_environment

    try:
        sock = bind(options.host, options.port)
    except OSError as exc:
        raise CommandError(f"Cannot listen on {options.host} port {options.port}: {exc.strerror}", EXIT_BAD_INPUT) from None
    try:
        gate = Gate(public_origin(options, sock.getsockname()[1]))
    except CommandError:
        sock.close()
        raise
    environment = cockpit_environment(os.environ, base_url=config.base_url, data_dir=config.data_dir)
    server = CockpitServer(gate, Sessions(environment=environment, api_key=config.api_key, cap=options.max_sessions))
    with tempfile.TemporaryDirectory(prefix="warmline-web-") as scratch:

        def ready() -> None:
            click.echo(f"Warmline is served at {gate.origin}/ (at most {options.max_sessions} sessions at once).")
            click.echo("Open this link once; it signs this browser in:")
            click.echo(f"  {gate.link}")
            if options.open_browser:
                _open(Path(scratch), gate.link)
            click.echo("Press Ctrl+C to stop.")

        run(server, sock, ready)


def _open(scratch: Path, link: str) -> None:
    # deferred: command line (--open only)
    from warmline.web.window import open_window, write_launcher

    where = open_window(write_launcher(scratch, link))
    click.echo(f"Opened in {where}." if where else "No browser found here: open the link yourself.")


@click.command("web")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but this machine's loopback needs --allow-remote.")
@click.option("--port", default=0, type=NumberType(0, 65535), help="The port (default: a free one).")
@click.option("--allow-remote", is_flag=True, help="Allow a --host other machines can reach.")
@click.option("--public-url", default=None,
              help="The address browsers use, when it is not http://HOST:PORT (a name, a TLS proxy).")
@click.option("--max-sessions", default=2, show_default=True, type=NumberType(1, 64),
              help="Browser tabs open at once; each runs its own cockpit.")
@click.option("--open", "open_browser", is_flag=True,
              help="Open the link in the system's browser (an app window where it has one).")
def web(host: str, port: int, allow_remote: bool, public_url: str | None, max_sessions: int, open_browser: bool) -> None:
    """Serve the cockpit to a web browser on this machine.

    Prints a link that works once: it signs that browser in. Each tab runs its own
    cockpit against the configured service and cache. Needs the optional packages of
    `warmline[web]`.
    """
    options = WebOptions(host, port, allow_remote, public_url, max_sessions, open_browser)
    serve_cockpit(open_config(), options)


COMMANDS = [web]
