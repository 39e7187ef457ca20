"""The `warmline` command line.

Each module of `warmline.commands` defines and exports the commands and groups it fills;
this module assembles them into one tree, here and nowhere else. Three groups take
subcommands from two modules (`companies` and `contacts` from `records` and
`prospecting`, `outreach` from `prospecting` and `outreach`): the first module defines
the group, the second exports the subcommands that `top_level_commands` adds to it.

Plain `warmline` never gets here (`warmline.launch` opens the cockpit without click); the
command modules import the HTTP stack only inside the commands that talk to the service,
so `warmline --help` and the cache-only commands start fast (`warmline.startup`).
"""

from __future__ import annotations

import click

from warmline import __version__, logfile
from warmline.commands import (
    cache,
    cockpit,
    completion,
    config,
    export,
    followups,
    headless,
    logs,
    outreach,
    prospecting,
    queueing,
    records,
    sandbox,
    service,
    today,
)
from warmline.commands.line import CONTEXT_SETTINGS, CommandLine


def top_level_commands() -> list[click.Command]:
    """Every command of `warmline`, with the groups that span two modules completed."""
    for group, subcommands in (
        (records.companies_group, prospecting.COMPANIES_COMMANDS),
        (records.contacts_group, prospecting.CONTACTS_COMMANDS),
        (prospecting.outreach_group, outreach.OUTREACH_COMMANDS),
    ):
        for command in subcommands:
            group.add_command(command)
    return [
        *cache.COMMANDS,
        *cockpit.COMMANDS,
        *completion.COMMANDS,
        *config.COMMANDS,
        *export.COMMANDS,
        *followups.COMMANDS,
        *headless.COMMANDS,
        *logs.COMMANDS,
        *prospecting.COMMANDS,
        *queueing.COMMANDS,
        *records.COMMANDS,
        *sandbox.COMMANDS,
        *service.COMMANDS,
        *today.COMMANDS,
    ]


@click.group(cls=CommandLine, commands=top_level_commands(), invoke_without_command=True,
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
        cockpit.open_cockpit()
