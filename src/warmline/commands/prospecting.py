"""Headless prospecting commands: lookup, deep search, contact search, research runs,
company research, and moving companies into (and leads out of) outreach.

Job starts, adding found contacts and outreach changes work like the cockpit: the action
is queued in the cache first (so it is never lost, and works offline: "queued; will start
when online"), then sent at once when the service is reachable. Instant lookup is a
direct request, since its answer is the point. Each command that spends plan quota says
what it costs (on stderr) before anything is sent. `--wait` follows a started job until
it ends (`warmline.commands.jobs_wait`).

The company and contact record commands live in `warmline.commands.records`; the
prospecting commands that start from a company (`contacts search`, `found`, `add`;
`companies research`) are exported here for its `contacts` and `companies` groups
(`warmline.cli` joins them), so that each group stays one command on the command line.
The outreach lead operations of `warmline.commands.outreach` join the `outreach` group
defined here the same way.

COMPANY is a company id or an unambiguous start of a cached company's name; LEAD a lead
id or an unambiguous start of its company's name.

Exit codes (as for the other headless commands, see docs/cli.md):
  0  done (a start or an add that is queued counts as done, unless --wait was asked)
  1  any other error (the service refused the action: plan limit, unknown job...; a job failed)
  2  bad input (limits of the spec, unknown or ambiguous COMPANY/LEAD/template)
  3  the service refused the API key, or none is configured
  4  offline: the service could not be reached (lookup with nothing cached; research show; --wait)

`--json` output is stable; its fields are listed in docs/cli.md.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import echo_acted, no_prompt, say
from warmline.commands.common import (
    ID,
    QUICK_TIMEOUT,
    CommandError,
    NumberType,
    deliver,
    echo_json,
    make_client,
    make_engine,
    note,
    open_config,
    open_store,
    pad,
    plain,
    print_table,
    queue_action,
    resolve_lead,
    short_id,
)
from warmline.commands.direct import api_failure, direct_request
from warmline.commands.jobs_wait import job_outcome, run_job
from warmline.commands.records import print_fields, resolve_company
from warmline.config import KEY_FIX, key_fix
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR, EXIT_OFFLINE
from warmline.ops.kinds import JobKind
from warmline.store.company_page import findings_of
from warmline.store.people_found import found_people
from warmline.store.research_results import results_of

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.prospecting import CompanyRef
    from warmline.store import Op, Store
    from warmline.store.rows import Job, ResearchTemplate

LOOKUP_FIELDS = (
    "name", "domain", "industry", "country", "region", "size", "description", "similarity_score",
    "saved_company_id",
)
TEMPLATE_FIELDS = ("id", "name", "description", "fields")


# --- shared pieces ---------------------------------------------------------------------------------


def _companies(store: Store, refs: Sequence[str]) -> list[CompanyRef]:
    return list({ref.id: ref for ref in (resolve_company(store, r) for r in refs)}.values())


def _cost(operation: str, count: int = 1, save: bool = False) -> None:
    from warmline.prospecting import cost_notice  # deferred: command line

    note(cost_notice(operation, count, save=save))


def _send_now(store: Store, config: Config) -> str | None:
    """Deliver what is due now, quickly; None when the service answered, else why not."""
    if not config.api_key:
        return f"no API key is configured, so it waits for one: {KEY_FIX}"
    try:
        report = asyncio.run(deliver(store, make_client(config, QUICK_TIMEOUT), config))
    except CommandError as exc:
        return f"not sent now: {exc.message}"
    if report.offline:
        return "offline now, it will be sent by the next sync"
    if report.auth_error:
        return f"the service refused the API key ({report.auth_error}): {key_fix(config.key_source)}"
    return None


def _settled(
    store: Store, op_id: str, unsent: str | None, as_json: bool = False, batch: Sequence[str] = ()
) -> Op | None:
    """The op once delivered; None (after saying so) when it is still queued.

    A refusal by the service fails the command with its message and how to fix it; with
    `as_json`, stdout first gets the ops of the command (`batch`, else this one), the
    refused one among them, for a script to retry or discard.
    """
    op = store.get_op(op_id)
    if op is not None and op.state == "done":
        return op
    if op is not None and op.state == "failed":
        if as_json:
            echo_acted(store, batch or [op_id])
        raise CommandError(
            f"The service refused it: {plain(op.last_error)}\n"
            f"Fix it with `warmline outbox retry {short_id(op_id)}` or `warmline outbox discard {short_id(op_id)}`.",
            EXIT_ERROR,
        )
    say(as_json, f"Queued; {unsent or 'it will be sent by the next sync'}.")
    return None


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
        note("No companies matched.")
    # The figures are about the table, not rows of it: on stderr, so stdout is the table alone.
    note(f"total {data['total']} · saved {data['saved_count']} · not saved (plan limit) {data['quota_limited']}")


@click.command("lookup", epilog=EXIT_CODES_HELP)
@click.option("--query", "-q", default=None, help="Semantic search query (at least 3 characters).")
@click.option("--industry", "industries", multiple=True, help="Industry keyword; repeat for several.")
@click.option("--country", "countries", multiple=True, help="Country name; repeat for several.")
@click.option("--region", "regions", multiple=True, help="Region or state name; repeat for several.")
@click.option("--broaden", is_flag=True, help="Include less similar matches (semantic search only).")
@click.option("--save", is_flag=True, help="Save the companies found to your company list.")
@click.option("--save-top", type=NumberType(), default=None, metavar="N",
              help="Save only the first N results (1 saved-company slot each, no second lookup); works with --cached.")
@click.option("--limit", type=NumberType(), default=None, help="At most this many results (1-100).")
@click.option("--cached", is_flag=True, help="Show the answer of an earlier identical lookup; spends nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def lookup_command(
    query: str | None, industries: tuple[str, ...], countries: tuple[str, ...], regions: tuple[str, ...],
    broaden: bool, save: bool, save_top: int | None, limit: int | None, cached: bool, as_json: bool,
) -> None:
    """Look companies up instantly by keyword filters and/or a semantic query.

    Online only (costs 1 instant lookup). Offline, the answer of an earlier identical
    lookup is shown from the cache, marked as cached. `--save-top N` saves only the first
    N results, one company each (the service's own `save` saves all of them).
    """
    from warmline.api.errors import ApiError, InputError, OfflineError  # deferred: command line
    from warmline.prospecting import (  # deferred: command line
        LOOKUP,
        cached_lookup,
        lookup_criteria,
        run_lookup,
    )

    if broaden and query is None:
        raise CommandError("--broaden applies to a semantic search: give --query too", EXIT_BAD_INPUT)
    if save_top is not None and (save or save_top < 1):
        raise CommandError("--save-top takes a number of 1 or more, and not together with --save", EXIT_BAD_INPUT)
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
            if save_top is not None:
                note(f"Then the first {save_top} results not saved yet are saved: one saved-company slot each.")

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
                raise api_failure(exc, config.key_source) from None
        elif not as_json:
            note(f"Cached answer from {answer['fetched_at']}.")
        stopped = None
        if save_top is not None:
            answer, stopped = _save_top(store, config, criteria, answer, save_top)
        if as_json:
            echo_json(_lookup_json(answer))
        else:
            _print_lookup(answer, semantic=criteria["query"] is not None)
        if stopped is not None:
            raise CommandError(stopped, EXIT_ERROR)


def _save_top(
    store: Store, config: Config, criteria: dict[str, Any], answer: dict[str, Any], count: int
) -> tuple[dict[str, Any], str | None]:
    """Save the first `count` results not saved yet (cost said first); the answer with their
    company ids, and why some were not saved (None when all were)."""
    from warmline.prospecting import (  # deferred: command line
        companies_word,
        save_notice,
        save_results,
        unsaved,
    )

    indexes = unsaved(answer, range(count))
    if not indexes:
        note(f"The first {count} results are saved already; nothing spent.")
        return answer, None
    note(save_notice(len(indexes), store.company_count()))
    client = make_client(config)

    async def keep() -> Any:
        async with client:
            return await save_results(store, client, criteria, answer, indexes)

    outcome = asyncio.run(keep())
    if outcome.stopped is not None:
        return outcome.answer, f"Saved {len(outcome.saved)} of {len(indexes)}; the rest were not saved: {outcome.stopped}"
    note(f"Saved {companies_word(len(outcome.saved))} to your company list.")
    return outcome.answer, None


# --- deep search -------------------------------------------------------------------------------------------


def _found_companies(job: Job) -> list[dict[str, Any]]:
    return [dict(c) for c in job.raw.get("companies") or [] if isinstance(c, dict)]


def _show_companies(job: Job, companies: list[dict[str, Any]]) -> None:
    if not companies:
        return
    print_table(
        ["ID", "NAME", "DOMAIN", "INDUSTRY", "COUNTRY", "AI TAG"],
        [[c.get("id"), c.get("name"), c.get("domain") or "", c.get("industry") or "", c.get("country") or "",
          c.get("ai_tag") or ""] for c in companies],
    )
    note("Add them to outreach with `warmline outreach add ID... --as cold`.")


@click.command("deep-search", epilog=EXIT_CODES_HELP)
@click.argument("query")
@click.option("--max", "max_results", type=NumberType(), default=20, show_default=True, help="Target number of companies (1-100).")
@click.option("--wait", is_flag=True, help="Show progress until the search ends, then the companies found.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def deep_search_command(query: str, max_results: int, wait: bool, as_json: bool) -> None:
    """Start an AI deep search for companies (QUERY: 3-1000 characters); costs 1 deep search.

    Works offline: the search is queued and starts when the service is reachable. Found
    companies are saved automatically with an AI-generated tag.
    """
    from warmline import actions  # deferred: command line
    from warmline.prospecting import DEEP_SEARCH  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        op_id = queue_action(lambda: actions.start_deep_search(store, query, max_results))
        _cost(DEEP_SEARCH)
        say(as_json, f"Queued deep search for {plain(query)!r} (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "deep search", wait, as_json)
        job_outcome(store, op_id, job, "deep search", as_json, _found_companies, _show_companies)


# --- contacts -------------------------------------------------------------------------------------------------


def _found_contacts(store: Store) -> Callable[[Job], list[dict[str, Any]]]:
    def found(job: Job) -> list[dict[str, Any]]:
        return [dict(person.as_json()) for person in found_people(store, job.key)]

    return found


def _show_contacts(job: Job, contacts: list[dict[str, Any]]) -> None:
    from warmline.prospecting import group_by_role  # deferred: command line

    if not contacts:
        note("No contacts were found.")
        return
    for role, people in group_by_role(contacts):
        click.echo(f"\n{plain(role).capitalize()}s:")
        print_table(
            ["  ID", "NAME", "TITLE", "EMAIL", "LINK"],
            [[f"  {c.get('id')}", " ".join(plain(p) for p in (c.get("first_name"), c.get("last_name")) if p),
              c.get("title") or "", c.get("email") or "", c.get("social_url") or ""] for c in people],
        )
    note(f"\nAdd the ones you want with `warmline contacts add {job.remote_id} CONTACT_ID...`.")


@click.command("search", epilog=EXIT_CODES_HELP)
@click.argument("company_ref", metavar="COMPANY")
@click.option("--role", "roles", multiple=True, type=click.Choice(["decision-maker", "champion", "influencer"]),
              help="Only these roles; repeat for several (default: all three).")
@click.option("--wait", is_flag=True, help="Show progress until the search ends, then the people found.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_search(company_ref: str, roles: tuple[str, ...], wait: bool, as_json: bool) -> None:
    """Start a web search for a company's decision-makers, champions and influencers
    (costs 1 deep search). Works offline: queued until the service is reachable."""
    from warmline import actions  # deferred: command line
    from warmline.prospecting import CONTACT_SEARCH  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        company = resolve_company(store, company_ref)
        op_id = queue_action(lambda: actions.start_contact_search(store, company.id, list(roles) or None))
        _cost(CONTACT_SEARCH)
        say(as_json, f"Queued contact search at {plain(company.label)} (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "contact search", wait, as_json)
        job_outcome(store, op_id, job, "contact search", as_json, _found_contacts(store), _show_contacts)


def _contact_search_job(store: Store, job_id: int) -> Job | None:
    return store.find_job(JobKind.CONTACT_SEARCH, job_id)


@click.command("found", epilog=EXIT_CODES_HELP)
@click.argument("job_id", type=ID)
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


@click.command("add", epilog=EXIT_CODES_HELP)
@click.argument("job_id", type=ID)
@click.argument("contact_ids", metavar="CONTACT_ID...", type=ID, nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def contacts_add(job_id: int, contact_ids: tuple[int, ...], as_json: bool) -> None:
    """Add people found by a completed contact search to your contacts (uses contact capacity).

    Skipped people are explained: already a contact (duplicate) or plan capacity reached.
    """
    from warmline import actions  # deferred: command line
    from warmline.prospecting import ADD_CONTACTS, explain_skips  # deferred: command line

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
        say(as_json, f"Queued adding {len(set(contact_ids))} contact(s) from search {job_id} (op {short_id(op_id)}).")
        op = _settled(store, op_id, _send_now(store, config), as_json)
        result = (op.result or {}) if op is not None else None
        if as_json:
            echo_acted(
                store, [op_id],
                added=None if result is None else result.get("added", 0),
                skipped=None if result is None else result.get("skipped", 0),
                skipped_ids=None if result is None else result.get("skipped_ids", []),
            )
            return
        if result is not None:
            click.echo(f"Added {result.get('added', 0)}; skipped {result.get('skipped', 0)}.")
            for line in explain_skips(result.get("skipped_ids") or []):
                click.echo(f"  skipped {plain(line)}")


# --- research ------------------------------------------------------------------------------------------------------


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
        fresh = direct_request(config, lambda client: client.get_research_template(template_id))
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
        say(as_json, f"Queued research run {plain(name)!r} over {len(ids)} company(ies) (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "research run", wait, as_json)
        job_outcome(store, op_id, job, "research run", as_json, _run_results(store), _show_run)


# --- company research ------------------------------------------------------------------------------


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


@click.command("research", epilog=EXIT_CODES_HELP)
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
        _cost(COMPANY_RESEARCH)
        say(as_json, f"Queued research of {plain(company.label)} (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "company research", wait, as_json)
        job_outcome(store, op_id, job, "company research", as_json, _research_findings, _show_findings)


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
    from warmline import actions  # deferred: command line

    config = open_config()
    with open_store(config) as store:
        companies = _companies(store, company_refs)
        op_id = queue_action(lambda: actions.add_to_outreach(store, [c.id for c in companies], lead_status))
        say(as_json, f"Queued adding {len(companies)} company(ies) as {lead_status} leads (op {short_id(op_id)}).")
        op = _settled(store, op_id, _send_now(store, config), as_json)
        result = (op.result or {}) if op is not None else None
        leads = [] if result is None else [lead for lead in result.get("leads") or [] if isinstance(lead, dict)]
        skipped = [] if result is None else [s for s in result.get("skipped") or [] if isinstance(s, dict)]
        if as_json:
            echo_acted(
                store, [op_id],
                added=None if result is None else result.get("added", len(leads)),
                leads=[{"id": lead.get("id"), "company_id": lead.get("company_id"),
                        "company_name": lead.get("company_name"), "lead_status": lead.get("lead_status")}
                       for lead in leads],
                skipped=skipped,
            )
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
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md); needs --yes.")
def outreach_remove(lead_refs: tuple[str, ...], yes: bool, as_json: bool) -> None:
    """Remove leads from outreach (frees their signal slots); asks first unless --yes."""
    from warmline import actions  # deferred: command line

    no_prompt(as_json, yes)
    config = open_config()
    with open_store(config) as store:
        leads = list({lead.id: lead for lead in (resolve_lead(store, ref) for ref in lead_refs)}.values())
        names = ", ".join(f"{plain(lead.company_name)} ({lead.id})" for lead in leads)
        if not yes and not click.confirm(f"Remove {len(leads)} lead(s) from outreach: {names}?", err=True):
            raise CommandError("Nothing removed.", EXIT_ERROR)
        op_ids = queue_action(lambda: actions.remove_leads(store, [lead.id for lead in leads]))
        say(as_json, f"Queued removing {len(leads)} lead(s).")
        unsent = _send_now(store, config)
        done = [op_id for op_id in op_ids if _settled(store, op_id, unsent, as_json, op_ids) is not None]
        if as_json:
            echo_acted(store, op_ids)
        elif done:
            click.echo(f"Removed {len(done)} lead(s).")


COMMANDS = [
    lookup_command,
    deep_search_command,
    research_group,
    outreach_group,
]

# Subcommands of `companies` and `contacts` (defined in warmline.commands.records);
# warmline.cli adds them there.
COMPANIES_COMMANDS = [companies_research]
CONTACTS_COMMANDS = [contacts_search, contacts_found, contacts_add]
