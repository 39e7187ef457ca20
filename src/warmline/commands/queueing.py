"""`warmline log` and `warmline note`: queue the action, hand its delivery to a background
sender, return.

A rep types `warmline log 3 "called them"` between calls, and a script may log a hundred
activities in a row, so the command must return at once, online or not (issue 14: at most
10x `python -c pass`; `bench/bench_cli.py`). Queueing needs the config, the cache and the
action's checks; sending needs the HTTP client, the service's models and the sync engine,
about four times as much to import as everything else together. So the command only
queues (one SQLite transaction, as the cockpit does) and starts `warmline sync --send`
detached, as git starts `gc --auto`: the sender runs in a new session with no terminal,
its output to the null device, and the command does not wait for it. The send path is
not made light instead because it is the engine's flush that keeps delivery exactly-once
(the claim, the idempotency key, reconciliation of an ambiguous send): a second, lighter
sender would have to repeat all of it.

Exactly once: the background sender is the engine's `flush`, so it claims each op in a
committed transaction before sending it, with the op id as its `Idempotency-Key`; a
running cockpit, `sync --watch` or another sender may find the same op due, but only one
claim succeeds (docs/sync.md "The states of a queued action"). One sender at a time per
cache (`sender_lock`): a command that finds one at work starts none, and the sender
looks for due ops again after letting go of the lock, so an op queued while it was
finishing is not left behind.

What the rep is told is what is known when the command returns: the action is queued and
is being sent in the background (`warmline outbox` shows it until it is delivered). With
`--wait` the command sends in the foreground, as before, and says what the service made
of it ("Delivered. Detected: Call, +10 points."). No sender is started when there is no
API key, when the service has asked us to wait, or when `WARMLINE_NO_DETACH` is set (the
test suite sets it; the op then goes with the next sync): each is said in its own words.

`warmline.launch` sends `warmline log ...` and `warmline note ...` straight to `main`
below, which parses them with a top-level group of these two commands only: no other
command module, no HTTP stack, no asyncio (tests/test_layering.py, `QUEUE_PATH_LATER`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from warmline.commands.acted import echo_acted, say
from warmline.commands.common import (
    ID,
    local_time,
    note,
    open_config,
    open_store,
    plain,
    queue_action,
    resolve_lead,
    short_id,
    try_delivery,
)
from warmline.commands.followups import record_follow_up
from warmline.commands.line import CONTEXT_SETTINGS, CommandLine
from warmline.exit_codes import EXIT_CODES_HELP
from warmline.store.sync_vocabulary import StateKey

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.store import Store
    from warmline.store.followups import Source

NO_DETACH_VAR = "WARMLINE_NO_DETACH"
"""Set (to anything but empty or 0): `log` and `note` start no background sender; the
action waits for the next sync. For tests, and for a rep who wants nothing in the background."""

SENDER_ARGS = ("sync", "--send")
"""The background sender: `warmline sync --send` (deliver what is due, nothing else)."""


def detach_allowed() -> bool:
    """False when `WARMLINE_NO_DETACH` is set to anything but empty or `0`."""
    return os.environ.get(NO_DETACH_VAR, "") in ("", "0")


def lock_path(config: Config) -> str:
    """The sender's lock file, next to the cache (one sender per cache)."""
    return f"{config.db_path}.sender-lock"


