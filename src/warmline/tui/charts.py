"""Small text charts: the warming score bar against its target, and the score over time.

The bar draws on a fixed 0-100 scale (the warming score's range), so bars of different
leads can be compared at a glance; the chart has its own labelled scale, dates and the
target line. Both are pure (Rich text from values, no Textual) and read the same in a
plain-text capture as in colour.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from datetime import datetime, tzinfo

from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from warmline.named_tuple import NamedTuple

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
    parts: list[tuple[str, Style | None]] = [
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


def _axis_date(moment: datetime, with_year: bool) -> str:
    """`3 Nov`, or `3 Nov '25` when the chart spans a new year."""
    return f"{moment.day} {moment:%b}" + (f" '{moment:%y}" if with_year else "")


def _date_labels(start: datetime, end: datetime, zone: tzinfo) -> list[str]:
    """First, middle and last label of the time axis, in the rep's zone.

    A chart within one day (many activities today) labels the clock times instead, the
    date once at the start; a chart of one instant has one label."""
    first, middle, last = (moment.astimezone(zone) for moment in (start, start + (end - start) / 2, end))
    if first == last:
        return [f"{_axis_date(first, False)} {first:%H:%M}"]
    if first.date() == last.date():
        return [f"{_axis_date(first, False)} {first:%H:%M}", f"{middle:%H:%M}", f"{last:%H:%M}"]
    with_year = first.year != last.year
    return [_axis_date(first, with_year), _axis_date(middle, with_year), _axis_date(last, with_year)]


def _time_axis(labels: Sequence[str], width: int) -> str:
    """The labels under the plot: the first at its left edge, the last at its right edge,
    the middle one centred; one that would touch another is left out."""
    line = [" "] * width
    placed: list[tuple[int, int]] = []

    def place(text: str, at: int) -> None:
        at = max(0, min(width - len(text), at))
        if at < 0 or any(at < end + 2 and begin < at + len(text) + 2 for begin, end in placed):
            return
        line[at : at + len(text)] = text
        placed.append((at, at + len(text)))

    place(labels[0], 0)
    if len(labels) > 1:
        place(labels[-1], width - len(labels[-1]))
        if len(labels) > 2 and labels[1] not in (labels[0], labels[-1]):
            place(labels[1], width // 2 - len(labels[1]) // 2)
    return "".join(line).rstrip()


class ChartStyles(NamedTuple):
    """Colours of the score chart; the plain text reads the same without them."""

    title: Style = Style(bold=True)
    bar: Style = Style(color="yellow")
    ready: Style = Style(color="green")
    target: Style = Style(color="cyan", bold=True)
    axis: Style = Style(dim=True)


CHART_TITLE = "Score over time"
CHART_STEP = 20
"""Score points per row of the chart: rows labelled 20, 40, 60, 80, 100."""
CHART_MAX_WIDTH = 60
TARGET_DASH = "┄"


def _column_scores(history: Sequence[tuple[datetime, int]], columns: int) -> list[int]:
    """The score at the end of each column's slice of time: the latest step at or before it."""
    start, end = history[0][0], history[-1][0]
    span = end - start
    if span.total_seconds() <= 0:
        return [history[-1][1]] * columns
    times = [moment for moment, _ in history]
    scores = []
    for column in range(columns):
        edge = start + span * (column + 1) / columns
        scores.append(history[max(0, bisect_right(times, edge) - 1)][1])
    return scores


def score_chart(
    history: Sequence[tuple[datetime, int]],
    target: int | None,
    zone: tzinfo,
    width: int,
    styles: ChartStyles | None = None,
    *,
    empty: str = "no activity yet",
) -> list[Text]:
    """The warming score over time as rows of text: a y scale, dates, and the target line.

    `history` is the score after each activity, oldest first, ending with the score now
    (`Store.lead_detail().score_history`, parsed); fewer than two points is no activity,
    said in words (`empty`) rather than drawn as an empty box. Each column is the score
    at the end of its slice of time, in eighths of a row; the target is a dashed line
    labelled with its value, and bars at or over it are coloured as ready. The scale
    runs from 0 to the higher of the target and the best score, in rows of 20, so the
    picture reads the same in a plain-text capture as in colour. Fits `width` cells.
    """
    styles = styles or ChartStyles()
    if len(history) < 2:
        return [Text.assemble((CHART_TITLE, styles.title), "  ", (empty, styles.axis), no_wrap=True)]
    history = sorted(history, key=lambda point: point[0])
    scores = [max(0, min(100, score)) for _, score in history]
    history = [(moment, score) for (moment, _), score in zip(history, scores, strict=True)]
    goal = target if target and 0 < target <= 100 else None
    top = min(100, max(2 * CHART_STEP, -(-max(goal or 0, *scores) // CHART_STEP) * CHART_STEP))
    target_label = f" target {goal}" if goal else ""
    columns = max(8, min(CHART_MAX_WIDTH, width - 4 - len(target_label)))
    values = _column_scores(history, columns)
    rows = [Text(CHART_TITLE, style=styles.title, no_wrap=True)]
    for bottom in range(top - CHART_STEP, -1, -CHART_STEP):
        row = Text(no_wrap=True)
        row.append(f"{bottom + CHART_STEP:>3}┤", style=styles.axis)
        target_row = goal is not None and bottom < goal <= bottom + CHART_STEP
        for value in values:
            eighths = round(max(0, min(CHART_STEP, value - bottom)) * 8 / CHART_STEP)
            if value > bottom and eighths == 0:
                eighths = 1  # a score in this row never rounds away to nothing
            if eighths:
                row.append(SPARKS[eighths - 1], style=styles.ready if goal and value >= goal else styles.bar)
            elif target_row:
                row.append(TARGET_DASH, style=styles.target)
            else:
                row.append(" ")
        if target_row:
            row.append(target_label, style=styles.target)
        row.rstrip()
        rows.append(row)
    rows.append(Text.assemble(("  0└" + "─" * columns, styles.axis), no_wrap=True))
    axis = _time_axis(_date_labels(history[0][0], history[-1][0], zone), columns)
    rows.append(Text.assemble(("    " + axis, styles.axis), no_wrap=True))
    return rows
