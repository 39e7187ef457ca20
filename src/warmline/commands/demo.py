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
import queue
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from warmline.commands.common import CommandError, NumberType, open_config, open_store
from warmline.commands.demo_day import first_start, make_morning
from warmline.commands.sandbox import require_demo_extra
from warmline.commands.web import require_web_extra, serve_cockpit
from warmline.exit_codes import EXIT_BAD_INPUT
from warmline.logfile import open_log
from warmline.startup import hold_collection
from warmline.terminal import refuse_without_terminal
from warmline.termination import exit_on_termination
from warmline.wiring import make_engine, service_address

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.sync import PassReport

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
    """Start `warmline sandbox` on a free loopback port; yields (base URL, API key).

    What the server writes (its address, uvicorn's warnings, a traceback) is read as it
    comes and kept in `sandbox.log` beside its database: a pipe nobody read filled after
    64 KB (~1,300 malformed requests) and stopped the server at its next write."""
    api_key = f"demo-{secrets.token_hex(12)}"
    # The key goes in the child's environment, not its command line: any user of the
    # machine can read a command line (`ps`), only we can read our processes' environment.
    process = subprocess.Popen(
        sandbox_command(db, companies=companies, leads=leads, seed=seed, job_seconds=job_seconds),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
        env={**os.environ, "PYTHONUNBUFFERED": "1", SANDBOX_KEY_ENV: api_key},
    )
    assert process.stdout is not None
    found: queue.Queue[str] = queue.Queue()
    output = threading.Thread(target=_keep_output, args=(process.stdout, db.parent / "sandbox.log", found),
                              name="sandbox-output", daemon=True)
    output.start()
    try:
        yield _read_url(found, start_timeout(companies)), api_key
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        output.join(timeout=10)  # the rest of its output, to the end


def sandbox_command(db: Path, *, companies: int, leads: int, seed: int, job_seconds: float) -> list[str]:
    """`warmline sandbox` on any free loopback port, in its own interpreter."""
    return [
        sys.executable, "-m", "warmline", "sandbox", "--host", "127.0.0.1", "--port", "0",
        "--db", str(db), "--companies", str(companies), "--leads", str(leads),
        "--seed", str(seed), "--job-seconds", str(job_seconds),
    ]


def start_timeout(companies: int) -> float:
    """How long the server may take to say where it listens. Its first start seeds the
    companies (about 1.5 s of CPU for 50,000 on the 2-core development machine); the wait
    allows several times that on a busy machine: 130 s for the default, 520 s at most."""
    return 120.0 + companies / 5_000


LISTENING = "Sandbox listening on "
LOG_LIMIT = 1_000_000
"""Characters of the server's output kept in `sandbox.log` for one demo; the rest is read and
dropped (a flood of malformed requests must not fill the disk)."""


def _read_url(found: queue.Queue[str], timeout: float) -> str:
    """The server's address, from its line `Sandbox listening on URL` (printed after
    seeding); or, if its output ended first, its last line says why (`_keep_output`)."""
    try:
        line = found.get(timeout=timeout)
    except queue.Empty:
        raise CommandError(f"The reference server did not start within {timeout:g} s; stopped it.") from None
    if not line.startswith(LISTENING):
        raise CommandError(f"The reference server did not start: {line.strip() or 'it ended with no word'}")
    return line.removeprefix(LISTENING).strip()


def _keep_output(stream: IO[str], log: Path, found: queue.Queue[str]) -> None:
    """Read the server's output for as long as it runs (a thread): copy it to `log` (the
    API key line left out) up to `LOG_LIMIT`; hand the address line to `found`, or at the
    end of the output, with no address, the last line seen."""
    last, room, told = "", LOG_LIMIT, False
    try:
        kept: IO[str] | None = os.fdopen(open_log(log), "a", encoding="utf-8", errors="replace")
    except OSError:  # read all the same: a pipe left unread would stop the server
        kept = None
    for line in stream:
        if not told and line.startswith(LISTENING):
            found.put(line)
            told = True
        elif line.startswith("API key: "):
            continue  # we chose the key ourselves; it is not written to disk
        last = line[:500] if line.strip() else last
        room -= len(line)
        if kept is not None:
            try:
                kept.write(line if room > 0 else "(more output dropped)\n")
                kept.flush()
            except OSError:  # a full disk: the rest is dropped
                room = 0
            if room <= 0:
                kept.close()
                kept = None
    if kept is not None:
        kept.close()
    if not told:
        found.put(last)


async def _first_sync(config: Config) -> PassReport:
    with open_store(config) as store:  # a cache it cannot use: one line, exit 5
        # The demo's own server, on a new port each start: a kept data dir is its cache still.
        store.bind_service(service_address(config.base_url))
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
