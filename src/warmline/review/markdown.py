"""The review as Markdown, for a chat message: a heading, the counts, a day-by-day table,
the leads that moved and the pending line. Every piece of text from the cache is escaped
(`md`): a company called `**Acme** [click](x)` reads as written, not as formatting."""

from __future__ import annotations

import re

from warmline.review.model import LeadMention, Review
from warmline.review.words import (
    by_type_line,
    change,
    day_label,
    figures,
    made_line,
    money,
    pending_line,
    spark,
    title,
    type_name,
)
from warmline.textsafe import terminal_line
from warmline.vocabulary import plural

WHOLE_WEEKS = 14
"""Up to this many days, the table has a row for each day, empty ones included."""
LISTED = 10
"""Leads named under each heading; the rest are counted ("and 12 more")."""

_SPECIAL = re.compile(r"([\\`*_\[\]|<>~&])")


def md(text: object) -> str:
    """Text from the cache as literal Markdown on one line: no control characters, and
    every character that starts emphasis, code, a link, a table cell or HTML escaped (in
    running text a `#` or a `-` only acts at the start of a line, where data never is)."""
    return _SPECIAL.sub(r"\\\1", terminal_line(text))


def render_markdown(review: Review) -> str:
    lines = [f"## {title(review)}", "", f"_{made_line(review)}_", ""]
    if review.is_empty:
        lines += ["Nothing recorded in these days.", ""]
    groups: dict[str, list[str]] = {}
    for figure in figures(review):
        groups.setdefault(figure.group, []).append(figure.words())
    for group, parts in groups.items():
        lines.append(f"- **{group}:** {' · '.join(parts)}")
    if review.activities:
        lines.append(f"- **By type:** {md(by_type_line(review))}")
    for name, deals in (("opened", review.opened), ("won", review.won), ("lost", review.lost)):
        if deals.count:
            lines.append(f"- **Deals {name}:** {md(money(deals.values))}")
    lines.append("")
    if review.activities or review.notes:
        lines += _day_table(review)
    if review.scores:
        lines += ["**Score movement** (start → end of the period, a mark a day)", ""]
        for move in review.scores:
            line = spark([p.score for p in move.points])
            lines.append(
                f"- {md(move.company)}: {move.start} → {move.end} ({change(move.change)}, target {move.target}) `{line}`"
            )
        lines.append("")
    for heading, mentions in (
        ("Reached their target", review.reached),
        ("Moved cold to warm", review.warmed),
        ("Went cold", review.went_cold),
        ("Leads touched", review.touched),
    ):
        lines += _names(heading, mentions)
    lines.append(f"> {md(pending_line(review))}")  # kind names come from the cache
    return "\n".join(lines) + "\n"


def _day_table(review: Review) -> list[str]:
    """A row a day (a long range leaves out the days with nothing), a column a type."""
    header = ["Day", *(md(type_name(name)) for name in review.types), "Notes", "Activities"]
    rows = [header, ["---"] * len(header)]
    for day in review.days:
        if review.period.length > WHOLE_WEEKS and not (day.activities or day.notes):
            continue
        rows.append(
            [
                day_label(day.day),
                *(str(c) for c in day.by_type),
                str(day.notes),
                str(day.activities),
            ]
        )
    totals = [str(count) for _, count in review.by_type()]
    rows.append(["**Total**", *totals, str(review.notes), str(review.activities)])
    return ["| " + " | ".join(row) + " |" for row in rows] + [""]


def _names(heading: str, mentions: tuple[LeadMention, ...]) -> list[str]:
    if not mentions:
        return []
    names = ", ".join(md(m.company) for m in mentions[:LISTED])
    more = len(mentions) - LISTED
    rest = f", and {plural(more, 'more', 'more')}" if more > 0 else ""
    return [f"**{heading}:** {names}{rest}", ""]
