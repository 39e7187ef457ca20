"""Looking at a table in a Pilot test: a `RowTable`'s cells' text, whether every column is on
screen (no horizontal scrolling), and the lines a Line-API list draws."""

from __future__ import annotations

from textual.scroll_view import ScrollView

from warmline.tui.widgets.tables import RowTable


def no_horizontal_scroll(table: RowTable) -> bool:
    """Every column on screen: the table's content is no wider than the table."""
    return (
        table.virtual_size.width <= table.scrollable_content_region.width
        and not table.show_horizontal_scrollbar
    )


def cell_texts(table: RowTable, column: int) -> list[str]:
    """The text of one column, row by row, as drawn (cut with an ellipsis when it is)."""
    return [table.get_row_at(row)[column].plain for row in range(table.row_count)]


def drawn_lines(widget: ScrollView) -> list[str]:
    """The text of each line a Line-API widget (a `VirtualList`, a `SectionList`) draws now."""
    return [
        "".join(segment.text for segment in widget.render_line(y))
        for y in range(widget.scrollable_content_region.height)
    ]
