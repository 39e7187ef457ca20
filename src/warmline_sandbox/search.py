"""Searching the company database: keyword filters and semantic ranking.

Keywords are matched the way a rep types them: case-insensitive, partial, with synonyms
("fintech" finds Financial Services), countries by name, ISO code or group ("Nordics").
A semantic query is ranked by BM25 (SQLite FTS5) and scored 0-1 by how much of the
query's weight (IDF) a company's text covers, blended with its BM25 rank; weak matches
are cut unless `broaden` is set.
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from warmline_sandbox.directory_data import COUNTRIES, INDUSTRIES, REGION_GROUPS

STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "based", "by", "companies", "company", "firm", "firms", "for", "from", "in", "into", "is", "it", "of", "on", "or", "that", "the", "their", "them", "they", "this", "to", "with", "within", "near", "like", "similar"]
)
STRONG_MATCH = 0.6
BROAD_MATCH = 0.3
CANDIDATES = 400
_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass
class Criteria:
    query: str | None = None
    broaden: bool = False
    industries: list[str] = field(default_factory=list)
    countries: list[str] = field(default_factory=list)
    regions: list[str] = field(default_factory=list)
    exclude_domains: set[str] = field(default_factory=set)
    limit: int = 25


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _best_matches(keyword: str, candidates: dict[str, set[str]]) -> set[str]:
    """Names whose spellings match `keyword`: exact matches win; else partial ones."""
    key = _norm(keyword)
    if not key:
        return set()
    exact = {name for name, spellings in candidates.items() if key in spellings}
    if exact:
        return exact
    if len(key) < 3:
        return set()
    return {
        name
        for name, spellings in candidates.items()
        if any(key in spelling or (len(spelling) >= 4 and spelling in key) for spelling in spellings)
    }


def _industry_spellings() -> dict[str, set[str]]:
    return {ind.name: {_norm(ind.name), *map(_norm, ind.synonyms)} for ind in INDUSTRIES}


def _country_spellings() -> dict[str, set[str]]:
    return {c.name: {_norm(c.name), c.iso2.lower(), c.iso3.lower(), *c.aliases} for c in COUNTRIES}


def resolve_industries(keywords: list[str]) -> set[str]:
    spellings = _industry_spellings()
    return set().union(*(_best_matches(k, spellings) for k in keywords)) if keywords else set()


def resolve_countries(keywords: list[str]) -> set[str]:
    """Country names for the keywords (a name, an ISO code, an alias or a group like Nordics)."""
    spellings = _country_spellings()
    found: set[str] = set()
    for keyword in keywords:
        group = REGION_GROUPS.get(_norm(keyword))
        found |= set(group) if group else _best_matches(keyword, spellings)
    return found


def resolve_regions(keywords: list[str]) -> tuple[set[str], set[str]]:
    """(regions, countries): region keywords name regions, or groups of countries."""
    spellings = {region: {_norm(region)} for country in COUNTRIES for region in country.regions}
    regions: set[str] = set()
    countries: set[str] = set()
    for keyword in keywords:
        group = REGION_GROUPS.get(_norm(keyword))
        if group:
            countries |= set(group)
        else:
            regions |= _best_matches(keyword, spellings)
    return regions, countries


class Places(NamedTuple):
    """Where a free-text query asks to look: countries ("Nordics", "Germany") and regions
    ("Bavaria"), each empty when the query names none."""

    countries: set[str]
    regions: set[str]


def query_terms(query: str) -> tuple[list[str], Places]:
    """(content terms, the places named by location words), so that "dental clinics in
    Bavaria" looks for dental clinics in Bavaria, not for the word "Bavaria"."""
    terms: list[str] = []
    places = Places(set(), set())
    country_words = {spelling: name for name, spellings in _country_spellings().items() for spelling in spellings
                     if len(spelling) > 3}
    region_words = {_norm(region): region for country in COUNTRIES for region in country.regions
                    if len(region) > 3 and " " not in region}
    for token in _TOKEN.findall(query.lower()):
        if token in STOPWORDS or token in terms:
            continue
        if token in REGION_GROUPS:
            places.countries.update(REGION_GROUPS[token])
        elif token in country_words:
            places.countries.add(country_words[token])
        elif token in region_words:
            places.regions.add(region_words[token])
        else:
            terms.append(token)
    return terms, places


