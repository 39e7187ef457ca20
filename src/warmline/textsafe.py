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
  print: C0 controls are escaped by `json` itself, and DEL, C1, line/paragraph separators
  and bidi controls are written as `\\uXXXX` escapes too.
* `csv_text`: a spreadsheet cell: as `terminal_text` with a tab as one space, and each line
  that a spreadsheet would run as a formula prefixed with `'` (docs/cli.md).

Zero-width joiners and non-joiners are kept: scripts such as Persian and Devanagari and
emoji sequences need them, and they cannot move the cursor or reorder a line.

Used by the command line and, through `warmline.tui.safe`, by the cockpit; so it imports
nothing but the standard library.
"""

from __future__ import annotations

import json
import re
from typing import Any

# Whole sequences first, so their parameters do not survive as stray text: CSI (ESC [ or the
# one-byte C1 CSI ... final byte), OSC (ESC ] or C1 OSC ... BEL or ST), the other two-byte
# escapes (ESC P, ESC X, ESC ^, ESC _ and the like).
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[@-Z\\-_]"
)
# Bidi controls: embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069), and the
# marks LRM, RLM and ALM, which reorder neighbouring text as well.
_BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
_LINE_BREAKS = "\n\r\x0b\x0c\x85\u2028\u2029"
_CONTROLS = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_BIDI}\u2028\u2029]")
_CONTROLS_BUT_LF = re.compile(f"[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f{_BIDI}\u2028\u2029]")
_FOLDED = re.compile(f"[\\t{_LINE_BREAKS}]+")
_BREAK = re.compile("\r\n|[\r\x0b\x0c\x85\u2028\u2029]")
_JSON_UNSAFE = re.compile(f"[\\x7f-\\x9f{_BIDI}\u2028\u2029]")
# What a spreadsheet runs as a formula when a cell (or a line of it) starts with it; a tab
# or CR at the start is how guards are dodged (they never survive `csv_text`, listed anyway).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def terminal_line(value: Any) -> str:
    """`value` as one line of a terminal: nothing that moves the cursor, rewrites the line,
    starts a new one, switches the direction of the text or talks to the terminal."""
    text = _ESCAPES.sub("", _text(value))
    return _CONTROLS.sub("", _FOLDED.sub(" ", text))


def terminal_text(value: Any) -> str:
    """`value` for a terminal, keeping its line breaks (as LF): messages and notes."""
    text = _BREAK.sub("\n", _ESCAPES.sub("", _text(value))).replace("\t", "    ")
    return _CONTROLS_BUT_LF.sub("", text)


def _escape_json(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_dumps(value: Any, **kwargs: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **kwargs)` with no raw control character.

    Non-ASCII letters stay readable (ensure_ascii would turn every é into an escape); the
    characters a terminal acts on become escapes. They only ever occur inside strings,
    where an escape is valid JSON for the same character, so the output still decodes to
    exactly `value`.
    """
    return _JSON_UNSAFE.sub(_escape_json, json.dumps(value, ensure_ascii=False, **kwargs))


def csv_text(value: Any) -> str:
    """Text for a CSV cell: `terminal_text` with tabs as spaces, and formula-guarded.

    A cell, and each line inside it, that starts like a formula (after any spaces, which
    some spreadsheets skip) gets a leading `'`: quoted
    line breaks keep a cell whole in a spreadsheet, but not in every importer, and a line
    that starts with `=` must not become a formula in one that splits it.
    """
    text = terminal_text(_text(value).replace("\t", " "))
    return "\n".join("'" + line if line.lstrip(" ").startswith(FORMULA_START) else line for line in text.split("\n"))
