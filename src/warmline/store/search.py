"""Search everywhere: one query over leads, companies, contacts, deals, follow-ups, notes,
activities and recommendations, offline, from the cache's word indexes.

Each kind has its FTS5 index (`schema.SEARCH_INDEXES`, the follow-ups' in their own file):
external content, so the rows are the one copy and the index holds only words, kept
current by triggers on the rows. A kind's hits are ranked by bm25 among its `WINDOW`
newest matches: a one-letter prefix may match half a million activities, and ranking
them all would cost a keystroke hundreds of milliseconds; the newest 500 hold what a rep
looks for (bench/bench_search.py: 1,000 cost a keystroke a third more). Kinds come in
`KINDS` order, each with at most `limit` hits and whether it has more.

Results carry plain data: the title and the snippet as `Segment`s with the matched words
marked (`search_query.marked`, terminal-safe), and what to open (a lead, a company or a
contact, by id). A query FTS5 still refuses (it cannot, being built from quoted words) is
taken as finding nothing, never as an error.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date, time
from typing import TYPE_CHECKING, Literal

from warmline.store.database import CacheUnusable
from warmline.store.search_query import (
    KINDS,
    Kind,
    SearchQuery,
    Segment,
    marked,
    parse_query,
)
from warmline.textsafe import terminal_line

if TYPE_CHECKING:
    from warmline.store import Store
    from warmline.store.followups import FollowUps

Opens = Literal["lead", "company", "contact"]

WINDOW = 500
"""Matches of a kind ranked (the newest); see the module's docstring."""
DEFAULT_LIMIT = 20
"""Hits shown per kind."""
SNIPPET_CHARS = 160
"""About how much of a long text a hit shows, from just before its first match (a
narrower column cuts it again, with an ellipsis)."""


@dataclass(frozen=True)
class SearchHit:
    """One thing found: its `kind`, `title` (a lead's or company's name, a contact's),
    `snippet` (the text that matched, cut around the match), a short `detail` (status,
    date), and what enter opens: `opens` with `open_id`. `ref` is the row's own id within
    its kind (a note's local id, a follow-up's id), stable for a cursor to stay on.
    `when` is the moment a note or activity was done, as the cache holds it (UTC), for a
    screen to show in the rep's zone (`detail` has its UTC date); None for other kinds and
    for one still queued. `due` is an open follow-up's day and time, for a screen to say
    as its other lists do ("due Fri 27 Nov"; `detail` has the ISO date)."""

    kind: Kind
    ref: int
    title: tuple[Segment, ...]
    snippet: tuple[Segment, ...]
    detail: str
    opens: Opens
    open_id: int
    when: str | None = None
    due: tuple[date, time | None] | None = None


@dataclass(frozen=True)
class SearchGroup:
    """The hits of one kind, best first; `more` when there were more than shown."""

    kind: Kind
    hits: tuple[SearchHit, ...]
    more: bool


@dataclass(frozen=True)
class SearchResults:
    query: SearchQuery
    groups: tuple[SearchGroup, ...]
    problem: str | None = None
    """Why a part could not be searched (the follow-ups file unreadable), else None."""

    @property
    def found(self) -> int:
        return sum(len(group.hits) for group in self.groups)


@dataclass(frozen=True)
class _Source:
    """How one kind is read: its index, its table (aliased `r`) and what it joins (its
    lead as `l`, by default), and the SQL of its columns: its ref, the parts of its title
    (joined by a space) and of its text (joined by " · "), its detail, the id it opens and
    when it was done (`SearchHit.when`)."""

    index: str
    table: str
    ref: str
    title: tuple[str, ...]
    text: tuple[str, ...]
    detail: str
    open_id: str
    opens: Opens
    where: str = "l.hidden = 0"
    joins: str = "JOIN leads l ON l.id = r.lead_id"
    when: str = "NULL"

    @property
    def columns(self) -> str:
        return ", ".join((self.ref, self.detail, self.open_id, self.when, *self.title, *self.text))


