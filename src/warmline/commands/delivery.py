"""Delivering queued actions from the command line, all of it: the quick foreground try,
the hand-off to a background sender, and that sender (`warmline sync --send`) with its lock.

Commands that act queue first and deliver after, so an action is never lost and works
offline. Then one of three ways:

- A quick try in the foreground (`try_delivery`, `send_now`): the outreach operations,
  `outbox retry`, `log --wait`... send what is due now, bounded by `QUICK_TIMEOUT`, and
  say what became of the action; a slow or missing service only means the next sync sends
  it, so the try never fails the command (`settled` fails it when the service refused).
- The hand-off (`hand_off`, `start_sender`): `log` and `note` start `warmline sync --send`
  detached, as git starts `gc --auto`, and return at once (`warmline.dispatch`, the
  queue path). The sender runs in a new session with no terminal, its output to the null
  device, and the command does not wait for it. The send path is not made light instead
  because it is the engine's flush that keeps delivery exactly-once (the claim, the
  idempotency key, reconciliation of an ambiguous send): a second, lighter sender would
  have to repeat all of it. No sender is started when there is no API key, when the
  service has asked us to wait, or when `WARMLINE_NO_DETACH` is set (the test suite sets
  it; the op then goes with the next sync): each is said in its own words.
- The sender (`send_due`): the engine's flush under the cache's sender lock, so it claims
  each op in a committed transaction before sending it, with the op id as its
  `Idempotency-Key`; a running cockpit, `sync --watch` or another sender may find the
  same op due, but only one claim succeeds (docs/sync.md "The states of a queued
  action"). One sender at a time per cache (`sender_lock`): a command that finds one at
  work starts none, and the sender looks for due ops again after letting go of the lock,
  so an op queued while it was finishing is not left behind.

Light to import, as the queue path loads it: the HTTP stack, the engine and asyncio are
imported where a send happens (`# deferred: command line`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from warmline.commands.acted import echo_acted, say
from warmline.commands.common import CommandError, plain, short_id, shown_time
from warmline.config import KEY_FIX, key_fix
from warmline.exit_codes import EXIT_ERROR
from warmline.store.sync_vocabulary import StateKey
from warmline.vocabulary import activity_name
from warmline.wiring import WiringError, check_cache_service, make_client, make_engine

if TYPE_CHECKING:
    from collections.abc import Sequence

    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import Op, Store
    from warmline.sync.flush import FlushReport

QUICK_TIMEOUT = 5.0
"""Seconds each read of a quick try may take (the whole request twice that): the action
is queued already, so a slow service only means the next sync sends it."""

NO_DETACH_VAR = "WARMLINE_NO_DETACH"
"""Set (to anything but empty or 0): `log` and `note` start no background sender; the
action waits for the next sync. For tests, and for a rep who wants nothing in the background."""

SENDER_ARGS = ("sync", "--send")
"""The background sender: `warmline sync --send` (deliver what is due, nothing else)."""

SEND_ROUNDS = 100
"""At most this many flushes in one `sync --send` (each ends when nothing more is due)."""


# --- the quick try in the foreground -----------------------------------------------------------


async def deliver(store: Store, client: ServiceClient, config: Config) -> FlushReport:
    async with client:
        return await make_engine(store, config, client).flush()


def quick_send(store: Store, config: Config) -> FlushReport | str:
    """Send what is due now, quickly: the flush's report, or why nothing was tried."""
    if not config.api_key:
        return f"no API key is configured, so it waits for one: {KEY_FIX}"
    import asyncio  # deferred: command line (`log` and `note` queue without an event loop)

    try:
        return asyncio.run(deliver(store, make_client(config, QUICK_TIMEOUT), config))
    except WiringError as exc:
        return f"not sent now: {plain(exc)}"


def send_now(store: Store, config: Config) -> str | None:
    """Deliver what is due now, quickly; None when the service answered, else why not."""
    report = quick_send(store, config)
    if isinstance(report, str):
        return report
    if report.offline:
        return "offline now, it will be sent by the next sync"
    if report.auth_error:
        return f"the service refused the API key ({report.auth_error}): {key_fix(config.key_source)}"
    return None


