"""The rep's search text, read forgivingly, and the matched words marked in what it found.

`parse_query` never raises: whatever the rep types (FTS5 syntax such as `* ^ " ( ) : -`,
`NEAR`, `AND`, `OR`, an unbalanced quote, control characters, escape sequences, ten
thousand characters) is read as words. The syntax:

- words, in any order, all of which must match; each is a prefix (`soc` finds "SOC 2");
- `"a quoted phrase"`: its words next to each other, in that order (an unclosed quote runs
  to the end, so a phrase being typed already finds);
- `kind:note` keeps one kind of result (`KINDS`; plurals and the start of a name do too:
  `kind:notes`, `kind:act`; `kind:note,deal` or two filters keep both).

SQLite FTS5 never sees the rep's text: `SearchQuery.match` is built from quoted tokens of
letters and digits only (the tokenizer's own idea of a word), so no text is an operator.
The query is cut to `MAX_QUERY_CHARS` characters and `MAX_TERMS` words before any work.

`marked` finds the same words in a result's text, for the screen and the command line to
highlight as styled spans (never as markup): the text is made safe for a terminal line
first (`textsafe.terminal_line`), and the marks are offsets into that safe text.

Standard library only; no SQL (the store's `search` module runs it).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal, get_args

from warmline.named_tuple import NamedTuple
from warmline.textsafe import terminal_line

Kind = Literal[
    "lead", "company", "contact", "deal", "followup", "note", "activity", "recommendation"
]
KINDS: tuple[Kind, ...] = get_args(Kind)
"""What search finds, in the order results are grouped: names first (leads, companies,
contacts), then deals and follow-ups, then the texts (notes, activities, recommendations)."""

KIND_TITLES: dict[Kind, str] = {
    "lead": "Leads",
    "company": "Companies",
    "contact": "Contacts",
    "deal": "Deals",
    "followup": "Follow-ups",
    "note": "Notes",
    "activity": "Activities",
    "recommendation": "Recommendations",
}

_ALIASES: dict[str, Kind] = {
    "leads": "lead",
    "companies": "company",
    "contacts": "contact",
    "people": "contact",
    "deals": "deal",
    "followups": "followup",
    "notes": "note",
    "activities": "activity",
    "touchpoint": "activity",
    "touchpoints": "activity",
    "recommendations": "recommendation",
    "recs": "recommendation",
}

MAX_QUERY_CHARS = 200
"""Longer text is cut here before it is read: no one types more, and a paste of ten
thousand characters costs no more than this."""
MAX_TERMS = 8
"""Words (and phrases) kept; more would only narrow what is already narrow."""

LEAD_IN = 16
"""Characters a snippet keeps before its first match, at most (then back to a word's start)."""

_WORD = re.compile(r"[^\W_]+")
_PIECE = re.compile(r'"([^"]*)"?|(\S+)')
_FILTER = re.compile(r"(?i)^(?:kind|in|type):(.*)$")


def fold(text: str) -> str:
    """`text` as the index compares it: lower case, accents removed (the tokenizer is
    `unicode61 remove_diacritics 2`)."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def words(text: str) -> list[str]:
    """The folded words of `text`: runs of letters and digits, as the tokenizer splits them."""
    return _WORD.findall(fold(text))


@dataclass(frozen=True)
class Term:
    """Words that must match next to each other, the last one as a prefix: one typed word
    (`soc-2` is two) or a quoted phrase."""

    words: tuple[str, ...]

    def match(self) -> str:
        # Only letters and digits reach here (`words`); quoted all the same.
        return '"' + " ".join(self.words).replace('"', '""') + '"*'


@dataclass(frozen=True)
class SearchQuery:
    """What the rep asked for: `terms` all match; `kinds` (empty: every kind) filter;
    `unknown_kinds` are filter values that name no kind (said to the rep, never fatal)."""

    text: str
    terms: tuple[Term, ...]
    kinds: tuple[Kind, ...] = ()
    unknown_kinds: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """Nothing to look for (no words: only spaces, punctuation or filters)."""
        return not self.terms

    def wants(self, kind: Kind) -> bool:
        return not self.kinds or kind in self.kinds

    def match(self) -> str:
        """The FTS5 MATCH expression: every term, AND-ed."""
        return " AND ".join(term.match() for term in self.terms)


def parse_query(text: str, kinds: tuple[str, ...] = ()) -> SearchQuery:
    """Read the rep's search text (and kinds asked for apart from it, as `--kind` does).
    Never raises."""
    text = str(text)[:MAX_QUERY_CHARS]
    terms: list[Term] = []
    wanted: list[Kind] = []
    unknown: list[str] = []
    for value in kinds:
        _add_kinds(value, wanted, unknown)
    for piece in _PIECE.finditer(text):
        quoted, word = piece.group(1), piece.group(2)
        if word is not None and (found := _FILTER.match(word)) is not None:
            _add_kinds(found.group(1), wanted, unknown)
            continue
        term = Term(tuple(words(quoted if quoted is not None else word)))
        if term.words and term not in terms:
            terms.append(term)
    return SearchQuery(text, tuple(terms[:MAX_TERMS]), tuple(wanted), tuple(unknown))


def _add_kinds(value: str, wanted: list[Kind], unknown: list[str]) -> None:
    for name in value.split(","):
        given = "".join(words(name))
        if not given:
            continue  # `kind:` still being typed
        found = kinds_named(given)
        if not found:
            unknown.append(terminal_line(name)[:40])
        wanted.extend(kind for kind in found if kind not in wanted)


def kinds_named(name: str) -> tuple[Kind, ...]:
    """The kinds a filter value names: a kind, its plural or alias, or the start of names
    (`c`: companies and contacts)."""
    given = "".join(words(name))
    if given in _ALIASES:
        return (_ALIASES[given],)
    return tuple(kind for kind in KINDS if given and kind.startswith(given))


class Segment(NamedTuple):
    """A piece of a result's text; `hit` when it is a word the query matched."""

    text: str
    hit: bool


def marked(text: object, query: SearchQuery, width: int | None = None) -> tuple[Segment, ...]:
    """`text`, safe for one terminal line, cut into pieces with the matched words marked.

    With `width`, the text is a snippet: at most that many characters, from a little
    before its first match when that is far in (an ellipsis where it was cut), so the
    match stays in sight in a narrow column.
    """
    safe = terminal_line(text)
    spans = _hit_spans(safe, query)
    start, end = 0, len(safe)
    if width is not None:
        first = spans[0][0] if spans else 0
        if first > 2 * LEAD_IN:  # far in: start a little before it, so a narrow column shows it
            start = _word_start(safe, first - LEAD_IN)
        end = min(len(safe), start + width)
    pieces: list[Segment] = []
    if start > 0:
        pieces.append(Segment("…", False))
    at = start
    for low, high in spans:
        low, high = max(low, start), min(high, end)
        if low >= high:
            continue
        if low > at:
            pieces.append(Segment(safe[at:low], False))
        pieces.append(Segment(safe[low:high], True))
        at = high
    if at < end:
        pieces.append(Segment(safe[at:end], False))
    if end < len(safe):
        pieces.append(Segment("…", False))
    return tuple(pieces)


def _word_start(text: str, at: int) -> int:
    """`at`, moved back to the start of the word it falls in."""
    while at > 0 and not text[at - 1].isspace():
        at -= 1
    return at


def _hit_spans(text: str, query: SearchQuery) -> list[tuple[int, int]]:
    """Where the query's terms match in `text` (start, end), in order and merged."""
    folded = text.lower() if text.isascii() else None  # the same length: fold once
    tokens = [
        (m.start(), m.end(), folded[m.start() : m.end()] if folded is not None else fold(m.group()))
        for m in _WORD.finditer(text)
    ]
    spans: list[tuple[int, int]] = []
    for term in query.terms:
        size = len(term.words)
        for i in range(len(tokens) - size + 1):
            run = tokens[i : i + size]
            *whole, last = term.words
            if all(run[k][2] == word for k, word in enumerate(whole)) and run[-1][2].startswith(
                last
            ):
                spans.append((run[0][0], run[-1][1]))
    merged: list[tuple[int, int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def plain_text(segments: tuple[Segment, ...]) -> str:
    return "".join(segment.text for segment in segments)
