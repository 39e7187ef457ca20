"""Fixed-width columns for line-rendered lists, built straight from Rich segments.

A list row is drawn for every visible line on every scroll, so it skips `rich.text.Text`
(whose general rendering costs about half a millisecond a line) and lays out plain
`Segment`s: one flexible column takes what the fixed ones leave.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style

Cell = Sequence[Segment]
GAP = Segment(" ")
ELLIPSIS = "…"


class Column(NamedTuple):
    """A column; `width=0` marks the one flexible column (at least `min_width` cells)."""

    title: str
    width: int = 0
    align: str = "left"  # left | right
    min_width: int = 8


def widths(columns: Sequence[Column], total: int) -> list[int]:
    """Cell widths of `columns` for a line of `total` cells."""
    fixed = sum(c.width for c in columns if c.width) + len(GAP.text) * (len(columns) - 1)
    flexible = max(next((c.min_width for c in columns if not c.width), 0), total - fixed)
    return [c.width or flexible for c in columns]


def cell(text: str, style: Style | None = None) -> list[Segment]:
    """A one-style cell. `text` must already be safe (see `warmline.tui.safe`)."""
    return [Segment(text, style)]


def fit(content: Cell, width: int, align: str = "left") -> list[Segment]:
    """`content` cut (with an ellipsis) or padded to exactly `width` cells."""
    length = sum(cell_len(segment.text) for segment in content)
    if length <= width:
        padding = Segment(" " * (width - length))
        return [padding, *content] if align == "right" else [*content, padding]
    fitted: list[Segment] = []
    room = width - len(ELLIPSIS)
    for segment in content:
        if room <= 0:
            break
        size = cell_len(segment.text)
        fitted.append(segment if size <= room else Segment(set_cell_size(segment.text, room), segment.style))
        room -= size
    fitted.append(Segment(ELLIPSIS, content[0].style if content else None))
    return fitted


def line(columns: Sequence[Column], cells: Sequence[Cell], total: int) -> list[Segment]:
    """Lay out `cells` into one line of `total` cells."""
    segments: list[Segment] = []
    for index, (column, width, content) in enumerate(zip(columns, widths(columns, total), cells, strict=True)):
        if index:
            segments.append(GAP)
        segments.extend(fit(content, width, column.align))
    return segments


def header(columns: Sequence[Column], total: int) -> list[Segment]:
    """The column titles laid out like the rows below them."""
    return line(columns, [cell(c.title) for c in columns], total)
