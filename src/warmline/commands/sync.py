"""`warmline sync`: deliver queued actions, refresh the cache and poll running jobs, once
(`--once`), in the foreground until interrupted (`--watch`), or only deliver what is due
(`--send`, the background sender of `log` and `note`: `warmline.commands.delivery`).

Exit codes (also in docs/sync.md): 0 done; 1 any other error, and for `--once` a part of
the cache that could not be refreshed (errors, garbage, wrong shapes: one line per part);
2 bad input; 3 the service refused the API key, or none is configured; 4 offline.
`--json` output is stable: the fields are listed in docs/sync.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from datetime import datetime
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import echo_acted
from warmline.commands.common import (
    CommandError,
    iso_time,
    note,
    open_config,
    open_store,
    plain,
    shown_time,
)
from warmline.commands.delivery import send_due
from warmline.config import KEY_FIX
from warmline.exit_codes import (
    EXIT_AUTH,
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_OFFLINE,
    EXIT_OK,
)
from warmline.store.sync_vocabulary import SyncState, SyncStatus
from warmline.wiring import make_client, make_engine

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import Store
    from warmline.sync import PassReport
    from warmline.sync.flush import FlushReport


def _exit_for(report: PassReport) -> int:
    if report.auth_error:
        return EXIT_AUTH
    if report.offline_error:
        return EXIT_OFFLINE
    return EXIT_ERROR if report.refresh_failures else EXIT_OK


def _print_pass(report: PassReport, err: bool = False) -> None:
    """What the pass did, for a person: on stdout, or on stderr (`err`) when stdout carries JSON."""
    flush = report.flush
    if report.reachable:
        click.echo(
            f"Sent {flush.delivered + flush.reconciled} action(s)"
            + (f" ({flush.reconciled} found already applied)" if flush.reconciled else "")
            + f"; {flush.failed} failed, {flush.retrying + flush.ambiguous} to retry.",
            err=err,
        )
        if report.leads_refreshed is not None:
            click.echo(f"Refreshed {report.leads_refreshed} lead(s).", err=err)
        polls = report.polls
        if polls.polled:
            click.echo(f"Polled {polls.polled} job(s); {polls.completed} completed.", err=err)
    cached, leads = report.details_cached or 0, report.leads_cached
    if leads:
        line = f"Details cached offline: {cached} of {leads} leads"
        prefetch = report.prefetch
        if prefetch is not None and not prefetch.finished and cached < leads:
            line += " (the rest within the rate limit at the next sync)"
        click.echo(line + ".", err=err)
    status = report.status
    if status is not None:
        click.echo(f"Outbox: {status.queued} pending, {status.failed} failed.", err=err)
    if report.rate_limited_until is not None:
        note(f"Rate-limited by the service until {shown_time(report.rate_limited_until, seconds=True)}; "
              "the rest goes after that.")
    for error in report.errors:
        note(f"warning: {error}")
    for failure in report.refresh_failures:
        note(failure)
    if report.auth_error:
        note(f"The service refused the API key ({report.auth_error}): {KEY_FIX}")
    elif report.offline_error:
        note(f"Offline: {report.offline_error}")


def _pass_json(report: PassReport) -> dict[str, Any]:
    """The figures of `sync --once --json` beside its `ops` and `jobs` (docs/sync.md)."""
    flush, status = report.flush, report.status
    return {
        "reachable": report.reachable,
        "sent": flush.delivered + flush.reconciled,
        "reconciled": flush.reconciled,
        "failed": flush.failed,
        "retrying": flush.retrying + flush.ambiguous,
        "leads_refreshed": report.leads_refreshed,
        "jobs_polled": report.polls.polled,
        "jobs_completed": report.polls.completed,
        "details_cached": report.details_cached,
        "leads_cached": report.leads_cached,
        "outbox": None if status is None else {"queued": status.queued, "failed": status.failed},
        "rate_limited_until": iso_time(report.rate_limited_until),
        "errors": list(report.errors),
        "refresh_failures": list(report.refresh_failures),
        "auth_error": report.auth_error,
        "offline_error": report.offline_error,
    }


async def _sync_once(store: Store, client: ServiceClient, config: Config) -> PassReport:
    async with client:
        return await make_engine(store, config, client).run_once()


def _print_sent(report: FlushReport) -> int:
    """What `sync --send` did, and its exit code."""
    click.echo(f"Sent {report.delivered + report.reconciled} action(s); {report.failed} failed, "
               f"{report.retrying + report.ambiguous} to retry.")
    if report.auth_error:
        note(f"The service refused the API key: {report.auth_error}")
        return EXIT_AUTH
    if report.offline:
        note(f"Offline: {report.offline_error}")
        return EXIT_OFFLINE
    return EXIT_OK


async def _watch(store: Store, client: ServiceClient, config: Config) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # SIGHUP: the terminal closed. Each ends the watch as Ctrl-C does (`engine.stop`).
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):  # not on every platform
            loop.add_signal_handler(getattr(signal, name), stop.set)
    async with client:
        engine = make_engine(store, config, client)
        last: list[str] = []

        def show(status: SyncStatus) -> None:
            now = engine.clock()
            state = status.state(now)
            if state == SyncState.UNKNOWN:
                return  # before the first answer: nothing worth a line yet
            state = SyncState.ONLINE if state == SyncState.SYNCING else state  # a line per pass is noise
            line = f"{state} · {status.queued} pending · {status.failed} failed"
            if status.last_error and state in (SyncState.OFFLINE, SyncState.AUTH_FAILED):
                line += f" · {status.last_error}"
            elif state == SyncState.FAILING:
                line = f"service failing: {status.failing} · {status.queued} pending · {status.failed} failed"
            if [line] != last:
                last[:] = [line]
                click.echo(f"{datetime.now():%H:%M:%S} {plain(line)}")

        engine.on_status(show)
        await engine.start()
        click.echo("Syncing in the background; press Ctrl-C to stop.")
        try:
            await stop.wait()
        finally:
            await engine.stop()


@click.command("sync", epilog=EXIT_CODES_HELP)
@click.option("--once", "mode", flag_value="once", default=True,
              help="One full pass, then exit (the default).")
@click.option("--watch", "mode", flag_value="watch",
              help="Keep syncing in the foreground until interrupted.")
@click.option("--send", "mode", flag_value="send",
              help="Only deliver the queued actions that are due, then exit (what `log` and `note` start in the background).")
@click.option("--json", "as_json", is_flag=True,
              help="With --once: print JSON, each queued op's id and state after the pass (see docs/sync.md).")
def sync_command(mode: str, as_json: bool) -> None:
    """Deliver queued actions, refresh the cache and poll running jobs.

    --once sends every queued action now (its retry delay is skipped, since you asked,
    but a wait the service asked for is kept: then nothing is sent and the command says
    until when), refreshes the cache and polls every running job. --watch runs the same
    background schedule as the cockpit. --send only delivers what is due (no refresh, no
    polls): `log` and `note` run it in the background (WARMLINE_NO_DETACH=1 stops them).
    """
    if mode == "send":
        if as_json:
            raise CommandError("--json goes with --once", EXIT_BAD_INPUT)
        config = open_config()
        with open_store(config) as store:
            code = _print_sent(asyncio.run(send_due(store, make_client(config), config)))
        sys.exit(code)
    if as_json and mode == "watch":
        raise CommandError("--json goes with --once: --watch prints a line per change", EXIT_BAD_INPUT)
    config = open_config()
    with open_store(config) as store:
        client = make_client(config)
        if mode == "watch":
            asyncio.run(_watch(store, client, config))
            return
        queued = [op.op_id for op in store.outbox_rows()]
        running = [job.key for job in store.jobs(active_only=True)]
        report = asyncio.run(_sync_once(store, client, config))
        _print_pass(report, err=as_json)
        if as_json:
            jobs = [job for job in (store.get_job(key) for key in running) if job is not None]
            echo_acted(store, queued, jobs, **_pass_json(report))
        code = _exit_for(report)
        if code != EXIT_OK:
            sys.exit(code)


COMMANDS = [sync_command]
