"""The week in review's reads: what the cache recorded between two moments, in one read.

The cache holds no event log, so each figure is read from where its record already is:
- activities and notes: their rows (`created_at`: the service's time, or the moment the rep
  queued them while still pending), pending ones included and marked;
- the rep's decisions (recommendations completed and dismissed, lead status changes, deal
  values): the outbox, which keeps every op it delivered with the moment it was queued
  (`OutboxStore.purge_done` is the only thing that forgets them, and nothing calls it on
  its own); ops the service refused (`failed`) never happened and are left out;
- deals won and lost: the lead's `won_at` / `closed_at` (a queued won marks them too);
- leads that went cold: warm leads whose quiet time (`leads.quiet_since`, Today's going-cold
  measure) passed `cold_after_days` inside the range: a range of `leads_quiet`;
- the score walk: the range's confirmed activities with their points, the points of those
  after it summed by lead, and the leads' scores today (`warmline.review` walks back
  from them, as `store.score_history` does).

Bounds are the cache's UTC text (`store.clock.iso`), compared as text, start included and
end excluded. Shaping into days of the rep's zone is `warmline.review`'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from warmline.named_tuple import NamedTuple
from warmline.ops.kinds import OpKind
from warmline.store.rows import AMBIGUOUS, FAILED, IN_FLIGHT, PENDING

if TYPE_CHECKING:
    import sqlite3

    from warmline.store import Store

DECISION_KINDS = (
    OpKind.COMPLETE_RECOMMENDATION,
    OpKind.DISMISS_RECOMMENDATION,
    OpKind.CHANGE_LEAD_STATUS,
    OpKind.UPDATE_DEAL,
)
"""The rep's decisions the review counts, read from the outbox."""

UNSENT_STATES = (PENDING, IN_FLIGHT, AMBIGUOUS)
"""Ops the service has not confirmed yet."""


class Activity(NamedTuple):
    """An activity logged in the range; `pending` while the service has not answered."""

    lead_id: int
    at: str
    type: str
    pending: bool


class Note(NamedTuple):
    lead_id: int
    at: str
    pending: bool


class Decision(NamedTuple):
    """An op of `DECISION_KINDS` queued in the range (not refused); `payload` as queued."""

    kind: str
    lead_id: int | None
    at: str
    pending: bool
    payload: dict[str, object]


class DealLead(NamedTuple):
    """A lead whose deal was won or lost in the range, with its value."""

    lead_id: int
    value: float | None
    currency: str | None
    won_at: str | None
    closed_at: str | None


class QuietLead(NamedTuple):
    """A warm lead quiet since `quiet_since` (its last activity, or its creation)."""

    lead_id: int
    quiet_since: str


class ScoreStep(NamedTuple):
    """A confirmed activity's points, for the score walk."""

    lead_id: int
    at: str
    points: int


class LeadNow(NamedTuple):
    """A lead as the cache has it now."""

    lead_id: int
    company: str
    score: int
    target: int
    status: str


class Unsent(NamedTuple):
    """Ops not yet confirmed by the service, by state and kind; `in_range`: how many of
    them were queued inside the range."""

    state: str
    kind: str
    ops: int
    in_range: int


class ReviewFacts(NamedTuple):
    """Everything the review reads from the cache for a range, in one transaction."""

    activities: tuple[Activity, ...]
    notes: tuple[Note, ...]
    decisions: tuple[Decision, ...]
    first_deal_values: tuple[Decision, ...]
    """Each lead's first deal value the outbox holds, when it was queued inside the range."""
    deals: tuple[DealLead, ...]
    went_quiet: tuple[QuietLead, ...]
    steps: tuple[ScoreStep, ...]
    """Confirmed activities inside the range, oldest first."""
    points_after: dict[int, int]
    """The points of each lead's confirmed activities after the range (leads with any): with
    today's score they give the score at the range's end, without reading them one by one."""
    capped_history: tuple[ScoreStep, ...]
    """The whole history of touched leads at the cap (score 100), oldest first."""
    leads: tuple[LeadNow, ...]
    """The leads any of the above names."""
    unsent: tuple[Unsent, ...]


