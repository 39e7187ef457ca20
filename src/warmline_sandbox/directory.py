"""The company database behind instant lookup and deep search (generated, not the saved list).

Generation is deterministic from the seed and fast (50,000 rows in a few seconds): names
and descriptions are assembled from vocabulary pools (a few hundred Faker names drawn
once), rows go in with `executemany`, and an FTS5 index (porter stemming, BM25 ranking)
is built in one `rebuild` pass.
"""

from __future__ import annotations

import functools
import random
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

from warmline_sandbox.directory_data import (
    COUNTRIES,
    EXTRAS,
    INDUSTRIES,
    NAME_SUFFIXES,
    NAME_WORDS,
    SIZE_WEIGHTS,
    SIZE_WORDS,
    SIZES,
    Country,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS directory (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    domain TEXT NOT NULL UNIQUE,
    industry TEXT NOT NULL,
    country TEXT NOT NULL,
    region TEXT NOT NULL,
    size TEXT NOT NULL,
    description TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS directory_industry ON directory (industry);
CREATE INDEX IF NOT EXISTS directory_country ON directory (country, region);
CREATE VIRTUAL TABLE IF NOT EXISTS directory_fts USING fts5 (
    name, industry, region, country, description,
    content='directory', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
"""

_TLDS = {"US": "com", "GB": "co.uk", "AU": "com.au"}
_BATCH = 5_000


@dataclass(frozen=True)
class NamePools:
    """Faker-made names, drawn once per seed (Faker calls are too slow to make 50k of)."""

    last_names: tuple[str, ...]
    first_names: tuple[str, ...]


@functools.lru_cache(maxsize=4)
def name_pools(seed: int, size: int = 400) -> NamePools:
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(seed)
    return NamePools(
        last_names=tuple(dict.fromkeys(fake.last_name() for _ in range(size))),
        first_names=tuple(dict.fromkeys(fake.first_name() for _ in range(size))),
    )


def seed_directory(conn: sqlite3.Connection, count: int, rng: random.Random, pools: NamePools) -> None:
    """Fill the company database with `count` generated companies and index them."""
    rows = generate_companies(count, rng, pools)
    while batch := [row for _, row in zip(range(_BATCH), rows, strict=False)]:
        conn.executemany(
            "INSERT INTO directory (id, name, domain, industry, country, region, size, description) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            batch,
        )
    conn.execute("INSERT INTO directory_fts (directory_fts) VALUES ('rebuild')")


def generate_companies(count: int, rng: random.Random, pools: NamePools) -> Iterator[tuple]:
    """Rows `(id, name, domain, industry, country, region, size, description)`."""
    domains: set[str] = set()
    for company_id in range(1, count + 1):
        industry = rng.choice(INDUSTRIES)
        country = rng.choice(COUNTRIES)
        region = rng.choice(country.regions)
        size = rng.choices(SIZES, SIZE_WEIGHTS)[0]
        name = _company_name(rng, pools)
        domain = _unique_domain(name, country, domains, company_id)
        description = (
            f"{name} is {article(SIZE_WORDS[size])} {rng.choice(industry.nouns)} company based in {region}, "
            f"{country.name}. It {rng.choice(industry.offerings)} for {rng.choice(industry.customers)}. "
            f"{rng.choice(EXTRAS)}"
        )
        yield (company_id, name, domain, industry.name, country.name, region, size, description)


def article(word: str) -> str:
    """`word` after "a" or "an", as it is said ("an established", "a leading")."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _company_name(rng: random.Random, pools: NamePools) -> str:
    pattern = rng.randrange(4)
    if pattern == 0:
        return f"{rng.choice(NAME_WORDS)} {rng.choice(NAME_SUFFIXES)}"
    if pattern == 1:
        return f"{rng.choice(pools.last_names)} {rng.choice(NAME_SUFFIXES)}"
    if pattern == 2:
        return f"{rng.choice(NAME_WORDS)}{rng.choice(NAME_WORDS).lower()} {rng.choice(NAME_SUFFIXES)}"
    return f"{rng.choice(pools.last_names)} & {rng.choice(pools.last_names)}"


def _unique_domain(name: str, country: Country, taken: set[str], company_id: int) -> str:
    slug = re.sub(r"[^a-z0-9]+", "", name.lower().split(" ")[0] + name.lower().split(" ")[-1])
    tld = _TLDS.get(country.iso2, country.iso2.lower())
    domain = f"{slug}.{tld}"
    if domain in taken:
        domain = f"{slug}{company_id}.{tld}"
    taken.add(domain)
    return domain


def get_entry(conn: sqlite3.Connection, entry_id: int) -> dict | None:
    row = conn.execute("SELECT * FROM directory WHERE id = ?", (entry_id,)).fetchone()
    return dict(row) if row else None
