"""A row table that moves like the rest of the cockpit (j/k, g/G) and keeps its place."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable


class RowTable(DataTable[Any]):
    """A `DataTable` of a few hundred rows at most (long lists use `VirtualList`)."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="table.down"),
        Binding("k", "cursor_up", "Up", show=False, id="table.up"),
        Binding("g", "scroll_top", "First", show=False, id="table.first"),
        Binding("G", "scroll_bottom", "Last", show=False, id="table.last"),
    ]

    def __init__(self, columns: tuple[str, ...], *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="row", zebra_stripes=False)
        self._column_titles = columns

    def on_mount(self) -> None:
        self._ensure_columns()

    def _ensure_columns(self) -> None:
        if not self.columns:
            self.add_columns(*self._column_titles)

    def fill(self, rows: list[tuple[str, list[Text]]]) -> None:
        """Replace the rows, keeping the cursor on the same key when it is still there."""
        self._ensure_columns()
        current = self.current_key
        row = self.cursor_row
        self.clear()
        for key, cells in rows:
            self.add_row(*cells, key=key)
        if not rows:
            return
        keys = [key for key, _ in rows]
        target = keys.index(current) if current in keys else min(row, len(rows) - 1)
        self.move_cursor(row=target, animate=False)

    @property
    def current_key(self) -> str | None:
        if self.row_count == 0:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
