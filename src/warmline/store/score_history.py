"""A lead's warming score over time, rebuilt from every activity the cache holds.

The service gives no score history, only today's score and each activity's points. The
cache keeps every touchpoint it was ever given (older ones stay when they leave the
service's window), so walking back from today's score over all of them gives the
longest history there is: the lead page's chart draws it.
"""

from __future__ import annotations

import sqlite3

from warmline.store.rows import ScorePoint


def score_history_in(
    conn: sqlite3.Connection, lead_id: int, current: int, now: str
) -> list[ScorePoint]:
    """The score after each confirmed activity, oldest first, ending with `current` at `now`.

    Walks back from today's score subtracting each activity's bonus points, so the point
    of the newest activity is today's score. Points from elsewhere (a completed
    recommendation) have no touchpoint: they land in the step of the activity before them.
    Activities still queued have no points yet and no server time, so they are left out.
    Read inside the caller's transaction (`Store.lead_detail`), with the rest of the page.
    """
    found = conn.execute(
        "SELECT created_at, bonus_points FROM touchpoints"
        " WHERE lead_id = ? AND id IS NOT NULL AND coalesce(created_at, '') != ''"
        " ORDER BY created_at DESC, id DESC",
        (lead_id,),
    ).fetchall()
    points = [ScorePoint(at=now, score=current)]
    score = current
    for created_at, bonus_points in found:  # newest first
        points.append(ScorePoint(at=str(created_at), score=max(0, min(100, score))))
        score -= int(bonus_points or 0)
    points.reverse()
    return points
