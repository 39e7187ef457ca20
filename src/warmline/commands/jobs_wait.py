"""Starting a queued job from a command and, with `--wait`, following it until it ends.

Shared by every command that starts a job (`deep-search`, `contacts search`, `companies
research`, `research run`; signal scan and recommendation generation in `outreach`),
so that they all say the same things, fail with the same exit codes, and poll through the
sync engine's job poller at the spec's 5-10 s interval.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import echo_acted, say  # say: re-exported for the job commands
from warmline.commands.common import CommandError, job_json, plain, short_id
from warmline.commands.delivery import QUICK_TIMEOUT
from warmline.config import KEY_FIX, key_fix
from warmline.exit_codes import EXIT_AUTH, EXIT_ERROR, EXIT_OFFLINE
from warmline.wiring import make_client, make_engine

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import Store
    from warmline.store.rows import Job

Results = Callable[["Job"], list[dict[str, Any]]]
"""A completed job's findings, as the JSON `results`."""
ShowResults = Callable[["Job", list[dict[str, Any]]], None]
"""Prints a completed job's findings for a person."""


@contextmanager
def _progress(label: str) -> Iterator[Callable[[Job], None]]:
    """A progress bar on stderr (a plain line when stderr is not a terminal)."""
    with click.progressbar(length=100, label=label, file=sys.stderr, show_eta=False) as bar:
        shown = [0]

        def update(job: Job) -> None:
            bar.label = f"{label} ({plain(job.status)})"
            target = 100 if not job.active else max(0, min(100, job.progress or 0))
            if target > shown[0]:
                bar.update(target - shown[0])
                shown[0] = target

        yield update


async def _follow(
    store: Store, client: ServiceClient, config: Config, op_id: str, wait: bool, update: Callable[[Job], None] | None
) -> Job | None:
    from warmline.prospecting import deliver_start, wait_for_job  # deferred: command line

    async with client:
        engine = make_engine(store, config, client)
        if wait:
            return await wait_for_job(engine, store, op_id, on_update=update)
        return await deliver_start(engine, store, op_id)


def run_job(store: Store, config: Config, op_id: str, what: str, wait: bool, as_json: bool) -> Job | None:
    """Send a queued job start and, with `wait`, follow the job; None when it stays queued.

    Without `wait` a quick timeout keeps the command snappy: the start is queued already,
    so a slow service only means the next sync sends it.
    """
    from warmline.api.errors import AuthError, OfflineError  # deferred: command line
    from warmline.prospecting import JobWaitTimeout, StartRefused  # deferred: command line

    if not config.api_key:
        if wait:
            raise CommandError(f"Queued the {what}, but no API key is configured to start it: {KEY_FIX}", EXIT_AUTH)
        say(as_json, f"Queued; no API key is configured, so it waits for one: {KEY_FIX}")
        return None
    try:
        if wait and not as_json:
            with _progress(what.capitalize()) as update:
                return asyncio.run(_follow(store, make_client(config), config, op_id, True, update))
        return asyncio.run(_follow(store, make_client(config, None if wait else QUICK_TIMEOUT), config, op_id, wait, None))
    except OfflineError as exc:
        if wait:
            raise CommandError(f"Queued; offline, so it will start when online: {exc}", EXIT_OFFLINE) from None
        say(as_json, "Queued; offline now, it will start when online (`warmline sync`).")
    except JobWaitTimeout as exc:
        raise CommandError(f"The {what} {exc.job.remote_id} is {plain(str(exc))}", EXIT_ERROR) from None
    except AuthError as exc:
        raise CommandError(
            f"Queued; the service refused the API key ({plain(exc)}): {key_fix(config.key_source)}", EXIT_AUTH
        ) from None
    except StartRefused as exc:
        if as_json:  # the refused op, for a script to retry or discard
            from warmline.prospecting import job_for_op  # deferred: command line

            job = job_for_op(store, op_id)
            echo_acted(store, [op_id], [job] if job else [], job=job_json(job) if job else None, results=[])
        raise CommandError(
            f"The service refused to start the {what}: {plain(exc)}\n"
            f"Fix it with `warmline outbox retry {short_id(op_id)}` or `warmline outbox discard {short_id(op_id)}`.",
            EXIT_ERROR,
        ) from None
    return None


def job_outcome(
    store: Store,
    op_id: str,
    job: Job | None,
    what: str,
    as_json: bool,
    results: Results,
    show: ShowResults,
) -> None:
    """Print what became of a job start: queued, started, or ended (with its results).

    `results` reads a completed job's findings (they become the JSON `results`) and `show`
    prints them for a person; a job that ended any other way fails the command (exit 1).
    """
    from warmline.prospecting import job_for_op  # deferred: command line

    job = job or job_for_op(store, op_id)
    ended = job is not None and not job.active and job.status.lower() == "completed"
    found = results(job) if job is not None and ended else []
    if as_json:
        echo_acted(store, [op_id], [job] if job else [], job=job_json(job) if job else None, results=found)
    elif job is not None and job.remote_id is not None:
        if job.active:
            click.echo(f"Started {what} {job.remote_id} ({plain(job.status)}). Follow it with `warmline jobs`.")
        elif ended:
            summary = f": {plain(job.result_summary)}" if job.result_summary else "."
            click.echo(f"The {what} {job.remote_id} completed{summary}")
            show(job, found)
    if job is not None and not job.active and not ended:
        raise CommandError(f"The {what} {job.remote_id} ended {plain(job.status)}: {plain(job.error or 'no reason given')}", EXIT_ERROR)
