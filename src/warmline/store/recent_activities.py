"""The confirmed activities logged since a moment, for `warmline demo`'s first start.

The demo reads the follow-ups its seeded activities promise ("wants pricing by Friday")
the way the cockpit's form reads a rep's text; this is the one read it needs: a range of
`touchpoints_created`, each activity with its lead's company name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warmline.store.clock import epoch_of, iso

if TYPE_CHECKING:
    from warmline.store import Store


@dataclass(frozen=True)
class RecentActivity:
    """One confirmed activity: its lead, the lead's company name, its text and when it
    was logged (epoch seconds)."""

    lead_id: int
    company: str
    text: str
    logged_at: float


def activities_since(store: Store, since: float) -> list[RecentActivity]:
    """Confirmed activities (the service's id known) logged at or after `since` (epoch
    seconds) on listed leads, oldest first."""
    found = []
    with store.read() as conn:
        for lead_id, company, text, created_at in conn.execute(
            "SELECT t.lead_id, coalesce(l.company_name, ''), t.description, t.created_at"
            " FROM touchpoints t JOIN leads l ON l.id = t.lead_id"
            " WHERE t.created_at >= ? AND t.id IS NOT NULL AND l.hidden = 0"
            " ORDER BY t.created_at, t.id",
            (iso(since),),
        ):
            epoch = epoch_of(created_at)
            if epoch is not None:
                found.append(RecentActivity(int(lead_id), str(company), str(text or ""), epoch))
    return found
