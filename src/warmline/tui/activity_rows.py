"""Lines with a label column and a hanging indent, for the lead page's activity.

A long description wraps under its own text, not back to column 0, and folds only at
spaces: a URL is never split mid-word (one longer than the whole line ends in an ellipsis).
"""

from __future__ import annotations

from collections.abc import Sequence

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
