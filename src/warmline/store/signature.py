"""The signature of a lead's list line, to tell which cached details are stale.

The lead list is one cheap paginated read; a lead's detail (and its recommendations) costs
a request or two per lead. The list line carries what changes when the detail changes (a
new activity moves `activity_count` and `last_activity_at`, a new recommendation moves
`recommendation_count`, a pinned source `monitoring_active`...), so the list line as it was
when the detail was fetched, kept in `leads.detail_sig` (and `leads.recs_sig` for the
recommendations), says whether the detail must be read again.

The signature is computed from `lead_snapshots.raw`, the service's last word, never from
the `leads` row, which carries the local effects of queued actions: a queued status change
must not make the detail look stale, nor hide that it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

LIST_FIELDS = (
    "warming_score",
    "lead_status",
    "activity_count",
    "recommendation_count",
    "monitoring_active",
    "last_activity_at",
    "target_score",
)


def list_sig_sql(raw: str = "s.raw") -> str:
    """An SQL expression giving the signature (a JSON array) of the snapshot column `raw`."""
    return "json_array(" + ", ".join(f"json_extract({raw}, '$.{name}')" for name in LIST_FIELDS) + ")"


_STAMP = "UPDATE leads SET {column} = (SELECT " + list_sig_sql("s.raw") + " FROM lead_snapshots s WHERE s.id = leads.id) WHERE id = ?"


def stamp(conn: sqlite3.Connection, column: str, lead_ids: Iterable[int]) -> None:
    """Record the leads' current list signature in `column` (`detail_sig` or `recs_sig`),
    in the transaction that wrote what was fetched."""
    if column not in ("detail_sig", "recs_sig"):
        raise ValueError(f"not a signature column: {column!r}")
    conn.executemany(_STAMP.format(column=column), ((lead_id,) for lead_id in lead_ids))
