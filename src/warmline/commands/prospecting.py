"""Headless prospecting commands: lookup, deep search, contact search, research runs,
company research, companies and contacts, and moving companies into (and leads out of)
outreach.

Job starts, adding found contacts and outreach changes work like the cockpit: the action
is queued in the cache first (so it is never lost, and works offline: "queued; will start
when online"), then sent at once when the service is reachable. Instant lookup and the
company/contact record operations (create, edit, delete, fields, tags) are direct
requests, since their answer is the point. Each command that spends plan quota says what
it costs (on stderr) before anything is sent. `--wait` follows a started job until it
ends, polling at the spec's 5-10 s interval through the sync engine's job poller.

COMPANY is a company id or an unambiguous start of a cached company's name; LEAD a lead
id or an unambiguous start of its company's name.

Exit codes (as for the other headless commands, see docs/cli.md):
  0  done (a start or an add that is queued counts as done, unless --wait was asked)
  1  any other error (the service refused the action: plan limit, unknown job...; a job failed)
  2  bad input (limits of the spec, unknown or ambiguous COMPANY/LEAD/template)
  3  the service refused the API key, or none is configured
  4  offline: the service could not be reached (lookup with nothing cached; --wait; records)

`--json` output is stable; its fields are listed in docs/cli.md.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import click

from warmline.commands.common import (
    EXIT_AUTH,
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_OFFLINE,
    QUICK_TIMEOUT,
    CommandError,
    deliver,
    echo_json,
    job_json,
    make_client,
    make_engine,
    note,
    open_config,
    open_store,
    plain,
    print_table,
    queue_action,
    resolve_lead,
    short_id,
)

COMPANY_FIELDS = (
    "id", "name", "domain", "industry", "country", "region", "size", "description", "tags",
    "custom_fields", "source", "ai_tag",
)
CONTACT_FIELDS = (
    "id", "company_id", "first_name", "last_name", "title", "role", "email", "phone", "social_url",
    "tags", "custom_fields",
)
LOOKUP_FIELDS = (
    "name", "domain", "industry", "country", "region", "size", "description", "similarity_score",
    "saved_company_id",
)
FOUND_CONTACT_FIELDS = ("id", "first_name", "last_name", "title", "role", "email", "social_url", "company_id")
TEMPLATE_FIELDS = ("id", "name", "description", "fields")
PAGE = 500


# --- shared pieces ---------------------------------------------------------------------------------


def _company(store: Any, ref: str) -> Any:
    from warmline.prospecting import resolve_company

    try:
        return resolve_company(store, ref)
    except (LookupError, ValueError) as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None


def _companies(store: Any, refs: Sequence[str]) -> list[Any]:
    return list({ref.id: ref for ref in (_company(store, r) for r in refs)}.values())


def _cost(operation: str, count: int = 1, save: bool = False) -> None:
    from warmline.prospecting import cost_notice

    note(cost_notice(operation, count, save=save))


def _send_now(store: Any, config: Any) -> str | None:
    """Deliver what is due now, quickly; None when the service answered, else why not."""
    if not config.api_key:
        return "no API key is configured, so it will be sent once one is"
    try:
        report = asyncio.run(deliver(store, make_client(config, QUICK_TIMEOUT), config))
    except CommandError as exc:
        return f"not sent now: {exc.message}"
    if report.offline:
        return "offline now, it will be sent by the next sync"
    if report.auth_error:
        return f"the service refused the API key: {report.auth_error}"
    return None


def _settled(store: Any, op_id: str, unsent: str | None, as_json: bool = False) -> Any:
    """The op once delivered; None (after saying so) when it is still queued.

    A refusal by the service fails the command with its message and how to fix it.
    """
    op = store.get_op(op_id)
    if op is not None and op.state == "done":
        return op
    if op is not None and op.state == "failed":
        raise CommandError(
            f"The service refused it: {plain(op.last_error)}\n"
            f"Fix it with `warmline outbox retry {short_id(op_id)}` or `warmline outbox discard {short_id(op_id)}`.",
            EXIT_ERROR,
        )
    _say(as_json, f"Queued; {unsent or 'it will be sent by the next sync'}.")
    return None


# --- jobs: start, follow, show ---------------------------------------------------------------------


@contextmanager
def _progress(label: str) -> Iterator[Callable[[Any], None]]:
    """A progress bar on stderr (a plain line when stderr is not a terminal)."""
    with click.progressbar(length=100, label=label, file=sys.stderr, show_eta=False) as bar:
        shown = [0]

        def update(job: Any) -> None:
            bar.label = f"{label} ({plain(job.status)})"
            target = 100 if not job.active else max(0, min(100, job.progress or 0))
            if target > shown[0]:
                bar.update(target - shown[0])
                shown[0] = target

        yield update


async def _follow(store: Any, client: Any, config: Any, op_id: str, wait: bool, update: Callable[[Any], None] | None) -> Any:
    from warmline.prospecting import deliver_start, wait_for_job

    async with client:
        engine = make_engine(store, config, client)
        if wait:
            return await wait_for_job(engine, store, op_id, on_update=update)
        return await deliver_start(engine, store, op_id)


def _run_job(store: Any, config: Any, op_id: str, what: str, wait: bool, as_json: bool) -> Any:
    """Send a queued job start and, with `wait`, follow the job; None when it stays queued."""
    from warmline.api.errors import AuthError, OfflineError
    from warmline.prospecting import StartRefused

    if not config.api_key:
        if wait:
            raise CommandError(f"Queued the {what}, but no API key is configured to start it.", EXIT_AUTH)
        _say(as_json, "Queued; no API key is configured, so it will start once one is.")
        return None
    try:
        if wait and not as_json:
            with _progress(what.capitalize()) as update:
                return asyncio.run(_follow(store, make_client(config), config, op_id, True, update))
        return asyncio.run(_follow(store, make_client(config, None if wait else QUICK_TIMEOUT), config, op_id, wait, None))
    except OfflineError as exc:
        if wait:
            raise CommandError(f"Queued; offline, so it will start when online: {exc}", EXIT_OFFLINE) from None
        _say(as_json, "Queued; offline now, it will start when online (`warmline sync`).")
    except AuthError as exc:
        raise CommandError(f"Queued; the service refused the API key: {exc}", EXIT_AUTH) from None
    except StartRefused as exc:
        raise CommandError(
            f"The service refused to start the {what}: {plain(exc)}\n"
            f"Fix it with `warmline outbox retry {short_id(op_id)}` or `warmline outbox discard {short_id(op_id)}`.",
            EXIT_ERROR,
        ) from None
    return None


def _say(as_json: bool, message: str) -> None:
    """Progress words go to stdout, or to stderr when stdout carries JSON."""
    click.echo(plain(message), err=as_json)


def _job_outcome(
    store: Any,
    op_id: str,
    job: Any,
    what: str,
    as_json: bool,
    results: Callable[[Any], list[dict[str, Any]]],
    show: Callable[[Any, list[dict[str, Any]]], None],
) -> None:
    """Print what became of a job start: queued, started, or ended (with its results)."""
    from warmline.prospecting import job_for_op

    job = job or job_for_op(store, op_id)
    ended = job is not None and not job.active and job.status.lower() == "completed"
    found = results(job) if ended else []
    if as_json:
        echo_json({"op_id": op_id, "job": job_json(job) if job else None, "results": found})
    elif job is not None and job.remote_id is not None:
        if job.active:
            click.echo(f"Started {what} {job.remote_id} ({plain(job.status)}). Follow it with `warmline jobs`.")
        elif ended:
            summary = f": {plain(job.result_summary)}" if job.result_summary else "."
            click.echo(f"The {what} {job.remote_id} completed{summary}")
            show(job, found)
    if job is not None and not job.active and not ended:
        raise CommandError(f"The {what} {job.remote_id} ended {plain(job.status)}: {plain(job.error or 'no reason given')}", EXIT_ERROR)


# --- lookup ---------------------------------------------------------------------------------------------


def _lookup_json(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "total": answer.get("total", 0),
        "saved_count": answer.get("saved_count", 0),
        "quota_limited": answer.get("quota_limited", 0),
        "cached": bool(answer.get("cached")),
        "fetched_at": answer.get("fetched_at"),
        "companies": [{name: c.get(name) for name in LOOKUP_FIELDS} for c in answer.get("companies") or []],
    }


def _print_lookup(answer: dict[str, Any], semantic: bool) -> None:
    data = _lookup_json(answer)
    headers = ["NAME", "DOMAIN", "INDUSTRY", "COUNTRY", "REGION", "SIZE", "SAVED AS"]
    if semantic:
        headers.insert(0, "SCORE")
    rows = []
    for c in data["companies"]:
        row = [c["name"], c["domain"] or "", c["industry"] or "", c["country"] or "", c["region"] or "",
               c["size"] or "", c["saved_company_id"] or ""]
        if semantic:
            score = c["similarity_score"]
            row.insert(0, "" if score is None else f"{score:.2f}")
        rows.append(row)
    if rows:
        print_table(headers, rows)
    else:
        click.echo("No companies matched.")
    click.echo(f"total {data['total']} · saved {data['saved_count']} · not saved (plan limit) {data['quota_limited']}")


@click.command("lookup", epilog=EXIT_CODES_HELP)
@click.option("--query", "-q", default=None, help="Semantic search query (at least 3 characters).")
@click.option("--industry", "industries", multiple=True, help="Industry keyword; repeat for several.")
@click.option("--country", "countries", multiple=True, help="Country name; repeat for several.")
@click.option("--region", "regions", multiple=True, help="Region or state name; repeat for several.")
@click.option("--broaden", is_flag=True, help="Include less similar matches (semantic search only).")
@click.option("--save", is_flag=True, help="Save the companies found to your company list.")
@click.option("--limit", type=int, default=None, help="At most this many results (1-100).")
@click.option("--cached", is_flag=True, help="Show the answer of an earlier identical lookup; spends nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def lookup_command(
    query: str | None, industries: tuple[str, ...], countries: tuple[str, ...], regions: tuple[str, ...],
    broaden: bool, save: bool, limit: int | None, cached: bool, as_json: bool,
) -> None:
    """Look companies up instantly by keyword filters and/or a semantic query.

    Online only (costs 1 instant lookup). Offline, the answer of an earlier identical
    lookup is shown from the cache, marked as cached.
    """
    from warmline.api.errors import ApiError, InputError, OfflineError
    from warmline.prospecting import LOOKUP, cached_lookup, lookup_criteria, run_lookup

    if broaden and query is None:
        raise CommandError("--broaden applies to a semantic search: give --query too", EXIT_BAD_INPUT)
    try:
        criteria = lookup_criteria(query, industries, countries, regions, broaden, limit)
    except InputError as exc:
        raise CommandError(str(exc), EXIT_BAD_INPUT) from None
    config = open_config()
    with open_store(config) as store:
        answer = cached_lookup(store, criteria) if cached else None
        if cached and answer is None:
            raise CommandError("No earlier lookup with these criteria is cached.", EXIT_BAD_INPUT)
        if answer is None:
            client = make_client(config)
            _cost(LOOKUP, save=save)

            async def look() -> dict[str, Any]:
                async with client:
                    return await run_lookup(store, client, criteria, save)

            try:
                answer = asyncio.run(look())
            except OfflineError as exc:
                answer = cached_lookup(store, criteria)
                if answer is None:
                    raise CommandError(
                        f"Offline: instant lookup needs the service ({exc}). No earlier lookup with these criteria is cached.",
                        EXIT_OFFLINE,
                    ) from None
                note(f"Offline ({exc}); showing the cached answer from {answer['fetched_at']}.")
            except ApiError as exc:
                raise _api_failure(exc) from None
        elif not as_json:
            note(f"Cached answer from {answer['fetched_at']}.")
        if as_json:
            echo_json(_lookup_json(answer))
        else:
            _print_lookup(answer, semantic=criteria["query"] is not None)


# --- deep search -------------------------------------------------------------------------------------------


def _found_companies(job: Any) -> list[dict[str, Any]]:
    return [dict(c) for c in job.raw.get("companies") or [] if isinstance(c, dict)]


def _show_companies(job: Any, companies: list[dict[str, Any]]) -> None:
    if not companies:
        return
    print_table(
        ["ID", "NAME", "DOMAIN", "INDUSTRY", "COUNTRY", "AI TAG"],
        [[c.get("id"), c.get("name"), c.get("domain") or "", c.get("industry") or "", c.get("country") or "",
          c.get("ai_tag") or ""] for c in companies],
    )
    click.echo("Add them to outreach with `warmline outreach add ID... --as cold`.")


@click.command("deep-search", epilog=EXIT_CODES_HELP)
@click.argument("query")
@click.option("--max", "max_results", type=int, default=20, show_default=True, help="Target number of companies (1-100).")
@click.option("--wait", is_flag=True, help="Show progress until the search ends, then the companies found.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def deep_search_command(query: str, max_results: int, wait: bool, as_json: bool) -> None:
    """Start an AI deep search for companies (QUERY: 3-1000 characters); costs 1 deep search.

    Works offline: the search is queued and starts when the service is reachable. Found
    companies are saved automatically with an AI-generated tag.
    """
    from warmline import actions
    from warmline.prospecting import DEEP_SEARCH

    config = open_config()
    with open_store(config) as store:
        op_id = queue_action(lambda: actions.start_deep_search(store, query, max_results))
        _cost(DEEP_SEARCH)
        _say(as_json, f"Queued deep search for {plain(query)!r} (op {short_id(op_id)}).")
        job = _run_job(store, config, op_id, "deep search", wait, as_json)
        _job_outcome(store, op_id, job, "deep search", as_json, _found_companies, _show_companies)


# --- contacts -------------------------------------------------------------------------------------------------


def _found_contacts(store: Any) -> Callable[[Any], list[dict[str, Any]]]:
    def found(job: Any) -> list[dict[str, Any]]:
        return [{name: c.get(name) for name in FOUND_CONTACT_FIELDS} for c in store.found_contacts(job.key)]

    return found


def _show_contacts(job: Any, contacts: list[dict[str, Any]]) -> None:
    from warmline.prospecting import group_by_role

    if not contacts:
        click.echo("No contacts were found.")
        return
    for role, people in group_by_role(contacts):
        click.echo(f"\n{plain(role).capitalize()}s:")
        print_table(
            ["  ID", "NAME", "TITLE", "EMAIL", "LINK"],
            [[f"  {c.get('id')}", " ".join(plain(p) for p in (c.get("first_name"), c.get("last_name")) if p),
              c.get("title") or "", c.get("email") or "", c.get("social_url") or ""] for c in people],
        )
    click.echo(f"\nAdd the ones you want with `warmline contacts add {job.remote_id} CONTACT_ID...`.")


@click.group("contacts", epilog=EXIT_CODES_HELP)
def contacts_group() -> None:
    """Your contacts: find the people at a company and add them; list, show, create, edit, delete."""


@contacts_group.command("search", epilog=EXIT_CODES_HELP)
@click.argument("company_ref", metavar="COMPANY")
@click.option("--role", "roles", multiple=True, type=click.Choice(["decision-maker", "champion", "influencer"]),
              help="Only these roles; repeat for several (default: all three).")
@click.option("--wait", is_flag=True, help="Show progress until the search ends, then the people found.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_search(company_ref: str, roles: tuple[str, ...], wait: bool, as_json: bool) -> None:
    """Start a web search for a company's decision-makers, champions and influencers
    (costs 1 deep search). Works offline: queued until the service is reachable."""
    from warmline import actions
    from warmline.prospecting import CONTACT_SEARCH

    config = open_config()
    with open_store(config) as store:
        company = _company(store, company_ref)
        op_id = queue_action(lambda: actions.start_contact_search(store, company.id, list(roles) or None))
        _cost(CONTACT_SEARCH)
        _say(as_json, f"Queued contact search at {plain(company.label)} (op {short_id(op_id)}).")
        job = _run_job(store, config, op_id, "contact search", wait, as_json)
        _job_outcome(store, op_id, job, "contact search", as_json, _found_contacts(store), _show_contacts)


def _contact_search_job(store: Any, job_id: int) -> Any:
    from warmline.store.effects import JOB_CONTACT_SEARCH

    return store.find_job(JOB_CONTACT_SEARCH, job_id)


@contacts_group.command("found", epilog=EXIT_CODES_HELP)
@click.argument("job_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_found(job_id: int, as_json: bool) -> None:
    """The people a contact search (JOB_ID, as `warmline jobs` shows it) found, by role (from the cache)."""
    config = open_config()
    with open_store(config) as store:
        job = _contact_search_job(store, job_id)
        if job is None:
            raise CommandError(f"no contact search {job_id} in the cache (see `warmline jobs`)", EXIT_BAD_INPUT)
        if job.status.lower() != "completed":
            raise CommandError(
                f"contact search {job_id} is {plain(job.status)}; its people are listed once it has completed"
                " (`warmline sync` polls it)", EXIT_BAD_INPUT,
            )
        contacts = _found_contacts(store)(job)
        if as_json:
            echo_json(contacts)
        else:
            _show_contacts(job, contacts)


@contacts_group.command("add", epilog=EXIT_CODES_HELP)
@click.argument("job_id", type=int)
@click.argument("contact_ids", metavar="CONTACT_ID...", type=int, nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_add(job_id: int, contact_ids: tuple[int, ...], as_json: bool) -> None:
    """Add people found by a completed contact search to your contacts (uses contact capacity).

    Skipped people are explained: already a contact (duplicate) or plan capacity reached.
    """
    from warmline import actions
    from warmline.prospecting import ADD_CONTACTS, explain_skips

    config = open_config()
    with open_store(config) as store:
        job = _contact_search_job(store, job_id)
        if job is not None and job.status.lower() != "completed":
            raise CommandError(
                f"Job must be completed before adding contacts (contact search {job_id} is {plain(job.status)})",
                EXIT_BAD_INPUT,
            )
        op_id = queue_action(lambda: actions.add_found_contacts(store, job_id, list(contact_ids)))
        _cost(ADD_CONTACTS, len(set(contact_ids)))
        _say(as_json, f"Queued adding {len(set(contact_ids))} contact(s) from search {job_id} (op {short_id(op_id)}).")
        op = _settled(store, op_id, _send_now(store, config), as_json)
        result = (op.result or {}) if op is not None else None
        if as_json:
            echo_json({
                "op_id": op_id,
                "state": "done" if op is not None else "queued",
                "added": None if result is None else result.get("added", 0),
                "skipped": None if result is None else result.get("skipped", 0),
                "skipped_ids": None if result is None else result.get("skipped_ids", []),
            })
            return
        if result is not None:
            click.echo(f"Added {result.get('added', 0)}; skipped {result.get('skipped', 0)}.")
            for line in explain_skips(result.get("skipped_ids") or []):
                click.echo(f"  skipped {plain(line)}")


# --- research ------------------------------------------------------------------------------------------------------


async def _refresh_templates(store: Any, client: Any, config: Any) -> Any:
    async with client:
        engine = make_engine(store, config, client)
        await engine.refresher.templates()


def _fetch_templates(store: Any, config: Any) -> str | None:
    """Refresh the cached template list; None when done, else why it could not be."""
    from warmline.api.errors import ApiError

    if not config.api_key:
        return "no API key is configured"
    try:
        asyncio.run(_refresh_templates(store, make_client(config, QUICK_TIMEOUT), config))
    except (ApiError, CommandError) as exc:
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
            click.echo("No research templates cached. Run this again when online.")
            return
        for template in templates:
            _print_template(template)


def _print_template(template: Any) -> None:
    click.echo(f"{plain(template.name)}  ({template.id})")
    if template.description:
        click.echo(f"  {plain(template.description)}")
    for f in template.fields:
        click.echo(f"    {plain(f.get('key')):<22} {plain(f.get('type') or ''):<8} {plain(f.get('name') or '')}")


@research_group.command("show", epilog=EXIT_CODES_HELP)
@click.argument("template_ref", metavar="TEMPLATE")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def research_show(template_ref: str, as_json: bool) -> None:
    """One research template (its id, or its name as cached), fetched from the service."""
    from warmline.sync.requests import dump

    config = open_config()
    with open_store(config) as store:
        known = store.find_template(template_ref)
        template_id = known.id if known is not None else template_ref
        fresh = _online(config, lambda client: client.get_research_template(template_id))
        store.upsert_templates([dump(fresh)], full_list=False)
        template = store.find_template(fresh.id)
        if as_json:
            echo_json({name: getattr(template, name) for name in TEMPLATE_FIELDS})
        else:
            _print_template(template)


def _run_results(store: Any) -> Callable[[Any], list[dict[str, Any]]]:
    """Per company of a finished run: the values it extracted, as the cache now holds them."""

    def results(job: Any) -> list[dict[str, Any]]:
        found = []
        for result in job.raw.get("results") or []:
            if not isinstance(result, dict) or result.get("company_id") is None:
                continue
            company = store.get_company(result["company_id"])
            keys = list((result.get("fields") or {}).keys())
            current = company.custom_fields if company is not None else result.get("fields") or {}
            found.append({
                "company_id": result["company_id"],
                "company_name": company.name if company is not None else None,
                "fields": {key: current.get(key) for key in keys},
            })
        return found

    return results


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "; ".join(_shown(v) for v in value)
    return plain(value)


def _print_fields(fields: dict[str, Any]) -> None:
    """Custom fields (research results), one `key  value` line each."""
    for key, value in fields.items():
        click.echo(f"  {plain(key):<22} {_shown(value)}")


def _show_run(job: Any, results: list[dict[str, Any]]) -> None:
    for result in results:
        click.echo(f"\n{plain(result['company_name'] or 'company')} ({result['company_id']}):")
        _print_fields(result["fields"])


@research_group.command("run", epilog=EXIT_CODES_HELP)
@click.argument("template_ref", metavar="TEMPLATE")
@click.argument("company_refs", metavar="COMPANY...", nargs=-1, required=True)
@click.option("--wait", is_flag=True, help="Show progress until the run ends, then the values extracted.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def research_run(template_ref: str, company_refs: tuple[str, ...], wait: bool, as_json: bool) -> None:
    """Run a research template (its id or name) over 1-100 companies; costs 1 company
    enrichment per company. Results land in each company's custom fields."""
    from warmline import actions
    from warmline.prospecting import RESEARCH_RUN

    config = open_config()
    with open_store(config) as store:
        companies = _companies(store, company_refs)
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
        _cost(RESEARCH_RUN, len(ids))
        _say(as_json, f"Queued research run {plain(name)!r} over {len(ids)} company(ies) (op {short_id(op_id)}).")
        job = _run_job(store, config, op_id, "research run", wait, as_json)
        _job_outcome(store, op_id, job, "research run", as_json, _run_results(store), _show_run)


