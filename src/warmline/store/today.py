"""Today: what happened since the rep last looked, and what to do now, in one read.

The sections follow the rep's morning (`REP-DAY.md`, 08:55): jobs that finished since the
cockpit was last closed, leads that reached their target score since yesterday, warm leads
going cold, follow-ups due today or overdue and how many the next 7 days hold, the
recommendations waiting (by priority), and failed ops. The cockpit's Today screen and `warmline today [--json]` read this model,
so the screen and a morning script never disagree.

Times: `now` is an aware datetime in the rep's zone (`datetime.now().astimezone()`);
"yesterday" and "today" are days of that zone. Stored timestamps are the wire's UTC text
(`store.clock`), compared as text with bounds formatted the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from warmline.config import DEFAULT_COLD_AFTER_DAYS
from warmline.named_tuple import NamedTuple
from warmline.store.clock import epoch_of, iso
from warmline.store.followups import WEEK_AHEAD
from warmline.store.rows import FAILED, Job, LeadRow, Op

if TYPE_CHECKING:
    import sqlite3

    from warmline.store import Store
    from warmline.store.followups import FollowUp, FollowUps

COLD_AFTER_DAYS = DEFAULT_COLD_AFTER_DAYS
"""A warm lead with no activity for this many days is going cold (`[ui] cold_after_days`)."""

COLD_LIMIT = 100
"""At most this many going-cold leads are listed (the quietest); `going_cold_total` counts
them all. A long-neglected warm view at 10,000 leads could hold thousands."""

FINISHED_STATUSES = ("completed", "failed", "error", "expired")
"""Job statuses Today announces: the job ended by itself, done or not. A job the rep
cancelled is not news."""

PRIORITIES = ("high", "medium", "low")
MAX_SCORE = 100
"""The warming score's cap (the spec: 0-100)."""


class TodayLead(NamedTuple):
    """A lead on Today, with the moment that put it there.

    `reached_at`: when its score reached the target (ready leads), rebuilt from its cached
    activities (see `reached_target_at`). `last_activity_at`: its last activity, queued ones
    included (going-cold leads; also set for ready ones). None when not known."""

    lead: LeadRow
    reached_at: datetime | None
    last_activity_at: datetime | None

    def quiet_days(self, now: datetime) -> int | None:
        """Whole days since its last activity; None when it has none."""
        if self.last_activity_at is None:
            return None
        return max(0, (now - self.last_activity_at).days)


class RecommendationCounts(NamedTuple):
    """Active recommendations waiting for triage (not taken by a queued complete or
    dismiss), by the service's priority; `other` counts a missing or unknown one."""

    high: int = 0
    medium: int = 0
    low: int = 0
    other: int = 0

    @property
    def total(self) -> int:
        return self.high + self.medium + self.low + self.other


class TodayPage(NamedTuple):
    """Everything Today shows, read in one transaction of the cache (follow-ups come from
    their own file, read just after)."""

    finished_jobs: tuple[Job, ...]
    """Completed or failed (`FINISHED_STATUSES`) since `since`, newest first; when the
    cockpit was never closed on this cache, since the start of yesterday."""
    ready_leads: tuple[TodayLead, ...]
    """At or above their target score now, having reached it since the start of yesterday
    (rep's zone); most recently reached first."""
    going_cold: tuple[TodayLead, ...]
    """Warm leads whose last activity is older than `cold_after_days` (or, with none, whose
    lead was made that long ago), quietest first, at most `COLD_LIMIT`."""
    going_cold_total: int
    """How many leads are going cold (`going_cold` may list fewer)."""
    follow_ups: tuple[FollowUp, ...]
    """Open follow-ups due today or before, oldest first (empty without a follow-ups file)."""
    recommendations: RecommendationCounts
    failed_ops: tuple[Op, ...]
    """Ops the service refused, oldest first: each needs the rep (retry, edit or discard)."""
    since: datetime | None
    """When the cockpit was last closed (`Store.cockpit_last_seen`), in the rep's zone; None
    when never."""
    today: datetime
    """The start of the rep's today (midnight in `now`'s zone), the day the page is for."""
    coming: tuple[tuple[date, int], ...] = ()
    """Open follow-ups due in the next 7 days after today (`WEEK_AHEAD`), counted by day,
    days with none left out: the "Next 7 days" section, whose row opens the agenda."""
    unlisted: frozenset[int] = frozenset()
    """The leads of `follow_ups` that the lead lists no longer show (`unlisted_leads`)."""

    @property
    def coming_total(self) -> int:
        return sum(count for _, count in self.coming)

    @property
    def is_empty(self) -> bool:
        """Nothing to show or do: the screen and the command say so plainly."""
        return not (
            self.finished_jobs
            or self.ready_leads
            or self.going_cold_total
            or self.follow_ups
            or self.coming
            or self.recommendations.total
            or self.failed_ops
        )


