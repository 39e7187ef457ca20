"""The review as one self-contained HTML file, for a manager's mail or a printer.

One file: inline SVG charts (`warmline.review.svg`), no script, no link, no image or font
fetched, so it opens the same offline, in a browser or a mail client. The layout is
simple tables with inline styles (mail clients drop most of a `<style>` block; the one
here only adds print rules), and every number is also in a table, so a client that
strips SVG still shows the whole review. Every text from the cache passes through `esc`.
Lists of leads are cut at `LISTED` names ("and 1,234 more"), which keeps the file small
at any size of cache (bench/bench_report.py).
"""

from __future__ import annotations

from warmline.review.model import LeadMention, Review
from warmline.review.svg import activity_chart, colour, esc, sparkline
from warmline.review.words import (
    change,
    day_label,
    figures,
    made_line,
    money,
    pending_line,
    title,
    type_name,
)
from warmline.vocabulary import plural

LISTED = 25
"""Leads named under each heading; the rest are counted."""

_FONT = "font-family: Helvetica, Arial, sans-serif"
_CELL = "padding: 3px 8px; border-bottom: 1px solid #e3e5e8; text-align: left; vertical-align: top"
_NUM = "padding: 3px 8px; border-bottom: 1px solid #e3e5e8; text-align: right; vertical-align: top"
_HEAD = "padding: 3px 8px; border-bottom: 2px solid #c9ccd1; text-align: left; font-weight: bold"
_H2 = "font-size: 16px; margin: 22px 0 6px 0; color: #1d2430"

_STYLE = """
@media print {
  body { margin: 0; color: #000; }
  .review { max-width: none !important; }
  h2, table, svg { break-inside: avoid; page-break-inside: avoid; }
  a { color: #000; text-decoration: none; }
}
""".strip()


def text(value: object) -> str:
    """Cache text for HTML: one line, no control characters, escaped, and no address a
    mail client would turn into a link (a zero-width space after the scheme's colon)."""
    return esc(value).replace("://", ":&#8203;//")


def render_html(review: Review) -> str:
    heading = title(review)
    body = [
        f'<h1 style="font-size: 20px; margin: 0 0 4px 0; color: #1d2430">{text(heading)}</h1>',
        f'<p style="margin: 0 0 14px 0; color: #59606b">{text(made_line(review))}</p>',
    ]
    if review.is_empty:
        body.append('<p style="margin: 8px 0">Nothing recorded in these days.</p>')
    body.append(_figures(review))
    body.append(f'<p style="margin: 10px 0; padding: 6px 10px; background: #fff6e0; border-left: 3px solid #e0a31e">'
                f"{text(pending_line(review))}</p>")  # fmt: skip
    if review.activities or review.notes:
        body.append(f'<h2 style="{_H2}">Activities per day</h2>')
        body.append(activity_chart(review))
        body.append(_day_table(review))
    if review.scores:
        body.append(f'<h2 style="{_H2}">Score movement of the top leads</h2>')
        body.append(_scores(review))
    for heading_text, mentions in (
        ("Reached their target", review.reached),
        ("Moved cold to warm", review.warmed),
        ("Went cold", review.went_cold),
        ("Deals opened", review.opened.leads),
        ("Deals won", review.won.leads),
        ("Deals lost", review.lost.leads),
        ("Leads touched", review.touched),
    ):
        body.append(_mentions(heading_text, mentions))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{text(heading)}</title><style>{_STYLE}</style></head>\n"
        f'<body style="margin: 0; padding: 16px; background: #ffffff; color: #1d2430; {_FONT}; font-size: 14px">\n'
        f'<div class="review" style="max-width: 720px">\n'
        + "\n".join(part for part in body if part)
        + "\n</div>\n</body></html>\n"
    )


def _table(head: list[str], rows: list[list[str]], numeric: set[int]) -> str:
    cells = "".join(f'<th style="{_HEAD}">{h}</th>' for h in head)
    lines = [f'<table cellspacing="0" cellpadding="0" style="border-collapse: collapse; {_FONT}; font-size: 13px">',
             f"<tr>{cells}</tr>"]  # fmt: skip
    for row in rows:
        lines.append("<tr>" + "".join(
            f'<td style="{_NUM if k in numeric else _CELL}">{cell}</td>' for k, cell in enumerate(row)
        ) + "</tr>")  # fmt: skip
    lines.append("</table>")
    return "\n".join(lines)


def _figures(review: Review) -> str:
    groups: dict[str, list[str]] = {}
    for figure in figures(review):
        count, _, label = figure.words().partition(" ")
        groups.setdefault(figure.group, []).append(f"<b>{count}</b> {esc(label)}")
    rows = [[f"<b>{esc(group)}</b>", " · ".join(parts)] for group, parts in groups.items()]
    for name, deals in (("opened", review.opened), ("won", review.won), ("lost", review.lost)):
        if deals.count:
            rows.append([f"<b>Deals {name}</b>", text(money(deals.values))])
    return _table(["", "This period"], rows, set())


def _swatch(shade: str) -> str:
    return f'<span style="display: inline-block; width: 9px; height: 9px; background: {shade}; margin-right: 4px"></span>'


def _day_table(review: Review) -> str:
    head = ["Day", *(_swatch(colour(review, k)) + text(type_name(name)) for k, name in enumerate(review.types)),
            "Notes", "Activities"]  # fmt: skip
    long = review.period.length > 14
    rows = [
        [
            esc(day_label(day.day)),
            *(str(c) for c in day.by_type),
            str(day.notes),
            f"<b>{day.activities}</b>",
        ]
        for day in review.days
        if not long or day.activities or day.notes
    ]
    rows.append(["<b>Total</b>", *(f"<b>{c:,}</b>" for _, c in review.by_type()), f"<b>{review.notes:,}</b>",
                 f"<b>{review.activities:,}</b>"])  # fmt: skip
    return _table(head, rows, set(range(1, len(head))))


def _scores(review: Review) -> str:
    rows = []
    for move in review.scores:
        dates = (
            f"{move.points[0].day:%a %d %b} to {move.points[-1].day:%a %d %b}"
            if move.points
            else ""
        )
        rows.append([
            text(move.company), f"{move.start} → {move.end}", esc(change(move.change)), str(move.target),
            sparkline(move) + f'<br><span style="color: #59606b; font-size: 11px">{esc(dates)}</span>',
        ])  # fmt: skip
    return _table(
        ["Lead", "Score", "Change", "Target", "Day by day (dashed: target)"], rows, {2, 3}
    )


def _mentions(heading: str, mentions: tuple[LeadMention, ...]) -> str:
    if not mentions:
        return ""
    rows = [
        [text(m.company), text(m.detail), esc(f"{m.at:%a %d %b %H:%M}") if m.at is not None else ""]
        for m in mentions[:LISTED]
    ]
    more = len(mentions) - LISTED
    tail = (
        f'<p style="margin: 4px 0; color: #59606b">and {esc(plural(more, "more", "more"))}</p>'
        if more > 0
        else ""
    )
    return (
        f'<h2 style="{_H2}">{esc(heading)} ({len(mentions):,})</h2>\n'
        + _table(["Lead", "", "When"], rows, set())
        + tail
    )
