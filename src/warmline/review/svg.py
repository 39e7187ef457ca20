"""The HTML report's charts as inline SVG: activities per day stacked by type, and a
lead's score as a sparkline with its dates. Markup built by hand (a few elements each):
no library, nothing fetched, no script. Every text is escaped by `esc`; numbers are
formatted by us."""

from __future__ import annotations

from html import escape

from warmline.review.model import OTHER_TYPE, Review, ScoreMove
from warmline.review.words import type_name
from warmline.textsafe import terminal_line

PALETTE = ("#2f6fb0", "#e08a1e", "#3a9a5b", "#b8433f", "#7d5ba6", "#8c6d31", "#c45a9a", "#4c9fa8")
"""Colours of the activity types, in `Review.types` order; "other" is grey. Distinct in
print and for the common colour blindness (blue/orange first)."""
OTHER_COLOUR = "#8a8f98"

CHART_WIDTH = 640
CHART_HEIGHT = 220
_LEFT, _BOTTOM, _TOP = 36, 28, 10


def esc(text: object) -> str:
    """Text for HTML and SVG, in an element or an attribute: one line, no control
    character or escape sequence (`textsafe.terminal_line`: a name or an activity type
    from the service may carry them), then escaped."""
    return escape(terminal_line(text), quote=True)


def colour(review: Review, index: int) -> str:
    name = review.types[index]
    return OTHER_COLOUR if name == OTHER_TYPE else PALETTE[index % len(PALETTE)]


def _nice_top(value: int) -> int:
    """A round top for the axis at or above `value` (1, 2, 5, 10, 20, 50, ...)."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return step * factor
        step *= 10


def activity_chart(review: Review) -> str:
    """Bars of activities per day, stacked by type, with an axis and the days named."""
    days = review.days
    top = _nice_top(max([d.activities for d in days] + [1]))
    plot_w = CHART_WIDTH - _LEFT - 8
    plot_h = CHART_HEIGHT - _BOTTOM - _TOP
    slot = plot_w / max(1, len(days))
    bar = max(1.0, slot * 0.7)
    parts = [
        f'<svg width="{CHART_WIDTH}" height="{CHART_HEIGHT}"'
        f' viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img"'
        f' aria-label="{esc(f"Activities per day, {review.activities} in all")}"'
        ' style="font-family: Helvetica, Arial, sans-serif; font-size: 11px; max-width: 100%; height: auto">'
    ]
    for mark in (0, top // 2, top) if top > 1 else (0, top):
        y = _TOP + plot_h - plot_h * mark / top
        parts.append(
            f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{CHART_WIDTH - 8}" y2="{y:.1f}" stroke="#d5d8dd" stroke-width="1"/>'
            f'<text x="{_LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" fill="#444">{mark}</text>'
        )
    every = max(1, round(len(days) / 14))  # at most ~14 day names under the bars
    for k, day in enumerate(days):
        x = _LEFT + k * slot + (slot - bar) / 2
        y = _TOP + plot_h
        for index, count in enumerate(day.by_type):
            if not count:
                continue
            height = plot_h * count / top
            y -= height
            label = f"{day.day:%a %d %b}: {count} {type_name(review.types[index])}"
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{height:.1f}"'
                f' fill="{colour(review, index)}"><title>{esc(label)}</title></rect>'
            )
        if day.activities and len(days) <= 31:
            parts.append(
                f'<text x="{x + bar / 2:.1f}" y="{y - 3:.1f}" text-anchor="middle" fill="#222">{day.activities}</text>'
            )
        if k % every == 0:
            name = f"{day.day:%a %d}" if len(days) <= 14 else f"{day.day:%d %b}"
            parts.append(
                f'<text x="{x + bar / 2:.1f}" y="{CHART_HEIGHT - 10}" text-anchor="middle" fill="#444">{esc(name)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


SPARK_WIDTH = 160
SPARK_HEIGHT = 36


def sparkline(move: ScoreMove) -> str:
    """The lead's score day by day on a 0-100 scale, its target dashed, the last point marked."""
    points = move.points
    if not points:
        return ""
    pad = 3
    inner_w, inner_h = SPARK_WIDTH - 2 * pad, SPARK_HEIGHT - 2 * pad

    def xy(index: int, score: int) -> tuple[float, float]:
        x = pad + (inner_w * index / (len(points) - 1) if len(points) > 1 else inner_w / 2)
        return x, pad + inner_h * (1 - max(0, min(100, score)) / 100)

    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(k, p.score) for k, p in enumerate(points)))
    target_y = xy(0, move.target)[1]
    last_x, last_y = xy(len(points) - 1, points[-1].score)
    label = f"{move.company}: {move.start} to {move.end}, {points[0].day:%d %b} to {points[-1].day:%d %b}"
    return (
        f'<svg width="{SPARK_WIDTH}" height="{SPARK_HEIGHT}"'
        f' viewBox="0 0 {SPARK_WIDTH} {SPARK_HEIGHT}" role="img" aria-label="{esc(label)}">'
        f"<title>{esc(label)}</title>"
        f'<line x1="{pad}" y1="{target_y:.1f}" x2="{SPARK_WIDTH - pad}" y2="{target_y:.1f}"'
        ' stroke="#3a9a5b" stroke-width="1" stroke-dasharray="3,2"/>'
        f'<polyline points="{line}" fill="none" stroke="#2f6fb0" stroke-width="1.6"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="2.4" fill="#2f6fb0"/>'
        "</svg>"
    )
