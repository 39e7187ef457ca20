"""Untrusted text on its way out: to a terminal, into JSON, into a CSV cell.

Company names, notes, web labels and server messages come from the web through the
service, so they may hold terminal escape sequences (OSC 52 writes the clipboard, OSC 8
plants links, `ESC[2J` clears the screen), C1 controls (U+009B is a one-byte CSI), carriage
returns and line feeds (which rewrite or forge lines and table rows) and bidi overrides
(U+202E shows text backwards). Every such text that reaches the rep goes through one of
the functions here, one per destination:

* `terminal_line`: one line of a terminal (a table cell, a name in a message): escape
  sequences removed, tabs and line breaks folded into one space, every other control
  character and bidi control removed.
* `terminal_text`: a message that may span lines (an error, a note): the same, but line
  breaks are kept as LF (CR LF and a bare CR become LF) and a tab becomes four spaces.
* `json_dumps`: JSON kept faithful (`json.loads` gives the original text back) and safe to
  print: C0 controls are escaped by `json` itself, and DEL, C1, line/paragraph separators,
  bidi controls and lone surrogates are written as `\\uXXXX` escapes too.
* `storable_text`: text any UTF-8 destination can hold (the cache, a file, a pipe): each
  lone surrogate (JSON's `"\\ud800"`, or argv bytes that are not UTF-8) becomes U+FFFD,
  where writing it would raise `UnicodeEncodeError`. `storable_json` does the same to
  every text of decoded JSON (keys too) and leaves out NaN and infinite numbers, which
  are not JSON and which SQLite's JSON functions refuse; with `int64`, an integer beyond
  SQLite's 64 bits raises `BeyondInt64`. The terminal and CSV functions repair
  surrogates too, and `json_dumps` escapes them.
* `csv_text`: a spreadsheet cell: as `terminal_text` with a tab as one space, and each line
  that a spreadsheet would run as a formula prefixed with `'` (docs/cli.md).

Zero-width joiners and non-joiners are kept: scripts such as Persian and Devanagari and
emoji sequences need them, and they cannot move the cursor or reorder a line.

Used by the command line and, through `warmline.tui.safe`, by the cockpit; so it imports
nothing but the standard library.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

# The patterns are strings, compiled by `re` on first use and kept in its cache: compiling
# them all at import took 20 M instructions of the cockpit's first frame (warmline.startup),
# and text that is printable throughout (nearly all) needs none of them.

# Whole sequences first, so their parameters do not survive as stray text: CSI (ESC [ or the
# one-byte C1 CSI ... final byte), OSC (ESC ] or C1 OSC ... BEL or ST), the other two-byte
# escapes (ESC P, ESC X, ESC ^, ESC _ and the like).
_ESCAPES = (
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[@-Z\\-_]"
)
# Bidi controls: embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069), and the
# marks LRM, RLM and ALM, which reorder neighbouring text as well.
_BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
_LINE_BREAKS = "\n\r\x0b\x0c\x85\u2028\u2029"
_CONTROLS = f"[\\x00-\\x1f\\x7f-\\x9f{_BIDI}\u2028\u2029]"
_CONTROLS_BUT_LF = f"[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f{_BIDI}\u2028\u2029]"
_FOLDED = f"[\\t{_LINE_BREAKS}]+"
_BREAK = "\r\n|[\r\x0b\x0c\x85\u2028\u2029]"
_SURROGATES = "[\ud800-\udfff]"
_JSON_UNSAFE = f"[\\x7f-\\x9f{_BIDI}\u2028\u2029\\ud800-\\udfff]"
# What a spreadsheet runs as a formula when a cell (or a line of it) starts with it; a tab
# or CR at the start is how guards are dodged (they never survive `csv_text`, listed anyway).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


_USERINFO = r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/?#@'\"]*@"


def redact_url(text: object) -> str:
    """`text` with the user-info of every URL in it masked: `https://***@host/`.

    A base URL may carry `user:password@`; any message, status or log line that shows a
    URL (or quotes one inside a longer text, as httpx's errors do) passes through here.
    """
    return re.sub(_USERINFO, r"\1***@", str(text))


def _text(value: Any) -> str:
    return "" if value is None else storable_text(str(value))


def terminal_line(value: Any) -> str:
    """`value` as one line of a terminal: nothing that moves the cursor, rewrites the line,
    starts a new one, switches the direction of the text or talks to the terminal."""
    text = "" if value is None else str(value)
    if text.isprintable():  # no escape, control, line break, bidi control or surrogate
        return text
    text = storable_text(text)
    return re.sub(_CONTROLS, "", re.sub(_FOLDED, " ", re.sub(_ESCAPES, "", text)))


def terminal_text(value: Any) -> str:
    """`value` for a terminal, keeping its line breaks (as LF): messages and notes."""
    text = "" if value is None else str(value)
    if text.isprintable():
        return text
    text = re.sub(_BREAK, "\n", re.sub(_ESCAPES, "", storable_text(text))).replace("\t", "    ")
    return re.sub(_CONTROLS_BUT_LF, "", text)


def storable_text(text: str) -> str:
    """`text` with each surrogate code point replaced by U+FFFD: Python keeps them in a str,
    but no UTF-8 encoder writes one, so one in a company name would stop every write of
    the list it came in."""
    return text if text.isascii() else re.sub(_SURROGATES, "\ufffd", text)


INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
"""SQLite's integers: a larger one cannot be stored, nor be any record's id."""


class BeyondInt64(ValueError):
    """An integer outside SQLite's 64 bits, at `path` (innermost first) in decoded JSON."""

    def __init__(self, value: int, where: str | None = None) -> None:
        super().__init__()
        self.value = value
        self.path: list[str] = [] if where is None else [where]

    def __str__(self) -> str:
        where = ".".join(reversed(self.path)) or "value"
        digits = len(str(abs(self.value)))
        shown = str(self.value) if digits <= 30 else f"a number of {digits} digits"
        return f"{where} is {shown}, beyond the 64-bit integers the cache can hold"


class Repairs:
    """What `storable_json` changed, for a warning that names the record."""

    def __init__(self) -> None:
        self.texts = 0
        self.numbers = 0

    def __bool__(self) -> bool:
        return bool(self.texts or self.numbers)

    def __str__(self) -> str:
        said = []
        if self.texts:
            said.append(f"{self.texts} text(s) with lone surrogates (replaced with U+FFFD)")
        if self.numbers:
            said.append(f"{self.numbers} NaN or infinite number(s) (left out)")
        return " and ".join(said)


def storable_json(value: Any, repairs: Repairs | None = None, *, int64: bool = False) -> Any:
    """Decoded JSON as the cache can store it, counting what changed in `repairs`.

    Texts and keys go through `storable_text`. A key whose value is NaN or infinite is
    left out (not nulled: what the cache knows of that field stays); in a list such a
    number becomes None. With `int64`, an integer outside SQLite's range raises
    `BeyondInt64` naming where it is: a record holding one cannot be stored whole.

    An object or list that needs none of this (nearly all) is returned as it is, after a
    check at the speed of `json.dumps`: the walk that repairs costs ten times more."""
    found = Repairs() if repairs is None else repairs
    if isinstance(value, dict | list) and _needs_nothing(value, int64):
        return value
    return _repaired(value, found, int64)


_LONG_NUMBER = r"\d{19}"
"""A run of digits that may be an integer beyond 64 bits (their largest has 19)."""


def _needs_nothing(value: dict[Any, Any] | list[Any], int64: bool) -> bool:
    """True when `value` certainly holds no NaN or infinity, no surrogate and (with `int64`)
    no integer beyond 64 bits; False when it may (a long digit run in a text included)."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):  # NaN or infinity, or not JSON data
        return False
    return not has_surrogates(text) and not (int64 and re.search(_LONG_NUMBER, text))


def has_surrogates(text: str) -> bool:
    """True when `text` holds a surrogate code point (`storable_text` would change it)."""
    return not text.isascii() and re.search(_SURROGATES, text) is not None


def _repaired(value: Any, found: Repairs, int64: bool) -> Any:
    if isinstance(value, str):
        fixed = storable_text(value)
        found.texts += fixed != value
        return fixed
    if isinstance(value, float) and not math.isfinite(value):
        found.numbers += 1
        return None
    if int64 and isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        raise BeyondInt64(value)
    if isinstance(value, dict):
        kept: dict[Any, Any] = {}
        for key, item in value.items():
            if isinstance(item, float) and not math.isfinite(item):
                found.numbers += 1
                continue
            name = _repaired(key, found, int64) if isinstance(key, str) else key
            kept[name] = _storable_at(str(name), item, found, int64)
        return kept
    if isinstance(value, list | tuple):
        return [_storable_at(str(index), item, found, int64) for index, item in enumerate(value)]
    return value


def _storable_at(where: str, item: Any, repairs: Repairs, int64: bool) -> Any:
    """`storable_json(item)`, adding `where` to the path of a `BeyondInt64` raised inside."""
    try:
        return _repaired(item, repairs, int64)
    except BeyondInt64 as exc:
        exc.path.append(where)
        raise


def _escape_json(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_dumps(value: Any, **kwargs: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **kwargs)` with no raw control character.

    Non-ASCII letters stay readable (ensure_ascii would turn every é into an escape); the
    characters a terminal acts on become escapes. They only ever occur inside strings,
    where an escape is valid JSON for the same character, so the output still decodes to
    exactly `value`.
    """
    return re.sub(_JSON_UNSAFE, _escape_json, json.dumps(value, ensure_ascii=False, **kwargs))


def csv_text(value: Any) -> str:
    """Text for a CSV cell: `terminal_text` with tabs as spaces, and formula-guarded.

    A cell, and each line inside it, that starts like a formula (after any spaces, which
    some spreadsheets skip) gets a leading `'`: quoted
    line breaks keep a cell whole in a spreadsheet, but not in every importer, and a line
    that starts with `=` must not become a formula in one that splits it.
    """
    text = terminal_text(_text(value).replace("\t", " "))
    return "\n".join("'" + line if line.lstrip(" ").startswith(FORMULA_START) else line for line in text.split("\n"))
