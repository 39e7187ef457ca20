"""`warmline log` and `warmline note`: queue the action, hand its delivery to a background
sender, return. They take the queue path of the console script (`warmline.dispatch`
explains it: the two-command group of `main` below, the detached sender), so this module
loads no other command family's module and nothing that sends.

What the rep is told is what is known when the command returns: the action is queued and
is being sent in the background (`warmline outbox` shows it until it is delivered). With
`--wait` the command sends in the foreground and says what the service made of it
("Delivered. Detected: Call, +10 points."). The hand-off, the sender and its words are
`warmline.commands.delivery`'s.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from warmline.commands.acted import echo_acted, say
from warmline.commands.common import (
    ID,
    note,
    open_config,
    open_store,
    plain,
    queue_action,
    resolve_lead,
    short_id,
)
from warmline.commands.delivery import hand_off, sender_running, start_sender
from warmline.commands.followups import record_follow_up
from warmline.commands.line import CONTEXT_SETTINGS, CommandLine
from warmline.dispatch import QUEUE_COMMANDS
from warmline.exit_codes import EXIT_CODES_HELP

if TYPE_CHECKING:
    from warmline.store import Store
    from warmline.store.followups import Source

LOG_COMMAND, NOTE_COMMAND = QUEUE_COMMANDS


def _queued(
    lead_ref: str,
    what: str,
    action: Callable[[Store, int], str],
    *,
    wait: bool,
    as_json: bool,
    follow_up: tuple[Source, str] | None = None,
) -> None:
    """Queue `action(store, lead_id)` on the lead `lead_ref`, then deliver it or hand it off.
    `follow_up` (its source and the text): keep the follow-up the text promises, as the
    cockpit's form does (`warmline.commands.followups.record_follow_up`)."""
    config = open_config()
    with open_store(config) as store:
        lead = resolve_lead(store, lead_ref)
        op_id = queue_action(lambda: action(store, lead.id))
        say(as_json, f"Queued {what} on {plain(lead.company_name)} (op {short_id(op_id)}).")
        kept = None
        if follow_up is not None:
            kept = record_follow_up(
                config, lead.id, lead.company_name, follow_up[1], follow_up[0], op_id
            )
        sending = hand_off(store, config, op_id, wait=wait, as_json=as_json)
        if as_json:
            echo_acted(store, [op_id], sending=sending, follow_up=kept)
    if sending == "background" and not sender_running(config):
        try:
            start_sender()  # after the cache is closed: nothing of it crosses the fork
        except OSError as exc:  # no process to spare: the action is queued all the same
            note(f"warning: the background sender did not start ({exc}); the next sync sends it")


WAIT_HELP = "Send it now and say what the service made of it, instead of in the background."
JSON_HELP = "Print JSON: the op id and its state (fields: see docs/cli.md)."


@click.command(LOG_COMMAND, epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("text")
@click.option(
    "--contact", "contact_id", type=ID, default=None, help="The contact the activity is about."
)
@click.option("--wait", is_flag=True, help=WAIT_HELP)
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def log_command(
    lead_ref: str, text: str, contact_id: int | None, wait: bool, as_json: bool
) -> None:
    """Log an activity on a lead ("Called Dana, she wants a demo"); works offline.

    The action is queued at once and sent in the background when the service is
    reachable; --wait sends it before returning.
    """
    from warmline import actions  # deferred: command line (the checks; loads no HTTP client)

    _queued(
        lead_ref,
        "activity",
        lambda store, lead_id: actions.log_activity(store, lead_id, text, contact_id=contact_id),
        wait=wait,
        as_json=as_json,
        follow_up=("activity", text),
    )


@click.command(NOTE_COMMAND, epilog=EXIT_CODES_HELP)
@click.argument("lead_ref", metavar="LEAD")
@click.argument("text")
@click.option("--wait", is_flag=True, help=WAIT_HELP)
@click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
def note_command(lead_ref: str, text: str, wait: bool, as_json: bool) -> None:
    """Add a note to a lead; works offline (queued, then sent in the background when reachable)."""
    from warmline import actions  # deferred: command line

    _queued(
        lead_ref,
        "note",
        lambda store, lead_id: actions.add_note(store, lead_id, text),
        wait=wait,
        as_json=as_json,
        follow_up=("note", text),
    )


COMMANDS = [log_command, note_command]


def main() -> None:
    """`warmline log ...` / `warmline note ...` from the console script (the queue path,
    `warmline.dispatch`): the same group class and settings as `warmline.cli.main`,
    holding these two commands only.

    The process then ends with `os._exit`, skipping the interpreter's teardown of every
    module (about 13 ms of CPU, a tenth of the command): by then the cache is closed, the
    sender's lock let go, and the output is flushed here; nothing else of ours needs an
    exit handler. An exception other than the command's exit propagates as usual."""
    group = CommandLine("warmline", commands=COMMANDS, context_settings=CONTEXT_SETTINGS)
    try:
        group.main(prog_name="warmline")
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # as Python prints a message given to sys.exit
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a closed pipe (`| head -0`): what was not read is lost
            code = code or 1
    os._exit(code or 0)