def today_page(
    store: Store,
    now: datetime,
    cold_after_days: int = COLD_AFTER_DAYS,
    follow_ups: FollowUps | None = None,
) -> TodayPage:
    """Today's page for the rep at `now` (aware, in the rep's zone; a naive one is taken
    as local time). Reads the cache in one transaction; `follow_ups` (the follow-ups file,
    a separate database) is read after it, when given."""
    now = now.astimezone() if now.tzinfo is None else now
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    yesterday = _start_of_day(today - timedelta(days=1), now)
    with store.read() as conn:
        seen = store.cockpit_last_seen()
        since = datetime.fromtimestamp(seen, now.tzinfo) if seen is not None else None
        jobs = _finished_jobs(conn, since or yesterday)
        ready = _ready_leads(store, conn, yesterday)
        cold, cold_total = _going_cold(store, conn, now - timedelta(days=cold_after_days))
        recommendations = _recommendation_counts(conn)
        failed = tuple(store.outbox_rows(states=(FAILED,)))
    due = due_follow_ups(follow_ups, today.date()) if follow_ups is not None else ()
    coming = coming_follow_ups(follow_ups, today.date()) if follow_ups is not None else ()
    unlisted = unlisted_leads(store, (follow_up.lead_id for follow_up in due))
    return TodayPage(jobs, ready, cold, cold_total, due, recommendations, failed, since, today, coming, unlisted)


def due_follow_ups(follow_ups: FollowUps, today: date) -> tuple[FollowUp, ...]:
    """Today's follow-ups section: open ones due on `today` (the rep's) or before, oldest
    first. Apart from `today_page` for a caller that reads the follow-ups file on its own
    (`warmline today` names which of the two files failed)."""
    return tuple(follow_ups.list("due", today=today))


def coming_follow_ups(follow_ups: FollowUps, today: date) -> tuple[tuple[date, int], ...]:
    """The "Next 7 days" section: open follow-ups due after `today` and at most
    `WEEK_AHEAD` days on, counted by day (`warmline followups --due week` lists them)."""
    end = today + timedelta(days=WEEK_AHEAD)
    return tuple(follow_ups.open_by_day(today + timedelta(days=1), end))


def unlisted_leads(store: Store, lead_ids: Iterable[int]) -> frozenset[int]:
    """Which of these leads the lead lists no longer show: removed on the service (gone
    from the last lead list, or refused as not found) or being removed by the rep. Their
    follow-ups are kept on this computer, and Today and the agenda mark them."""
    wanted = sorted(set(lead_ids))
    if not wanted:
        return frozenset()
    marks = ", ".join("?" for _ in wanted)
    with store.read() as conn:
        # By id alone, hidden tested here: "hidden = 0 AND id IN" walked every listed lead in
        # an index on hidden (tests/store/test_store_lookups_by_id.py).
        found = conn.execute(f"SELECT id, hidden FROM leads WHERE id IN ({marks})", wanted).fetchall()
    return frozenset(wanted) - {int(lead_id) for lead_id, hidden in found if not hidden}


