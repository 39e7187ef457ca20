"""`warmline demo`, and opening the cockpit from the command line (`open_cockpit`).

`demo` runs the bundled reference server in a child process (its own interpreter, so
seeding and serving never compete with the terminal UI for the GIL), points a throw-away
cache at it, syncs once so the first screen is full, and opens the cockpit. Quitting the
cockpit, or a signal at any point (`warmline.termination`), stops the server and removes
the throw-away data dir. The sandbox is imported by the child process only.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from warmline.commands.common import CommandError, NumberType, open_config, open_store
from warmline.commands.demo_day import first_start, make_morning
from warmline.commands.sandbox import require_demo_extra
from warmline.commands.web import require_web_extra, serve_cockpit
from warmline.exit_codes import EXIT_BAD_INPUT
from warmline.startup import hold_collection
from warmline.terminal import refuse_without_terminal
from warmline.termination import exit_on_termination
from warmline.wiring import make_engine

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.sync import PassReport

SERVER_START_TIMEOUT = 120.0
SANDBOX_KEY_ENV = "WARMLINE_SANDBOX_API_KEY"  # read by `warmline sandbox` (its --api-key)


def open_cockpit(config: Config | None = None) -> None:
    """Open the cockpit on `config` (default: the configured one): `warmline.cockpit`."""
    refuse_without_terminal()
    config = config or open_config()
    hold_collection()
    from warmline.cockpit import start_cockpit  # deferred: command line

    with exit_on_termination():  # the terminal restored on SIGTERM, SIGHUP, SIGINT (warmline.termination)
        start_cockpit(config)


@contextmanager
def running_sandbox(db: Path, *, companies: int, leads: int, seed: int, job_seconds: float) -> Iterator[tuple[str, str]]:
    """Start `warmline sandbox` on a free loopback port; yields (base URL, API key)."""
    api_key = f"demo-{secrets.token_hex(12)}"
    # The key goes in the child's environment, not its command line: any user of the
    # machine can read a command line (`ps`), only we can read our processes' environment.
    command = [
        sys.executable, "-m", "warmline", "sandbox", "--host", "127.0.0.1", "--port", "0",
        "--db", str(db), "--companies", str(companies), "--leads", str(leads),
        "--seed", str(seed), "--job-seconds", str(job_seconds),
    ]
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", SANDBOX_KEY_ENV: api_key},
    )
    try:
        url = _read_url(process)
        yield url, api_key
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _read_url(process: subprocess.Popen[str]) -> str:
    """The first line the server prints is `Sandbox listening on URL`; it comes after seeding."""
    assert process.stdout is not None
    line = process.stdout.readline()
    prefix = "Sandbox listening on "
    if not line.startswith(prefix):
        error = process.stderr.read() if process.stderr and process.poll() is not None else ""
        raise CommandError(f"The reference server did not start: {(error or line).strip()}")
    process.stdout.readline()  # "API key: ...": we chose the key ourselves
    return line[len(prefix):].strip()


async def _first_sync(config: Config) -> PassReport:
    with open_store(config) as store:  # a cache it cannot use: one line, exit 5
        engine = make_engine(store, config)
        async with engine.client:
            return await engine.run_once()


@click.command("demo")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the demo's server data and cache here (default: a throw-away directory).")
@click.option("--companies", default=50_000, show_default=True, type=NumberType(100, 2_000_000),
              help="Companies in the server's lookup database.")
@click.option("--leads", default=60, show_default=True, type=NumberType(0, 100_000), help="Demo leads.")
@click.option("--seed", default=42, show_default=True, type=NumberType(), help="Seed of the demo data.")
@click.option("--job-seconds", default=20.0, show_default=True, type=NumberType(0.5, 3600, whole=False),
              help="How long the server's async jobs take.")
@click.option("--web", is_flag=True, help="Serve the cockpit to a browser instead (as `warmline web` does).")
def demo(data_dir: Path | None, companies: int, leads: int, seed: int, job_seconds: float, web: bool) -> None:
    """Run the cockpit against the bundled reference server, with seeded data and no account.

    Needs the optional packages of `warmline[demo]` (FastAPI, uvicorn, Faker).
    """
    require_demo_extra("demo")  # before the data dir is made: nothing to clean up
    if web:
        require_web_extra()
    else:
        refuse_without_terminal()  # before seeding a server for a cockpit that cannot draw
    # SIGTERM, SIGHUP, SIGINT at any point unwind through the `finally`s: the server stopped,
    # the throw-away data removed, the terminal restored (`warmline.termination`).
    with exit_on_termination(), demo_data_dir(data_dir) as root:
        click.echo(f"Starting the reference server (first start seeds {companies:,} companies)...", err=True)
        with running_sandbox(root / "sandbox.sqlite3", companies=companies, leads=leads, seed=seed,
                             job_seconds=job_seconds) as (url, api_key):
            config = dataclasses.replace(open_config(), base_url=url, api_key=api_key, data_dir=root / "cache")
            click.echo(f"Server at {url}. Syncing the demo data...", err=True)
            asyncio.run(_first_sync(config))
            if first_start(root):
                from warmline.zone import rep_now  # deferred: command line

                asyncio.run(make_morning(config, root / "sandbox.sqlite3", root, rep_now()))
            if web:
                serve_cockpit(config)
            else:
                open_cockpit(config)


@contextmanager
def demo_data_dir(data_dir: Path | None) -> Iterator[Path]:
    """The demo's data dir (the server's database and the cache): `data_dir`, kept, or a
    throw-away one (~59 MB), removed however the demo ends."""
    if data_dir is not None:
        try:
            data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"Cannot use {data_dir} as the demo's data dir: {exc.strerror}", EXIT_BAD_INPUT) from None
        yield data_dir
        return
    root = Path(tempfile.mkdtemp(prefix="warmline-demo-"))  # private (0700)
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


COMMANDS = [demo]