_DATE = "CASE WHEN r.id IS NULL THEN 'queued' ELSE substr(coalesce(r.created_at, ''), 1, 10) END"
_DONE = "CASE WHEN r.id IS NULL THEN NULL ELSE coalesce(r.logged_at, r.created_at) END"
"""When the rep did it (a note or activity logged offline, its logging time), once delivered."""
_SOURCES: dict[Kind, _Source] = {
    "lead": _Source(
        "search_leads",
        "leads",
        "r.id",
        ("r.company_name",),
        (),
        "r.lead_status || ' · score ' || r.warming_score",
        "r.id",
        "lead",
        where="r.hidden = 0",
        joins="",
    ),
    "deal": _Source(
        "search_deals",
        "leads",
        "r.id",
        ("r.company_name",),
        ("r.deal_text",),
        "r.lead_status",
        "r.id",
        "lead",
        where="r.hidden = 0",
        joins="",
    ),
    "company": _Source(
        "search_companies",
        "companies",
        "r.id",
        ("r.name",),
        ("r.domain", "r.industry", "r.country"),
        "''",
        "r.id",
        "company",
        where="1",
        joins="",
    ),
    "contact": _Source(
        "search_contacts",
        "contacts",
        "r.id",
        ("r.first_name", "r.last_name"),
        ("r.title", "r.email"),
        "coalesce((SELECT c.name FROM companies c WHERE c.id = r.company_id), '')",
        "r.id",
        "contact",
        where="1",
        joins="",
    ),
    "note": _Source(
        "search_notes",
        "notes",
        "r.local_id",
        ("l.company_name",),
        ("r.content",),
        _DATE,
        "r.lead_id",
        "lead",
        when=_DONE,
    ),
    "activity": _Source(
        "search_activities",
        "touchpoints",
        "r.local_id",
        ("l.company_name",),
        ("r.description",),
        _DATE,
        "r.lead_id",
        "lead",
        when=_DONE,
    ),
    "recommendation": _Source(
        "search_recommendations",
        "recommendations",
        "r.id",
        ("l.company_name",),
        ("r.engagement_reason", "r.suggested_comment"),
        "coalesce(r.local_status, r.status)",
        "r.lead_id",
        "lead",
    ),
}


def _joined(values: tuple[object, ...], between: str) -> str:
    return between.join(str(value) for value in values if value not in (None, ""))


def search_everything(
    store: Store,
    followups: FollowUps | None,
    query: SearchQuery | str,
    *,
    limit: int = DEFAULT_LIMIT,
) -> SearchResults:
    """What `query` finds, grouped by kind in `KINDS` order (kinds with no hit left out).
    Never raises for what the rep typed."""
    if isinstance(query, str):
        query = parse_query(query)
    if query.empty or (query.kinds == () and query.unknown_kinds):
        return SearchResults(query, ())
    groups: list[SearchGroup] = []
    problem: str | None = None
    match = query.match()
    for kind in KINDS:
        if not query.wants(kind):
            continue
        if kind == "followup":
            try:
                hits, more = _followup_hits(followups, query, match, limit)
            except (CacheUnusable, sqlite3.DatabaseError) as exc:
                problem = f"follow-ups not searched: {terminal_line(exc)}"
                continue
        else:
            hits, more = _cache_hits(store, kind, query, match, limit)
        if hits:
            groups.append(SearchGroup(kind, tuple(hits), more))
    return SearchResults(query, tuple(groups), problem)


def _cache_hits(
    store: Store, kind: Kind, query: SearchQuery, match: str, limit: int
) -> tuple[list[SearchHit], bool]:
    source = _SOURCES[kind]
    sql = (
        f"SELECT {source.columns}"
        f" FROM (SELECT rowid AS hit, rank AS score FROM {source.index} WHERE {source.index} MATCH ?"
        f" ORDER BY rowid DESC LIMIT {WINDOW}) m"
        f" JOIN {source.table} r ON {source.ref} = m.hit {source.joins}"
        f" WHERE {source.where} ORDER BY m.score, m.hit DESC LIMIT ?"
    )
    try:
        with store.read() as conn:
            rows = conn.execute(sql, (match, limit + 1)).fetchall()
    except sqlite3.OperationalError as exc:
        if "fts5" in str(exc):  # a query it refused: nothing found
            return [], False
        raise
    titles = len(source.title)
    hits = [
        SearchHit(
            kind,
            int(row[0]),
            marked(_joined(row[4 : 4 + titles], " "), query),
            marked(_joined(row[4 + titles :], " · "), query, SNIPPET_CHARS),
            terminal_line(row[1] or ""),
            source.opens,
            int(row[2]),
            row[3] if isinstance(row[3], str) else None,
        )
        for row in rows[:limit]
    ]
    return hits, len(rows) > limit


def _followup_hits(
    followups: FollowUps | None, query: SearchQuery, match: str, limit: int
) -> tuple[list[SearchHit], bool]:
    if followups is None:
        return [], False
    found = followups.matching(match, window=WINDOW, limit=limit + 1)
    hits = [
        SearchHit(
            "followup",
            item.id,
            marked(item.company or f"lead {item.lead_id}", query),
            marked(item.text, query, SNIPPET_CHARS),
            "done" if item.done else f"due {item.due_on.isoformat()}",
            "lead",
            item.lead_id,
            due=None if item.done else (item.due_on, item.at),
        )
        for item in found[:limit]
    ]
    return hits, len(found) > limit
