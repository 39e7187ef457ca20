"""A small stacked bar chart in text: a bar a row, one segment a series, a legend line.

The week in review draws activities per day by type with it. Horizontal bars, because a
week is seven rows that fit 80 columns with their labels and counts, where columns of
bars would need more lines than a 24-line terminal spares. Each series has its own fill
character as well as its colour, so the chart reads in a monochrome terminal, a
screenshot and a plain-text capture. Colours are the theme's (`series_colours`).

`stacked_bars` is pure (Rich text from values), tested without Textual; `BarChart` draws
it at the width the widget gets.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from warmline.named_tuple import NamedTuple

FILLS = "█▓▒░▚▞■◆"
"""A fill character per series, in order (past eight they repeat)."""


class Bar(NamedTuple):
    """One row: its label and its value in each series."""

    label: str
    values: tuple[int, ...]


def stacked_bars(
    bars: Sequence[Bar], series: Sequence[str], width: int, colours: Sequence[str] = ()
) -> list[Text]:
    """The chart's lines at `width` cells: a legend, then a bar a row with its total; bars
    share one scale (the longest fills the room left by labels and totals). A non-zero
    value always gets at least one cell, so a single call still shows."""
    label_width = max((len(bar.label) for bar in bars), default=0)
    totals = [sum(bar.values) for bar in bars]
    total_width = len(f"{max(totals, default=0):,}")
    room = max(4, width - label_width - total_width - 2)
    top = max(totals, default=0) or 1
    styles = [
        Style(color=colours[k % len(colours)]) if colours else Style() for k in range(len(series))
    ]
    lines = [_legend(series, styles, width)]
    for bar, total in zip(bars, totals, strict=True):
        line = Text(bar.label.ljust(label_width) + " ", no_wrap=True, overflow="crop")
        cells = _cells(bar.values, room, top)
        for k, count in enumerate(cells):
            line.append(FILLS[k % len(FILLS)] * count, styles[k])
        line.append(" " * (room - sum(cells) + 1))
        line.append(f"{total:,}".rjust(total_width), Style(bold=bool(total), dim=not total))
        lines.append(line)
    return lines


def _cells(values: Sequence[int], room: int, top: int) -> list[int]:
    """Cells per series: the bar's length on the shared scale, shared in proportion, and
    a non-zero value keeps a cell (taken from the longest segment)."""
    total = sum(values)
    if not total:
        return [0] * len(values)
    length = max(sum(1 for v in values if v), round(total * room / top))
    cells = [max(1 if v else 0, v * length // total) for v in values]
    while sum(cells) > length:
        cells[cells.index(max(cells))] -= 1
    while sum(cells) < length:
        shares = [v * length / total - c for v, c in zip(values, cells, strict=True)]
        cells[shares.index(max(shares))] += 1
    return cells


def _legend(series: Sequence[str], styles: Sequence[Style], width: int) -> Text:
    legend = Text(no_wrap=True, overflow="ellipsis")
    for k, name in enumerate(series):
        if k:
            legend.append("  ")
        legend.append(FILLS[k % len(FILLS)] * 2, styles[k])
        legend.append(f" {name}")
    legend.truncate(width, overflow="ellipsis")
    return legend


class BarChart(Widget):
    """`stacked_bars` at the widget's width, in the theme's colours."""

    DEFAULT_CSS = """
    BarChart {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._bars: Sequence[Bar] = ()
        self._series: Sequence[str] = ()

    def show(self, bars: Sequence[Bar], series: Sequence[str]) -> None:
        self._bars, self._series = bars, series
        self.refresh(layout=True)

    def series_colours(self) -> list[str]:
        """The theme's accent colours, in an order where neighbours differ."""
        theme = self.app.current_theme
        found = [
            theme.primary,
            theme.secondary,
            theme.success,
            theme.error,
            theme.warning,
            theme.accent,
        ]
        return [colour for colour in found if colour]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._bars) + 1

    def render(self) -> Text:
        lines = stacked_bars(
            self._bars, self._series, self.content_size.width, self.series_colours()
        )
        return Text("\n", no_wrap=True).join(lines)