# --- companies and contacts -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Records:
    """What differs between companies and contacts, so that one set of commands serves both.

    The client, store and refresher methods follow one naming scheme (`create_company`,
    `company_page`, `upsert_companies`, `refresher.companies`...), found from the nouns.
    """

    noun: str
    plural: str
    fields: tuple[str, ...]
    headers: tuple[str, ...]
    cells: Callable[[Any], list[Any]]
    resolve: Callable[[Any, str], int]

    def of(self, target: Any, pattern: str) -> Any:
        return getattr(target, pattern.format(noun=self.noun, plural=self.plural))


def _contact_id(store: Any, ref: str) -> int:
    if not ref.strip().isdigit() or int(ref) < 1:
        raise CommandError(f"give a contact id (a positive whole number), not {ref!r}", EXIT_BAD_INPUT)
    return int(ref)


COMPANIES = Records(
    "company", "companies", COMPANY_FIELDS,
    ("ID", "NAME", "DOMAIN", "INDUSTRY", "COUNTRY", "SIZE", "TAGS", "AI TAG"),
    lambda r: [r.id, r.name, r.domain or "", r.industry or "", r.country or "", r.size or "", ", ".join(r.tags), r.ai_tag or ""],
    lambda store, ref: _company(store, ref).id,
)
CONTACTS = Records(
    "contact", "contacts", CONTACT_FIELDS,
    ("ID", "NAME", "TITLE", "ROLE", "EMAIL", "COMPANY", "TAGS"),
    lambda r: [r.id, r.name, r.title or "", r.role or "", r.email or "", r.company_id or "", ", ".join(r.tags)],
    _contact_id,
)


