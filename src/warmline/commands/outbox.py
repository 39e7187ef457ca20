"""`warmline outbox`: the queued and failed actions; `retry` or `discard` one (or all).

It reads the cache, so it answers offline; a retry sends at once when the service is
reachable (`warmline.commands.delivery`). `--json` output is stable (docs/sync.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import DISCARDED, acted_json, acted_op, current_ops, echo_acted, say
from warmline.commands.common import (
    CommandError,
    echo_json,
    iso_time,
    note,
    open_config,
    open_store,
    plain,
    print_table,
    resolve_op,
    short_id,
    shown_time,
)
from warmline.commands.delivery import quick_send, try_delivery
from warmline.exit_codes import (
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
)
from warmline.store import OpStateError

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.store import Op, Store


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
                 shown_time(max(op.next_attempt_at, op.not_before or 0), seconds=True) if op.state in ("pending", "ambiguous") else "",
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
    report = quick_send(store, config)
    if isinstance(report, str):  # no key, or a client the config cannot build: nothing tried
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


COMMANDS = [outbox_group]
