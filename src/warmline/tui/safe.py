"""Showing untrusted text (company names, web labels, AI suggestions) literally.

Service text must never be interpreted: not as Rich/Textual markup (a company called
`[bold red]x[/]` shows those characters) and not as terminal control sequences (an
escape sequence in a note must not recolour or move the cursor of the rep's terminal).
Every widget in the cockpit receives service text through `plain()`, which returns a
`rich.text.Text`; Textual renders a `Text` as-is, whereas a `str` would be parsed as markup.
"""

from __future__ import annotations

import re

from rich.text import Text

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), other two-byte escapes, then any C0/C1
# control character, DEL, and the Unicode bidi overrides that can visually reorder text.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[@-Z\\-_]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROLS_BUT_NEWLINE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_WHITESPACE_RUN = re.compile(r"[\t\n\r]+")


def safe_text(value: object, *, multiline: bool = False) -> str:
    """Return `value` as a string with escape sequences and control characters removed.

    Single-line fields (names, labels, table cells) also fold tabs and newlines into one
    space so a hostile value cannot break a row layout; multi-line fields (notes,
    activity text, suggested comments) keep their newlines.
    """
    if value is None:
        return ""
    text = _ESCAPES.sub("", str(value))
    if multiline:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", "    ")
        return _CONTROLS_BUT_NEWLINE.sub("", text)
    text = _WHITESPACE_RUN.sub(" ", text)
    return _CONTROLS.sub("", text)


def plain(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """Wrap service text in a `Text` so that no widget ever reads it as markup."""
    return Text(safe_text(value, multiline=multiline), style=style, no_wrap=not multiline)
