"""Small text charts: the warming score bar against its target, and the score trend.

Both draw on a fixed 0-100 scale (the warming score's range), so bars and trends of
different leads can be compared at a glance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text

FILLED = "█"
EMPTY = "░"
TARGET = "│"
SPARKS = "▁▂▃▄▅▆▇█"


class BarStyles(NamedTuple):
    """Colours of a score bar; screens pass theme colours in, tests use the defaults."""

    filled: Style = Style(color="yellow")
    ready: Style = Style(color="green")
    empty: Style = Style(color="grey50")
    target: Style = Style(bold=True)


def is_ready(score: int | None, target: int | None) -> bool:
    """A lead is ready for direct outreach once its warming score reaches its target."""
    return score is not None and target is not None and target > 0 and score >= target


def _cells(value: int, width: int) -> int:
    return max(0, min(width, round(max(0, min(100, value)) * width / 100)))


def score_bar_segments(
    score: int | None,
    target: int | None,
    width: int = 10,
    styles: BarStyles | None = None,
    *,
    numbers: bool = True,
) -> list[Segment]:
    """`████████░░│░░ 64/80` as segments: the score filled in, the target as a marker.

    Segments (not `Text`) because the lead list draws one per visible row per frame.
    """
    styles = styles or BarStyles()
    value = score or 0
    filled = _cells(value, width)
    fill_style = styles.ready if is_ready(score, target) else styles.filled
    marker = _cells(target, width) if target else None
    split = width if marker is None else marker
    parts = [
        (FILLED * min(filled, split), fill_style),
        (EMPTY * (split - min(filled, split)), styles.empty),
    ]
    if marker is not None:
        parts += [
            (TARGET, styles.target),
            (FILLED * max(0, filled - marker), fill_style),
            (EMPTY * (width - max(filled, marker)), styles.empty),
        ]
    else:
        parts.append((" ", None))
    if numbers:
        parts.append((f" {value:>3}/{target if target else '-':<3}", None))
    return [Segment(text, style) for text, style in parts if text]


def score_bar(
    score: int | None,
    target: int | None,
    width: int = 10,
    styles: BarStyles | None = None,
    *,
    numbers: bool = True,
) -> Text:
    """The score bar as `Text`, for screens that compose it with other text."""
    segments = score_bar_segments(score, target, width, styles, numbers=numbers)
    return Text.assemble(*((segment.text, segment.style or "") for segment in segments), no_wrap=True)


def sparkline(values: Sequence[int], width: int) -> Text:
    """The score over time in `width` cells, each the latest score within its slice."""
    if not values or width <= 0:
        return Text("no history yet", style="dim")
    if len(values) > width:
        step = len(values) / width
        values = [values[min(len(values) - 1, int((i + 1) * step) - 1)] for i in range(width)]
    top = len(SPARKS) - 1
    return Text(
        "".join(SPARKS[round(max(0, min(100, v)) * top / 100)] for v in values), no_wrap=True
    )
