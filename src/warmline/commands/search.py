"""Finding companies: `warmline lookup` (instant, by keyword filters and/or a semantic
query) and `warmline deep-search` (an AI search, a job followed with `--wait`).

Instant lookup is a direct request, since its answer is the point; offline, the answer of
an earlier identical lookup is shown from the cache. A deep search is queued first (so it
works offline) and sent at once when the service is reachable. Each says what it costs
(on stderr) before anything is sent.

Exit codes (as for the other headless commands, see docs/cli.md): 0 done (a start that is
queued counts as done, unless --wait was asked); 1 the service refused, or a job failed;
2 bad input; 3 the API key refused or missing; 4 offline (lookup with nothing cached,
--wait). `--json` output is stable; its fields are listed in docs/cli.md.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import click

from warmline.commands.acted import say
from warmline.commands.common import (
    CommandError,
    NumberType,
    echo_json,
    note,
    open_config,
    open_store,
    plain,
    print_table,
    queue_action,
    say_cost,
    short_id,
    shown_time,
)
from warmline.commands.direct import api_failure
from warmline.commands.jobs_wait import job_outcome, run_job
from warmline.exit_codes import EXIT_BAD_INPUT, EXIT_CODES_HELP, EXIT_ERROR, EXIT_OFFLINE
from warmline.wiring import check_cache_service, make_client

if TYPE_CHECKING:
    from warmline.config import Config
    from warmline.store import Store
    from warmline.store.rows import Job


LOOKUP_FIELDS = (
    "name", "domain", "industry", "country", "region", "size", "description", "similarity_score",
    "saved_company_id",
)


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
            check_cache_service(store, config)
            say_cost(LOOKUP, save=save)
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
                note(f"Offline ({exc}); showing the cached answer from {shown_time(answer['fetched_at'])}.")
            except ApiError as exc:
                raise api_failure(exc, config.key_source) from None
        elif not as_json:
            note(f"Cached answer from {shown_time(answer['fetched_at'])}.")
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
    check_cache_service(store, config)

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
        say_cost(DEEP_SEARCH)
        say(as_json, f"Queued deep search for {plain(query)!r} (op {short_id(op_id)}).")
        job = run_job(store, config, op_id, "deep search", wait, as_json)
        job_outcome(store, op_id, job, "deep search", as_json, _found_companies, _show_companies)


COMMANDS = [lookup_command, deep_search_command]