@contextmanager
def sender_lock(config: Config) -> Iterator[bool]:
    """Hold the cache's sender lock for the block if no other process holds it: yields
    True when held, False when another sender has it. Where there is no `fcntl` (Windows)
    every sender goes ahead (yields True): the outbox claim still keeps them off each
    other's ops, it only costs an extra process."""
    try:
        import fcntl  # deferred: command line (POSIX only)
    except ImportError:  # pragma: no cover (Windows)
        yield True
        return
    try:
        fd = os.open(lock_path(config), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # the directory is not ours to write: the cache will say so itself
        yield True
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # also lets go of the lock


def sender_running(config: Config) -> bool:
    """Whether a background sender holds the lock now (it will see what was just queued:
    it looks for due ops again after letting go)."""
    with sender_lock(config) as held:
        return not held


def start_sender() -> None:
    """Start `warmline sync --send` detached and return at once.

    POSIX: a double fork. The middle process starts a new session (no controlling
    terminal: no SIGHUP or Ctrl-C from the rep's shell), forks the sender and exits; we
    reap it at once, so no zombie is left even when the caller lives on (a script calling
    `warmline.cli.main`), and the sender, an orphan, is reaped by init. The sender's
    stdin, stdout and stderr are the null device: it never writes to the terminal, and a
    caller reading our output to its end (`$(warmline log ...)`) does not wait for it.
    Every other descriptor of ours is close-on-exec (Python's default), so the sender
    holds neither the cache nor a pipe of the caller.
    """
    argv = [sys.executable, "-m", "warmline", *SENDER_ARGS]
    if sys.platform == "win32":  # pragma: no cover
        import subprocess  # deferred: command line (Windows: no fork)

        flags = (
            subprocess.DETACHED_PROCESS
            | subprocess.CREATE_NEW_PROCESS_GROUP
            | subprocess.CREATE_NO_WINDOW
        )
        subprocess.Popen(  # noqa: S603 (our own interpreter and arguments)
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            creationflags=flags,
            close_fds=True,
        )
        return
    sys.stdout.flush()
    sys.stderr.flush()
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    code = 0
    try:  # the middle process: nothing of Python's shutdown runs here (os._exit)
        os.setsid()
        if os.fork() == 0:
            code = 127  # kept only if exec fails
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execv(sys.executable, argv)
    except BaseException:  # noqa: BLE001 (nothing may escape a forked child)
        code = 1
    finally:
        os._exit(code)


def _rate_limited_until(store: Store) -> float | None:
    """The end of a wait the service asked for (kept by the engine across runs), if ahead."""
    until = store.get_state(StateKey.RATE_LIMITED_UNTIL)
    return float(until) if isinstance(until, (int, float)) and until > time.time() else None


def hand_off(store: Store, config: Config, op_id: str, *, wait: bool, as_json: bool) -> str | None:
    """Deliver `op_id` in the foreground (`wait`) or hand it to the background sender,
    saying which (on stderr with `as_json`). Returns how it leaves for the JSON's
    `sending`: "background", "next_sync", or None when it was tried here."""
    if wait:
        from warmline import logfile  # deferred: command line (a send here is logged, as by `sync`)

        # The console script's path skipped the group that configures the log file;
        # `keep_level` keeps `warmline --debug log ...`'s level when the group did run.
        for warning in logfile.configure(keep_level=True):
            click.echo(f"Warning: {warning}", err=True)
        try_delivery(store, config, op_id, err=as_json)
        return None
    if not config.api_key:
        say(as_json, "Queued; no API key is configured, so it will be sent once one is.")
        return "next_sync"
    until = _rate_limited_until(store)
    if until is not None:
        say(
            as_json,
            f"Queued; the service asked us to wait until {local_time(until)}: the first sync after that sends it.",
        )
        return "next_sync"
    if not detach_allowed():
        say(as_json, f"Queued; it will be sent by the next sync ({NO_DETACH_VAR} is set).")
        return "next_sync"
    say(as_json, "Sending in the background; `warmline outbox` shows it until it is delivered.")
    return "background"


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


@click.command("log", epilog=EXIT_CODES_HELP)
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


@click.command("note", epilog=EXIT_CODES_HELP)
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

QUEUE_COMMANDS = frozenset(command.name for command in COMMANDS)
"""The first arguments `warmline.launch` sends here (`main`)."""


def main() -> None:
    """`warmline log ...` / `warmline note ...` from the console script: the same group
    class and settings as `warmline.cli.main`, holding these two commands only.

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
