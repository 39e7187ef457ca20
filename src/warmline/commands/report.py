"""`warmline report week|range`: the week in review (or any range of days), from the cache.

No network: it reads the cache and the follow-ups file (run `warmline sync` first for
the latest), in the rep's zone, weeks starting on the rep's first work day (`[ui]
work_days`). What the service has not seen yet is said in the report itself (the pending
line). Formats (`warmline.review`): md for a chat message, html for a mail or a printer
(one self-contained file), csv for a spreadsheet, json for a script. Without `--out` the
report goes to stdout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import click

from warmline.commands.common import CommandError, note, open_config, open_store
from warmline.commands.followups import open_followups
from warmline.config import Config
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR
from warmline.exporting import write_file
from warmline.review.build import build_review, follow_up_counts
from warmline.review.formats import FORMATS, RENDERERS
from warmline.review.period import (
    Period,
    PeriodError,
    day_range,
    parse_day,
    parse_week,
    week_starting,
)
from warmline.zone import rep_now


def _output_options(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option(
        "--out", "--output", "out_path", type=click.Path(dir_okay=False, writable=True, path_type=Path),
        default=None, help="Write to this file (replaced only once complete) instead of stdout.",
    )(command)  # fmt: skip
    return click.option(
        "--format", "fmt", type=click.Choice(FORMATS), default="md", show_default=True,
        help="md: Markdown for a chat message; html: one self-contained page (charts inline, no "
             "script, printable); csv: one row per fact, for a spreadsheet; json: one object.",
    )(command)  # fmt: skip


def _write(config: Config, period: Period, fmt: str, out_path: Path | None) -> None:
    now = rep_now()
    # One file at a time, so that a failure names the file it comes from.
    with open_store(config) as store:
        review = build_review(store, period, now=now, cold_after_days=config.cold_after_days)
    with open_followups(config) as follow_ups:
        review = replace(review, follow_ups=follow_up_counts(follow_ups, period, now))
    text = RENDERERS[fmt](review)
    if out_path is None:
        click.echo(text, nl=False)
        return

    def write(out: TextIO) -> int:
        out.write(text)
        return len(text)

    try:
        write_file(out_path, write)
    except OSError as exc:
        raise CommandError(f"cannot write {out_path}: {exc.strerror or exc}", EXIT_ERROR) from None
    note(f"Wrote the review of {period.label} to {out_path}.")


def _period(read: Callable[[], Period]) -> Period:
    try:
        return read()
    except PeriodError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


@click.group("report")
def report_group() -> None:
    """The week in review (or any range of days), from the cache: activities, leads
    moved, recommendations, follow-ups, deals, score movement and what is still pending."""


@report_group.command("week", epilog=EXIT_CODES_HELP)
@click.option(
    "--week",
    "week",
    default=None,
    metavar="YYYY-Www",
    help="The ISO week, e.g. 2026-W48 (default: the current one). It starts on your first work day.",
)
@_output_options
def week_command(week: str | None, fmt: str, out_path: Path | None) -> None:
    """A week in review: the current week, or the one --week names."""
    config = open_config()
    work_days = config.work_days
    period = _period(
        lambda: (
            parse_week(week, work_days)
            if week is not None
            else week_starting(rep_now().date(), work_days)
        )
    )
    _write(config, period, fmt, out_path)


@report_group.command("range", epilog=EXIT_CODES_HELP)
@click.option(
    "--from", "first", required=True, metavar="YYYY-MM-DD", help="The first day (included)."
)
@click.option("--to", "last", required=True, metavar="YYYY-MM-DD", help="The last day (included).")
@_output_options
def range_command(first: str, last: str, fmt: str, out_path: Path | None) -> None:
    """A review of any days, --from one --to another (both included, at most a year)."""
    period = _period(lambda: day_range(parse_day(first, "first day"), parse_day(last, "last day")))
    _write(open_config(), period, fmt, out_path)


COMMANDS = [report_group]
