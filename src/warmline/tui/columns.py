"""Fixed-width columns for line-rendered lists: one flexible column takes what is left."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

GAP = " "


@dataclass(frozen=True)
class Column:
    """A column; `width=0` marks the one flexible column (at least `min_width` cells)."""

    title: str
    width: int = 0
    align: str = "left"  # left | right
    min_width: int = 8


def widths(columns: Sequence[Column], total: int) -> list[int]:
    """Cell widths of `columns` for a line of `total` cells."""
    fixed = sum(c.width for c in columns if c.width) + len(GAP) * (len(columns) - 1)
    flexible = max(next((c.min_width for c in columns if not c.width), 0), total - fixed)
    return [c.width or flexible for c in columns]


def fit(cell: Text, width: int, align: str = "left") -> Text:
    """`cell` cut or padded to exactly `width` cells (wide characters counted right)."""
    cell = cell.copy()
    cell.no_wrap = True
    if cell_len(cell.plain) > width:
        cell.truncate(width, overflow="ellipsis")
    padding = width - cell_len(cell.plain)
    if padding > 0:
        if align == "right":
            cell = Text(" " * padding) + cell
        else:
            cell.append(" " * padding)
    return cell


def line(columns: Sequence[Column], cells: Sequence[Text], total: int) -> Text:
    """Join `cells` into one line laid out by `columns`."""
    result = Text(no_wrap=True)
    for index, (column, width, cell) in enumerate(zip(columns, widths(columns, total), cells, strict=True)):
        if index:
            result.append(GAP)
        result.append_text(fit(cell, width, column.align))
    return result


def header(columns: Sequence[Column], total: int) -> Text:
    """The column titles laid out like the rows below them."""
    return line(columns, [Text(c.title) for c in columns], total)
