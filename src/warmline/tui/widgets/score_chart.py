"""The lead page's score-over-time chart: a thin widget around `charts.score_chart`.

The chart is drawn for the width the widget gets (the page's column: about 57 cells at
120 columns, the whole width when the page stacks at 80), so it is computed at render
time; the drawing itself is the pure function, tested without Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from warmline.tui.charts import score_chart


class ScoreChart(Widget):
    """The warming score over time, with its scale, dates and the target line."""

    DEFAULT_CSS = """
    ScoreChart {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._history: Sequence[tuple[datetime, int]] = ()
        self._target: int | None = None
        self._zone: tzinfo = UTC
        self._empty = "no activity yet"

    def show(
        self,
        history: Sequence[tuple[datetime, int]],
        target: int | None,
        zone: tzinfo,
        *,
        empty: str = "no activity yet",
    ) -> None:
        """Draw this history (oldest first, ending with the score now); `empty` is what
        stands in for the chart when there is no activity to draw."""
        self._history, self._target, self._zone, self._empty = history, target, zone, empty
        self.refresh(layout=True)

    def _rows(self, width: int) -> list[Text]:
        return score_chart(self._history, self._target, self._zone, width, empty=self._empty)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._rows(width))

    def render(self) -> Text:
        return Text("\n", no_wrap=True).join(self._rows(self.content_size.width))
