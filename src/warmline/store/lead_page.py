"""The records of a lead's page (`LeadsStore.lead_detail`) and of its deal (`lead_deals`).

Apart from `warmline.store.rows` because only the lead's page, the export and the commands
that print a lead read them: defining these seven named tuples cost 5 M instructions of
the cockpit's first frame, which shows none of them (`warmline.startup`, point 10). The
store imports them where it builds them.

Annotations are evaluated, not strings, as in `warmline.store.rows`.
"""

from warmline.named_tuple import NamedTuple
from warmline.store.rows import LeadRow, Recommendation, ScorePoint
from warmline.store.values import JsonObject


class MonitoringPage(NamedTuple):
    id: int
    url: str | None
    label: str | None
    page_type: str | None
    score: int | None
    is_selected: bool
    last_checked_at: str | None
    pending: bool = False


class KeyContact(NamedTuple):
    contact_id: int
    first_name: str | None
    last_name: str | None
    title: str | None
    role: str | None
    email: str | None
    social_url: str | None
    is_selected: bool
    pending: bool = False

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)


class Competitor(NamedTuple):
    local_id: int
    id: int | None
    name: str
    domain: str | None
    is_pinned: bool
    last_scanned_at: str | None
    scan_summary: str | None
    scan_queued: bool
    op_state: str | None = None


class Touchpoint(NamedTuple):
    local_id: int
    id: int | None
    description: str
    detected_type: str | None
    contact_id: int | None
    bonus_points: int
    created_at: str | None
    op_id: str | None
    op_state: str | None = None
    # When the rep logged it (this client's clock); `created_at` is when the service got
    # it. None for records made elsewhere.
    logged_at: str | None = None
    # The service's reason for the points, from its answer to logging the activity.
    bonus_reason: str | None = None

    @property
    def pending(self) -> bool:
        return self.id is None


class Note(NamedTuple):
    local_id: int
    id: int | None
    content: str
    created_at: str | None
    op_id: str | None
    op_state: str | None = None
    logged_at: str | None = None  # as on Touchpoint

    @property
    def pending(self) -> bool:
        return self.id is None


class LeadDetail(NamedTuple):
    lead: LeadRow
    company: JsonObject
    signal_scan_status: str | None
    generation_status: str | None
    deal_value: float | None
    deal_currency: str | None
    won_at: str | None
    closed_at: str | None
    closed_reason: str | None
    monitoring_pages: list[MonitoringPage]
    contacts: list[KeyContact]
    competitors: list[Competitor]
    touchpoints: list[Touchpoint]
    notes: list[Note]
    recommendations: list[Recommendation]
    score_history: list[ScorePoint]
    detail_fetched_at: float | None
    raw: JsonObject


class Deal(NamedTuple):
    """A lead's deal, as exported beside its list row."""

    id: int
    deal_value: float | None
    deal_currency: str | None
    won_at: str | None
    closed_at: str | None
    closed_reason: str | None
