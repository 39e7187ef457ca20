"""What a command that acts prints with `--json`: one shape for all of them.

Every command that queues, retries, discards or sends actions (the outreach operations,
the job starts, `contacts add`, `outbox retry|discard`, `sync --once`...) prints one JSON
object, so that a script reads the op id and what became of it the same way everywhere:

    {"op_id": "1a2b...", "state": "sent",
     "ops": [{"op_id", "kind", "lead_id", "state", "outbox_state", "attempts",
              "last_error", "result"}],
     "jobs": [<as `warmline jobs --json`>],
     ...the command's own fields}

`ops` lists every action the command queued or touched, in order, as they stand when it
prints; `op_id` and `state` repeat the only one when there is exactly one, else they are
null. `state` is what a script needs to know, in four words: `queued` (in the outbox, to be
sent: pending, being sent, or sent with the answer lost and to be checked), `sent` (the
service accepted it), `failed` (the service refused it: `warmline outbox retry|discard`),
`discarded` (dropped by `outbox discard`, its local effect reverted). `outbox_state` is the
outbox's own finer state, as `warmline outbox --json` shows it (null once discarded).
Documented in docs/cli.md ("`--json` of the commands that act").

With `--json`, stdout carries the JSON alone: the words a person reads go to stderr
(`say`), and a command that would ask for confirmation refuses instead (`no_prompt`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.common import CommandError, echo_json, job_json, plain
from warmline.exit_codes import EXIT_BAD_INPUT

if TYPE_CHECKING:
    from warmline.store import Op, Store
    from warmline.store.rows import Job

QUEUED, SENT, FAILED, DISCARDED = "queued", "sent", "failed", "discarded"
PUBLIC_STATES = {
    "pending": QUEUED,
    "in_flight": QUEUED,
    "ambiguous": QUEUED,
    "failed": FAILED,
    "done": SENT,
}
"""The outbox's states (`warmline.store.rows`) as the JSON's `state` says them."""


def op_state(op: Op) -> str:
    """`queued`, `sent` or `failed`: what a script needs to know of an op in the outbox."""
    return PUBLIC_STATES.get(op.state, QUEUED)


def acted_op(op: Op, state: str | None = None) -> dict[str, Any]:
    """One entry of `ops`; `state` overrides the op's own (`discarded`: it left the outbox)."""
    return {
        "op_id": op.op_id,
        "kind": op.kind,
        "lead_id": op.lead_id,
        "state": state or op_state(op),
        "outbox_state": None if state == DISCARDED else op.state,
        "attempts": op.attempts,
        "last_error": op.last_error,
        "result": op.result,
    }


def current_ops(store: Store, op_ids: Iterable[str]) -> list[dict[str, Any]]:
    """The ops as the outbox holds them now; one no longer there (removed by another
    process meanwhile) is left out."""
    found = (store.get_op(op_id) for op_id in op_ids)
    return [acted_op(op) for op in found if op is not None]


def acted_json(
    ops: Sequence[dict[str, Any]], jobs: Iterable[Job] = (), **fields: Any
) -> dict[str, Any]:
    """The object every acting command prints: `op_id`, `state`, `ops`, `jobs`, then its own fields."""
    single = ops[0] if len(ops) == 1 else None
    return {
        "op_id": None if single is None else single["op_id"],
        "state": None if single is None else single["state"],
        "ops": list(ops),
        "jobs": [job_json(job) for job in jobs],
        **fields,
    }


def echo_acted(
    store: Store, op_ids: Iterable[str], jobs: Iterable[Job] = (), **fields: Any
) -> None:
    """Print the acting command's JSON for the ops `op_ids`, read from the outbox now."""
    echo_json(acted_json(current_ops(store, op_ids), jobs, **fields))


def say(as_json: bool, message: str) -> None:
    """Words for a person: stdout, or stderr when stdout carries JSON. `message` may quote
    the service, so it is made one plain line."""
    click.echo(plain(message), err=as_json)


def no_prompt(as_json: bool, yes: bool, option: str = "--yes") -> None:
    """With `--json` a command never asks: a confirmation it would need is bad input (2)."""
    if as_json and not yes:
        raise CommandError(
            f"--json never asks for confirmation: give {option} as well", EXIT_BAD_INPUT
        )