def lead_names(store: Store, lead_ids: Iterable[int]) -> dict[int, str]:
    """The company name of each of these leads the cache holds (hidden ones too), in one
    read: Today names the lead of every failed op, and one query per op would grow with
    the outbox's failures."""
    wanted = sorted(set(lead_ids))
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    with store.read() as conn:
        found = conn.execute(f"SELECT id, company_name FROM leads WHERE id IN ({marks})", wanted).fetchall()
    return {int(lead_id): str(name) for lead_id, name in found}


def _start_of_day(moment: datetime, now: datetime) -> datetime:
    """Midnight of `moment`'s date in the rep's zone: a wall-clock midnight made again in
    the zone rather than `today - 24 h`, which is wrong across a DST change."""
    return datetime(moment.year, moment.month, moment.day, tzinfo=now.tzinfo)


def _bound(moment: datetime) -> str:
    """A moment as the stored timestamps are written, to compare with them as text."""
    return iso(moment.timestamp())


def _when(stored: str | None, zone: tzinfo | None) -> datetime | None:
    """A stored timestamp as an aware datetime in the rep's zone; None when not one."""
    epoch = epoch_of(stored)
    return None if epoch is None else datetime.fromtimestamp(epoch, zone)


def _finished_jobs(conn: sqlite3.Connection, since: datetime) -> tuple[Job, ...]:
    marks = ", ".join("?" for _ in FINISHED_STATUSES)
    cursor = conn.execute(
        "SELECT * FROM jobs"
        f" WHERE active = 0 AND lower(status) IN ({marks}) AND coalesce(completed_at, updated_at, '') > ?"
        " ORDER BY coalesce(completed_at, updated_at) DESC, key DESC",
        (*FINISHED_STATUSES, _bound(since)),
    )
    names = [d[0] for d in cursor.description]
    return tuple(Job.from_row(dict(zip(names, row, strict=True))) for row in cursor.fetchall())


def reached_target_at(
    current: int, target: int, activities: Iterable[tuple[str, int]]
) -> str | None:
    """When a lead at `current` (at or above `target`, below the cap) last reached its
    target, from its confirmed activities newest first as (created_at, bonus_points):
    walking back from today's score as the score history does (`store.score_history`), the
    activity whose points took the score from below the target to it. None when the score
    was there before every activity given, or got there by points no activity carries (a
    completed recommendation) after the last one: the crossing is then not known.

    Not for a lead at the cap (`MAX_SCORE`): its score stopped at 100 however many points
    came after, so walking back from 100 would put the crossing too late, and a lead at
    100 for weeks would "reach" its target again with each day's activities
    (`reached_from_start` is for those)."""
    score = current
    for created_at, points in activities:
        before = score - points
        if before < target <= score:
            return created_at
        score = before
    return None


def reached_from_start(target: int, activities: Iterable[tuple[str, int]]) -> str | None:
    """When a lead at the cap last reached its target, from all its confirmed activities
    oldest first: the score rebuilt forwards from 0, held between 0 and 100 as the service
    holds it, and the last activity that took it from below the target to it. Points no
    activity carries are missing from the sum, so the crossing found is at or after the
    real one; None when the activities alone never reach the target."""
    score, reached = 0, None
    for created_at, points in activities:
        before, score = score, max(0, min(MAX_SCORE, score + points))
        if before < target <= score:
            reached = created_at
    return reached


