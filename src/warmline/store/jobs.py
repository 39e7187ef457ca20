"""Asynchronous jobs (deep searches, contact searches, research runs, signal scans,
recommendation generation): stored so they survive restarts and are polled until they end.

Statuses are kept as the server says them; a status we do not know is shown as it is and
the job keeps being polled. When a job is seen completed, `record_job` pulls what its
answer carries into the cache once (companies of a deep search, custom fields of a research
run, a lead's scan or generation status); the sync engine refreshes the rest (the lead's
detail after a scan, its recommendations after generation).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

from warmline.ops.kinds import JobKind
from warmline.store.clock import iso, normalize_ts
from warmline.store.database import Database
from warmline.store.mapping import company_columns, dumps, unwrap
from warmline.store.rows import Job, json_object
from warmline.store.values import JsonMap, JsonObject, JsonValue, SqlRow, nullable
from warmline.store.writers import patch_lead_snapshot, upsert
from warmline.vocabulary import plural

TERMINAL_STATUSES = frozenset({"completed", "failed", "error", "cancelled", "canceled", "expired", "none"})
JOB_KINDS = (
    JobKind.DEEP_SEARCH,
    JobKind.COMPANY_RESEARCH,
    JobKind.CONTACT_SEARCH,
    JobKind.RESEARCH_RUN,
    JobKind.SIGNAL_SCAN,
    JobKind.RECOMMENDATIONS,
)


def is_terminal(status: str) -> bool:
    return status.lower() in TERMINAL_STATUSES


def result_summary(kind: str, answer: JsonMap) -> str | None:
    """A one-line summary for the job monitor, from what the answer carries.

    A failed job that found nothing has no summary: "0 contacts found" next to the
    service's error would only repeat it less clearly. A job the answer says still runs
    has counted "so far".
    """
    found = _found(kind, answer)
    if found is not None:
        count, (word, words) = found
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            return None  # the service's count is its word: one that is not a count says nothing
        status = str(answer.get("status") or "").lower()
        if status == "failed" and not count:
            return None
        return plural(count, word, words) + (" so far" if status and not is_terminal(status) else "")
    if kind == JobKind.COMPANY_RESEARCH and isinstance(answer.get("results"), Mapping):
        summary = answer["results"].get("summary")
        return summary if isinstance(summary, str) else None
    message = answer.get("message")
    return message if isinstance(message, str) else None


def _found(kind: str, answer: JsonMap) -> tuple[JsonValue, tuple[str, str]] | None:
    """How many things the job found, and what they are in the singular and the plural,
    when its answer says."""
    if kind == JobKind.DEEP_SEARCH:
        found = answer.get("found_count")
        if found is None and isinstance(answer.get("companies"), list):
            found = len(answer["companies"])
        return None if found is None else (found, ("company found", "companies found"))
    if kind == JobKind.CONTACT_SEARCH and isinstance(answer.get("contacts"), list):
        return len(answer["contacts"]), ("contact found", "contacts found")
    if kind == JobKind.RESEARCH_RUN and isinstance(answer.get("results"), list):
        return len(answer["results"]), ("company enriched", "companies enriched")
    if kind == JobKind.RECOMMENDATIONS and isinstance(answer.get("recommendations"), list):
        return len(answer["recommendations"]), ("recommendation", "recommendations")
    if kind == JobKind.SIGNAL_SCAN and answer.get("pages_found") is not None:
        return answer["pages_found"], ("source found", "sources found")
    return None


class JobsStore(Database):
    """Job monitor rows; mixed into `warmline.store.Store`."""

    def jobs(self, active_only: bool = False, limit: int = 500) -> list[Job]:
        """Newest first; queued-while-offline starts are included (status `queued`)."""
        where = "WHERE active = 1" if active_only else ""
        rows = self.rows(
            f"SELECT * FROM jobs {where} ORDER BY coalesce(created_at, '') DESC, key DESC LIMIT ?", (limit,)
        )
        return [Job.from_row(r) for r in rows]

    def get_job(self, key: int) -> Job | None:
        found = self.row("SELECT * FROM jobs WHERE key = ?", (key,))
        return None if found is None else Job.from_row(found)

    def latest_job(self, kind: str, company_id: int) -> Job | None:
        """The newest job of `kind` about a company: its page shows the last search and research."""
        found = self.row(
            "SELECT * FROM jobs WHERE kind = ? AND company_id = ?"
            " ORDER BY coalesce(created_at, '') DESC, key DESC LIMIT 1",
            (kind, company_id),
        )
        return None if found is None else Job.from_row(found)

    def job_for_op(self, op_id: str) -> Job | None:
        """The job a queued start created (it keeps the op id once the server gives its id)."""
        found = self.row("SELECT * FROM jobs WHERE op_id = ?", (op_id,))
        return None if found is None else Job.from_row(found)

    def find_job(self, kind: str, remote_id: str | int) -> Job | None:
        found = self.row("SELECT * FROM jobs WHERE kind = ? AND remote_id = ?", (kind, str(remote_id)))
        return None if found is None else Job.from_row(found)

    def due_jobs(self, now: float | None = None) -> list[Job]:
        """Started jobs still running whose next poll time has come."""
        moment = self.clock() if now is None else now
        rows = self.rows(
            "SELECT * FROM jobs WHERE active = 1 AND remote_id IS NOT NULL AND coalesce(next_poll_at, 0) <= ?"
            " ORDER BY coalesce(next_poll_at, 0), key",
            (moment,),
        )
        return [Job.from_row(r) for r in rows]

    def next_job_poll_at(self) -> float | None:
        found = self.scalar("SELECT min(coalesce(next_poll_at, 0)) FROM jobs WHERE active = 1 AND remote_id IS NOT NULL")
        return nullable(found, float)

    def set_next_poll(self, key: int, when: float) -> None:
        with self.write() as conn:
            conn.execute("UPDATE jobs SET next_poll_at = ? WHERE key = ?", (when, key))

    def record_job(
        self,
        kind: str,
        remote_id: str | int,
        answer: JsonMap,
        *,
        next_poll_at: float | None = None,
        lead_id: int | None = None,
        company_id: int | None = None,
    ) -> Job:
        """A job's status as polled (or a job started elsewhere): stored, and on completion
        its results pulled into the cache once. Returns the stored job."""
        body = unwrap(answer)
        now = self.clock()
        status = str(body.get("status") or "pending")
        active = not is_terminal(status)
        progress = body.get("progress")
        columns: SqlRow = {
            "kind": kind,
            "remote_id": str(remote_id),
            "status": status,
            "active": 1 if active else 0,
            "progress": progress if isinstance(progress, int) and not isinstance(progress, bool) else None,
            "result_summary": result_summary(kind, body),
            "error": body.get("error") if isinstance(body.get("error"), str) else None,
            "updated_at": iso(now),
            "completed_at": normalize_ts(body.get("completed_at")) or (None if active else iso(now)),
            "next_poll_at": next_poll_at if active else None,
            "raw": dumps(dict(body)),
        }
        with self.write() as conn:
            existing = conn.execute(
                "SELECT key, results_applied FROM jobs WHERE kind = ? AND remote_id = ?", (kind, str(remote_id))
            ).fetchone()
            if existing is None:
                columns.update(
                    {
                        "lead_id": lead_id,
                        "company_id": company_id if company_id is not None else body.get("company_id"),
                        "created_at": normalize_ts(body.get("created_at") or body.get("started_at")) or iso(now),
                        "params": dumps({k: body[k] for k in ("query", "target_count", "template_id", "company_ids") if k in body}),
                    }
                )
                upsert(conn, "jobs", [columns], ("kind", "remote_id"))
                key = conn.execute(
                    "SELECT key FROM jobs WHERE kind = ? AND remote_id = ?", (kind, str(remote_id))
                ).fetchone()[0]
                applied = False
            else:
                key, applied = existing[0], bool(existing[1])
                sets = ", ".join(f"{k} = ?" for k in columns)
                conn.execute(f"UPDATE jobs SET {sets} WHERE key = ?", (*columns.values(), key))
            if status.lower() == "completed" and not applied:
                self._pull_results(conn, kind, key, body)
                conn.execute("UPDATE jobs SET results_applied = 1 WHERE key = ?", (key,))
            self._note_on_lead(conn, kind, key, status)
            return Job.from_row(self._job_row(conn, key))

    @staticmethod
    def _job_row(conn: sqlite3.Connection, key: int) -> SqlRow:
        cursor = conn.execute("SELECT * FROM jobs WHERE key = ?", (key,))
        names = [d[0] for d in cursor.description]
        return dict(zip(names, cursor.fetchone(), strict=True))

    def _note_on_lead(self, conn: sqlite3.Connection, kind: str, key: int, status: str) -> None:
        """A lead's scan or generation status follows its job."""
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import rebase_touched

        statuses: dict[str, str] = {JobKind.SIGNAL_SCAN: "signal_scan_status", JobKind.RECOMMENDATIONS: "generation_status"}
        field = statuses.get(kind)
        if field is None:
            return
        lead_id = conn.execute("SELECT lead_id FROM jobs WHERE key = ?", (key,)).fetchone()[0]
        if lead_id is None:
            return
        patch_lead_snapshot(conn, lead_id, {field: status})
        conn.execute(f"UPDATE leads SET {field} = ? WHERE id = ?", (status, lead_id))
        rebase_touched(conn, [lead_id])

    def _pull_results(self, conn: sqlite3.Connection, kind: str, key: int, body: JsonMap) -> None:
        if kind == JobKind.DEEP_SEARCH:
            companies = [c for c in body.get("companies") or [] if isinstance(c, Mapping) and c.get("id") is not None]
            upsert(conn, "companies", [company_columns(c) for c in companies])
        elif kind == JobKind.RESEARCH_RUN:
            self._merge_custom_fields(conn, body.get("results") or [])

    @staticmethod
    def _merge_custom_fields(conn: sqlite3.Connection, results: Iterable[object]) -> None:
        """Research results land in each company's custom fields (merged, not replaced)."""
        for result in results:
            if not isinstance(result, Mapping) or not isinstance(result.get("fields"), Mapping):
                continue
            conn.execute(
                "UPDATE companies SET custom_fields = json_patch(custom_fields, ?),"
                " raw = json_set(raw, '$.custom_fields', json(json_patch(coalesce(json_extract(raw, '$.custom_fields'), '{}'), ?)))"
                " WHERE id = ?",
                (dumps(dict(result["fields"])), dumps(dict(result["fields"])), result.get("company_id")),
            )

    def found_contacts(self, key: int) -> list[JsonObject]:
        """The contacts a completed contact search found (to pick from before adding)."""
        contacts = json_object(self.scalar("SELECT raw FROM jobs WHERE key = ?", (key,))).get("contacts")
        return [dict(c) for c in contacts or [] if isinstance(c, Mapping)]
