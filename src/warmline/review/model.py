"""The week in review as a plain value: what `warmline.review.build` computes and every
renderer (Markdown, HTML, CSV, JSON, the cockpit's screen) reads. Times are aware, in the
rep's zone; counts include what is still pending in the outbox, and `pending` says how
much of it the service has not seen."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from warmline.review.period import Period

OTHER_TYPE = "other"
"""The activity type of an activity the service gave no type (or none yet: pending)."""


@dataclass(frozen=True)
class DayCount:
    """One day's activities by type (in `Review.types` order) and its notes."""

    day: date
    by_type: tuple[int, ...]
    notes: int

    @property
    def activities(self) -> int:
        return sum(self.by_type)


@dataclass(frozen=True)
class LeadMention:
    """A lead named by a figure: when it happened (None when not known) and in what words."""

    lead_id: int
    company: str
    at: datetime | None
    detail: str


@dataclass(frozen=True)
class Money:
    """A sum of deal values in one currency ("" when the deal named none)."""

    currency: str
    total: float
    deals: int


@dataclass(frozen=True)
class Deals:
    """Deals of one kind (opened, won, lost): the leads and their values by currency."""

    leads: tuple[LeadMention, ...]
    values: tuple[Money, ...]

    @property
    def count(self) -> int:
        return len(self.leads)


@dataclass(frozen=True)
class ScorePoint:
    """A lead's warming score at the end of `day` (for a day still running: now)."""

    day: date
    score: int


@dataclass(frozen=True)
class ScoreMove:
    """A lead's score across the period: at its start, at its end, and day by day."""

    lead_id: int
    company: str
    start: int
    end: int
    target: int
    points: tuple[ScorePoint, ...]

    @property
    def change(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class FollowUpCounts:
    """Follow-ups made (promises kept on this machine), done, and overdue when the period
    closed (or now, for the period still running)."""

    made: int
    done: int
    overdue: int


@dataclass(frozen=True)
class Pending:
    """What the service has not seen yet: ops waiting, sending or unconfirmed (`unsent`),
    and refused (`failed`, needing the rep). `in_period` of the unsent were queued inside
    the period; `activities`, `notes` and `decisions` counted above are among them."""

    unsent: int
    failed: int
    in_period: int
    activities: int
    notes: int
    decisions: int
    by_kind: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Review:
    """The period's work, from the cache alone."""

    period: Period
    zone: str
    generated_at: datetime
    types: tuple[str, ...]
    """Activity types, most frequent first (`OTHER_TYPE` last)."""
    days: tuple[DayCount, ...]
    touched: tuple[LeadMention, ...]
    warmed: tuple[LeadMention, ...]
    """Moved from cold to warm by the rep."""
    reached: tuple[LeadMention, ...]
    """Reached their target score during the period."""
    went_cold: tuple[LeadMention, ...]
    """Warm leads that passed `cold_after_days` without an activity, or set cold by the rep."""
    completed: int
    dismissed: int
    follow_ups: FollowUpCounts
    opened: Deals
    won: Deals
    lost: Deals
    scores: tuple[ScoreMove, ...]
    """The leads whose score moved most, biggest rise first."""
    pending: Pending
    cold_after_days: int

    @property
    def activities(self) -> int:
        return sum(day.activities for day in self.days)

    @property
    def notes(self) -> int:
        return sum(day.notes for day in self.days)

    def by_type(self) -> tuple[tuple[str, int], ...]:
        """Activities of the period by type, in `types` order."""
        return tuple(
            (name, sum(day.by_type[k] for day in self.days)) for k, name in enumerate(self.types)
        )

    @property
    def is_empty(self) -> bool:
        """Nothing was recorded in the period (the pending line may still say something)."""
        return not (
            self.activities
            or self.notes
            or self.warmed
            or self.reached
            or self.went_cold
            or self.completed
            or self.dismissed
            or self.follow_ups.made
            or self.follow_ups.done
            or self.follow_ups.overdue
            or self.opened.count
            or self.won.count
            or self.lost.count
        )