def _ready_leads(store: Store, conn: sqlite3.Connection, since: datetime) -> tuple[TodayLead, ...]:
    """Ready leads (score at or above target, `gap <= 0`) that reached it at or after `since`.

    A crossing since `since` is an activity since then, and walking back from today's score
    meets the newest crossing first: so only the activities since `since` are read (a range
    of `touchpoints_created`, which holds their points; a day's activities, however many
    leads there are), each joined to its lead, not every ready lead's history. A lead at
    the cap with activities since then has its whole history read instead
    (`reached_from_start`)."""
    bound = _bound(since)
    walked: dict[int, tuple[int, int, list[tuple[str, int]]]] = {}
    for lead_id, score, target, created_at, points in conn.execute(
        "SELECT l.id, l.warming_score, coalesce(l.target_score, 100), t.created_at, t.bonus_points"
        " FROM touchpoints t CROSS JOIN leads l ON l.id = t.lead_id"  # CROSS: this order
        " WHERE t.created_at >= ? AND t.id IS NOT NULL AND l.hidden = 0 AND l.gap <= 0"
        " ORDER BY l.id, t.created_at DESC, t.id DESC",
        (bound,),
    ):
        walked.setdefault(int(lead_id), (int(score), int(target), []))[2].append(
            (str(created_at), int(points or 0))
        )
    found: list[tuple[str, int]] = []
    capped: dict[int, int] = {}
    for lead_id, (score, target, activities) in walked.items():
        if score >= MAX_SCORE:
            capped[lead_id] = target
            continue
        reached = reached_target_at(score, target, activities)
        if reached is not None:
            found.append((reached, lead_id))
    for lead_id, target in capped.items():
        history = conn.execute(
            "SELECT created_at, bonus_points FROM touchpoints"
            " WHERE lead_id = ? AND id IS NOT NULL AND coalesce(created_at, '') != ''"
            " ORDER BY created_at, id",
            (lead_id,),
        )
        reached = reached_from_start(
            target, ((str(at), int(points or 0)) for at, points in history)
        )
        if reached is not None and reached >= bound:
            found.append((reached, lead_id))
    if not found:
        return ()
    rows = {row.id: row for row in store._lead_rows(conn, [lead_id for _, lead_id in found])}
    found.sort(reverse=True)
    zone = since.tzinfo
    return tuple(
        TodayLead(rows[lead_id], _when(reached, zone), _when(rows[lead_id].last_activity_at, zone))
        for reached, lead_id in found
    )


def _going_cold(
    store: Store, conn: sqlite3.Connection, cutoff: datetime, limit: int = COLD_LIMIT
) -> tuple[tuple[TodayLead, ...], int]:
    """Warm leads quiet since before `cutoff`, quietest first, and how many there are.

    A lead's last activity is the later of its list line's (which includes the local
    effect of queued activities: one logged offline a minute ago keeps the lead off this
    list) and its newest cached touchpoint: `leads.last_touched_at`, which the cache's
    triggers keep as either is written (`schema._LAST_TOUCHED`). A lead with neither counts
    from its creation (`leads.quiet_since`), and one with no date at all is not listed
    (nothing says it is quiet). So the section is a range of `leads_quiet`: counted, and
    its first `limit` entries read in order, whatever the number of quiet leads."""
    bound = _bound(cutoff)
    quiet = "FROM leads WHERE hidden = 0 AND lead_status = 'warm' AND quiet_since < ?"
    total = int(conn.execute(f"SELECT count(*) {quiet}", (bound,)).fetchone()[0])
    shown = conn.execute(
        f"SELECT id, last_touched_at {quiet} ORDER BY quiet_since, id LIMIT ?", (bound, limit)
    ).fetchall()
    rows = {row.id: row for row in store._lead_rows(conn, [int(lead_id) for lead_id, _ in shown])}
    zone = cutoff.tzinfo
    cold = tuple(
        TodayLead(rows[lead_id], None, _when(last, zone))
        for lead_id, last in shown
        if lead_id in rows
    )
    return cold, total


def _recommendation_counts(conn: sqlite3.Connection) -> RecommendationCounts:
    """As the triage queue counts them (`active_recommendations_in`): active, not taken by
    a queued complete or dismiss, on a lead still listed. Read from the
    `recommendations_priority` index alone; the few hidden leads are set apart once rather
    than each card's lead looked up."""
    counts = dict.fromkeys((*PRIORITIES, "other"), 0)
    for priority, count in conn.execute(
        "SELECT r.priority, count(*) FROM recommendations r"
        " WHERE r.status = 'active' AND r.local_status IS NULL"
        " AND r.lead_id NOT IN (SELECT id FROM leads WHERE hidden = 1) GROUP BY r.priority"
    ):
        key = str(priority or "").lower()
        counts[key if key in PRIORITIES else "other"] += int(count)
    return RecommendationCounts(**counts)
