"""`warmline companies`: your saved companies, listed from the cache; show, fields, tags,
create, edit and delete one (`warmline.commands.records`, shared with `contacts`); and
`research`, AI deep research of one company (a job, followed with `--wait`).

COMPANY is a company id or an unambiguous start of a cached company's name. Exit codes as
for the other headless commands (docs/cli.md); `--json` fields in docs/cli.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import say
from warmline.commands.common import (
    NumberType,
    open_config,
    open_store,
    plain,
    queue_action,
    say_cost,
    short_id,
)
from warmline.commands.jobs_wait import job_outcome, run_job
from warmline.commands.records import (
    COMPANIES,
    add_record_commands,
    list_records,
    resolve_company,
)
from warmline.exit_codes import EXIT_CODES_HELP
from warmline.store.company_page import findings_of

if TYPE_CHECKING:
    from warmline.store.rows import Job


@click.group("companies", invoke_without_command=True, epilog=EXIT_CODES_HELP)
@click.option("--search", "-s", default="", help="Only companies whose name or domain contains this.")
@click.option("--limit", type=NumberType(), default=None, help="At most this many companies.")
@click.option("--refresh", is_flag=True, help="Fetch your whole company list from the service first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
@click.pass_context
def companies_group(ctx: click.Context, search: str, limit: int | None, refresh: bool, as_json: bool) -> None:
    """List your saved companies from the cache, by name; show, create, edit, delete one."""
    if ctx.invoked_subcommand is None:
        list_records(COMPANIES, search, limit, refresh, as_json)


add_record_commands(companies_group, COMPANIES)


def _research_findings(job: Job) -> list[dict[str, Any]]:
    """The findings as the service gave them (`--json`)."""
    findings = findings_of(job)
    return [dict(findings.raw)] if findings is not None else []


def _show_findings(job: Job, _raw: list[dict[str, Any]]) -> None:
    """The key facts and sources, read as the company page reads them."""
    findings = findings_of(job)
    if findings is None:
        return
    if findings.key_facts:
        click.echo("Key facts:")
        for fact in findings.key_facts:
            click.echo(f"  - {plain(fact)}")
    if findings.sources:
        click.echo("Sources:")
        for source in findings.sources:
            click.echo(f"  {plain(source.title)}  {plain(source.url)}".rstrip())


@companies_group.command("research", epilog=EXIT_CODES_HELP)
@click.argument("company_ref", metavar="COMPANY")
@click.option("--focus", default=None, help="What to look into (e.g. \"expansion plans\").")
@click.option("--wait", is_flag=True, help="Show progress until the research ends, then its findings.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def companies_research(company_ref: str, focus: str | None, wait: bool, as_json: bool) -> None:
    """Start AI deep research of one company (costs 1 deep search): a summary, key facts
    and sources. Works offline: queued until the service is reachable."""
    from warmline import actions  # deferred: command line
    from warmline.prospecting import COMPANY_RESEARCH  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        company = resolve_company(store, company_ref)
        op_id = queue_action(lambda: actions.start_company_research(store, company.id, focus))
        say_cost(COMPANY_RESEARCH)
        say(as_json, f"Queued research of {plain(company.label)} (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "company research", wait, as_json)
        job_outcome(store, op_id, job, "company research", as_json, _research_findings, _show_findings)


COMMANDS = [companies_group]
