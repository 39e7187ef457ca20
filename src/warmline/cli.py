"""The `warmline` command line.

Each module of `warmline.commands` owns one top-level group or command family, with all
its subcommands, and exports them as `COMMANDS`; this module lists them into one tree,
here and nowhere else. (Helpers the commands share are modules without `COMMANDS`:
`common`, `records`, `delivery`, `jobs_wait`, `direct`, `acted`, `line`.)

Plain `warmline` never gets here (`warmline.launch` opens the cockpit without click), nor
do `warmline log` and `note` (the queue path, `warmline.dispatch`); the command modules
import the HTTP stack only inside the commands that talk to the service, so
`warmline --help` and the cache-only commands start fast (`warmline.startup`).
"""

from __future__ import annotations

import click

from warmline import __version__, logfile
from warmline.commands import (
    cache,
    companies,
    completion,
    config,
    contacts,
    demo,
    export,
    followups,
    jobs,
    leads,
    logs,
    outbox,
    outreach,
    queueing,
    report,
    research,
    sandbox,
    search,
    search_everything,
    service,
    sync,
    today,
    web,
)
from warmline.commands.line import CONTEXT_SETTINGS, CommandLine

COMMANDS: list[click.Command] = [
    *cache.COMMANDS,
    *companies.COMMANDS,
    *completion.COMMANDS,
    *config.COMMANDS,
    *contacts.COMMANDS,
    *demo.COMMANDS,
    *export.COMMANDS,
    *followups.COMMANDS,
    *jobs.COMMANDS,
    *leads.COMMANDS,
    *logs.COMMANDS,
    *outbox.COMMANDS,
    *outreach.COMMANDS,
    *queueing.COMMANDS,
    *report.COMMANDS,
    *research.COMMANDS,
    *sandbox.COMMANDS,
    *search.COMMANDS,
    *search_everything.COMMANDS,
    *service.COMMANDS,
    *sync.COMMANDS,
    *today.COMMANDS,
    *web.COMMANDS,
]
"""Every command of `warmline`: each module's own, listed (`--help` sorts them by name)."""


@click.group(cls=CommandLine, commands=COMMANDS, invoke_without_command=True,
             context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, prog_name="warmline")
@click.option("--debug", is_flag=True,
              help="Log more to the log file (requests' headers and bodies, cut short; never the key): `warmline logs`.")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """Warmline: a keyboard-driven, offline-first outreach cockpit.

    With no command, opens the cockpit against the configured service
    (WARMLINE_BASE_URL / WARMLINE_API_KEY or the config file); `warmline demo` runs it
    against the bundled reference server with no account.

    \b
    The config file (`warmline config path`; WARMLINE_CONFIG names another):
      Linux    ~/.config/warmline/config.toml
      macOS    ~/Library/Application Support/warmline/config.toml
      Windows  %LOCALAPPDATA%\\warmline\\warmline\\config.toml
    `warmline config init` writes a commented example; `warmline key set` stores the key.
    """
    for warning in logfile.configure(debug=debug):
        click.echo(f"Warning: {warning}", err=True)
    if ctx.invoked_subcommand is None:
        demo.open_cockpit()