def search(conn: sqlite3.Connection, criteria: Criteria) -> list[dict[str, Any]]:
    """Matching companies, best first; each with `similarity_score` for semantic queries."""
    where, args, unmatched = _filters(criteria)
    if unmatched:
        return []
    if not criteria.query:
        rows = conn.execute(
            f"SELECT * FROM directory d WHERE {where} ORDER BY d.id LIMIT ?", (*args, criteria.limit + len(criteria.exclude_domains))
        ).fetchall()
        return [dict(row) for row in rows if row["domain"] not in criteria.exclude_domains][: criteria.limit]
    terms, places = query_terms(criteria.query)
    if not terms and not any(places):
        return []
    for column, named in (("country", places.countries), ("region", places.regions)):
        if named:
            where += f" AND d.{column} IN ({','.join('?' for _ in named)})"
            args += sorted(named)
    if not terms:
        rows = conn.execute(f"SELECT * FROM directory d WHERE {where} ORDER BY d.id LIMIT ?", (*args, criteria.limit))
        return [{**dict(row), "similarity_score": 1.0} for row in rows]
    return _semantic(conn, terms, where, args, criteria)


def _filters(criteria: Criteria) -> tuple[str, list[Any], bool]:
    """SQL conditions for the keyword filters; `unmatched` if a filter matches nothing at all."""
    clauses: list[str] = ["1"]
    args: list[Any] = []

    def one_of(column: str, values: set[str]) -> None:
        clauses.append(f"d.{column} IN ({','.join('?' for _ in values)})")
        args.extend(sorted(values))

    if criteria.industries:
        industries = resolve_industries(criteria.industries)
        if not industries:
            return "", [], True
        one_of("industry", industries)
    if criteria.countries:
        countries = resolve_countries(criteria.countries)
        if not countries:
            return "", [], True
        one_of("country", countries)
    if criteria.regions:
        regions, group_countries = resolve_regions(criteria.regions)
        if not regions and not group_countries:
            return "", [], True
        parts = []
        if regions:
            parts.append(f"d.region IN ({','.join('?' for _ in regions)})")
            args.extend(sorted(regions))
        if group_countries:
            parts.append(f"d.country IN ({','.join('?' for _ in group_countries)})")
            args.extend(sorted(group_countries))
        clauses.append("(" + " OR ".join(parts) + ")")
    return " AND ".join(clauses), args, False


def _semantic(
    conn: sqlite3.Connection, terms: list[str], where: str, args: list[Any], criteria: Criteria
) -> list[dict[str, Any]]:
    match = " OR ".join(f'"{term}"' for term in terms)
    rows = conn.execute(
        f"SELECT d.*, -bm25(directory_fts, 3.0, 2.0, 2.0, 1.0, 1.0) AS relevance FROM directory_fts "
        f"JOIN directory d ON d.id = directory_fts.rowid WHERE directory_fts MATCH ? AND {where} "
        f"ORDER BY relevance DESC LIMIT ?",
        (match, *args, CANDIDATES),
    ).fetchall()
    if not rows:
        return []
    ids = [row["id"] for row in rows]
    weights = {term: _idf(conn, term) for term in terms}
    holders = {term: _docs_with(conn, term, ids) for term in terms}
    total_weight = sum(weights.values()) or 1.0
    best = max(row["relevance"] for row in rows) or 1.0
    threshold = BROAD_MATCH if criteria.broaden else STRONG_MATCH
    results = []
    for row in rows:
        if row["domain"] in criteria.exclude_domains:
            continue
        coverage = sum(weight for term, weight in weights.items() if row["id"] in holders[term]) / total_weight
        score = round(min(1.0, 0.8 * coverage + 0.2 * (row["relevance"] / best)), 3)
        if score >= threshold:
            entry = dict(row)
            del entry["relevance"]
            results.append({**entry, "similarity_score": score})
    results.sort(key=lambda item: (-item["similarity_score"], item["id"]))
    return results[: criteria.limit]


def _idf(conn: sqlite3.Connection, term: str) -> float:
    total = conn.execute("SELECT COUNT(*) FROM directory").fetchone()[0] or 1
    having = conn.execute("SELECT COUNT(*) FROM directory_fts WHERE directory_fts MATCH ?", (f'"{term}"',)).fetchone()[0]
    return math.log(1 + (total - having + 0.5) / (having + 0.5))


def _docs_with(conn: sqlite3.Connection, term: str, ids: list[int]) -> set[int]:
    marks = ",".join("?" for _ in ids)
    rows = conn.execute(
        f"SELECT rowid FROM directory_fts WHERE directory_fts MATCH ? AND rowid IN ({marks})", (f'"{term}"', *ids)
    )
    return {row[0] for row in rows}
