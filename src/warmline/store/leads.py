"""Leads: the list the cockpit pages through, the detail screen, and their server updates."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from warmline.ops.kinds import OpKind
from warmline.store.clock import EpochClock, iso, system_clock
from warmline.store.database import MAX_ID, Database
from warmline.store.mapping import lead_contact_columns, unwrap
from warmline.store.paging import Listing, Order, count_rows, has_table, page_ids, text_filter
from warmline.store.recommendations import active_recommendations_in
from warmline.store.rows import EFFECT_STATES, LeadRow, build, json_object
from warmline.store.score_history import score_history_in
from warmline.store.signature import list_sig_sql, stamp
from warmline.store.tombstones import clear_relisted
from warmline.store.values import JsonMap, SqlRow, SqlValue, column, nullable
from warmline.store.writers import lead_exists, upsert, write_lead_detail, write_leads, write_notes
from warmline.textsafe import terminal_line

if TYPE_CHECKING:
    from warmline.store.lead_page import Deal, LeadDetail

LEADS = Listing("leads", fts_column="name_lower", name_column="name_lower", name_index="leads_name")
STATUSES = (None, "cold", "warm")
SORT_KEYS = ("score", "gap", "activity")
# The parts of a lead an action can name, by the table and column holding their ids.
LEAD_PARTS = {
    "contact": ("lead_contacts", "contact_id"),
    "monitoring_page": ("monitoring_pages", "id"),
    "competitor": ("competitors", "id"),
}
# A lead's contact as the service lists it on the lead (docs/wire.md, lead detail).
LEAD_CONTACT_FIELDS = ("id", "first_name", "last_name", "title", "role", "email", "social_url", "is_selected")
_TERMS = {
    "score": (("warming_score", "DESC"), ("id", "ASC")),
    "gap": (("gap", "ASC"), ("id", "ASC")),
    "activity": (("last_activity_at", "DESC"), ("id", "ASC")),
}
_INDEX = {
    ("score", False): "leads_score",
    ("score", True): "leads_status_score",
    ("gap", False): "leads_gap",
    ("gap", True): "leads_status_gap",
    ("activity", False): "leads_activity",
    ("activity", True): "leads_status_activity",
}
_ROW_COLUMNS = (
    "id, company_id, company_name, lead_status, warming_score, target_score, gap, activity_count,"
    " recommendation_count, monitoring_active, last_activity_at"
)


def _order(sort: str, by_status: bool) -> Order:
    if sort not in _TERMS:
        raise ValueError(f"sort must be one of {', '.join(SORT_KEYS)} (got {sort!r})")
    return Order(_TERMS[sort], _INDEX[(sort, by_status)])


def _before(order: Order, values: tuple[SqlValue, ...]) -> tuple[str, list[SqlValue]]:
    """A condition true of the rows `order` puts before the row holding `values` (one per
    term, the last term unique): ahead on a term, or level with it and ahead on the next."""
    clauses: list[str] = []
    params: list[SqlValue] = []
    level: list[str] = []
    level_params: list[SqlValue] = []
    for (name, way), value in zip(order.terms, values, strict=True):
        if value is None:  # NULL is lowest: nothing is ahead ascending, every value descending
            ahead, ahead_params = ("0", []) if way == "ASC" else (f"{name} IS NOT NULL", [])
        elif way == "ASC":
            ahead, ahead_params = f"({name} IS NULL OR {name} < ?)", [value]
        else:
            ahead, ahead_params = f"{name} > ?", [value]
        clauses.append(" AND ".join([*level, ahead]))
        params.extend([*level_params, *ahead_params])
        level.append(f"{name} IS ?")
        level_params.append(value)
    return "(" + " OR ".join(f"({clause})" for clause in clauses) + ")", params


def _check_status(status: str | None) -> None:
    if status not in STATUSES:
        raise ValueError(f"status must be cold, warm or None (got {status!r})")


class LeadsStore(Database):
    """Lead list and detail; mixed into `warmline.store.Store`."""

    def __init__(self, path: Path | str, clock: EpochClock = system_clock) -> None:
        super().__init__(path, clock)
        # (table, status, filter) -> (data version, count): see `_count_cached`.
        self._counts: dict[tuple[str, str | None, str], tuple[tuple[int, int], int]] = {}

    def _has_fts(self, table: str) -> bool:
        """Whether the trigram index exists (SQLite builds without it filter by scanning)."""
        with self._lock:
            return has_table(self.conn, f"{table}_fts")

    def _count_cached(self, key: tuple[str, str | None, str], compute: Callable[[], int]) -> int:
        """Counts are reused until the database changes (ours or another process's write)."""
        cache = self._counts
        version = self.data_version()
        hit = cache.get(key)
        if hit is not None and hit[0] == version:
            return hit[1]
        value = compute()
        if len(cache) > 64:
            cache.clear()
        cache[key] = (version, value)
        return value

    # --- the list -------------------------------------------------------------------------

    def lead_page(
        self,
        status: str | None = None,
        text: str = "",
        sort: str = "score",
        offset: int = 0,
        limit: int = 200,
    ) -> list[LeadRow]:
        """One page of the lead list: `status` cold/warm/None (both), `text` filters the name.

        Sorts: `score` (highest first), `gap` (target minus score, ready leads first),
        `activity` (most recent first, never-touched last). Ties go by lead id.
        """
        _check_status(status)
        order = _order(sort, status is not None)
        where, params = self._lead_where(status)
        with self.read() as conn:
            total = self.lead_count(status, text) if offset > 0 else None
            flt = text_filter(conn, LEADS, text, self._has_fts("leads"))
            ids = page_ids(conn, LEADS, order, where, params, flt, max(0, offset), max(0, limit), total)
            return self._lead_rows(conn, ids)

    def lead_count(self, status: str | None = None, text: str = "") -> int:
        _check_status(status)
        where, params = self._lead_where(status)

        def compute() -> int:
            with self.read() as conn:
                flt = text_filter(conn, LEADS, text, self._has_fts("leads"))
                index = "leads_status_score" if status else "leads_score"
                return count_rows(conn, LEADS, where, params, flt, index)

        return self._count_cached(("leads", status, text.strip().lower()), compute)

    def leads_listed(self, lead_ids: Sequence[int]) -> list[LeadRow]:
        """The list's rows for `lead_ids`, in that order, leaving out leads no longer listed:
        how the list refreshes the rows on screen without re-sorting them."""
        with self.read() as conn:
            if not lead_ids:
                return []
            marks = ", ".join("?" for _ in lead_ids)
            # By id alone, hidden tested here: "hidden = 0 AND id IN" walked every listed lead in
            # an index on hidden (tests/store/test_store_lookups_by_id.py).
            found = conn.execute(f"SELECT id, hidden FROM leads WHERE id IN ({marks})", list(lead_ids))
            listed = {lead_id for lead_id, hidden in found if not hidden}
            return self._lead_rows(conn, [lead_id for lead_id in lead_ids if lead_id in listed])

    def lead_index(self, lead_id: int, status: str | None = None, text: str = "", sort: str = "score") -> int | None:
        """The row `lead_id` is on in `lead_page`'s order (None when the view leaves it out),
        so the list can keep its cursor on a lead that a re-sort moved pages away.

        Counts the rows before it through the sort's index: NULLs sort first ascending and
        last descending, as SQLite orders them."""
        _check_status(status)
        order = _order(sort, status is not None)
        where, params = self._lead_where(status)
        with self.read() as conn:
            columns = ", ".join(column for column, _ in order.terms)
            found = conn.execute(
                f"SELECT {columns} FROM leads WHERE id = ? AND {' AND '.join(where)}", (lead_id, *params)
            ).fetchone()
            if found is None:
                return None
            flt = text_filter(conn, LEADS, text, self._has_fts("leads"))
            if flt is not None:
                clause = f"leads.id = ? AND {flt.clause}"
                if conn.execute(f"SELECT 1 FROM leads WHERE {clause}", (lead_id, *flt.params)).fetchone() is None:
                    return None
            before, values = _before(order, tuple(found))
            return count_rows(conn, LEADS, [*where, before], [*params, *values], flt, order.index_name)

    @staticmethod
    def _lead_where(status: str | None) -> tuple[list[str], list[SqlValue]]:
        where = ["leads.hidden = 0"]
        params: list[SqlValue] = []
        if status is not None:
            where.append("leads.lead_status = ?")
            params.append(status)
        return where, params

    def _lead_rows(self, conn: sqlite3.Connection, ids: list[int]) -> list[LeadRow]:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        by_id = {
            row[0]: row for row in conn.execute(f"SELECT {_ROW_COLUMNS} FROM leads WHERE id IN ({marks})", ids)
        }
        ops: dict[int, tuple[int, int]] = {
            lead_id: (queued, failed)
            for lead_id, queued, failed in conn.execute(
                f"SELECT lead_id, sum(state != 'failed'), sum(state = 'failed') FROM outbox"
                f" WHERE lead_id IN ({marks}) AND state IN ('pending', 'in_flight', 'ambiguous', 'failed')"
                f" GROUP BY lead_id",
                ids,
            ).fetchall()
        }
        # Built positionally: this runs for every page the list paints.
        rows = []
        for lead_id in ids:
            row = by_id.get(lead_id)
            if row is None:
                continue
            (_, company_id, name, status, score, target, gap, activities, recs, monitoring, last) = row
            queued, failed = ops.get(lead_id, (0, 0))
            rows.append(
                LeadRow(lead_id, company_id, name, status, score, target, gap, gap <= 0, activities, recs,
                        bool(monitoring), last, queued, failed)
            )
        return rows

    def get_lead(self, lead_id: int) -> LeadRow | None:
        with self.read() as conn:
            rows = self._lead_rows(conn, [lead_id])
        return rows[0] if rows else None

    def lead_of_company(self, company_id: int) -> int | None:
        """The lead a company is in outreach as, if any; a lead whose removal is queued
        (hidden) is out of outreach already, as on the lead list."""
        found = self.scalar("SELECT id FROM leads WHERE company_id = ? AND hidden = 0 LIMIT 1", (company_id,))
        return None if found is None else int(found)

    def lead_hidden(self, lead_id: int) -> bool | None:
        """Whether a cached lead is hidden (its removal is queued); None when it is not cached."""
        found = self.scalar("SELECT hidden FROM leads WHERE id = ?", (lead_id,))
        return None if found is None else bool(found)

    def lead_has(self, part: str, lead_id: int, part_id: int) -> bool:
        """Whether the cache knows `part_id` as one of the lead's `part` (`LEAD_PARTS`): actions
        on a key contact, monitoring page or competitor must name one of the lead's own."""
        table, column = LEAD_PARTS[part]
        found = self.scalar(f"SELECT 1 FROM {table} WHERE lead_id = ? AND {column} = ?", (lead_id, part_id))
        return found is not None

    def adopt_lead_contact(self, lead_id: int, contact_id: int) -> bool:
        """Make a cached contact of the lead's company one of the lead's contacts (unpinned),
        so that it can be pinned before the lead's detail is next refreshed; True when the
        lead has it now, False when the cache knows no such contact of the lead's company.

        The service lists every contact of the lead's company on the lead (its `contacts`,
        each with `is_selected`), so a contact the rep just created for the company, or one
        cached from the company's list after the lead's detail was, is already the lead's
        on the service: this writes what the next refresh brings. Its `raw` says unpinned,
        so an undone or discarded pin goes back to that (`effects.restore_lead`).
        """
        with self.write() as conn:
            known = conn.execute(
                "SELECT 1 FROM lead_contacts WHERE lead_id = ? AND contact_id = ?", (lead_id, contact_id)
            ).fetchone()
            if known is not None:
                return True
            row = conn.execute(
                "SELECT c.raw FROM contacts c JOIN leads l ON l.company_id = c.company_id"
                " WHERE c.id = ? AND l.id = ?",
                (contact_id, lead_id),
            ).fetchone()
            if row is None:
                return False
            cached = json_object(row[0])
            contact = {key: cached.get(key) for key in LEAD_CONTACT_FIELDS}
            contact.update(id=contact_id, is_selected=False)
            upsert(conn, "lead_contacts", [lead_contact_columns(lead_id, contact)], ("lead_id", "contact_id"))
        return True

    def lead_deals(self, lead_ids: Sequence[int]) -> dict[int, Deal]:
        """The deal of each lead (kept beside its list row), for an export of the lead list."""
        from warmline.store.lead_page import Deal  # deferred: first frame (no deal on it)

        if not lead_ids:
            return {}
        marks = ", ".join("?" for _ in lead_ids)
        found = self.rows(
            f"SELECT id, deal_value, deal_currency, won_at, closed_at, closed_reason FROM leads WHERE id IN ({marks})",
            list(lead_ids),
        )
        deals = [build(Deal, row) for row in found]
        return {deal.id: deal for deal in deals}

    def last_deal_currency(self) -> str | None:
        """The currency the deal form offers first: the one of the rep's newest deal change
        the outbox still holds, else the one most of the cached deals use (delivered ops
        are purged after a while, and a lead row does not say when its deal changed)."""
        queued = self.scalar(
            "SELECT json_extract(payload, '$.deal_currency') FROM outbox WHERE kind = ?"
            " AND coalesce(json_extract(payload, '$.deal_currency'), '') != '' ORDER BY seq DESC LIMIT 1",
            (OpKind.UPDATE_DEAL,),
        )
        if isinstance(queued, str):
            return queued
        cached = self.scalar(
            "SELECT deal_currency FROM leads WHERE coalesce(deal_currency, '') != ''"
            " GROUP BY deal_currency ORDER BY count(*) DESC, max(id) DESC LIMIT 1"
        )
        return cached if isinstance(cached, str) else None

    def resolve_lead(self, ref: str) -> LeadRow:
        """A lead from an id or an unambiguous start of its company name (for the CLI)."""
        text = ref.strip()
        if re.fullmatch(r"[0-9]+", text) and int(text) <= MAX_ID:  # ASCII digits only; larger: no such id
            found = self.get_lead(int(text))
            if found is not None:
                return found
        needle = text.lower()
        if not needle:
            raise LookupError("give a lead id or the start of a company name")
        ids = self.ids(
            "SELECT id FROM leads WHERE hidden = 0 AND name_lower >= ? AND substr(name_lower, 1, ?) = ?"
            " ORDER BY name_lower, id LIMIT 6",
            (needle, len(needle), needle),
        )
        if not ids:
            raise LookupError(f"no cached lead matches {text!r}")
        with self.read() as conn:
            rows = self._lead_rows(conn, ids)
        exact = [r for r in rows if r.company_name.lower() == needle]
        if len(exact) == 1:
            return exact[0]
        if len(rows) > 1:
            names = ", ".join(f"{terminal_line(r.company_name)} ({r.id})" for r in rows[:5])
            raise LookupError(f"{text!r} matches several leads: {names}")
        return rows[0]

    # --- server data in ----------------------------------------------------------------------

    def upsert_leads(
        self,
        items: Iterable[JsonMap],
        full_list_for_status: str | None = None,
        listed_at: float | None = None,
    ) -> int:
        """Lead list items from the server. With `full_list_for_status` (cold, warm or all)
        the items are the whole list: cached leads of that status missing from it are
        removed, unless an action on them is still queued or failed.

        A listed lead the service had removed was added again: its tombstone goes, unless it
        is newer than `listed_at` (when the listing was asked for)."""
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import rebase_touched

        if full_list_for_status not in (None, "cold", "warm", "all"):
            raise ValueError("full_list_for_status must be cold, warm, all or None")
        with self.write() as conn:
            ids = write_leads(conn, items)
            clear_relisted(conn, ids, listed_at)
            if full_list_for_status is not None:
                self._drop_unlisted(conn, ids, full_list_for_status)
            rebase_touched(conn, ids)
        return len(ids)

    def _drop_unlisted(self, conn: sqlite3.Connection, ids: list[int], status: str) -> None:
        conn.execute("CREATE TEMP TABLE IF NOT EXISTS listed_ids (id INTEGER PRIMARY KEY)")
        conn.execute("DELETE FROM temp.listed_ids")
        conn.executemany("INSERT OR IGNORE INTO temp.listed_ids (id) VALUES (?)", ((i,) for i in ids))
        marks = ", ".join("?" for _ in EFFECT_STATES)
        sql = (
            "DELETE FROM leads WHERE id NOT IN (SELECT id FROM temp.listed_ids)"
            f" AND id NOT IN (SELECT lead_id FROM outbox WHERE lead_id IS NOT NULL AND state IN ({marks}))"
        )
        params: list[SqlValue] = list(EFFECT_STATES)
        if status != "all":
            sql += " AND coalesce((SELECT json_extract(raw, '$.lead_status') FROM lead_snapshots s WHERE s.id = leads.id), lead_status) = ?"
            params.append(status)
        conn.execute(sql, params)
        conn.execute("DELETE FROM temp.listed_ids")

    def upsert_lead_detail(self, detail: JsonMap) -> int:
        """A lead's full detail from the server; local pending items are kept on top."""
        # deferred: first frame (what a queued action does locally loads with the first write)
        from warmline.store.effects import rebase_touched

        with self.write() as conn:
            lead_id = write_lead_detail(conn, unwrap(detail), self.clock())
            stamp(conn, "detail_sig", [lead_id])
            rebase_touched(conn, [lead_id])
        return lead_id

    def leads_needing_detail(self) -> list[int]:
        """Leads whose detail was never fetched, or whose list line changed since it was:
        what the prefetch reads so that every lead can be opened offline.

        Most useful first, since the pass may be cut short by the rate-limit budget or the
        connection: ready leads (gap <= 0), warm ones, those with active recommendations,
        then the most recent activity first (never-touched last), then by id.
        """
        return self.ids(
            "SELECT l.id FROM leads l LEFT JOIN lead_snapshots s ON s.id = l.id"
            " WHERE l.hidden = 0 AND (l.detail_fetched_at IS NULL OR l.detail_sig IS NULL"
            f" OR s.raw IS NULL OR l.detail_sig != {list_sig_sql('s.raw')})"
            " ORDER BY l.gap <= 0 DESC, l.lead_status = 'warm' DESC, l.recommendation_count > 0 DESC,"
            " l.last_activity_at IS NULL, l.last_activity_at DESC, l.id"
        )

    def detail_coverage(self) -> tuple[int, int]:
        """(leads whose detail is cached, leads in the list): what can be read offline."""
        with self.read() as conn:
            cached, total = conn.execute(
                "SELECT count(detail_fetched_at), count(*) FROM leads WHERE hidden = 0"
            ).fetchone()
        return int(cached), int(total)

    def upsert_notes(self, lead_id: int, notes: Iterable[JsonMap] | JsonMap) -> None:
        """A lead's notes from `GET .../notes` (a list, or a body with `data`/`notes`)."""
        if isinstance(notes, Mapping):
            listed = notes.get("data", notes.get("notes"))
            notes = listed if isinstance(listed, list) else []
        with self.write() as conn:
            if lead_exists(conn, lead_id):
                write_notes(conn, lead_id, notes)

    def forget_leads(self, lead_ids: Iterable[int]) -> None:
        """Drop leads the server says do not exist; their queued actions stay (and will fail)."""
        with self.write() as conn:
            conn.executemany("DELETE FROM leads WHERE id = ?", ((i,) for i in lead_ids))

    # --- the detail screen ---------------------------------------------------------------------

    def lead_detail(self, lead_id: int) -> LeadDetail | None:
        """Everything the detail screen shows, pending local items included and marked."""
        # deferred: first frame (the lead's page is not on it)
        from warmline.store.lead_page import (
            Competitor,
            Deal,
            KeyContact,
            LeadDetail,
            MonitoringPage,
            Note,
            Touchpoint,
        )

        with self.read() as conn:
            found = self._select(
                conn, "SELECT l.*, s.raw FROM leads l LEFT JOIN lead_snapshots s ON s.id = l.id WHERE l.id = ?", (lead_id,)
            )
            if not found:
                return None
            lead = found[0]
            live = self._select(
                conn,
                "SELECT kind, payload FROM outbox WHERE lead_id = ? AND state IN (?, ?, ?, ?)",
                (lead_id, *EFFECT_STATES),
            )
            # A key contact or source is pending while an op that sets its flag is live.
            # The specs load the api's limits; the cockpit's first frame reads the store without them.
            from warmline.ops.effects import ChildFlag  # deferred: first frame
            from warmline.ops.specs import spec_of  # deferred: first frame

            touched: dict[str, set[object]] = {"lead_contacts": set(), "monitoring_pages": set()}
            for op in live:
                spec = spec_of(column(op["kind"], str))
                effect = spec.effect if spec is not None else None
                if isinstance(effect, ChildFlag) and effect.table in touched:
                    touched[effect.table].add(json_object(op["payload"]).get(effect.id_field))
            pages = [
                build(MonitoringPage, {**r, "is_selected": bool(r["is_selected"]), "pending": r["id"] in touched["monitoring_pages"]})
                for r in self._select(
                    conn, "SELECT * FROM monitoring_pages WHERE lead_id = ? ORDER BY score DESC, id", (lead_id,)
                )
            ]
            contacts = [
                build(KeyContact, {**r, "is_selected": bool(r["is_selected"]), "pending": r["contact_id"] in touched["lead_contacts"] or column(r["contact_id"], int) < 0})
                for r in self._select(
                    conn,
                    "SELECT * FROM lead_contacts WHERE lead_id = ? ORDER BY is_selected DESC, last_name, first_name, contact_id",
                    (lead_id,),
                )
            ]
            competitors = [
                build(Competitor, {**r, "is_pinned": bool(r["is_pinned"]), "scan_queued": bool(r["scan_queued"])})
                for r in self._select(
                    conn,
                    "SELECT c.*, o.state AS op_state FROM competitors c"
                    " LEFT JOIN outbox o ON o.op_id = c.op_id AND c.id IS NULL"
                    " WHERE c.lead_id = ? ORDER BY c.is_pinned DESC, c.name, c.id IS NULL, c.id, o.seq",
                    (lead_id,),
                )
            ]
            touchpoints = [
                build(Touchpoint, r)
                for r in self._select(
                    conn,
                    "SELECT t.*, o.state AS op_state FROM touchpoints t"
                    " LEFT JOIN outbox o ON o.op_id = t.op_id AND t.id IS NULL"
                    " WHERE t.lead_id = ?"
                    " ORDER BY coalesce(t.created_at, '') DESC, coalesce(o.seq, 0) DESC, t.id DESC LIMIT 200",
                    (lead_id,),
                )
            ]
            notes = [
                build(Note, r)
                for r in self._select(
                    conn,
                    "SELECT n.*, o.state AS op_state FROM notes n"
                    " LEFT JOIN outbox o ON o.op_id = n.op_id AND n.id IS NULL"
                    " WHERE n.lead_id = ? ORDER BY coalesce(n.created_at, '') DESC, coalesce(o.seq, 0) DESC, n.id DESC",
                    (lead_id,),
                )
            ]
            recommendations = active_recommendations_in(conn, lead_id=lead_id)
            row = self._lead_rows(conn, [lead_id])[0]
            history = score_history_in(conn, lead_id, row.warming_score, iso(self.clock()))
        snapshot = json_object(lead["raw"])
        deal = build(Deal, lead)
        return LeadDetail(
            lead=row,
            company=snapshot["company"] if isinstance(snapshot.get("company"), dict) else {},
            signal_scan_status=nullable(lead["signal_scan_status"], str),
            generation_status=nullable(lead["generation_status"], str),
            deal_value=deal.deal_value,
            deal_currency=deal.deal_currency,
            won_at=deal.won_at,
            closed_at=deal.closed_at,
            closed_reason=deal.closed_reason,
            monitoring_pages=pages,
            contacts=contacts,
            competitors=competitors,
            touchpoints=touchpoints,
            notes=notes,
            recommendations=recommendations,
            score_history=history,
            detail_fetched_at=nullable(lead["detail_fetched_at"], float),
            raw=snapshot,
        )

    @staticmethod
    def _select(conn: sqlite3.Connection, sql: str, params: tuple[SqlValue, ...] = ()) -> list[SqlRow]:
        cursor = conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]
