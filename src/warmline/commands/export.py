"""`warmline export`: leads, companies or contacts from the cache as CSV or JSON.

No network: it exports what the cache holds (run `warmline sync` or
`warmline companies --refresh` first for the latest). The formats are described in
`warmline.exporting` and docs/cli.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from warmline.commands.common import (
    CommandError,
    note,
    open_config,
    open_store,
)
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR
from warmline.exporting import export, export_to_file


@click.command("export", epilog=EXIT_CODES_HELP)
@click.argument("kind", type=click.Choice(["leads", "companies", "contacts"]))
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True,
              help="csv: for a spreadsheet (header row, one row per item); json: a list of objects.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Write to this file (replaced only once complete) instead of stdout.")
@click.option("--status", type=click.Choice(["cold", "warm"]), default=None, help="Leads only: just cold or just warm.")
def export_command(kind: str, fmt: str, out_path: Path | None, status: str | None) -> None:
    """Export leads, companies or contacts from the cache (no network needed)."""
    if status is not None and kind != "leads":
        raise CommandError("--status applies to leads only", EXIT_BAD_INPUT)
    config = open_config()
    with open_store(config) as store:
        if out_path is None:
            export(store, kind, fmt, sys.stdout, status)
            return
        try:
            count = export_to_file(store, kind, fmt, out_path, status)
        except OSError as exc:
            raise CommandError(f"cannot write {out_path}: {exc.strerror or exc}", EXIT_ERROR) from None
        note(f"Exported {count} {kind} to {out_path}.")


COMMANDS = [export_command]
