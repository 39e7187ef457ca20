"""The review as CSV, for a spreadsheet: one long table a pivot reads, a row per fact.

Columns (`COLUMNS`): `section` (summary, activities, notes, score, the lead lists,
deal_values, pending), `metric` (what is counted: a label, an activity type, a detail),
`day` (ISO 8601, for the rows of a day), `lead_id`, `company`, `count` (a count, or a
score for `score` rows), `value` and `currency` (deals), `at` (a moment, with the rep's
offset). Every text cell is guarded against formula injection (`textsafe.csv_text`): a
company named `=HYPERLINK(...)` stays text in a spreadsheet.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from warmline.review.model import Deals, LeadMention, Review
from warmline.review.words import figures
from warmline.textsafe import csv_text

COLUMNS = ("section", "metric", "day", "lead_id", "company", "count", "value", "currency", "at")

Row = list[object]


def _row(section: str, metric: str = "", **cells: object) -> Row:
    return [section, metric, *(cells.get(name, "") for name in COLUMNS[2:])]


def _mentions(section: str, mentions: tuple[LeadMention, ...]) -> Iterator[Row]:
    for m in mentions:
        yield _row(section, m.detail, lead_id=m.lead_id, company=m.company,
                   at=m.at.isoformat() if m.at is not None else "")  # fmt: skip


def _deals(name: str, deals: Deals) -> Iterator[Row]:
    yield from _mentions(f"deal_{name}", deals.leads)
    for money in deals.values:
        yield _row(
            "deal_values",
            name,
            count=money.deals,
            value=f"{money.total:.2f}",
            currency=money.currency,
        )


def rows(review: Review) -> Iterator[Row]:
    for figure in figures(review):
        yield _row("summary", f"{figure.group.lower()}: {figure.label}", count=figure.value)
    for day in review.days:
        for name, count in zip(review.types, day.by_type, strict=True):
            if count:
                yield _row("activities", name, day=day.day.isoformat(), count=count)
        if day.notes:
            yield _row("notes", "notes written", day=day.day.isoformat(), count=day.notes)
    for move in review.scores:
        for point in move.points:
            yield _row("score", f"target {move.target}", day=point.day.isoformat(), lead_id=move.lead_id,
                       company=move.company, count=point.score)  # fmt: skip
    yield from _mentions("reached_target", review.reached)
    yield from _mentions("moved_cold_to_warm", review.warmed)
    yield from _mentions("went_cold", review.went_cold)
    yield from _mentions("touched", review.touched)
    for name, deals in (("opened", review.opened), ("won", review.won), ("lost", review.lost)):
        yield from _deals(name, deals)
    pending = review.pending
    yield _row("pending", "unsent", count=pending.unsent)
    yield _row("pending", "failed", count=pending.failed)
    for kind, count in pending.by_kind:
        yield _row("pending", kind, count=count)


def _cell(value: object) -> str:
    if isinstance(value, int):
        return str(value)
    return csv_text(value) if value else ""


def render_csv(review: Review) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows(review):
        writer.writerow([_cell(cell) for cell in row])
    return out.getvalue()
