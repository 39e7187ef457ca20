"""The week in review, computed from the cache and the follow-ups file alone (offline).

`build_review` reads the period's records (`warmline.store.review.review_facts`, one read)
and shapes them in the rep's zone: days are the rep's days, every time is the rep's.

Where the cache keeps no history it is rebuilt as the rest of Warmline rebuilds it:
- the score on a past day: walking back from today's score over the points of every
  confirmed activity since (`store.score_history`); a lead at the cap (100) is walked
  forward from 0 over its whole history instead, since its score stopped at 100 however
  many points came after (`store.today.reached_from_start`). Points no activity carries (a
  completed recommendation's) land in the step of the activity before them;
- reached the target: a step of that walk inside the period that took the score from
  below the lead's target (today's target) to it;
- went cold: a warm lead's quiet time (`leads.quiet_since`, as Today measures it) passed
  `cold_after_days` inside the period, or the rep set the lead cold;
- moved cold to warm, recommendations completed and dismissed, deals opened: the rep's
  ops in the outbox, by the moment they were queued (changes made on the service by
  someone else have no record here).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from warmline.amounts import amount
from warmline.ops.kinds import OpKind
from warmline.review.model import (
    OTHER_TYPE,
    DayCount,
    Deals,
    FollowUpCounts,
    LeadMention,
    Money,
    Pending,
    Review,
    ScoreMove,
    ScorePoint,
)
from warmline.review.period import Period
from warmline.store.clock import epoch_of, iso
from warmline.store.review import (
    UNSENT_STATES,
    Decision,
    LeadNow,
    ReviewFacts,
    ScoreStep,
    review_facts,
)
from warmline.zone import zone_label

if TYPE_CHECKING:
    from warmline.store import Store
    from warmline.store.followups import FollowUp, FollowUps

TOP_LEADS = 5
"""Leads whose score movement the review draws."""

MAX_SCORE = 100


def build_review(
    store: Store,
    period: Period,
    *,
    now: datetime,
    cold_after_days: int,
    follow_ups: FollowUps | None = None,
    top: int = TOP_LEADS,
) -> Review:
    """The review of `period` for the rep at `now` (aware, in the rep's zone)."""
    zone = now.tzinfo
    assert zone is not None, "now must be aware, in the rep's zone"
    start, end = period.bounds(zone)
    cold = timedelta(days=cold_after_days)
    facts = review_facts(store, _utc(start), _utc(end), _utc(start - cold), _utc(end - cold))
    leads = {lead.lead_id: lead for lead in facts.leads}
    shaper = _Shaper(leads, zone)
    types, days = _days(facts, period, shaper)
    decided = Counter(d.kind for d in facts.decisions)
    scores = _Scores(facts, leads)
    return Review(
        period=period,
        zone=zone_label(zone) or str(now.tzname() or ""),
        generated_at=now,
        types=types,
        days=days,
        touched=_touched(facts, shaper),
        warmed=tuple(_status_changes(facts.decisions, "warm", shaper)),
        reached=scores.reached(start, end, shaper),
        went_cold=_went_cold(facts, cold, cold_after_days, shaper, now),
        completed=decided[OpKind.COMPLETE_RECOMMENDATION],
        dismissed=decided[OpKind.DISMISS_RECOMMENDATION],
        follow_ups=follow_up_counts(follow_ups, period, now)
        if follow_ups is not None
        else FollowUpCounts(0, 0, 0),
        opened=_opened(facts.first_deal_values, shaper),
        won=_closed(facts, "won", start, end, shaper),
        lost=_closed(facts, "lost", start, end, shaper),
        scores=scores.movers(period, start, end, now, top),
        pending=_pending(facts),
        cold_after_days=cold_after_days,
    )


def _utc(moment: datetime) -> str:
    return iso(moment.timestamp())


class _Shaper:
    """Names leads and reads stored times in the rep's zone."""

    def __init__(self, leads: dict[int, LeadNow], zone: tzinfo) -> None:
        self.leads = leads
        self.zone = zone

    def when(self, stored: str | None) -> datetime | None:
        epoch = epoch_of(stored)
        return None if epoch is None else datetime.fromtimestamp(epoch, self.zone)

    def name(self, lead_id: int) -> str:
        lead = self.leads.get(lead_id)
        return lead.company if lead is not None else f"lead {lead_id}"

    def mention(self, lead_id: int, at: datetime | None, detail: str) -> LeadMention:
        return LeadMention(lead_id, self.name(lead_id), at, detail)


def _days(
    facts: ReviewFacts, period: Period, shaper: _Shaper
) -> tuple[tuple[str, ...], tuple[DayCount, ...]]:
    """Activities by day and type, notes by day; types most frequent first, `other` last."""
    by_day: dict[date, Counter[str]] = defaultdict(Counter)
    for activity in facts.activities:
        moment = shaper.when(activity.at)
        if moment is not None:
            by_day[moment.date()][activity.type.strip().lower() or OTHER_TYPE] += 1
    notes: Counter[date] = Counter()
    for note in facts.notes:
        moment = shaper.when(note.at)
        if moment is not None:
            notes[moment.date()] += 1
    totals: Counter[str] = Counter()
    for counts in by_day.values():
        totals.update(counts)
    types = tuple(sorted(totals, key=lambda name: (name == OTHER_TYPE, -totals[name], name)))
    days = tuple(
        DayCount(day, tuple(by_day[day][name] for name in types), notes[day])
        for day in period.days()
    )
    return types, days


def _plural(count: int, word: str, words: str) -> str:
    return f"{count} {word if count == 1 else words}"


def _touched(facts: ReviewFacts, shaper: _Shaper) -> tuple[LeadMention, ...]:
    """Leads with an activity or a note in the period, the busiest first."""
    activities = Counter(a.lead_id for a in facts.activities)
    notes = Counter(n.lead_id for n in facts.notes)
    last: dict[int, str] = {}
    for lead_id, at in [(a.lead_id, a.at) for a in facts.activities] + [(n.lead_id, n.at) for n in facts.notes]:
        if at > last.get(lead_id, ""):
            last[lead_id] = at
    names = {lead: shaper.name(lead) for lead in last}
    ordered = sorted(last, key=lambda lead: (-activities[lead], -notes[lead], names[lead].lower(), lead))
    mentions = []
    for lead in ordered:
        parts = [_plural(activities[lead], "activity", "activities")] if activities[lead] else []
        if notes[lead]:
            parts.append(_plural(notes[lead], "note", "notes"))
        mentions.append(LeadMention(lead, names[lead], shaper.when(last[lead]), ", ".join(parts)))
    return tuple(mentions)


def _status_changes(
    decisions: Iterable[Decision], status: str, shaper: _Shaper
) -> list[LeadMention]:
    """Leads the rep set to `status` in the period (the last change of each lead counts)."""
    found: dict[int, LeadMention] = {}
    for decision in decisions:
        wanted = str(decision.payload.get("lead_status") or "").lower()
        if decision.kind != OpKind.CHANGE_LEAD_STATUS or decision.lead_id is None:
            continue
        if wanted == status:
            found[decision.lead_id] = shaper.mention(
                decision.lead_id, shaper.when(decision.at), f"set {status}"
            )
        else:
            found.pop(decision.lead_id, None)
    return sorted(
        found.values(), key=lambda m: (m.at or datetime.min.replace(tzinfo=shaper.zone), m.lead_id)
    )


def _went_cold(
    facts: ReviewFacts, cold: timedelta, days: int, shaper: _Shaper, now: datetime
) -> tuple[LeadMention, ...]:
    """Set cold by the rep, or warm and quiet for `days` by a moment of the period (not
    one still to come)."""
    found = {m.lead_id: m for m in _status_changes(facts.decisions, "cold", shaper)}
    for quiet in facts.went_quiet:
        since = shaper.when(quiet.quiet_since)
        if quiet.lead_id not in found and since is not None and since + cold <= now:
            found[quiet.lead_id] = shaper.mention(
                quiet.lead_id, since + cold, f"warm, quiet {_plural(days, 'day', 'days')}"
            )
    return tuple(
        sorted(found.values(), key=lambda m: (m.at is None, m.at and m.at.timestamp(), m.lead_id))
    )


def _money(pairs: Iterable[tuple[float | None, str | None]]) -> tuple[Money, ...]:
    totals: dict[str, float] = defaultdict(float)
    counts: Counter[str] = Counter()
    for value, currency in pairs:
        key = (currency or "").strip().upper()
        counts[key] += 1
        totals[key] += float(value or 0)
    return tuple(
        Money(key, totals[key], counts[key]) for key in sorted(counts, key=lambda k: (k == "", k))
    )


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _opened(first_values: Sequence[Decision], shaper: _Shaper) -> Deals:
    """Deals given their first value in the period (the outbox's record of it)."""
    pairs = [
        (_number(d.payload.get("deal_value")), str(d.payload.get("deal_currency") or ""))
        for d in first_values
    ]
    leads = tuple(
        shaper.mention(d.lead_id, shaper.when(d.at), _value_words(value, currency))
        for d, (value, currency) in zip(first_values, pairs, strict=True)
        if d.lead_id is not None
    )
    return Deals(leads, _money(pairs))


def _closed(facts: ReviewFacts, how: str, start: datetime, end: datetime, shaper: _Shaper) -> Deals:
    chosen = []
    for deal in facts.deals:
        moment = shaper.when(deal.won_at if how == "won" else deal.closed_at)
        if moment is not None and start <= moment < end:
            chosen.append((deal, moment))
    leads = tuple(
        shaper.mention(d.lead_id, at, _value_words(d.value, d.currency)) for d, at in chosen
    )
    return Deals(leads, _money((d.value, d.currency) for d, _ in chosen))


def _value_words(value: float | None, currency: str | None) -> str:
    if value is None:
        return "no value"
    return f"{amount(value)} {(currency or '').upper()}".strip()


def follow_up_counts(follow_ups: FollowUps, period: Period, now: datetime) -> FollowUpCounts:
    """Made and done in the period; overdue when it closed (now, while it runs): open then,
    and due before that day. Apart from `build_review` for a caller that reads the
    follow-ups file on its own (`warmline report` names which of the two files failed)."""
    assert now.tzinfo is not None
    start, end = period.bounds(now.tzinfo)
    close = min(end, now)
    close_day = close.astimezone(start.tzinfo).date()
    found: list[FollowUp] = follow_ups.for_review(start, close, period.last)
    made = sum(1 for f in found if start <= f.created_at < end)
    done = sum(1 for f in found if f.done_at is not None and start <= f.done_at < end)
    overdue = sum(
        1
        for f in found
        if f.due_on < close_day
        and f.created_at < close
        and (f.done_at is None or f.done_at >= close)
    )
    return FollowUpCounts(made, done, overdue)


def _pending(facts: ReviewFacts) -> Pending:
    unsent = sum(u.ops for u in facts.unsent if u.state in UNSENT_STATES)
    failed = sum(u.ops for u in facts.unsent if u.state not in UNSENT_STATES)
    kinds: Counter[str] = Counter()
    for item in facts.unsent:
        if item.state in UNSENT_STATES:
            kinds[item.kind] += item.ops
    return Pending(
        unsent=unsent,
        failed=failed,
        in_period=sum(u.in_range for u in facts.unsent if u.state in UNSENT_STATES),
        activities=sum(1 for a in facts.activities if a.pending),
        notes=sum(1 for n in facts.notes if n.pending),
        decisions=sum(1 for d in facts.decisions if d.pending),
        by_kind=tuple(sorted(kinds.items(), key=lambda item: (-item[1], item[0]))),
    )


class _Walk:
    """One lead's score after each of its confirmed activities, oldest first, and before
    the first of them: `at(moment)` reads the score at any moment they cover."""

    def __init__(self, times: list[str], scores: list[int], initial: int) -> None:
        self.times = times
        self.scores = scores
        self.initial = initial

    def at(self, moment: str) -> int:
        index = bisect_left(self.times, moment)  # steps strictly before `moment`
        return self.initial if index == 0 else self.scores[index - 1]

    def crossings(self, target: int, start: str, end: str) -> list[str]:
        found = []
        before = self.initial
        for at, score in zip(self.times, self.scores, strict=True):
            if start <= at < end and before < target <= score:
                found.append(at)
            before = score
        return found


def _backward(steps: list[ScoreStep], current: int) -> _Walk:
    """Walking back from today's score, as `store.score_history` does."""
    scores = [0] * len(steps)
    score = current
    for index in range(len(steps) - 1, -1, -1):
        scores[index] = max(0, min(MAX_SCORE, score))
        score -= steps[index].points
    return _Walk([s.at for s in steps], scores, max(0, min(MAX_SCORE, score)))


def _forward(steps: list[ScoreStep]) -> _Walk:
    """Forward from 0, held between 0 and 100 as the service holds it (a lead at the cap)."""
    scores, score = [], 0
    for step in steps:
        score = max(0, min(MAX_SCORE, score + step.points))
        scores.append(score)
    return _Walk([s.at for s in steps], scores, 0)


class _Scores:
    """The score walk of every lead with a confirmed activity in the period: back from its
    score at the period's end (today's, less the points of the activities after it)."""

    def __init__(self, facts: ReviewFacts, leads: dict[int, LeadNow]) -> None:
        since: dict[int, list[ScoreStep]] = defaultdict(list)
        for step in facts.steps:
            since[step.lead_id].append(step)
        history: dict[int, list[ScoreStep]] = defaultdict(list)
        for step in facts.capped_history:
            history[step.lead_id].append(step)
        self.leads = leads
        self.walks: dict[int, _Walk] = {}
        for lead_id, steps in since.items():
            lead = leads.get(lead_id)
            if lead is None:
                continue
            self.walks[lead_id] = (
                _forward(history[lead_id])
                if lead.score >= MAX_SCORE
                else _backward(steps, lead.score - facts.points_after.get(lead_id, 0))
            )

    def reached(self, start: datetime, end: datetime, shaper: _Shaper) -> tuple[LeadMention, ...]:
        first, after = _utc(start), _utc(end)
        found = []
        for lead_id, walk in self.walks.items():
            crossed = walk.crossings(self.leads[lead_id].target, first, after)
            if crossed:
                at = shaper.when(crossed[-1])
                found.append(shaper.mention(lead_id, at, f"target {self.leads[lead_id].target}"))
        found.sort(key=lambda m: (m.at is None, m.at and m.at.timestamp(), m.lead_id))
        return tuple(found)

    def movers(
        self, period: Period, start: datetime, end: datetime, now: datetime, top: int
    ) -> tuple[ScoreMove, ...]:
        """The `top` leads whose score rose most in the period (among those with an
        activity in it), with a point a day (days after today left out). Every lead's start
        and end are read first; the days only for the few shown."""
        first, last, after = _utc(start), _utc(min(end, now)), _utc(end)
        ranked = []
        for lead_id, walk in self.walks.items():
            index = bisect_left(walk.times, first)
            if index == len(walk.times) or walk.times[index] >= after:
                continue  # no activity inside the period
            begin, close = walk.at(first), walk.at(last)
            ranked.append((-(close - begin), -close, self.leads[lead_id].company.lower(), lead_id, begin, close))
        ranked.sort()
        closings = [
            (day, _utc(min(datetime(day.year, day.month, day.day, tzinfo=start.tzinfo) + timedelta(days=1), now)))
            for day in period.days()
            if day <= now.date()
        ]
        moves = []
        for *_, lead_id, begin, close in ranked[:top]:
            lead, walk = self.leads[lead_id], self.walks[lead_id]
            points = tuple(ScorePoint(day, walk.at(moment)) for day, moment in closings)
            moves.append(ScoreMove(lead_id, lead.company, begin, close, lead.target, points))
        return tuple(moves)
