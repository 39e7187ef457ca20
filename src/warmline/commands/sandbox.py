"""`warmline sandbox`: run the bundled reference server of the Sales Intelligence Service.

The sandbox package is imported inside the command only, so the cockpit never loads it
otherwise (see docs/architecture.md).
"""

from __future__ import annotations

from pathlib import Path

import click


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


@click.command("sandbox")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (0 = any free port).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite database file (default: under the user data dir). Data survives restarts.")
@click.option("--api-key", default=None, envvar="WARMLINE_SANDBOX_API_KEY", show_envvar=True,
              help="Register this API key (default: generate one). Printed on start. On the command line"
                   " it is visible to every user of the machine (ps); the environment variable is not.")
@click.option("--seed", default=42, show_default=True, type=int, help="Seed of a new database's data.")
@click.option("--companies", default=50_000, show_default=True, type=click.IntRange(0, 2_000_000),
              help="Companies in a new database's lookup database.")
@click.option("--leads", default=60, show_default=True, type=click.IntRange(0, 100_000), help="Demo leads in a new database.")
@click.option("--job-seconds", default=20.0, show_default=True, type=click.FloatRange(0, 86_400),
              help="How long async jobs take.")
@click.option("--rate-limit", "rate_limit", default="600/60", show_default=True, callback=_rate_limit,
              help="Requests per key per window, N/S.")
@click.option("--faults", default=None, callback=_faults,
              help="Injected faults, e.g. latency=200ms,error=0.2,drop=0.1,burst429=0.05.")
@click.option("--no-idempotency", is_flag=True, help="Ignore Idempotency-Key headers.")
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
) -> None:
    """Serve the reference Sales Intelligence Service on HOST:PORT (prints URL and key first)."""
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
    )
    try:
        run(settings)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from exc
    except KeyboardInterrupt:
        pass


COMMANDS = [sandbox]
