"""`warmline jobs`: the jobs in the cache (searches, research runs, scans, generations),
newest first; offline too. `--json` output is stable (docs/sync.md).
"""

from __future__ import annotations

import click

from warmline.commands.common import (
    echo_json,
    job_json,
    note,
    open_config,
    open_store,
    print_table,
    shown_time,
)
from warmline.exit_codes import (
    EXIT_CODES_HELP,
)
from warmline.vocabulary import kind_short


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
                 shown_time(j.created_at), j.error or j.result_summary or ""]
                for j in jobs
            ],
        )


COMMANDS = [jobs_command]
