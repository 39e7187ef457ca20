"""Leads the service says are gone ("Outreach lead not found"), and what that does locally.

When a send or a read meets that 404, the lead is marked removed at once, in one
transaction (`mark_lead_gone`): a row in `lead_tombstones` (its name kept, so the outbox
and refusals can still say which lead), the lead hidden from every list (its row kept, so
its page and its failed actions stay readable), and every other action queued on it failed
with one message. A queued action on a removed lead cannot succeed; sending each in turn
only to fail would show the rep one failure after another for one fact.

The tombstone makes the actions refuse new work on the lead (`tombstone_of`), and goes
when a lead list fetched after it lists the lead again (re-added on the service).
"""

import sqlite3
from collections.abc import Iterable

from warmline.named_tuple import NamedTuple
from warmline.store.clock import iso
from warmline.store.database import Database


def gone_message(company_name: str, reason: str | None) -> str:
    """The one message every action on a removed lead fails with."""
    return f"{company_name} was removed on the service ({reason or 'not found'})"


class Tombstone(NamedTuple):
    """A lead the service removed. `failed`: its actions failed because of it."""

    lead_id: int
    company_name: str
    reason: str | None
    removed_at: str
    failed: int = 0

    @property
    def message(self) -> str:
        return gone_message(self.company_name, self.reason)


def tombstone_of(conn: sqlite3.Connection, lead_id: int | None) -> Tombstone | None:
    """The lead's tombstone, if the service removed it (without the count of failed ops)."""
    if lead_id is None:
        return None
    found = conn.execute(
        "SELECT id, company_name, reason, removed_at FROM lead_tombstones WHERE id = ?", (lead_id,)
    ).fetchone()
    return None if found is None else Tombstone(found[0], found[1], found[2], found[3])


def is_tombstoned(conn: sqlite3.Connection, lead_id: int) -> bool:
    return conn.execute("SELECT 1 FROM lead_tombstones WHERE id = ?", (lead_id,)).fetchone() is not None


def clear_relisted(conn: sqlite3.Connection, lead_ids: Iterable[int], listed_at: float | None) -> list[int]:
    """Leads the service listed again lose their tombstone and come back into the lists.

    `listed_at` is when the listing was asked for: a tombstone set after that moment came
    from a newer answer than the listing (the lead was removed while the pages came in),
    so it stays. Returns the leads that came back."""
    ids = list(lead_ids)
    if not ids or conn.execute("SELECT 1 FROM lead_tombstones LIMIT 1").fetchone() is None:
        return []
    since = iso(listed_at) if listed_at is not None else None
    back: list[int] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        rows = conn.execute(
            f"SELECT id FROM lead_tombstones WHERE id IN ({marks}) AND (? IS NULL OR removed_at <= ?)",
            (*chunk, since, since),
        ).fetchall()
        back.extend(row[0] for row in rows)
    for lead_id in back:
        conn.execute("DELETE FROM lead_tombstones WHERE id = ?", (lead_id,))
        conn.execute("UPDATE leads SET hidden = 0 WHERE id = ?", (lead_id,))
    return back


class TombstonesStore(Database):
    """Removed leads; mixed into `warmline.store.Store`."""

    def mark_lead_gone(self, lead_id: int, reason: str | None, op_id: str | None = None) -> Tombstone:
        """The service says the lead does not exist: in one transaction, tombstone it, hide
        it, and fail its queued actions (pending or ambiguous; `op_id`, the one whose send
        found out, too, even in flight) with one message. Returns the tombstone, `failed`
        counting the actions failed by this call."""
        now = self.clock()
        with self.write() as conn:
            known = tombstone_of(conn, lead_id)
            named = conn.execute("SELECT company_name FROM leads WHERE id = ?", (lead_id,)).fetchone()
            name = (named[0] if named and named[0] else None) or (known.company_name if known else f"lead {lead_id}")
            removed_at = known.removed_at if known is not None else iso(now)
            conn.execute(
                "INSERT INTO lead_tombstones (id, company_name, reason, removed_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(id) DO UPDATE SET company_name = excluded.company_name, reason = excluded.reason",
                (lead_id, name, reason, removed_at),
            )
            conn.execute("UPDATE leads SET hidden = 1 WHERE id = ?", (lead_id,))
            message = gone_message(name, reason)
            failed = conn.execute(
                "UPDATE outbox SET state = 'failed', last_error = ?, not_before = NULL, claimed_by = NULL,"
                " updated_at = ? WHERE lead_id = ?"
                " AND (state IN ('pending', 'ambiguous') OR (op_id = ? AND state = 'in_flight'))",
                (message, iso(now), lead_id, op_id),
            ).rowcount
        return Tombstone(lead_id, name, reason, removed_at, failed)

    def lead_gone(self, lead_id: int) -> Tombstone | None:
        """The lead's tombstone without the count of failed actions (cheap: actions check it)."""
        with self.read() as conn:
            return tombstone_of(conn, lead_id)

    def lead_tombstone(self, lead_id: int) -> Tombstone | None:
        """The lead's tombstone, `failed` counting its actions that failed because of it."""
        with self.read() as conn:
            found = tombstone_of(conn, lead_id)
            if found is None:
                return None
            failed = conn.execute(
                "SELECT count(*) FROM outbox WHERE lead_id = ? AND state = 'failed' AND last_error = ?",
                (lead_id, found.message),
            ).fetchone()[0]
        return Tombstone(found.lead_id, found.company_name, found.reason, found.removed_at, int(failed))


__all__ = ["Tombstone", "TombstonesStore", "clear_relisted", "gone_message", "is_tombstoned", "tombstone_of"]
