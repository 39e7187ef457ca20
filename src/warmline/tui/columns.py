"""Column widths for the cockpit's tables, and line-rendered list rows built from Rich segments.

Every table sizes its columns the same way, so nothing hides behind a horizontal scrollbar:
fixed columns keep their width and the flexible text columns share what they leave
(`widths` for the virtual lists, whose widths are declared; `share` for the row tables,
whose widths come from their content).

A list row is drawn for every visible line on every scroll, so it skips `rich.text.Text`
(whose general rendering costs about half a millisecond a line) and lays out plain
`Segment`s.
"""

from collections.abc import Iterable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style

from warmline.named_tuple import NamedTuple

Cell = Sequence[Segment]
GAP = Segment(" ")
ELLIPSIS = "…"


class Column(NamedTuple):
    """A column; `width=0` marks a flexible column (at least `min_width` cells).

    In a virtual list the flexible columns split what the fixed ones leave in proportion to
    their `min_width`. In a `RowTable` a plain title is a column as wide as its content and
    a flexible `Column` takes its content's width when there is room, else a share.
    """

    title: str
    width: int = 0
    align: str = "left"  # left | right
    min_width: int = 8
    first: bool = False
    """Cut last: the row's identity (a contact's name) keeps its content's width before the
    other flexible columns share the rest (`share`)."""


def widths(columns: Sequence[Column], total: int, wanted: Sequence[int] | None = None) -> list[int]:
    """Cell widths of `columns` for a line of `total` cells.

    With `wanted` (the content's width per column, e.g. measured on the first page of a
    list) the flexible columns are sized as in a `RowTable` (`share`); without it they
    split what the fixed ones leave in proportion to their `min_width`, never below it."""
    gaps = len(GAP.text) * (len(columns) - 1)
    if wanted is not None:
        return share(
            [c.width or max(w, cell_len(c.title)) for c, w in zip(columns, wanted, strict=True)],
            [not c.width for c in columns], total - gaps, [c.min_width for c in columns],
            [c.first for c in columns],
        )
    rest = total - sum(c.width for c in columns if c.width) - gaps
    weight = sum(c.min_width for c in columns if not c.width) or 1
    result: list[int] = []
    seen = given = 0
    for column in columns:
        if column.width:
            result.append(column.width)
            continue
        seen += column.min_width
        upto = rest * seen // weight
        result.append(max(column.min_width, upto - given))
        given = upto
    return result


def share(
    wanted: Sequence[int],
    flexible: Sequence[bool],
    room: int,
    minimum: Sequence[int],
    first: Sequence[bool] | None = None,
) -> list[int]:
    """Widths for columns whose content is `wanted` cells wide, in `room` cells.

    Fixed columns keep their content's width. Flexible ones keep theirs too when everything
    fits; else they split what the fixed ones leave: a column that wants less than an even
    share keeps its width and the rest is split evenly among the others, so a short column
    is never cut to make room for a long one. A flexible column keeps at least its
    `minimum` (or its content, when shorter), even if the table must then scroll.

    A column marked in `first` (the row's identity: a contact's name) is served before the
    split: its content's width, as far as the others' minimums leave room.
    """
    result = list(wanted)
    rest = room - sum(width for width, flex in zip(wanted, flexible, strict=True) if not flex)
    served = [bool(first and first[index]) for index in range(len(wanted))]
    smallest = [min(w, m) for w, m in zip(wanted, minimum, strict=True)]
    for index in (index for index, flex in enumerate(flexible) if flex and served[index]):
        others = sum(smallest[other] for other, flex in enumerate(flexible) if flex and not served[other])
        result[index] = max(min(wanted[index], rest - others), smallest[index])
        rest -= result[index]
    order = sorted(
        (index for index, flex in enumerate(flexible) if flex and not served[index]), key=lambda index: wanted[index]
    )
    for done, index in enumerate(order):
        even = max(rest // (len(order) - done), 0)
        later = sum(smallest[other] for other in order[done + 1 :])  # never at the cost of their minimum
        result[index] = max(min(wanted[index], even, rest - later), smallest[index])
        rest -= result[index]
    return result


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


def line(
    columns: Sequence[Column], cells: Sequence[Cell], total: int, wanted: Sequence[int] | None = None
) -> list[Segment]:
    """Lay out `cells` into one line of `total` cells (`wanted`: see `widths`)."""
    segments: list[Segment] = []
    for index, (column, width, content) in enumerate(zip(columns, widths(columns, total, wanted), cells, strict=True)):
        if index:
            segments.append(GAP)
        segments.extend(fit(content, width, column.align))
    return segments


def header(columns: Sequence[Column], total: int, wanted: Sequence[int] | None = None) -> list[Segment]:
    """The column titles laid out like the rows below them."""
    return line(columns, [cell(c.title) for c in columns], total, wanted)


def measure(rows: Iterable[Sequence[Cell]]) -> list[int] | None:
    """The widest content of each column of `rows` (None when there are no rows)."""
    wanted: list[int] | None = None
    for cells in rows:
        sizes = [sum(cell_len(segment.text) for segment in content) for content in cells]
        wanted = sizes if wanted is None else [max(a, b) for a, b in zip(wanted, sizes, strict=True)]
    return wanted
