"""Showing untrusted text (company names, web labels, AI suggestions) literally.

Service text must never be interpreted: not as Rich/Textual markup (a company called
`[bold red]x[/]` shows those characters) and not as terminal control sequences (an
escape sequence in a note must not recolour or move the cursor of the rep's terminal).
Every widget in the cockpit receives service text through `plain()`, which returns a
`rich.text.Text`; Textual renders a `Text` as-is, whereas a `str` would be parsed as markup.
What is removed is decided in `warmline.textsafe`, shared with the command line.
"""

from __future__ import annotations

from rich.text import Text

from warmline.textsafe import terminal_line, terminal_text


def safe_text(value: object, *, multiline: bool = False) -> str:
    """Return `value` as a string with escape sequences and control characters removed.

    Single-line fields (names, labels, table cells) also fold tabs and newlines into one
    space so a hostile value cannot break a row layout; multi-line fields (notes,
    activity text, suggested comments) keep their newlines. The same rules as the command
    line's output (`warmline.textsafe`), so the cockpit and the CLI show a name alike.
    """
    return terminal_text(value) if multiline else terminal_line(value)


def plain(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """Wrap service text in a `Text` so that no widget ever reads it as markup."""
    return Text(safe_text(value, multiline=multiline), style=style, no_wrap=not multiline)
