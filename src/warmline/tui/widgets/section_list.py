"""Rows in groups under headings that only label them: Today, the agenda, search results and
the people a search found. The cursor steps over the headings (by keys, mouse or after a
fill), so every row it lands on is one a key can act on.

It is a `VirtualList` over rows held in memory, drawn with the Line API, rather than a
`DataTable`: Today is the cockpit's first screen, and a DataTable's cell rendering was
about a tenth of the instructions to the first frame (bench/bench_first_frame.py). Its
columns are sized as a `RowTable`'s are (`warmline.tui.columns.share`): a plain title is
as wide as its content, a `Column(title)` is flexible text sharing what is left, cut with
an ellipsis. Each cell keeps a space on either side.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding

from warmline.tui.columns import Column, fit, share
from warmline.tui.widgets.virtual_list import VirtualList

Row = tuple[str, list[Text]]
"""A row's key (a heading's starts with the list's heading prefix) and its cells."""
Rows = list[Row]
PAD = Segment(" ")


class RowsSource:
    """Rows already in memory, as a `RowSource`."""

    def __init__(self, rows: Rows) -> None:
        self._rows = rows

    def count(self) -> int:
        return len(self._rows)

    def rows(self, offset: int, limit: int) -> Sequence[Row]:
        return self._rows[offset : offset + limit]


class SectionFormatter:
    """Lays rows out in columns sized from all the rows' content and the width there is;
    a cell's segments are made once a fill, when its row is first drawn."""

    def __init__(self, columns: tuple[str | Column, ...]) -> None:
        self.columns = tuple(spec if isinstance(spec, Column) else Column(spec, width=-1) for spec in columns)
        self._flexible = [spec.width == 0 for spec in self.columns]
        self._minimum = [spec.min_width for spec in self.columns]
        self._console: Console | None = None
        self._wanted = [cell_len(spec.title) for spec in self.columns]
        self._segments: dict[str, list[list[Segment]]] = {}
        self._widths: dict[int, list[int]] = {}

    def use(self, rows: Rows, console: Console) -> None:
        """Size the columns for `rows`, drawn on `console`."""
        self._console = console
        self._segments.clear()
        self._widths.clear()
        self._wanted = [
            max([cell_len(spec.title), *(cells[index].cell_len for _, cells in rows)])
            for index, spec in enumerate(self.columns)
        ]

    def widths(self, width: int) -> list[int]:
        """The columns' content widths in a line of `width` cells."""
        found = self._widths.get(width)
        if found is None:
            room = width - 2 * len(PAD.text) * len(self.columns)
            found = share(self._wanted, self._flexible, room, self._minimum) if room > 0 else list(self._wanted)
            self._widths[width] = found
        return found

    def header(self, width: int) -> list[Segment]:
        return self._line([[Segment(spec.title)] for spec in self.columns], width)

    def row(self, item: Row, width: int) -> list[Segment]:
        key, cells = item
        segments = self._segments.get(key)
        if segments is None:
            assert self._console is not None  # `use` comes before any row is drawn
            segments = self._segments[key] = [_segments(text, self._console) for text in cells]
        return self._line(segments, width)

    def _line(self, cells: Sequence[Sequence[Segment]], width: int) -> list[Segment]:
        """The cells laid out; as in a spreadsheet, a cell's text too long for its column
        runs on over the empty cells after it (a heading's title, over its row's blanks)."""
        sizes = self.widths(width)
        line: list[Segment] = []
        index = 0
        while index < len(cells):
            content, size, end = cells[index], sizes[index], index + 1
            length = _length(content)
            while length > size and end < len(cells) and not _length(cells[end]):
                size += 2 * len(PAD.text) + sizes[end]
                end += 1
            line.append(PAD)
            line.extend(fit(content, size, self.columns[index].align))
            line.append(PAD)
            index = end
        return line


def _segments(text: Text, console: Console) -> list[Segment]:
    """`text` as segments in its own style, which Rich's `Text.render` leaves to its caller
    when the text has no spans."""
    if text.spans:
        return list(text.render(console))
    return [Segment(text.plain, console.get_style(text.style, default=Style.null()))] if text.plain else []


def _length(cell: Sequence[Segment]) -> int:
    return sum(cell_len(segment.text) for segment in cell)


class SectionList(VirtualList[Row]):
    """Grouped rows whose heading rows (keys starting with `heading_prefix`) the cursor
    steps over; `fill` replaces the rows and keeps the cursor on the same key when it is
    still there (else on the same line)."""

    HEADING_PREFIX = "heading:"

    # What enter opens is the screen's to say (Today's "Open", say), as with a `RowTable`.
    BINDINGS = [Binding("enter", "select", "Open", show=False, id="list.open")]

    def __init__(
        self,
        columns: tuple[str | Column, ...],
        *,
        header: bool = False,
        heading_prefix: str = HEADING_PREFIX,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        self._prefix = heading_prefix
        self._layout = SectionFormatter(columns)
        super().__init__(
            self._layout,
            RowsSource([]),
            key=lambda row: row[0],
            skip=lambda row: row[0].startswith(heading_prefix),
            header=header,
            empty_text="",
            id=id,
            classes=classes,
        )
        self._rows: Rows = []

    def fill(self, rows: Rows) -> None:
        self._rows = rows
        self._layout.use(rows, self.app.console)
        # One page holds every row: the count is exact at once (no counting thread) and
        # the row the cursor was on is found wherever it moved.
        self._page_size = len(rows) + 1
        self.set_source(RowsSource(rows), keep_cursor=True)

    @property
    def column_widths(self) -> list[int]:
        """The cell widths the columns have now (without the cells' padding)."""
        return self._layout.widths(self.scrollable_content_region.width)

    @property
    def keys(self) -> list[str]:
        return [key for key, _ in self._rows]

    @property
    def current_key(self) -> str | None:
        row = self.current
        return row[0] if row is not None else None

    def cells_at(self, index: int) -> list[Text]:
        """The whole cells of row `index` (as given to `fill`, before any cut)."""
        return self._rows[index][1]

    def index_of_key(self, key: str) -> int:
        return self.keys.index(key)

    def is_heading(self, index: int) -> bool:
        return self._rows[index][0].startswith(self._prefix)
