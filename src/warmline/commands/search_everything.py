"""`warmline search QUERY [--kind KIND] [--limit N] [--json]`: search everything in the
cache, offline: leads, companies, contacts, deals, follow-ups, notes, activities and
recommendations (the cockpit's `ctrl+k`, `warmline.store.search`).

The syntax is the cockpit's (`warmline.store.search_query`): words in any order, each a
prefix; `"a phrase"`; `kind:note`. Plain output groups the hits by kind, best first, with
the matched words in bold on a terminal; `--json` is a flat list (docs/cli.md).

Exit codes: 0 done (nothing found too, said on stderr, `[]` with --json); 2 bad input (an
unknown `--kind`); 5 the cache cannot be used. (`lookup` and `deep-search`, the service's
company searches, are `warmline.commands.search`.)
"""

from __future__ import annotations

from typing import Any

import click

from warmline.commands.common import echo_json, note, open_config, open_store, plain
from warmline.commands.followups import open_followups
from warmline.exit_codes import EXIT_CODES_HELP
from warmline.store.search import SearchHit, SearchResults, search_everything
from warmline.store.search_query import KIND_TITLES, KINDS, Segment, parse_query, plain_text


def hit_json(hit: SearchHit, rank: int) -> dict[str, Any]:
    """One hit as `--json` prints it: `matches` are [start, end) offsets of the matched
    words in `title` and `snippet`."""
    return {
        "kind": hit.kind,
        "id": hit.ref,
        "rank": rank,
        "title": plain_text(hit.title),
        "title_matches": _offsets(hit.title),
        "snippet": plain_text(hit.snippet),
        "snippet_matches": _offsets(hit.snippet),
        "detail": hit.detail,
        "opens": hit.opens,
        "open_id": hit.open_id,
    }


def _offsets(segments: tuple[Segment, ...]) -> list[list[int]]:
    found, at = [], 0
    for segment in segments:
        if segment.hit:
            found.append([at, at + len(segment.text)])
        at += len(segment.text)
    return found


def _styled(segments: tuple[Segment, ...]) -> str:
    """Matched words in bold; `click.echo` drops the style where stdout is no terminal."""
    return "".join(click.style(s.text, bold=True) if s.hit else s.text for s in segments)


def _print(results: SearchResults) -> None:
    for index, group in enumerate(results.groups):
        if index:
            click.echo()
        count = f"{len(group.hits)}{'+' if group.more else ''}"
        click.echo(click.style(f"{KIND_TITLES[group.kind]} ({count})", bold=True))
        for hit in group.hits:
            opens = f"{hit.opens} {hit.open_id}"
            line = " · ".join(part for part in (_styled(hit.title), hit.detail, opens) if part)
            click.echo(f"  {line}")
            if hit.snippet:
                click.echo(f"      {_styled(hit.snippet)}")


@click.command("search", epilog=EXIT_CODES_HELP)
@click.argument("query", nargs=-1, required=True)
@click.option(
    "--kind", "kinds", type=click.Choice(KINDS), multiple=True,
    help="Only this kind (repeat for more); as `kind:note` in the query.",
)  # fmt: skip
@click.option(
    "--limit", type=click.IntRange(1, 200), default=20, show_default=True, help="Hits per kind."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fields: see docs/cli.md).")
def search_command(
    query: tuple[str, ...], kinds: tuple[str, ...], limit: int, as_json: bool
) -> None:
    """Search everything in the cache, offline: leads, companies, contacts, deals,
    follow-ups, notes, activities and recommendations.

    Words in any order, each a prefix (`soc` finds "SOC 2"); "a quoted phrase"; kind:note
    (lead, company, contact, deal, followup, note, activity, recommendation).
    """
    asked = parse_query(" ".join(query), kinds)
    config = open_config()
    with open_store(config) as store, open_followups(config) as followups:
        results = search_everything(store, followups, asked, limit=limit)
    for unknown in asked.unknown_kinds:
        note(f"No kind {unknown!r}: kinds are {', '.join(KINDS)}.")
    if results.problem:
        note(results.problem[0].upper() + results.problem[1:] + ".")
    if as_json:
        echo_json(
            [
                hit_json(hit, rank)
                for group in results.groups
                for rank, hit in enumerate(group.hits, 1)
            ]
        )
    elif results.groups:
        _print(results)
    if not results.groups:
        shown = " ".join(" ".join(term.words) for term in asked.terms) or asked.text.strip()
        note(f"Nothing found for {plain(shown[:80])!r}.")


COMMANDS: list[click.Command] = [search_command]
