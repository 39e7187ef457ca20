"""`warmline sandbox`: run the bundled reference server of the Sales Intelligence Service.

The sandbox package is imported inside the command only, so the cockpit never loads it
otherwise (see docs/architecture.md). Its packages (FastAPI, uvicorn, Faker) are the
optional `warmline[demo]` extra: `require_demo_extra` makes `sandbox` and `demo` say in one
line what to install when they are missing, instead of failing with an ImportError.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import click

from warmline.commands.common import CommandError, NumberType
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_ERROR

DEMO_MODULES = ("fastapi", "uvicorn", "faker")
"""The top-level modules of the `demo` extra's packages (pyproject.toml)."""


def missing_demo_modules() -> list[str]:
    """The modules of the `demo` extra that cannot be imported here. Looked up, not
    imported: FastAPI takes a quarter of a second to import and `demo` never needs it in
    this process (its server runs in a child)."""
    missing = []
    for name in DEMO_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a broken install, or sys.modules[name] = None
            found = False
        if not found:
            missing.append(name)
    return missing


def demo_install_hint(extra: str = "demo") -> str:
    """The one command that adds the extra to the environment `warmline` runs in: pipx
    and uv keep each tool in its own environment and reinstall it with the extra; a clone
    installed in place (`./dev`, `pip install -e`) reinstalls itself; anything else is
    this interpreter's pip, so the packages land where this `warmline` looks for them.
    `extra`: another of warmline's extras (`keyring`, for `warmline key set`)."""
    prefix = Path(sys.prefix)
    if prefix.parent.name == "venvs" and prefix.parent.parent.name == "pipx":
        return f"pipx install --force 'warmline[{extra}]'"
    if prefix.parent.name == "tools" and prefix.parent.parent.name == "uv":
        return f"uv tool install --reinstall 'warmline[{extra}]'"
    source = _editable_source()
    if source is not None:
        return f"{sys.executable} -m pip install -e '{source}[{extra}]'"
    return f"{sys.executable} -m pip install 'warmline[{extra}]'"


def _editable_source() -> str | None:
    """The project directory of an editable install of warmline (PEP 610's
    direct_url.json), else None."""
    import json  # deferred: command line
    from importlib.metadata import PackageNotFoundError, distribution  # deferred: command line

    try:
        text = distribution("warmline").read_text("direct_url.json")
    except PackageNotFoundError:
        return None
    try:
        direct = json.loads(text or "{}")
    except ValueError:
        return None
    url = direct.get("url", "") if isinstance(direct, dict) else ""
    editable = isinstance(direct, dict) and bool(direct.get("dir_info", {}).get("editable"))
    if not editable or not url.startswith("file://"):
        return None
    from urllib.parse import unquote, urlparse  # deferred: command line

    return unquote(urlparse(url).path)


def require_demo_extra(command: str) -> None:
    """Stop `command` with one line naming what to install when the reference server's
    packages are missing (a core install: `pip install warmline` without `[demo]`)."""
    missing = missing_demo_modules()
    if missing:
        raise CommandError(
            f"warmline {command} needs the reference server's packages ({', '.join(missing)} missing);"
            f" install them with: {demo_install_hint()}",
            EXIT_ERROR,
        )


def _rate_limit(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[int, float] | None:
    if value is None:
        return None
    from warmline_sandbox.settings import parse_rate_limit  # deferred: sandbox

    try:
        return parse_rate_limit(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc


def _faults(_ctx: click.Context, _param: click.Parameter, value: str | None) -> object:
    from warmline_sandbox.settings import FaultSpec  # deferred: sandbox

    try:
        return FaultSpec.parse(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc


def _dialects(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...]:
    """The `--dialect` list, checked; a bad one is one line naming the dialects."""
    if value is None:
        return ()
    from warmline_sandbox.dialects import DialectError, parse_dialects  # deferred: sandbox

    try:
        return parse_dialects(value)
    except DialectError as exc:
        raise CommandError(f"--dialect: {exc}", EXIT_BAD_INPUT) from exc


@click.command("sandbox")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8765, show_default=True, type=NumberType(0, 65535), help="Port (0 = any free port).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite database file (default: under the user data dir). Data survives restarts.")
@click.option("--api-key", default=None, envvar="WARMLINE_SANDBOX_API_KEY", show_envvar=True,
              help="Register this API key (default: generate one). Printed on start. On the command line"
                   " it is visible to every user of the machine (ps); the environment variable is not.")
@click.option("--seed", default=42, show_default=True, type=NumberType(), help="Seed of a new database's data.")
@click.option("--companies", default=50_000, show_default=True, type=NumberType(0, 2_000_000),
              help="Companies in a new database's lookup database.")
@click.option("--leads", default=60, show_default=True, type=NumberType(0, 100_000), help="Demo leads in a new database.")
@click.option("--job-seconds", default=20.0, show_default=True, type=NumberType(0, 86_400, whole=False),
              help="How long async jobs take.")
@click.option("--rate-limit", "rate_limit", default="600/60", show_default=True, callback=_rate_limit,
              help="Requests per key per window, N/S.")
@click.option("--faults", default=None, callback=_faults,
              help="Injected faults, e.g. latency=200ms,error=0.2,drop=0.1,burst429=0.05.")
@click.option("--no-idempotency", is_flag=True, help="Ignore Idempotency-Key headers.")
@click.option("--dialect", "dialects", metavar="NAME[,NAME...]", default=None, callback=_dialects,
              help="Serve other readings of what the spec does not show (default: standard): page-limit,"
                   " offset, cursor, link, bare, sparse, words, names, errors, overview-only, detailed-only,"
                   " cold-default, request-names, or all (every variation of the answers at once).")
def sandbox(
    host: str,
    port: int,
    db_path: Path | None,
    api_key: str | None,
    seed: int,
    companies: int,
    leads: int,
    job_seconds: float,
    rate_limit: tuple[int, float],
    faults: object,
    no_idempotency: bool,
    dialects: tuple[str, ...],
) -> None:
    """Serve the reference Sales Intelligence Service on HOST:PORT (prints URL and key first).

    Needs the optional packages of `warmline[demo]` (FastAPI, uvicorn, Faker).
    """
    require_demo_extra("sandbox")
    from warmline_sandbox.auth import generate_key  # deferred: sandbox
    from warmline_sandbox.server import run  # deferred: sandbox
    from warmline_sandbox.settings import (  # deferred: sandbox
        FaultSpec,
        SandboxSettings,
        default_db_path,
    )

    assert isinstance(faults, FaultSpec)
    settings = SandboxSettings(
        db_path=db_path or default_db_path(),
        api_keys=[api_key or generate_key()],
        seed=seed,
        companies=companies,
        leads=leads,
        job_seconds=job_seconds,
        rate_limit=rate_limit,
        faults=faults,
        idempotency=not no_idempotency,
        host=host,
        port=port,
        dialects=dialects,
    )
    try:
        run(settings)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from exc
    except KeyboardInterrupt:
        pass


COMMANDS = [sandbox]
