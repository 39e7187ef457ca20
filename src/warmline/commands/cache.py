"""`warmline cache path | reset | adopt`: where the local cache is, moving it aside, and
telling it that its service moved (`warmline.wiring.check_cache_service`).

`reset` is the way out of a cache Warmline cannot use (damaged, written by a newer
Warmline), which every such error points to, and of one a rep simply wants rebuilt. It
never deletes: it says what the old file still holds (actions not yet sent, failed ones,
jobs), asks, and renames the file set (`warmline.store.reset`); the next start builds a
new cache from the service. Only the cache's files move, nothing else in the data dir.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import click

from warmline.commands.common import CommandError, echo_json, open_config, open_store
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CACHE, EXIT_CODES_HELP, EXIT_ERROR
from warmline.store import CacheUnusable
from warmline.store.reset import (
    CacheContents,
    CacheInUse,
    CacheNotAFile,
    MovedCache,
    aside_name,
    cache_in_use,
    inspect_cache,
    move_cache_aside,
)
from warmline.textsafe import terminal_text


@click.group("cache", epilog=EXIT_CODES_HELP)
def cache_group() -> None:
    """The local cache: where it is (`path`), moving it aside for a new one (`reset`), its
    service at a new address (`adopt`)."""


@cache_group.command("path", epilog=EXIT_CODES_HELP, short_help="Print the cache file's path.")
def cache_path() -> None:
    """Print the cache file's path (WARMLINE_DATA_DIR or the config's data_dir, else the
    platform's data dir; it need not exist yet). SQLite keeps -wal and -shm files beside it."""
    click.echo(str(open_config().db_path))


@cache_group.command(
    "reset",
    epilog=EXIT_CODES_HELP,
    short_help="Move the cache aside (never deleted); the next start builds a new one.",
)
@click.option(
    "--yes", "-y", is_flag=True, help="Do not ask for confirmation (needed without a terminal)."
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print what moved and what it holds as JSON (see docs/cli.md).",
)
def cache_reset(yes: bool, as_json: bool) -> None:
    """Move the cache aside (never deleted) so that the next start builds a new one.

    Says first what the old file still holds: actions not yet sent and failed ones stay in
    it and are not sent from the new cache. The cache and its -wal/-shm files are renamed
    beside it, e.g. cache.sqlite3.2026-11-24T031200Z.bak; a cache Warmline cannot read
    (damaged, written by a newer Warmline) can be moved too. Refused while the cockpit or
    `warmline sync` has the cache open.
    """
    path = open_config().db_path
    now = datetime.now(UTC)  # one name, announced and used
    try:
        contents = inspect_cache(path)
    except CacheUnusable as exc:
        raise CommandError(str(exc), EXIT_CACHE) from None
    except CacheNotAFile as exc:
        raise CommandError(
            f"{exc}; Warmline moves only its own cache file: move it yourself "
            "or set WARMLINE_DATA_DIR",
            EXIT_CACHE,
        ) from None
    if not contents.exists:
        if as_json:
            echo_json({"path": str(path), "moved": False, "moved_to": None, "files": []})
        click.echo(f"No cache at {path}: nothing to move.", err=True)
        return
    if cache_in_use(path):
        raise CommandError(_in_use(path), EXIT_CACHE)
    click.echo(describe(contents), err=True)
    click.echo(
        f"Moving it aside keeps it as {aside_name(path, now).name} in the same folder; "
        "the next start builds a new cache from the service.",
        err=True,
    )
    if not yes:
        if not sys.stdin.isatty():
            raise CommandError(
                "not moved: no terminal to ask; pass --yes to move it aside", EXIT_BAD_INPUT
            )
        if not click.confirm("Move the cache aside?", err=True):
            raise CommandError("Nothing moved.", EXIT_ERROR)
    try:
        moved = move_cache_aside(path, now)
    except CacheInUse:
        raise CommandError(_in_use(path), EXIT_CACHE) from None
    except CacheNotAFile as exc:
        raise CommandError(str(exc), EXIT_CACHE) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise CommandError(
            f"the local cache {path} could not be moved aside ({reason}); it is left as it "
            "was: check the data dir's permissions",
            EXIT_CACHE,
        ) from None
    if as_json:
        echo_json(_json(contents, moved))
    else:
        click.echo(left_behind(contents, moved))


