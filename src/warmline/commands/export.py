"""`warmline export`: leads, companies or contacts from the cache as CSV or JSON, and the
local follow-ups as CSV, JSON or ICS (a calendar).

No network: it exports what the cache holds (run `warmline sync` or
`warmline companies --refresh` first for the latest). The formats are described in
`warmline.exporting` and docs/cli.md.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from warmline.commands.common import (
    CommandError,
    note,
    open_config,
    open_store,
)
from warmline.commands.followups import open_followups
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR
from warmline.exporting import export, export_followups, export_to_file, write_file

if TYPE_CHECKING:
    from warmline.config import Config


@click.command("export", epilog=EXIT_CODES_HELP)
@click.argument("kind", type=click.Choice(["leads", "companies", "contacts", "followups"]))
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "ics"]), default="csv", show_default=True,
              help="csv: for a spreadsheet (header row, one row per item); json: a list of objects; "
                   "ics: follow-ups only, a calendar file (one event per open follow-up).")
@click.option("--out", "--output", "out_path", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              default=None, help="Write to this file (replaced only once complete) instead of stdout.")
@click.option("--status", type=click.Choice(["cold", "warm"]), default=None, help="Leads only: just cold or just warm.")
def export_command(kind: str, fmt: str, out_path: Path | None, status: str | None) -> None:
    """Export leads, companies, contacts or follow-ups (no network needed).

    Leads, companies and contacts come from the cache; follow-ups from their own local
    file (the service has none): csv and json hold every one with its state, ics the open
    ones, for a calendar to import (exported again, each updates its own event).
    """
    if status is not None and kind != "leads":
        raise CommandError("--status applies to leads only", EXIT_BAD_INPUT)
    if fmt == "ics" and kind != "followups":
        raise CommandError("--format ics applies to followups only", EXIT_BAD_INPUT)
    config = open_config()
    if kind == "followups":
        _export_followups(config, fmt, out_path)
        return
    with open_store(config) as store:
        if out_path is None:
            export(store, kind, fmt, sys.stdout, status)
            return
        try:
            count = export_to_file(store, kind, fmt, out_path, status)
        except OSError as exc:
            raise CommandError(f"cannot write {out_path}: {exc.strerror or exc}", EXIT_ERROR) from None
        note(f"Exported {count} {kind} to {out_path}.")


def _export_followups(config: Config, fmt: str, out_path: Path | None) -> None:
    """`export followups`: from the follow-ups' own file, against the rep's today."""
    from warmline.actions.followups import rep_now  # deferred: command line (loads the parser)

    now = rep_now()
    with open_followups(config) as followups:
        def write(out: TextIO) -> int:
            return export_followups(followups, fmt, out, today=now.date(), stamp=now, zone=now.tzinfo)

        if out_path is None:
            write(sys.stdout)
            return
        try:
            count = write_file(out_path, write)
        except OSError as exc:
            raise CommandError(f"cannot write {out_path}: {exc.strerror or exc}", EXIT_ERROR) from None
        note(f"Exported {count} follow-up(s) to {out_path}.")


COMMANDS = [export_command]
