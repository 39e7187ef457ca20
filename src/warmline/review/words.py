"""The review's figures in words, shared by every renderer and the cockpit's screen, so a
chat message, a mail and the screen say the same thing the same way. Plain text: each
renderer escapes it for where it goes."""

from __future__ import annotations

from datetime import date

from warmline.amounts import amount
from warmline.named_tuple import NamedTuple
from warmline.review.model import Money, Review
from warmline.review.period import Period
from warmline.vocabulary import activity_name, kind_short, plural

SPARKS = "▁▂▃▄▅▆▇█"


class Figure(NamedTuple):
    """One count of the summary: its group, its label (`one` when the count is 1)."""

    group: str
    label: str
    value: int
    one: str = ""

    def words(self) -> str:
        """ "6 activities logged", "1 note written"."""
        return f"{self.value:,} {self.one if self.value == 1 and self.one else self.label}"


def title(review: Review) -> str:
    """ "Week in review · 2026-W48 · Mon 23 Nov to Sun 29 Nov 2026"."""
    return period_title(review.period)


def period_title(period: Period) -> str:
    """The title of a review of `period` (before the review is read, too)."""
    what = "Week in review" if period.week else "Review"
    first = period.first.strftime("%a %d %b") + (
        "" if period.first.year == period.last.year else f" {period.first.year}"
    )
    span = f"{first} to {period.last.strftime('%a %d %b %Y')}"
    return f"{what} · {period.week} · {span}" if period.week else f"{what} · {span}"


def made_line(review: Review) -> str:
    """Where the figures come from: the cache, when, in which zone."""
    zone = f" ({review.zone})" if review.zone else ""
    return f"From the cache on {review.generated_at:%Y-%m-%d %H:%M}{zone}; days are the rep's."


def figures(review: Review) -> list[Figure]:
    """Every count of the review, in the order a manager reads them."""
    return [
        Figure("Activity", "activities logged", review.activities, "activity logged"),
        Figure("Activity", "notes written", review.notes, "note written"),
        Figure("Leads", "touched", len(review.touched)),
        Figure("Leads", "moved cold to warm", len(review.warmed)),
        Figure("Leads", "reached target", len(review.reached)),
        Figure("Leads", "went cold", len(review.went_cold)),
        Figure("Recommendations", "completed", review.completed),
        Figure("Recommendations", "dismissed", review.dismissed),
        Figure("Follow-ups", "made", review.follow_ups.made),
        Figure("Follow-ups", "done", review.follow_ups.done),
        Figure("Follow-ups", "overdue", review.follow_ups.overdue),
        Figure("Deals", "opened", review.opened.count),
        Figure("Deals", "won", review.won.count),
        Figure("Deals", "lost", review.lost.count),
    ]


def money(values: tuple[Money, ...]) -> str:
    """ "12,000 EUR + 5,000.50 USD"; a deal with no currency is summed as "(no currency)"."""
    return " + ".join(f"{amount(m.total)} {m.currency or '(no currency)'}" for m in values)


def type_name(name: str) -> str:
    """An activity type in words ("LinkedIn message")."""
    return activity_name(name)


def by_type_line(review: Review) -> str:
    """ "12 Call · 8 Email · 3 Other"."""
    return " · ".join(f"{count:,} {type_name(name)}" for name, count in review.by_type() if count)


def pending_line(review: Review, *, by_kind: bool = True) -> str:
    """What the service has not seen, so nobody takes the figures for the service's;
    `by_kind` names the kinds of action waiting (the cockpit leaves them out: one line)."""
    pending = review.pending
    if not pending.unsent and not pending.failed:
        return "The service has seen everything counted here: nothing is waiting in the outbox."
    parts = []
    if pending.unsent:
        inside = []
        if pending.activities:
            inside.append(plural(pending.activities, "activity", "activities"))
        if pending.notes:
            inside.append(plural(pending.notes, "note"))
        if pending.decisions:
            inside.append(plural(pending.decisions, "decision"))
        counted = f", of which counted here: {', '.join(inside)}" if inside else ""
        kinds = ", ".join(f"{count:,} {kind_short(kind).lower()}" for kind, count in pending.by_kind)
        waiting = f" ({kinds})" if by_kind and kinds else ""
        parts.append(
            f"{plural(pending.unsent, 'action')} still in the outbox, not yet seen by the service{waiting}{counted}"
        )
    if pending.failed:
        parts.append(f"{plural(pending.failed, 'action')} refused by the service (the outbox has them)")
    return "; ".join(parts) + "."


def spark(values: list[int]) -> str:
    """A sparkline in block characters from the lowest value to the highest (flat: the
    lowest block), so a move of a few points shows."""
    if not values:
        return ""
    low, high = min(values), max(values)
    steps = len(SPARKS) - 1
    return "".join(SPARKS[(v - low) * steps // (high - low) if high > low else 0] for v in values)


def day_label(day: date) -> str:
    """ "Mon 23 Nov"."""
    return day.strftime("%a %d %b")


def change(value: int) -> str:
    return f"{value:+d}" if value else "±0"