def review_facts(
    store: Store, start: str, end: str, quiet_start: str, quiet_end: str
) -> ReviewFacts:
    """The cache's records between `start` and `end` (UTC text); `quiet_start`/`quiet_end`:
    the same range moved back by `cold_after_days` (a warm lead quiet since inside it went
    cold inside the range)."""
    with store.read() as conn:
        # One range of `touchpoints_created`: the period's activities (pending ones too),
        # the confirmed ones being the score walk's steps; and the points after it, summed
        # from the same index (a year ago is a sum, not every activity since).
        activities_list: list[Activity] = []
        steps_list: list[ScoreStep] = []
        for lead, at, kind, local, points in conn.execute(
            "SELECT lead_id, created_at, detected_type, id IS NULL, bonus_points FROM touchpoints"
            " WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id",
            (start, end),
        ):
            activities_list.append(Activity(lead, at, kind or "", bool(local)))
            if not local:
                steps_list.append(ScoreStep(lead, at, points or 0))
        activities, steps = tuple(activities_list), tuple(steps_list)
        points_after = {
            int(lead): int(points or 0)
            for lead, points in conn.execute(
                "SELECT lead_id, sum(bonus_points) FROM touchpoints"
                " WHERE created_at >= ? AND id IS NOT NULL GROUP BY lead_id",
                (end,),
            )
        }
        notes = tuple(
            Note(int(lead), str(at), bool(pending))
            for lead, at, pending in conn.execute(
                "SELECT lead_id, created_at, id IS NULL FROM notes"
                " WHERE created_at >= ? AND created_at < ? ORDER BY created_at, local_id",
                (start, end),
            )
        )
        decisions = _decisions(conn, start, end)
        first_values = _first_deal_values(conn, start, end)
        deals = tuple(
            DealLead(int(lead), value, currency, won, closed)
            for lead, value, currency, won, closed in conn.execute(
                "SELECT id, deal_value, deal_currency, won_at, closed_at FROM leads"
                " WHERE (won_at >= ? AND won_at < ?) OR (closed_at >= ? AND closed_at < ?) ORDER BY id",
                (start, end, start, end),
            )
        )
        quiet = tuple(
            QuietLead(int(lead), str(since))
            for lead, since in conn.execute(
                "SELECT id, quiet_since FROM leads WHERE hidden = 0 AND lead_status = 'warm'"
                " AND quiet_since >= ? AND quiet_since < ? ORDER BY quiet_since, id",
                (quiet_start, quiet_end),
            )
        )
        named = {a.lead_id for a in activities} | {n.lead_id for n in notes}
        named |= {d.lead_id for d in (*decisions, *first_values) if d.lead_id is not None}
        named |= {d.lead_id for d in deals} | {q.lead_id for q in quiet}
        leads = _leads(conn, named)
        stepped = {step.lead_id for step in steps}
        capped = [lead.lead_id for lead in leads if lead.score >= 100 and lead.lead_id in stepped]
        history = _history(conn, capped)
        unsent = _unsent(conn, start, end)
    return ReviewFacts(
        activities, notes, decisions, first_values, deals, quiet, steps, points_after, history,
        leads, unsent,
    )  # fmt: skip


def _payload(text: object) -> dict[str, object]:
    try:
        found = json.loads(str(text))
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _decisions(conn: sqlite3.Connection, start: str, end: str) -> tuple[Decision, ...]:
    marks = ", ".join("?" for _ in DECISION_KINDS)
    return tuple(
        Decision(
            str(kind),
            None if lead is None else int(lead),
            str(at),
            state in UNSENT_STATES,
            _payload(payload),
        )
        for kind, lead, at, state, payload in conn.execute(
            f"SELECT kind, lead_id, created_at, state, payload FROM outbox WHERE kind IN ({marks})"
            " AND state != ? AND created_at >= ? AND created_at < ? ORDER BY created_at, seq",
            (*DECISION_KINDS, FAILED, start, end),
        )
    )


def _first_deal_values(conn: sqlite3.Connection, start: str, end: str) -> tuple[Decision, ...]:
    """The first op of each lead that gave its deal a value, when queued in the range: the
    outbox is the only record of when a deal was opened (the lead row has no such date)."""
    return tuple(
        Decision(OpKind.UPDATE_DEAL, int(lead), str(at), state in UNSENT_STATES, _payload(payload))
        for lead, at, state, payload in conn.execute(
            "SELECT o.lead_id, o.created_at, o.state, o.payload FROM outbox o"
            " WHERE o.kind = ? AND o.state != ? AND json_extract(o.payload, '$.deal_value') IS NOT NULL"
            " AND o.created_at >= ? AND o.created_at < ? AND NOT EXISTS (SELECT 1 FROM outbox e"
            "  WHERE e.kind = o.kind AND e.lead_id = o.lead_id AND e.state != ? AND e.seq < o.seq"
            "  AND json_extract(e.payload, '$.deal_value') IS NOT NULL)"
            " ORDER BY o.created_at, o.seq",
            (OpKind.UPDATE_DEAL, FAILED, start, end, FAILED),
        )
    )


def _leads(conn: sqlite3.Connection, lead_ids: Iterable[int]) -> tuple[LeadNow, ...]:
    wanted = sorted(set(lead_ids))
    if not wanted:
        return ()
    return tuple(
        LeadNow(int(lead), str(company), int(score), int(target), str(status))
        for lead, company, score, target, status in conn.execute(
            "SELECT id, company_name, warming_score, coalesce(target_score, 100), lead_status FROM leads"
            " WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
            (json.dumps(wanted),),
        )
    )


def _history(conn: sqlite3.Connection, lead_ids: list[int]) -> tuple[ScoreStep, ...]:
    if not lead_ids:
        return ()
    return tuple(
        ScoreStep(int(lead), str(at), int(points or 0))
        for lead, at, points in conn.execute(
            "SELECT lead_id, created_at, bonus_points FROM touchpoints"
            " WHERE lead_id IN (SELECT value FROM json_each(?)) AND id IS NOT NULL"
            " AND coalesce(created_at, '') != '' ORDER BY lead_id, created_at, id",
            (json.dumps(sorted(lead_ids)),),
        )
    )


def _unsent(conn: sqlite3.Connection, start: str, end: str) -> tuple[Unsent, ...]:
    marks = ", ".join("?" for _ in (*UNSENT_STATES, FAILED))
    return tuple(
        Unsent(str(state), str(kind), int(count), int(inside or 0))
        for state, kind, count, inside in conn.execute(
            "SELECT state, kind, count(*), sum(created_at >= ? AND created_at < ?) FROM outbox"
            f" WHERE state IN ({marks}) GROUP BY state, kind ORDER BY state, kind",
            (start, end, *UNSENT_STATES, FAILED),
        )
    )