def record_json(records: Records, row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in records.fields}


def _api_failure(exc: Exception) -> CommandError:
    """A failed request as the command's error, with its documented exit code."""
    from warmline.api.errors import (
        AuthError,
        InputError,
        NotFoundError,
        OfflineError,
        ValidationFailed,
    )

    if isinstance(exc, OfflineError):
        return CommandError(f"Offline: this needs the service ({exc})", EXIT_OFFLINE)
    if isinstance(exc, AuthError):
        return CommandError(f"The service refused the API key: {exc}", EXIT_AUTH)
    if isinstance(exc, InputError | ValidationFailed | NotFoundError):
        return CommandError(plain(exc), EXIT_BAD_INPUT)
    return CommandError(plain(exc), EXIT_ERROR)


def _online(config: Any, work: Callable[[Any], Any]) -> Any:
    """Run `await work(client)` against the service now (not queued: it answers at once)."""
    from warmline.api.errors import ApiError

    client = make_client(config)

    async def go() -> Any:
        async with client:
            return await work(client)

    try:
        return asyncio.run(go())
    except ApiError as exc:
        raise _api_failure(exc) from None


def _record_rows(records: Records, store: Any, search: str, limit: int | None, **where: Any) -> Iterator[Any]:
    page = records.of(store, "{noun}_page")
    offset = 0
    while limit is None or offset < limit:
        size = PAGE if limit is None else min(PAGE, limit - offset)
        rows = page(search, offset=offset, limit=size, **where)
        yield from rows
        if len(rows) < size:
            return
        offset += size


