"""Paging long lists (leads, companies, contacts) through SQLite fast enough to type into.

Measured at 100,000 rows, the costs that matter and how each is avoided:
- Sorting: every sort has an index that yields rows already in order, so a page is an
  index walk, and the walk reads only the index (ids first, whole rows for the page after).
- Deep offsets: an index walk still steps over `offset` entries. Past the middle we walk
  the same index backwards from the end instead, so the worst case is the middle.
- Filter-as-you-type (substring of the name): a trigram full-text index finds rare
  matches at once, but sorting a large match set is slow; walking the sort index and
  testing each name finds dense matches at once, but is slow for rare ones. So we count
  candidates first (cheap, capped) and pick: few -> fetch and sort them; many -> walk.
  Trigrams need 3 characters: for 1-2 characters the filter matches the start of the
  name (an index range), which is also what a rep typing a name expects.
"""

import sqlite3
from collections.abc import Sequence

from warmline.named_tuple import NamedTuple
from warmline.store.values import SqlValue

# Up to this many candidates, fetching and sorting them beats walking the sort index
# (measured at 100,000 leads: the crossover is near sqrt(page size x rows), about 1,000).
SET_LIMIT = 1000
MIN_TRIGRAM = 3
# Longer filters are looked up by their first characters and then checked in full: a
# phrase of many trigrams costs the full-text index more than it narrows the candidates.
FTS_MAX_CHARS = 12


class Order(NamedTuple):
    """A sort: (column, "ASC"|"DESC") terms ending with a unique column, and its index."""

    terms: tuple[tuple[str, str], ...]
    index_name: str

    def sql(self, reverse: bool = False) -> str:
        flip = {"ASC": "DESC", "DESC": "ASC"}
        return ", ".join(f"{col} {flip[way] if reverse else way}" for col, way in self.terms)


class Listing(NamedTuple):
    """A pageable table: its full-text index (if any) and the indexed name for prefixes."""

    table: str
    fts_column: str
    name_column: str
    name_index: str


class TextFilter(NamedTuple):
    """A filter clause; `few` when its candidates are best fetched by `index_name` and sorted."""

    clause: str
    params: tuple[SqlValue, ...]
    few: bool
    index_name: str | None = None


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() is not None


def _prefix_bounds(text: str) -> tuple[str, str]:
    return text, text[:-1] + chr(ord(text[-1]) + 1)


def _fts_query(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def is_prefix_search(text: str) -> bool:
    """Whether `text_filter` reads `text` as the start of names (under `MIN_TRIGRAM`
    characters) rather than anywhere in them; a list says so when nothing matches."""
    return 0 < len(text.strip()) < MIN_TRIGRAM


def text_filter(conn: sqlite3.Connection, listing: Listing, text: str, fts: bool) -> TextFilter | None:
    """The WHERE clause for `text`, and how its candidates are best found.

    1-2 characters: a name prefix, read as a range of the name index when its matches
    are few, else tested while walking the sort's index. 3 or more: a substring, through
    the trigram index when its matches are few, else tested while walking an index (the
    sort's for a page, the status's for a count). Every index involved carries the name.
    """
    needle = text.strip().lower()
    if not needle:
        return None
    table = listing.table
    if is_prefix_search(needle):
        low, high = _prefix_bounds(needle)
        clause = f"{table}.{listing.name_column} >= ? AND {table}.{listing.name_column} < ?"
        candidates = conn.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM {table} INDEXED BY {listing.name_index} WHERE {clause} LIMIT ?)",
            (low, high, SET_LIMIT + 1),
        ).fetchone()[0]
        return TextFilter(clause, (low, high), candidates <= SET_LIMIT, listing.name_index)
    scan = TextFilter(f"instr({table}.{listing.fts_column}, ?) > 0", (needle,), False)
    if not fts:
        return scan
    match = _fts_query(needle[:FTS_MAX_CHARS])
    lookup = f"{table}.id IN (SELECT rowid FROM {table}_fts WHERE {table}_fts MATCH ?)"
    if len(needle) > FTS_MAX_CHARS:
        indexed = TextFilter(f"{lookup} AND {scan.clause}", (match, needle), True)
    else:
        indexed = TextFilter(lookup, (match,), True)
    candidates = conn.execute(
        f"SELECT count(*) FROM (SELECT rowid FROM {table}_fts WHERE {table}_fts MATCH ? LIMIT ?)",
        (match, SET_LIMIT + 1),
    ).fetchone()[0]
    return indexed if candidates <= SET_LIMIT else scan


def page_ids(
    conn: sqlite3.Connection,
    listing: Listing,
    order: Order,
    where: list[str],
    params: Sequence[SqlValue],
    text: TextFilter | None,
    offset: int,
    limit: int,
    total: int | None,
) -> list[int]:
    """Ids of one page, in order. `total` (the filtered count) enables the backwards walk."""
    clauses = list(where)
    values = list(params)
    if text is not None:
        clauses.append(text.clause)
        values.extend(text.params)
    condition = " AND ".join(clauses) or "1"
    # Few candidates: look them up by id and sort; else walk the sort's index in order.
    if text is not None and text.few:
        source = f"{listing.table} " + (f"INDEXED BY {text.index_name}" if text.index_name else "NOT INDEXED")
    else:
        source = f"{listing.table} INDEXED BY {order.index_name}"
    # Past the middle (when the total is known), walking the index backwards is shorter.
    if total is not None and offset > total // 2 and (text is None or not text.few):
        count = max(0, min(limit, total - offset))
        skip = max(0, total - offset - count)
        if count == 0:
            return []
        sql = f"SELECT id FROM {source} WHERE {condition} ORDER BY {order.sql(reverse=True)} LIMIT ? OFFSET ?"
        ids = [r[0] for r in conn.execute(sql, (*values, count, skip)).fetchall()]
        ids.reverse()
        return ids
    sql = f"SELECT id FROM {source} WHERE {condition} ORDER BY {order.sql()} LIMIT ? OFFSET ?"
    return [r[0] for r in conn.execute(sql, (*values, limit, offset)).fetchall()]


def count_rows(
    conn: sqlite3.Connection,
    listing: Listing,
    where: list[str],
    params: Sequence[SqlValue],
    text: TextFilter | None,
    count_index: str | None = None,
) -> int:
    """How many rows match; `count_index` (covering `where` and the name) serves the
    unfiltered count and the row-by-row test of a frequent substring."""
    clauses = list(where)
    values = list(params)
    if text is not None:
        clauses.append(text.clause)
        values.extend(text.params)
    condition = " AND ".join(clauses) or "1"
    if text is None:
        source = f"{listing.table} INDEXED BY {count_index}" if count_index else listing.table
    elif text.index_name:  # a name prefix: a range of the name index, whatever its size
        source = f"{listing.table} INDEXED BY {text.index_name}"
    elif text.few:
        source = f"{listing.table} NOT INDEXED"
    else:
        source = f"{listing.table} INDEXED BY {count_index or listing.name_index}"
    return int(conn.execute(f"SELECT count(*) FROM {source} WHERE {condition}", values).fetchone()[0])