@cache_group.command(
    "adopt",
    epilog=EXIT_CODES_HELP,
    short_help="The configured service is this cache's, at a new address.",
)
def cache_adopt() -> None:
    """Record the configured service as the one this cache belongs to, when the service
    itself moved (a new address for the same account and data): queued actions then go
    there. A cache is otherwise refused to any service but the one its data came from, so
    that its queued actions never reach another service's leads; for a different service,
    use a data dir of its own or `warmline cache reset` instead."""
    from warmline.wiring import make_client, service_address  # deferred: command line

    config = open_config()
    make_client(config)  # the address must be one the client accepts
    configured = service_address(config.base_url)
    with open_store(config) as store:
        bound = store.service_address()
        if bound == configured:
            click.echo(f"This cache already belongs to {configured}.")
            return
        store.bind_service(configured)
    was = f" (was {bound})" if bound is not None else ""
    click.echo(f"This cache now belongs to {configured}{was}: queued actions go there with the next sync.")


def describe(contents: CacheContents) -> str:
    """What the cache holds, before asking: its problem if Warmline cannot use it, and the
    queued work a new cache will not have."""
    lines = []
    if contents.problem:
        lines.append(f"The local cache {contents.path} {contents.problem}.")
    if not contents.readable:
        lines.append("What it holds cannot be read: any actions queued in it stay in it, not sent.")
    else:
        held = _held(contents)
        where = "It" if contents.problem else f"The local cache {contents.path}"
        lines.append(
            f"{where} holds {held}; none of that is sent from a new cache."
            if held
            else f"{where} holds no actions waiting to be sent and none failed."
        )
    return terminal_text("\n".join(lines))


def left_behind(contents: CacheContents, moved: MovedCache) -> str:
    """The last line: where the old cache went and what stays in it."""
    if not contents.readable:
        return terminal_text(f"Whatever it holds stays in the old file: {moved.target}")
    held = _held(contents)
    if held:
        verb = (
            "stays"
            if held.startswith("1 ") and " and " not in held and ", " not in held
            else "stay"
        )
        return terminal_text(f"{held} {verb} in the old file: {moved.target}")
    return terminal_text(f"The old cache is now {moved.target}; the next start builds a new one.")


def _held(contents: CacheContents) -> str:
    parts = []
    if contents.not_sent:
        parts.append(_count(contents.not_sent, "action") + " not yet sent")
    if contents.failed:
        parts.append(
            f"{contents.failed} failed" if parts else _count(contents.failed, "failed action")
        )
    if contents.jobs_queued:
        parts.append(_count(contents.jobs_queued, "job") + " not started yet")
    if contents.jobs_running:
        its = "its" if contents.jobs_running == 1 else "their"
        parts.append(
            _count(contents.jobs_running, "job") + f" running on the service ({its} results do not"
            " reach a new cache)"
        )
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _in_use(path: object) -> str:
    return (
        f"the local cache {path} is open in another Warmline (the cockpit or `warmline sync`); "
        "quit it and run `warmline cache reset` again"
    )


def _json(contents: CacheContents, moved: MovedCache) -> dict[str, object]:
    return {
        "path": str(contents.path),
        "moved": True,
        "moved_to": str(moved.target),
        "files": [{"from": str(source), "to": str(target)} for source, target in moved.moves],
        "problem": contents.problem,
        "not_sent": contents.not_sent,
        "failed": contents.failed,
        "jobs_queued": contents.jobs_queued,
        "jobs_running": contents.jobs_running,
    }


COMMANDS = [cache_group]
