"""The request of each kind of queued operation: its payload's fields and their types.

An op's payload is stored as JSON (`Op.payload`), written by the action that queued it
after its spec's validator checked and normalised every field. These shapes say the same
for the type checker, so a sender or a reconciliation probe (`warmline.ops.specs` names
each kind's) that reads a field the validator does not write, or passes it where another
type is wanted, fails the check. A field the code reads with `.get` (left out, or None, in
ops queued by older versions or by hand) is `NotRequired`.

The payload is read as its kind's shape in one place each (`parts.request_of`,
`parts.probe_of`): that is where the stored JSON is trusted to be what the validator
wrote. The client checks every value again before it leaves (`warmline.api.limits`).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class OnLead(TypedDict):
    """`start_signal_scan`, `generate_recommendations`."""

    lead_id: int


class LogActivity(TypedDict):
    lead_id: int
    description: str
    contact_id: NotRequired[int | None]


class AddNote(TypedDict):
    lead_id: int
    content: str


class CloseRecommendation(TypedDict):
    """`complete_recommendation`, `dismiss_recommendation`."""

    lead_id: int
    recommendation_id: int


class ChangeLeadStatus(TypedDict):
    lead_id: int
    lead_status: str


class SetTargetScore(TypedDict):
    lead_id: int
    target_score: int


class PinContact(TypedDict):
    lead_id: int
    contact_id: int
    is_selected: bool


class ToggleMonitoringPage(TypedDict):
    lead_id: int
    page_id: int
    is_selected: bool


class UpdateDeal(TypedDict):
    """Only the fields the rep changed are given."""

    lead_id: int
    deal_value: NotRequired[float | None]
    deal_currency: NotRequired[str | None]
    won: NotRequired[bool | None]
    lost: NotRequired[bool | None]
    closed_reason: NotRequired[str | None]


class AddCompetitor(TypedDict):
    lead_id: int
    name: str
    domain: NotRequired[str | None]


class OnCompetitor(TypedDict):
    """`scan_competitor`."""

    lead_id: int
    competitor_id: int


class PinCompetitor(TypedDict):
    lead_id: int
    competitor_id: int
    is_pinned: bool


class AddToOutreach(TypedDict):
    company_ids: list[int]
    lead_status: NotRequired[str | None]


class RemoveLead(TypedDict):
    """One op per lead; `lead_ids` is `[lead_id]` when given."""

    lead_id: int
    lead_ids: NotRequired[list[int] | None]


class StartDeepSearch(TypedDict):
    query: str
    max_results: NotRequired[int | None]


class StartContactSearch(TypedDict):
    company_id: int
    roles: NotRequired[list[str] | None]


class AddFoundContacts(TypedDict):
    job_id: int
    contact_ids: list[int]


class StartResearchRun(TypedDict):
    """The template by id, or by name (one of the two)."""

    company_ids: list[int]
    template_id: NotRequired[str | None]
    template_name: NotRequired[str | None]


class StartCompanyResearch(TypedDict):
    company_id: int
    focus: NotRequired[str | None]