def _list_records(records: Records, search: str, limit: int | None, refresh: bool, as_json: bool,
                  where: Callable[[Any], dict[str, Any]] = lambda store: {}) -> None:
    """The cached list by name (after fetching it all with `refresh`); JSON item by item,
    since the list may hold 100,000 records."""
    from warmline.api.errors import ApiError

    if limit is not None and limit < 1:
        raise CommandError("--limit must be at least 1", EXIT_BAD_INPUT)
    config = open_config()
    with open_store(config) as store:
        filters = where(store)
        if refresh:
            try:
                count = _online(config, lambda client: records.of(make_engine(store, config, client).refresher, "{plural}")())
                note(f"Fetched {count} {records.plural}.")
            except (ApiError, CommandError) as exc:
                note(f"Showing the cached {records.plural} ({exc})")
        rows = _record_rows(records, store, search, limit, **filters)
        if as_json:
            count = 0
            click.echo("[", nl=False)
            for row in rows:
                click.echo(("," if count else "") + "\n  " + json.dumps(record_json(records, row), ensure_ascii=False), nl=False)
                count += 1
            click.echo("\n]" if count else "]")
            return
        listed = [records.cells(r) for r in rows]
        if not listed:
            note(f"No {records.plural} in the cache" + (f" match {search!r}." if search else f". Try `warmline {records.plural} --refresh`."))
            return
        print_table(records.headers, listed)