def try_delivery(store: Store, config: Config, op_id: str, err: bool = False) -> None:
    """Send what is due now, quickly; say what became of `op_id` (on stderr with `err`, when
    stdout carries JSON). Never fails the command."""
    report = quick_send(store, config)
    if isinstance(report, str):
        click.echo(f"Queued; {report}", err=err)
        return
    op = store.get_op(op_id)
    if op is not None and op.state == "done":
        click.echo("Delivered." + delivery_detail(op), err=err)
    elif op is not None and op.state == "failed":
        click.echo(f"The service refused it: {plain(op.last_error)}", err=err)
        click.echo(f"Fix it with `warmline outbox retry {short_id(op.op_id)}` or `warmline outbox discard {short_id(op.op_id)}`.", err=err)
    elif report.offline:
        click.echo("Queued; offline now, it will be sent by the next sync.", err=err)
    elif report.auth_error:
        click.echo(
            f"Queued; the service refused the API key ({plain(report.auth_error)}): {key_fix(config.key_source)}",
            err=err,
        )
    else:
        click.echo("Queued; it will be sent by the next sync.", err=err)


def delivery_detail(op: Op) -> str:
    """What the service made of a logged activity (its detected type and points), when it says."""
    result = op.result or {}
    touchpoint = result.get("touchpoint") if isinstance(result.get("touchpoint"), dict) else None
    if touchpoint is None:
        return ""
    kind = plain(activity_name(touchpoint.get("detected_type") or result.get("detected_type")))
    return f" Detected: {kind}, +{touchpoint.get('bonus_points', 0)} points."


def settled(
    store: Store, op_id: str, unsent: str | None, as_json: bool = False, batch: Sequence[str] = ()
) -> Op | None:
    """The op once delivered; None (after saying so) when it is still queued.

    A refusal by the service fails the command with its message and how to fix it; with
    `as_json`, stdout first gets the ops of the command (`batch`, else this one), the
    refused one among them, for a script to retry or discard.
    """
    op = store.get_op(op_id)
    if op is not None and op.state == "done":
        return op
    if op is not None and op.state == "failed":
        if as_json:
            echo_acted(store, batch or [op_id])
        raise CommandError(
            f"The service refused it: {plain(op.last_error)}\n"
            f"Fix it with `warmline outbox retry {short_id(op_id)}` or `warmline outbox discard {short_id(op_id)}`.",
            EXIT_ERROR,
        )
    say(as_json, f"Queued; {unsent or 'it will be sent by the next sync'}.")
    return None


# --- the hand-off to a background sender ---------------------------------------------------------


def detach_allowed() -> bool:
    """False when `WARMLINE_NO_DETACH` is set to anything but empty or `0`."""
    return os.environ.get(NO_DETACH_VAR, "") in ("", "0")


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
    try:
        check_cache_service(store, config)  # else the background sender would fail unseen
    except WiringError as refused:
        say(as_json, f"Queued; not sent: {refused}")
        return "next_sync"
    until = _rate_limited_until(store)
    if until is not None:
        say(
            as_json,
            f"Queued; the service asked us to wait until {shown_time(until, seconds=True)}: the first sync after that sends it.",
        )
        return "next_sync"
    if not detach_allowed():
        say(as_json, f"Queued; it will be sent by the next sync ({NO_DETACH_VAR} is set).")
        return "next_sync"
    say(as_json, "Sending in the background; `warmline outbox` shows it until it is delivered.")
    return "background"


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
        subprocess.Popen(  # our own interpreter and arguments
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


# --- the sender and its lock ----------------------------------------------------------------------


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


def _add_up(total: FlushReport, report: FlushReport) -> None:
    for name in ("delivered", "reconciled", "resolved", "failed", "retrying", "ambiguous"):
        setattr(total, name, getattr(total, name) + getattr(report, name))
    total.offline, total.offline_error = report.offline, report.offline_error
    total.auth_error = report.auth_error
    total.errors.extend(report.errors)


async def send_due(store: Store, client: ServiceClient, config: Config) -> FlushReport:
    """`sync --send`, the background sender of `log` and `note`: deliver what is due under
    the cache's sender lock, nothing else (no refresh, no polls).

    After each flush it lets go of the lock and looks again: an op queued while it was
    finishing, by a command that saw the lock held and so started no sender, is then due
    and sent by a new round (or by another sender that took the lock meanwhile). It stops
    when nothing is due, when the service cannot be reached or refuses the key or asked
    us to wait, or after `PASS_BUDGET` seconds (sends cut short are ambiguous: settled by
    the next sync)."""
    import asyncio  # deferred: command line (the queue path runs no event loop)

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
