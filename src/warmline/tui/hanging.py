"""Text that wraps under its own start, not back to column 0.

`hanging_rows`: lines with a label column, for the lead page's activity; a long
description folds only at spaces, so a URL is never split mid-word (one longer than the
whole line ends in an ellipsis). `hanging_lines`: a section written as indented lines
("\n  item", "\n    its reason", "\n  • a fact"), each wrapping at its own indent.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

LABEL_WIDTH = 10


def hanging_rows(rows: Sequence[tuple[str, Text]], label_width: int = LABEL_WIDTH) -> Table:
    """A grid of (dim right-aligned label, body); each body wraps in its own column."""
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(width=label_width, justify="right", no_wrap=True, style="dim")
    grid.add_column(ratio=1, overflow="ellipsis")
    for label, body in rows:
        text = body.copy()
        text.overflow = "ellipsis"
        text.no_wrap = False
        grid.add_row(label, text)
    return grid


BULLETS = ("• ", "- ")
"""A line starting with one of these (after its indent) wraps under the text after it."""


def hanging_lines(text: Text) -> Group:
    """`text` line by line, each wrapped at its own indent (its leading spaces, and a
    bullet's width): a section's items and their details stay readable when they wrap,
    where a `Text` would send every continuation back to column 0."""
    lines = []
    for line in text.split("\n", allow_blank=True):
        indent = len(line.plain) - len(line.plain.lstrip(" "))
        if line.plain[indent:].startswith(BULLETS):
            indent += 2
        lines.append(_hang(line[:indent], line[indent:]) if indent else line)
    return Group(*lines)


def _hang(prefix: Text, body: Text) -> Table:
    """`prefix`, then `body` wrapping in the width after it."""
    grid = Table.grid()
    grid.add_column(width=len(prefix), no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(prefix, body)
    return grid