def _assignments(pairs: Sequence[str], option: str, parse: Callable[[str, str], Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"{option} takes FIELD=VALUE (got {pair!r})", EXIT_BAD_INPUT)
        values[key.strip()] = parse(key.strip(), raw)
    return values


def _field_value(key: str, raw: str) -> Any:
    """A record field from the command line: empty clears it; ids are numbers."""
    if raw == "":
        return None
    if key == "company_id":
        if not raw.strip().isdigit():
            raise CommandError(f"company_id must be a company id (got {raw!r})", EXIT_BAD_INPUT)
        return int(raw)
    return raw


def _custom_value(key: str, raw: str) -> Any:
    """A custom field value: JSON when it reads as JSON (42, true, ["a","b"]), else text."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _record_body(sets: Sequence[str], tags: Sequence[str], custom: Sequence[str]) -> dict[str, Any]:
    body = _assignments(sets, "--set", _field_value)
    for reserved in ("tags", "custom_fields"):
        if reserved in body:
            raise CommandError(f"use --{'tag' if reserved == 'tags' else 'custom'} for {reserved}", EXIT_BAD_INPUT)
    if tags:
        body["tags"] = [t.strip() for t in tags if t.strip()]
    if custom:
        body["custom_fields"] = _assignments(custom, "--custom", _custom_value)
    return body


def _show_record(records: Records, row: Any) -> None:
    title = row.name or f"{records.noun} {row.id}"
    click.echo(f"{plain(title)} ({records.noun} {row.id})")
    for name in records.fields:
        value = getattr(row, name)
        if name in ("id", "name", "custom_fields") or value in (None, "", []):
            continue
        click.echo(f"  {name + ':':<13} {_shown(value) if not isinstance(value, list) else plain(', '.join(value))}")
    if row.custom_fields:
        click.echo("Custom fields:")
        _print_fields(row.custom_fields)


def _record_commands(group: click.Group, records: Records) -> None:
    """show, fields, tags, create, edit, delete: the same for companies and contacts."""
    noun, plural = records.noun, records.plural
    ref_help = "COMPANY" if noun == "company" else "CONTACT_ID"
    edit_options = [
        click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
                     help=f"A {noun} field ({', '.join(f for f in records.fields if f not in ('id', 'tags', 'custom_fields', 'source', 'ai_tag'))}); repeat."),
        click.option("--tag", "tags", multiple=True, help="A tag; repeat. Replaces the tag list."),
        click.option("--custom", "custom", multiple=True, metavar="KEY=VALUE",
                     help="A custom field (VALUE read as JSON when it is: 42, true, [\"a\"]); repeat."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md)."),
    ]

    def with_edit_options(fn: Callable[..., None]) -> Callable[..., None]:
        for option in reversed(edit_options):
            fn = option(fn)
        return fn

    def saved(store: Any, record: dict[str, Any], as_json: bool, verb: str) -> None:
        row = records.of(store, "get_{noun}")(record["id"])
        if as_json:
            echo_json(record_json(records, row))
        else:
            click.echo(f"{verb} {noun} {row.id}.")
            _show_record(records, row)

    @group.command("show", epilog=EXIT_CODES_HELP, help=f"One cached {noun} with its tags and custom fields.")
    @click.argument("ref", metavar=ref_help)
    @click.option("--refresh", is_flag=True, help=f"Fetch the {noun} from the service first (the cached one if offline).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
    def show(ref: str, refresh: bool, as_json: bool) -> None:
        from warmline.sync.requests import dump

        config = open_config()
        with open_store(config) as store:
            record_id = records.resolve(store, ref)
            if refresh:
                try:
                    fresh = _online(config, lambda client: records.of(client, "get_{noun}")(record_id))
                    records.of(store, "upsert_{plural}")([dump(fresh)])
                except CommandError as exc:
                    if exc.exit_code not in (EXIT_OFFLINE, EXIT_AUTH):
                        raise
                    note(f"Showing the cached {noun} ({exc.message})")
            row = records.of(store, "get_{noun}")(record_id)
            if row is None:
                raise CommandError(f"{noun} {record_id} is not in the cache (try `warmline {plural} --refresh`)", EXIT_BAD_INPUT)
            if as_json:
                echo_json(record_json(records, row))
            else:
                _show_record(records, row)

    @group.command("fields", epilog=EXIT_CODES_HELP, help=f"The custom field schema of {plural} (from the service).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON: [{key, name, type}].")
    def fields(as_json: bool) -> None:
        from warmline.sync.requests import dump

        config = open_config()
        with open_store(config) as store:
            schema = [dump(f) for f in _online(config, lambda client: records.of(client, "{noun}_fields")())]
            store.upsert_field_schemas(plural, schema)
            if as_json:
                echo_json([{k: f.get(k) for k in ("key", "name", "type")} for f in schema])
            else:
                print_table(["KEY", "TYPE", "NAME"], [[f.get("key"), f.get("type") or "", f.get("name") or ""] for f in schema])

    @group.command("tags", epilog=EXIT_CODES_HELP, help=f"The tags of one {noun} (from the service).")
    @click.argument("ref", metavar=ref_help)
    @click.option("--json", "as_json", is_flag=True, help="Print JSON: a list of tags.")
    def tags(ref: str, as_json: bool) -> None:
        config = open_config()
        with open_store(config) as store:
            record_id = records.resolve(store, ref)
            found = _online(config, lambda client: records.of(client, "{noun}_tags")(record_id))
            store.set_tags(plural, record_id, found)
            if as_json:
                echo_json(found)
            else:
                click.echo("\n".join(plain(t) for t in found) if found else "No tags.")

    @group.command("create", epilog=EXIT_CODES_HELP, help=f"Create a {noun} on the service (online only).")
    @with_edit_options
    def create(sets: tuple[str, ...], tags: tuple[str, ...], custom: tuple[str, ...], as_json: bool) -> None:
        from warmline.records import save_record

        body = _record_body(sets, tags, custom)
        config = open_config()
        with open_store(config) as store:
            record = _online(config, lambda client: save_record(store, client, plural, body))
            saved(store, record, as_json, "Created")

    @group.command("edit", epilog=EXIT_CODES_HELP,
                   help=f"Change some fields of a {noun} on the service (online only); custom fields are merged.")
    @click.argument("ref", metavar=ref_help)
    @with_edit_options
    def edit(ref: str, sets: tuple[str, ...], tags: tuple[str, ...], custom: tuple[str, ...], as_json: bool) -> None:
        from warmline.records import save_record

        body = _record_body(sets, tags, custom)
        config = open_config()
        with open_store(config) as store:
            record_id = records.resolve(store, ref)
            record = _online(config, lambda client: save_record(store, client, plural, body, record_id))
            saved(store, record, as_json, "Updated")

    @group.command("delete", epilog=EXIT_CODES_HELP, help=f"Delete a {noun} on the service (online only); asks first unless --yes.")
    @click.argument("ref", metavar=ref_help)
    @click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
    def delete(ref: str, yes: bool) -> None:
        from warmline.records import delete_record

        config = open_config()
        with open_store(config) as store:
            record_id = records.resolve(store, ref)
            row = records.of(store, "get_{noun}")(record_id)
            label = f"{plain(row.name)} ({record_id})" if row is not None and row.name else f"{noun} {record_id}"
            if not yes and not click.confirm(f"Delete {label}? This cannot be undone.", err=True):
                raise CommandError("Nothing deleted.", EXIT_ERROR)
            _online(config, lambda client: delete_record(store, client, plural, record_id))
            click.echo(f"Deleted {label}.")


@click.group("companies", invoke_without_command=True, epilog=EXIT_CODES_HELP)
@click.option("--search", "-s", default="", help="Only companies whose name or domain contains this.")
@click.option("--limit", type=int, default=None, help="At most this many companies.")
@click.option("--refresh", is_flag=True, help="Fetch your whole company list from the service first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
@click.pass_context
def companies_group(ctx: click.Context, search: str, limit: int | None, refresh: bool, as_json: bool) -> None:
    """List your saved companies from the cache, by name; show, create, edit, delete one."""
    if ctx.invoked_subcommand is None:
        _list_records(COMPANIES, search, limit, refresh, as_json)


_record_commands(companies_group, COMPANIES)


@contacts_group.command("list", epilog=EXIT_CODES_HELP)
@click.option("--search", "-s", default="", help="Only contacts whose name or email contains this.")
@click.option("--company", "company_ref", default=None, metavar="COMPANY", help="Only the contacts of this company.")
@click.option("--limit", type=int, default=None, help="At most this many contacts.")
@click.option("--refresh", is_flag=True, help="Fetch your whole contact list from the service first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_list(search: str, company_ref: str | None, limit: int | None, refresh: bool, as_json: bool) -> None:
    """List your contacts from the cache, by name."""
    _list_records(CONTACTS, search, limit, refresh, as_json,
                  lambda store: {} if company_ref is None else {"company_id": _company(store, company_ref).id})


_record_commands(contacts_group, CONTACTS)


def _research_findings(job: Any) -> list[dict[str, Any]]:
    findings = job.raw.get("results")
    return [dict(findings)] if isinstance(findings, dict) else []


def _show_findings(job: Any, findings: list[dict[str, Any]]) -> None:
    for found in findings:
        facts = [plain(fact) for fact in found.get("key_facts") or []]
        sources = [s for s in found.get("sources") or [] if isinstance(s, dict)]
        if facts:
            click.echo("Key facts:")
            for fact in facts:
                click.echo(f"  - {fact}")
        if sources:
            click.echo("Sources:")
            for source in sources:
                click.echo(f"  {plain(source.get('title') or '')}  {plain(source.get('url') or '')}".rstrip())


@companies_group.command("research", epilog=EXIT_CODES_HELP)
@click.argument("company_ref", metavar="COMPANY")
@click.option("--focus", default=None, help="What to look into (e.g. \"expansion plans\").")
@click.option("--wait", is_flag=True, help="Show progress until the research ends, then its findings.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def companies_research(company_ref: str, focus: str | None, wait: bool, as_json: bool) -> None:
    """Start AI deep research of one company (costs 1 deep search): a summary, key facts
    and sources. Works offline: queued until the service is reachable."""
    from warmline import actions
    from warmline.prospecting import COMPANY_RESEARCH

    config = open_config()
    with open_store(config) as store:
        company = _company(store, company_ref)
        op_id = queue_action(lambda: actions.start_company_research(store, company.id, focus))
        _cost(COMPANY_RESEARCH)
        _say(as_json, f"Queued research of {plain(company.label)} (op {short_id(op_id)}).")
        job = _run_job(store, config, op_id, "company research", wait, as_json)
        _job_outcome(store, op_id, job, "company research", as_json, _research_findings, _show_findings)


# --- outreach ----------------------------------------------------------------------------------------------------------------


@click.group("outreach", epilog=EXIT_CODES_HELP)
def outreach_group() -> None:
    """Leads in outreach: add saved companies, remove leads, and work a lead (status, target,
    scans, sources, recommendations, key contacts, deal, competitors)."""


@outreach_group.command("add", epilog=EXIT_CODES_HELP)
@click.argument("company_refs", metavar="COMPANY...", nargs=-1, required=True)
@click.option("--as", "lead_status", type=click.Choice(["cold", "warm"]), required=True,
              help="cold: social warming; warm: active nurturing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def outreach_add(company_refs: tuple[str, ...], lead_status: str, as_json: bool) -> None:
    """Add saved companies to outreach as cold or warm leads; works offline (queued)."""
    from warmline import actions

    config = open_config()
    with open_store(config) as store:
        companies = _companies(store, company_refs)
        op_id = queue_action(lambda: actions.add_to_outreach(store, [c.id for c in companies], lead_status))
        _say(as_json, f"Queued adding {len(companies)} company(ies) as {lead_status} leads (op {short_id(op_id)}).")
        op = _settled(store, op_id, _send_now(store, config), as_json)
        result = (op.result or {}) if op is not None else None
        leads = [] if result is None else [lead for lead in result.get("leads") or [] if isinstance(lead, dict)]
        skipped = [] if result is None else [s for s in result.get("skipped") or [] if isinstance(s, dict)]
        if as_json:
            echo_json({
                "op_id": op_id,
                "state": "done" if op is not None else "queued",
                "added": None if result is None else result.get("added", len(leads)),
                "leads": [{"id": lead.get("id"), "company_id": lead.get("company_id"),
                           "company_name": lead.get("company_name"), "lead_status": lead.get("lead_status")}
                          for lead in leads],
                "skipped": skipped,
            })
            return
        if result is not None:
            click.echo(f"Added {result.get('added', len(leads))} lead(s).")
            for lead in leads:
                click.echo(f"  lead {lead.get('id')}: {plain(lead.get('company_name'))} ({plain(lead.get('lead_status'))})")
            for item in skipped:
                click.echo(f"  skipped company {item.get('company_id')}: {plain(item.get('reason'))}")


@outreach_group.command("remove", epilog=EXIT_CODES_HELP)
@click.argument("lead_refs", metavar="LEAD...", nargs=-1, required=True)
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
def outreach_remove(lead_refs: tuple[str, ...], yes: bool) -> None:
    """Remove leads from outreach (frees their signal slots); asks first unless --yes."""
    from warmline import actions

    config = open_config()
    with open_store(config) as store:
        leads = list({lead.id: lead for lead in (resolve_lead(store, ref) for ref in lead_refs)}.values())
        names = ", ".join(f"{plain(lead.company_name)} ({lead.id})" for lead in leads)
        if not yes and not click.confirm(f"Remove {len(leads)} lead(s) from outreach: {names}?", err=True):
            raise CommandError("Nothing removed.", EXIT_ERROR)
        op_ids = queue_action(lambda: actions.remove_leads(store, [lead.id for lead in leads]))
        click.echo(f"Queued removing {len(leads)} lead(s).")
        unsent = _send_now(store, config)
        done = [op_id for op_id in op_ids if _settled(store, op_id, unsent) is not None]
        if done:
            click.echo(f"Removed {len(done)} lead(s).")


COMMANDS = [
    lookup_command,
    deep_search_command,
    contacts_group,
    research_group,
    companies_group,
    outreach_group,
]
