"""The recommendations queue across leads, and recommendation lists from the server."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from warmline.store.database import Database
from warmline.store.mapping import unwrap
from warmline.store.rows import Recommendation, RecommendationProgress, build
from warmline.store.signature import list_sig_sql, stamp
from warmline.store.values import JsonMap, JsonObject, SqlValue, nullable
from warmline.store.writers import lead_exists, patch_lead_snapshot, write_recommendations

PRIORITY_RANK_SQL = (
    "CASE lower(coalesce(r.priority, '')) WHEN 'high' THEN 0 WHEN 'medium' THEN 1 WHEN 'low' THEN 2 ELSE 3 END"
)


def active_recommendations_in(
    conn: sqlite3.Connection, lead_id: int | None = None, limit: int = -1
) -> list[Recommendation]:
    """Active recommendations not taken by a queued complete/dismiss, best first:
    high, medium, low (unknown priorities last), then oldest first."""
    sql = (
        "SELECT r.*, l.company_name FROM recommendations r JOIN leads l ON l.id = r.lead_id"
        " WHERE r.status = 'active' AND r.local_status IS NULL AND l.hidden = 0"
    )
    params: list[SqlValue] = []
    if lead_id is not None:
        sql += " AND r.lead_id = ?"
        params.append(lead_id)
    sql += f" ORDER BY {PRIORITY_RANK_SQL}, coalesce(r.created_at, ''), r.id LIMIT ?"
    params.append(limit)
    cursor = conn.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [build(Recommendation, dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


class RecommendationsStore(Database):
    """Recommendation queue; mixed into `warmline.store.Store`."""

    def active_recommendations(self, limit: int = -1, lead_id: int | None = None) -> list[Recommendation]:
        with self.read() as conn:
            return active_recommendations_in(conn, lead_id=lead_id, limit=limit)

    def recommendation_state(self, recommendation_id: int, lead_id: int) -> tuple[str, str | None] | None:
        """(status, local_status) of a lead's cached recommendation; local_status is what a
        queued complete or dismiss made of it. None when the cache has no such one."""
        found = self.row(
            "SELECT status, local_status FROM recommendations WHERE id = ? AND lead_id = ?",
            (recommendation_id, lead_id),
        )
        return None if found is None else (str(found["status"]), nullable(found["local_status"], str))

    def cached_recommendation(self, recommendation_id: int) -> Recommendation | None:
        """A cached recommendation in any state, with its lead's company name: what an op
        on it (complete, dismiss) is about. None when the cache has no such one."""
        found = self.row(
            "SELECT r.*, l.company_name FROM recommendations r JOIN leads l ON l.id = r.lead_id WHERE r.id = ?",
            (recommendation_id,),
        )
        return None if found is None else build(Recommendation, found)

    def recommendation_lead(self, recommendation_id: int) -> int | None:
        """The lead a cached recommendation belongs to; None when it is not cached."""
        found = self.scalar("SELECT lead_id FROM recommendations WHERE id = ?", (recommendation_id,))
        return None if found is None else int(found)

    def recommendation_progress(self, lead_id: int | None = None) -> RecommendationProgress:
        """Completed / dismissed / total, the server's figures plus what the rep just did."""
        where = "WHERE id = ?" if lead_id is not None else ""
        params: tuple[SqlValue, ...] = (lead_id,) if lead_id is not None else ()
        with self.read() as conn:
            server = conn.execute(
                "SELECT coalesce(sum(json_extract(raw, '$.rec_progress.completed')), 0),"
                " coalesce(sum(json_extract(raw, '$.rec_progress.dismissed')), 0),"
                f" coalesce(sum(json_extract(raw, '$.rec_progress.total')), 0) FROM lead_snapshots {where}",
                params,
            ).fetchone()
            rec_where = "AND lead_id = ?" if lead_id is not None else ""
            local = dict(
                conn.execute(
                    "SELECT local_status, count(*) FROM recommendations WHERE status = 'active'"
                    f" AND local_status IS NOT NULL {rec_where} GROUP BY local_status",
                    params,
                ).fetchall()
            )
            active = len(active_recommendations_in(conn, lead_id=lead_id))
        completed = int(server[0]) + local.get("completed", 0)
        dismissed = int(server[1]) + local.get("dismissed", 0)
        total = max(int(server[2]), completed + dismissed + active)
        return RecommendationProgress(completed=completed, dismissed=dismissed, total=total)

    def upsert_recommendations(self, lead_id: int, response: JsonMap) -> None:
        """A lead's recommendation list response (`recommendations`, `count`, `progress`,
        `generation_status`): the lead's active recommendations become exactly these."""
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import rebase_touched

        body = unwrap(response)
        recs = [r for r in body.get("recommendations") or [] if isinstance(r, Mapping)]
        with self.write() as conn:
            if not lead_exists(conn, lead_id):
                return
            write_recommendations(conn, lead_id, recs)
            changes: JsonObject = {"recommendation_count": body.get("count", len(recs))}
            if isinstance(body.get("progress"), Mapping):
                changes["rec_progress"] = dict(body["progress"])
            if body.get("generation_status") is not None:
                changes["generation_status"] = body["generation_status"]
            patch_lead_snapshot(conn, lead_id, changes)
            conn.execute(
                "UPDATE leads SET recommendation_count = ?, generation_status = coalesce(?, generation_status)"
                " WHERE id = ?",
                (changes["recommendation_count"], changes.get("generation_status"), lead_id),
            )
            stamp(conn, "recs_sig", [lead_id])
            rebase_touched(conn, [lead_id])

    def leads_never_read_for_recommendations(self) -> list[int]:
        """Leads with no card whose recommendations were never read: their progress figures
        (cards completed and dismissed before) belong in triage's all-time counts, but the
        queue does not need them, so the prefetch reads them within its budget."""
        return self.ids(
            "SELECT id FROM leads WHERE hidden = 0 AND recs_sig IS NULL AND recommendation_count = 0"
            " AND id NOT IN (SELECT lead_id FROM recommendations WHERE status = 'active') ORDER BY id"
        )

    def leads_needing_recommendations(self) -> list[int]:
        """Leads whose recommendations the triage queue must read: those that have (or had)
        some, whose list line changed since they were last read, or that were never read.

        The list line's `recommendation_count` (and `activity_count`: a completed card logs
        an activity) moves whenever the service's queue for a lead does, so an idle cockpit
        re-reads nothing. The lead's detail carries its active recommendations but not the
        progress figures, so a detail fetch does not count as a read here.
        """
        return self.ids(
            "SELECT l.id FROM leads l LEFT JOIN lead_snapshots s ON s.id = l.id WHERE l.hidden = 0"
            " AND (l.recommendation_count > 0"
            " OR l.id IN (SELECT lead_id FROM recommendations WHERE status = 'active'))"
            f" AND (l.recs_sig IS NULL OR s.raw IS NULL OR l.recs_sig != {list_sig_sql('s.raw')})"
            " ORDER BY l.id"
        )
