"""`warmline research`: research templates, and runs that fill companies' custom fields.

`templates` lists them from the cache (fetched first when online); `show` fetches one;
`run` queues a run over companies (so it works offline), sends it at once when the
service is reachable, says what it costs first, and with `--wait` follows it to its
values. Exit codes as for the other headless commands (docs/cli.md); `--json` fields in
docs/cli.md.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import say
from warmline.commands.common import (
    CommandError,
    echo_json,
    note,
    open_config,
    open_store,
    pad,
    plain,
    queue_action,
    say_cost,
    short_id,
)
from warmline.commands.delivery import QUICK_TIMEOUT
from warmline.commands.direct import direct_request
from warmline.commands.jobs_wait import job_outcome, run_job
from warmline.commands.records import print_fields, resolve_companies
from warmline.config import KEY_FIX
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR
from warmline.store.research_results import results_of
from warmline.wiring import WiringError, make_client, make_engine

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import Store
    from warmline.store.rows import Job, ResearchTemplate


TEMPLATE_FIELDS = ("id", "name", "description", "fields")


async def _refresh_templates(store: Store, client: ServiceClient, config: Config) -> None:
    async with client:
        engine = make_engine(store, config, client)
        await engine.refresher.templates()


def _fetch_templates(store: Store, config: Config) -> str | None:
    """Refresh the cached template list; None when done, else why it could not be."""
    from warmline.api.errors import ApiError  # deferred: command line

    if not config.api_key:
        return f"no API key is configured: {KEY_FIX}"
    try:
        asyncio.run(_refresh_templates(store, make_client(config, QUICK_TIMEOUT), config))
    except (ApiError, WiringError) as exc:
        return str(exc)
    return None


@click.group("research", epilog=EXIT_CODES_HELP)
def research_group() -> None:
    """Research templates, and runs that fill companies' custom fields."""


@research_group.command("templates", epilog=EXIT_CODES_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
@click.option("--refresh/--no-refresh", default=True, show_default=True,
              help="Fetch the list first, when the service is reachable.")
def research_templates(as_json: bool, refresh: bool) -> None:
    """List the research templates and the fields each one extracts."""
    config = open_config()
    with open_store(config) as store:
        problem = _fetch_templates(store, config) if refresh else None
        if problem is not None:
            note(f"Showing the cached templates ({problem})")
        templates = store.templates()
        if as_json:
            echo_json([{name: getattr(t, name) for name in TEMPLATE_FIELDS} for t in templates])
            return
        if not templates:
            note("No research templates cached. Run this again when online.")
            return
        for template in templates:
            _print_template(template)


def _print_template(template: ResearchTemplate) -> None:
    click.echo(f"{plain(template.name)}  ({template.id})")
    if template.description:
        click.echo(f"  {plain(template.description)}")
    for f in template.fields:
        click.echo(f"    {pad(plain(f.get('key')), 22)} {pad(plain(f.get('type') or ''), 8)} {plain(f.get('name') or '')}")


@research_group.command("show", epilog=EXIT_CODES_HELP)
@click.argument("template_ref", metavar="TEMPLATE")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def research_show(template_ref: str, as_json: bool) -> None:
    """One research template (its id, or its name as cached), fetched from the service."""
    from warmline.sync.requests import dump  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        known = store.find_template(template_ref)
        template_id = known.id if known is not None else _template_id(template_ref)
        fresh = direct_request(config, store, lambda client: client.get_research_template(template_id))
        store.upsert_templates([dump(fresh)], full_list=False)
        template = store.find_template(fresh.id)
        if template is None:  # the cache refused what the service sent
            raise CommandError(f"research template {fresh.id} could not be read from the service's answer", EXIT_ERROR)
        if as_json:
            echo_json({name: getattr(template, name) for name in TEMPLATE_FIELDS})
        else:
            _print_template(template)


TEMPLATE_ID = re.compile(r"[A-Za-z0-9._~-]{1,128}")
"""What may go into a template's path as its id (a UUID, as the service gives them): a
name not cached, or a control character, never reaches the URL (httpx refused `\x01`
with a traceback)."""


def _template_id(ref: str) -> str:
    """`ref` as a template id for the service's path, or one line saying it is not one."""
    text = ref.strip()
    if TEMPLATE_ID.fullmatch(text) is None:
        raise CommandError(
            f"no cached research template is named {ref!r}, and that is not a template id"
            " (`warmline research templates` lists them)", EXIT_BAD_INPUT)
    return text


def _run_results(store: Store) -> Callable[[Job], list[dict[str, Any]]]:
    """Per company of a finished run: the values it extracted, as the cache now holds them."""

    def results(job: Job) -> list[dict[str, Any]]:
        return [
            {"company_id": result.company_id, "company_name": result.company_name, "fields": result.values}
            for result in results_of(store, job)
            if result.company_id is not None
        ]

    return results


def _show_run(job: Job, results: list[dict[str, Any]]) -> None:
    for result in results:
        click.echo(f"\n{plain(result['company_name'] or 'company')} ({result['company_id']}):")
        print_fields(result["fields"])


@research_group.command("run", epilog=EXIT_CODES_HELP)
@click.argument("template_ref", metavar="TEMPLATE")
@click.argument("company_refs", metavar="COMPANY...", nargs=-1, required=True)
@click.option("--wait", is_flag=True, help="Show progress until the run ends, then the values extracted.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def research_run(template_ref: str, company_refs: tuple[str, ...], wait: bool, as_json: bool) -> None:
    """Run a research template (its id or name) over 1-100 companies; costs 1 company
    enrichment per company. Results land in each company's custom fields."""
    from warmline import actions  # deferred: command line
    from warmline.prospecting import RESEARCH_RUN  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        companies = resolve_companies(store, company_refs)
        template = store.find_template(template_ref)
        if template is None and config.api_key:  # perhaps new on the service: fetch the list
            _fetch_templates(store, config)
            template = store.find_template(template_ref)
        ids = [c.id for c in companies]
        if template is not None:
            op_id = queue_action(lambda: actions.start_research_run(store, ids, template_id=template.id))
            name = template.name
        else:  # not known here: the service matches the name (case-insensitively) or the id
            op_id = queue_action(lambda: actions.start_research_run(store, ids, template_name=template_ref))
            name = template_ref
        say_cost(RESEARCH_RUN, len(ids))
        say(as_json, f"Queued research run {plain(name)!r} over {len(ids)} company(ies) (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "research run", wait, as_json)
        job_outcome(store, op_id, job, "research run", as_json, _run_results(store), _show_run)


COMMANDS = [research_group]
