"""A row table that moves like the rest of the cockpit (j/k, g/G), keeps its place, and
sizes its columns from their content and the width it has (`warmline.tui.columns.share`)."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import DataTable

from warmline.tui.columns import Column, share

Rows = list[tuple[str, list[Text]]]


class RowTable(DataTable[Any]):
    """A `DataTable` of a few hundred rows at most (long lists use `VirtualList`; rows
    grouped under headings, `SectionList`).

    A column given as a plain title is as wide as its content (a mark, a score, a date);
    one given as `Column(title)` (width 0) is flexible text (names, domains, emails): it
    takes its content's width when there is room and otherwise shares what the fixed
    columns leave, cut with an ellipsis, so nothing hides behind a horizontal scrollbar.
    The widths are worked out again on every fill and whenever the table's width changes.
    """

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="table.down"),
        Binding("k", "cursor_up", "Up", show=False, id="table.up"),
        Binding("g", "scroll_top", "First", show=False, id="table.first"),
        Binding("G", "scroll_bottom", "Last", show=False, id="table.last"),
    ]

    def __init__(
        self, columns: tuple[str | Column, ...], *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes, cursor_type="row", zebra_stripes=False)
        self._specs = tuple(spec if isinstance(spec, Column) else Column(spec, width=-1) for spec in columns)
        self._rows: Rows = []
        self._widths: list[int] = []

    def on_mount(self) -> None:
        self._lay_out(force=True)

    def on_resize(self) -> None:
        self._lay_out()

    @property
    def column_widths(self) -> list[int]:
        """The cell widths the columns have now (without the cell padding)."""
        return list(self._widths)

    def fill(self, rows: Rows) -> None:
        """Replace the rows, keeping the cursor on the same key when it is still there."""
        self._rows = rows
        self._lay_out(force=True)
        self.refresh_bindings()  # the screen's row keys come and go with the rows (`has_rows`)

    def _room(self) -> int:
        """Cells the columns' content may take: the width inside the table (less a vertical
        scrollbar when the rows need one) less each column's padding; 0 before layout."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return 0
        header = self.header_height if self.show_header else 0
        if not self.show_vertical_scrollbar and len(self._rows) + header > self.size.height > 0:
            width -= self.styles.scrollbar_size_vertical  # the bar the new rows are about to bring
        return width - 2 * self.cell_padding * len(self._specs)

    def _wanted(self) -> list[int]:
        return [
            max([cell_len(spec.title), *(cells[index].cell_len for _, cells in self._rows)])
            for index, spec in enumerate(self._specs)
        ]

    def _lay_out(self, *, force: bool = False) -> None:
        wanted = self._wanted()
        room = self._room()
        flexible = [spec.width == 0 for spec in self._specs]
        widths = share(wanted, flexible, room, [spec.min_width for spec in self._specs]) if room > 0 else wanted
        if widths == self._widths and not force:
            return
        current = self.current_key
        row = self.cursor_row
        if widths != self._widths or not self.columns:
            self.clear(columns=True)
            for spec, width in zip(self._specs, widths, strict=True):
                # a title (markup, service text escaped) cut as the cells are: with an ellipsis
                self.add_column(fitted(Text.from_markup(spec.title), width), width=width)
            self._widths = widths
            # Textual decides scrollbars when a widget's size or virtual size changes in a
            # layout, but a DataTable sets its virtual size itself, so the layout sees no
            # change: a horizontal bar shown while the columns were wide (the first fill,
            # before the table had its width) stayed after they were fitted. Decide again.
            self.call_after_refresh(self._refresh_scrollbars)
        else:
            self.clear()
        for key, cells in self._rows:
            self.add_row(*(fitted(text, width) for text, width in zip(cells, widths, strict=True)), key=key)
        if not self._rows:
            return
        keys = [key for key, _ in self._rows]
        target = keys.index(current) if current in keys else min(row, len(self._rows) - 1)
        self.move_cursor(row=target, animate=False)

    @property
    def current_key(self) -> str | None:
        if self.row_count == 0:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value


def fitted(text: Text, width: int) -> Text:
    """`text` cut to `width` cells with an ellipsis (a copy; the row keeps the whole text
    for when the table grows again)."""
    if text.cell_len <= width:
        return text
    cut = text.copy()
    cut.truncate(width, overflow="ellipsis")
    return cut


def has_rows(screen: DOMNode) -> bool:
    """Whether a table on `screen` has a row: its keys for the highlighted row (enter to
    open) leave the key bar while there is none, as keys with nothing to act on do."""
    return any(table.row_count for table in screen.query(RowTable))
