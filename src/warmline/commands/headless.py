"""Headless commands: sync, read the cache, queue an activity or a note, fix the outbox.

They work from the local cache like the cockpit, so `leads`, `lead`, `log`, `note`,
`outbox` and `jobs` answer with no connection at all; `log` and `note` queue the action
and then try a quick delivery, which may fail without failing the command.

Exit codes (also in docs/sync.md):
  0  done (for `log`/`note`: the action is queued, delivered or not)
  1  any other error
  2  bad input: an unknown or ambiguous lead, text outside the spec's limits, an unknown
     op, a malformed config file (click's own usage errors are 2 as well)
  3  the service refused the API key, or none is configured
  4  offline: the service could not be reached
`sync --once` exits 1 when the service answered but a part of the cache could not be
refreshed (errors, garbage, wrong shapes), printing one line per part.

`--json` output is stable: the fields are listed in docs/sync.md. Text from the service
(company names, activity text, server messages) is printed as plain text with control
characters removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import DISCARDED, acted_json, acted_op, current_ops, echo_acted, say
from warmline.commands.common import (
    QUICK_TIMEOUT,
    CommandError,
    cell_width,
    deliver,
    echo_json,
    iso_time,
    job_json,
    local_time,
    make_client,
    make_engine,
    money,
    note,
    open_config,
    open_store,
    pad,
    plain,
    print_table,
    resolve_lead,
    resolve_op,
    short_id,
    try_delivery,
)
from warmline.commands.queueing import sender_lock
from warmline.config import KEY_FIX
from warmline.exit_codes import (
    EXIT_AUTH,
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_OFFLINE,
    EXIT_OK,
)
from warmline.store import OpStateError
from warmline.store.rows import plain_data
from warmline.store.sync_vocabulary import SyncState, SyncStatus
from warmline.vocabulary import activity_name, kind_short, recommendation_action

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import LeadDetail, LeadRow, Op, Store
    from warmline.sync import PassReport
    from warmline.sync.flush import FlushReport

# --- sync ------------------------------------------------------------------------------------


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
        note(f"Rate-limited by the service until {local_time(report.rate_limited_until)}; "
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


SEND_ROUNDS = 100
"""At most this many flushes in one `sync --send` (each ends when nothing more is due)."""


def _add_up(total: FlushReport, report: FlushReport) -> None:
    for name in ("delivered", "reconciled", "resolved", "failed", "retrying", "ambiguous"):
        setattr(total, name, getattr(total, name) + getattr(report, name))
    total.offline, total.offline_error = report.offline, report.offline_error
    total.auth_error = report.auth_error
    total.errors.extend(report.errors)


async def _send_due(store: Store, client: ServiceClient, config: Config) -> FlushReport:
    """`sync --send`, the background sender of `log` and `note` (`warmline.commands.queueing`):
    deliver what is due under the cache's sender lock, nothing else (no refresh, no polls).

    After each flush it lets go of the lock and looks again: an op queued while it was
    finishing, by a command that saw the lock held and so started no sender, is then due
    and sent by a new round (or by another sender that took the lock meanwhile). It stops
    when nothing is due, when the service cannot be reached or refuses the key or asked
    us to wait, or after `PASS_BUDGET` seconds (sends cut short are ambiguous: settled by
    the next sync)."""
    from warmline.sync.engine import PASS_BUDGET  # deferred: command line
    from warmline.sync.flush import FlushReport  # deferred: command line

    total = FlushReport()
    async with client:
        engine = make_engine(store, config, client)
        store.recover_after_crash()  # a sender killed while sending: its ops are ambiguous
        try:
            async with asyncio.timeout(PASS_BUDGET):
                for _ in range(SEND_ROUNDS):
                    with sender_lock(config) as held:
                        if not held:
                            break  # the sender at work looks again once it lets go
                        report = await engine.flush()
                    _add_up(total, report)
                    if report.offline or report.auth_error or client.limiter.delay() > 0:
                        break
                    if not store.due_ops(limit=1):
                        break
        except TimeoutError:
            total.offline, total.offline_error = True, f"the service did not finish answering within {PASS_BUDGET:g} s"
    return total


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
            code = _print_sent(asyncio.run(_send_due(store, make_client(config), config)))
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


# --- reading the cache ------------------------------------------------------------------------


LEAD_FIELDS = (
    "id", "company_id", "company_name", "lead_status", "warming_score", "target_score", "gap",
    "ready", "activity_count", "recommendation_count", "monitoring_active", "last_activity_at",
    "pending_ops", "failed_ops",
)


def lead_json(row: LeadRow) -> dict[str, Any]:
    return {name: getattr(row, name) for name in LEAD_FIELDS}


def _all_leads(store: Store, status: str | None, page: int = 500) -> Iterator[LeadRow]:
    offset = 0
    while True:
        rows = store.lead_page(status=status, sort="score", offset=offset, limit=page)
        yield from rows
        if len(rows) < page:
            return
        offset += page


@click.command("leads", epilog=EXIT_CODES_HELP)
@click.option("--status", type=click.Choice(["cold", "warm"]), default=None, help="Only cold or only warm leads.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/sync.md).")
def leads_command(status: str | None, as_json: bool) -> None:
    """List the cached leads, highest warming score first (no network needed)."""
    config = open_config()
    with open_store(config) as store:
        rows = list(_all_leads(store, status))
        if as_json:
            echo_json([lead_json(r) for r in rows])
            return
        if not rows:
            note("No leads in the cache. Run `warmline sync` to fetch them.")
            return
        print_table(
            ["ID", "STATUS", "SCORE", "TARGET", "READY", "PENDING", "LAST ACTIVITY", "COMPANY"],
            [
                [r.id, r.lead_status, r.warming_score, r.target_score or "", "yes" if r.ready else "",
                 (f"{r.pending_ops}" + (f" ({r.failed_ops} failed)" if r.failed_ops else "")) if r.pending_ops or r.failed_ops else "",
                 (r.last_activity_at or "")[:16].replace("T", " "), r.company_name]
                for r in rows
            ],
        )


def detail_json(detail: LeadDetail) -> dict[str, Any]:
    data = plain_data(detail)
    data["lead"] = lead_json(detail.lead)
    return data


async def _refresh_one(store: Store, client: ServiceClient, config: Config, lead_id: int) -> SyncStatus:
    async with client:
        engine = make_engine(store, config, client)
        await engine.refresh_lead(lead_id)
        return engine.status.current


def _print_detail(detail: LeadDetail) -> None:
    lead = detail.lead
    click.echo(f"{plain(lead.company_name)} (lead {lead.id}, {lead.lead_status})")
    target = f" / target {lead.target_score}" if lead.target_score is not None else ""
    ready = " · ready for outreach" if lead.ready else ""
    click.echo(f"Warming score {lead.warming_score}{target}{ready}")
    company = detail.company or {}
    about = ", ".join(plain(company[k]) for k in ("domain", "industry", "country", "size") if company.get(k))
    if about:
        click.echo(f"Company: {about}")
    if detail.deal_value is not None or detail.won_at or detail.closed_at:
        deal = "Deal: " + (money(detail.deal_value, detail.deal_currency) if detail.deal_value is not None else "-")
        if detail.won_at:
            deal += f" · won {detail.won_at[:10]}"
        if detail.closed_at:
            deal += f" · lost {detail.closed_at[:10]} ({plain(detail.closed_reason or 'no reason')})"
        click.echo(deal)
    pinned = [c.name for c in detail.contacts if c.is_selected]
    if pinned:
        click.echo("Key contacts: " + ", ".join(plain(n) for n in pinned))
    if lead.pending_ops or lead.failed_ops:
        click.echo(f"Outbox: {lead.pending_ops} pending, {lead.failed_ops} failed")
    sections: list[tuple[str, list[str]]] = [
        ("Recent activity", _activity_lines(detail)),
        ("Notes", [
            f"{(n.created_at or '')[:16].replace('T', ' ')}  {'' if n.id is not None else '(' + (n.op_state or 'pending') + ') '}{plain(n.content)}"
            for n in detail.notes[:10]
        ]),
        ("Recommendations", [
            f"[{plain(r.priority or '-')}] {plain(recommendation_action(r.action_type))}: {plain(r.engagement_reason or '')}"
            for r in detail.recommendations
        ]),
        ("Competitors", [plain(c.name) + (" (pinned)" if c.is_pinned else "") for c in detail.competitors]),
    ]
    for title, lines in sections:
        if lines:
            click.echo(f"\n{title}:")
            for line in lines:
                click.echo(f"  {line}")


def _activity_lines(detail: LeadDetail) -> list[str]:
    """The ten latest activities as columns: when, the type by its human name (as the
    cockpit names it: "LinkedIn message", not `professional_network_message`), the points
    aligned on the right, the text. An activity not yet delivered has no points yet and
    says where it stands before its text, as a queued note does."""
    touchpoints = detail.touchpoints[:10]
    kinds = [plain(activity_name(t.detected_type)) for t in touchpoints]
    points = [f"+{t.bonus_points or 0}" if t.id is not None else "" for t in touchpoints]
    kind_width = max((cell_width(k) for k in kinds), default=0)
    points_width = max((len(p) for p in points), default=0)
    return [
        f"{(t.created_at or '')[:16].replace('T', ' '):<16}  {pad(kind, kind_width)}  {pad(score, points_width, right=True)}  "
        + ("" if t.id is not None else f"({t.op_state or 'pending'}) ")
        + plain(t.description)
        for t, kind, score in zip(touchpoints, kinds, points, strict=True)
    ]


@click.command("lead", epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/sync.md).")
@click.option("--refresh/--no-refresh", default=True, show_default=True,
              help="Fetch the lead's latest detail first, when the service is reachable.")
def lead_command(lead_ref: str, as_json: bool, refresh: bool) -> None:
    """Show one lead: a lead id or an unambiguous start of its company name.

    The cached detail is shown even when the service cannot be reached.
    """
    config = open_config()
    with open_store(config) as store:
        lead = resolve_lead(store, lead_ref)
        if refresh and config.api_key:
            status = asyncio.run(_refresh_one(store, make_client(config, QUICK_TIMEOUT), config, lead.id))
            if status.online is False or status.auth_failed:
                note(f"Showing the cached lead ({status.last_error})")
        detail = store.lead_detail(lead.id)
        if detail is None:
            raise CommandError(f"lead {lead.id} is no longer in the cache", EXIT_BAD_INPUT)
        if as_json:
            echo_json(detail_json(detail))
        else:
            _print_detail(detail)


# `log` and `note` are in `warmline.commands.queueing` (the light path of the console script).


# --- the outbox ------------------------------------------------------------------------------------


def op_json(op: Op) -> dict[str, Any]:
    return {
        "op_id": op.op_id,
        "kind": op.kind,
        "lead_id": op.lead_id,
        "state": op.state,
        "attempts": op.attempts,
        "created_at": op.created_at,
        "first_sent_at": op.first_sent_at,
        "next_attempt_at": iso_time(op.next_attempt_at),
        "not_before": iso_time(op.not_before),
        "last_error": op.last_error,
        "payload": op.payload,
    }


def _op_summary(op: Op) -> str:
    payload = op.payload
    for key in ("description", "content", "name", "query", "lead_status", "target_score"):
        if payload.get(key) is not None:
            text = plain(payload[key])
            return text if len(text) <= 40 else text[:39] + "…"
    return ""


@click.group("outbox", invoke_without_command=True, epilog=EXIT_CODES_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/sync.md).")
@click.pass_context
def outbox_group(ctx: click.Context, as_json: bool) -> None:
    """List queued and failed actions; `retry` or `discard` one.

    States: pending (waiting to be sent), in_flight (being sent), ambiguous (sent, answer
    lost: checked against the service before any resend), failed (refused by the
    service: its message is shown; retry, edit in the cockpit, or discard).
    """
    if ctx.invoked_subcommand is not None:
        return
    config = open_config()
    with open_store(config) as store:
        ops = store.outbox_rows()
        if as_json:
            echo_json([op_json(op) for op in ops])
            return
        if not ops:
            note("The outbox is empty: everything was delivered.")
            return
        print_table(
            ["OP", "STATE", "KIND", "LEAD", "TRIES", "NEXT TRY", "WHAT", "MESSAGE"],
            [
                [short_id(op.op_id), op.state, op.kind, op.lead_id or "", op.attempts,
                 local_time(max(op.next_attempt_at, op.not_before or 0)) if op.state in ("pending", "ambiguous") else "",
                 _op_summary(op), op.last_error or ""]
                for op in ops
            ],
        )


@outbox_group.command("retry", epilog=EXIT_CODES_HELP)
@click.argument("op_ref", metavar="OP", required=False)
@click.option("--all", "retry_all", is_flag=True, help="Every failed or waiting action.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: each op's id and state after the retry (see docs/cli.md).")
def outbox_retry(op_ref: str | None, retry_all: bool, as_json: bool) -> None:
    """Send a failed or waiting action again (now, skipping its retry delay)."""
    if bool(op_ref) == retry_all:
        raise click.UsageError("give one OP id (or its first characters), or --all")
    config = open_config()
    with open_store(config) as store:
        if retry_all:
            waiting = [op.op_id for op in store.outbox_rows(("failed", "pending", "ambiguous"))]
            count = store.retry_all()
            store.clear_rate_limit()  # an explicit retry overrides the service's wait
            say(as_json, f"{count} action(s) will be sent again.")
            if count:
                _try_any(store, config, as_json)
            if as_json:
                echo_acted(store, waiting)
            return
        op = resolve_op(store, op_ref or "")
        if not store.retry(op.op_id):
            raise CommandError(f"op {short_id(op.op_id)} is {op.state}: nothing to retry", EXIT_BAD_INPUT)
        store.clear_rate_limit()
        say(as_json, f"Op {short_id(op.op_id)} ({op.kind}) will be sent again.")
        try_delivery(store, config, op.op_id, err=as_json)
        if as_json:
            echo_acted(store, [op.op_id])


def _try_any(store: Store, config: Config, err: bool = False) -> None:
    if not config.api_key:
        return
    try:
        report = asyncio.run(deliver(store, make_client(config, QUICK_TIMEOUT), config))
    except CommandError:
        return
    click.echo(f"Sent {report.delivered + report.reconciled}; {report.failed} failed; "
               f"{store.outbox_counts().queued} still queued.", err=err)


@outbox_group.command("discard", epilog=EXIT_CODES_HELP)
@click.argument("op_ref", metavar="OP", required=False)
@click.option("--all", "discard_all", is_flag=True, help="Every action not being sent (waiting or failed).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: the ops discarded (see docs/cli.md).")
def outbox_discard(op_ref: str | None, discard_all: bool, as_json: bool) -> None:
    """Drop an action that is not being sent; its local effect is reverted."""
    if bool(op_ref) == discard_all:
        raise click.UsageError("give one OP id (or its first characters), or --all")
    config = open_config()
    with open_store(config) as store:
        if discard_all:
            from warmline import actions  # deferred: command line

            before = store.outbox_rows()
            count = actions.discard_all(store)
            say(as_json, f"Discarded {count} action(s); their local effects were reverted.")
            if as_json:  # those no longer in the outbox are the ones discarded
                left = {op["op_id"] for op in current_ops(store, [op.op_id for op in before])}
                echo_json(acted_json([acted_op(op, DISCARDED) for op in before if op.op_id not in left]))
            return
        op = resolve_op(store, op_ref or "")
        try:
            store.discard(op.op_id)
        except OpStateError as exc:
            raise CommandError(str(exc), EXIT_BAD_INPUT) from None
        say(as_json, f"Discarded op {short_id(op.op_id)} ({op.kind}); its local effect was reverted.")
        if as_json:
            echo_json(acted_json([acted_op(op, DISCARDED)]))


# --- jobs ------------------------------------------------------------------------------------------

@click.command("jobs", epilog=EXIT_CODES_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/sync.md).")
def jobs_command(as_json: bool) -> None:
    """List jobs (searches, research runs, scans, generations), newest first."""
    config = open_config()
    with open_store(config) as store:
        jobs = store.jobs()
        if as_json:
            echo_json([job_json(j) for j in jobs])
            return
        if not jobs:
            note("No jobs.")
            return
        print_table(
            ["KEY", "KIND", "STATUS", "PROGRESS", "ID", "CREATED", "RESULT"],
            [
                [j.key, kind_short(j.kind), j.status, "" if j.progress is None else f"{j.progress}%", j.remote_id or "",
                 (j.created_at or "")[:16].replace("T", " "), j.error or j.result_summary or ""]
                for j in jobs
            ],
        )


COMMANDS = [
    sync_command,
    leads_command,
    lead_command,
    outbox_group,
    jobs_command,
]
