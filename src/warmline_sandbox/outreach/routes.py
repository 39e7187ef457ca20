"""HTTP routes of every outreach operation of the spec; each is a thin shell over one function.

Request bodies are bounded (ids, lengths, ranges) so no input can reach SQLite in a
shape that fails there; unknown fields are refused so a misnamed field is an error
rather than silently ignored. Shapes follow docs/wire.md "Outreach leads".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from warmline_sandbox import limits as L
from warmline_sandbox.deps import Ctx
from warmline_sandbox.outreach import engagement, leads, log, people, scans
from warmline_sandbox.outreach.detail import finish_due_outreach_jobs, lead_detail
from warmline_sandbox.pagination import PageQuery, paginated
from warmline_sandbox.params import Id, IdPath

router = APIRouter(tags=["outreach"])

LEADS = "/v1/outreach/leads"
LEAD = LEADS + "/{lead_id}"

LeadStatus = Literal["cold", "warm"]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AddLeadsBody(Body):
    company_ids: Annotated[list[Id], Field(min_length=1, max_length=L.IDS_PER_REQUEST_MAX)]
    lead_status: LeadStatus


class RemoveLeadsBody(Body):
    lead_ids: Annotated[list[Id], Field(min_length=1, max_length=L.IDS_PER_REQUEST_MAX)]


class StatusBody(Body):
    lead_status: LeadStatus


class TargetScoreBody(Body):
    target_score: Annotated[int, Field(ge=1, le=L.TARGET_SCORE_MAX, strict=True)]


class SelectionBody(Body):
    is_selected: Annotated[bool, Field(strict=True)]


class PinBody(Body):
    is_pinned: Annotated[bool, Field(strict=True)]


class ActivityBody(Body):
    description: Annotated[str, Field(min_length=1, max_length=L.ACTIVITY_MAX_CHARS)]
    contact_id: Id | None = None


class NoteBody(Body):
    content: Annotated[str, Field(min_length=1, max_length=L.NOTE_MAX_CHARS)]


class DealBody(Body):
    """Only the fields sent are changed; a field sent as null is treated as not sent."""

    deal_value: Annotated[float, Field(ge=0, le=L.DEAL_VALUE_MAX, allow_inf_nan=False)] | None = None
    deal_currency: Annotated[str, Field(pattern=r"^[A-Za-z]{3}$")] | None = None
    won: Annotated[bool, Field(strict=True)] | None = None
    lost: Annotated[bool, Field(strict=True)] | None = None
    closed_reason: Annotated[str, Field(max_length=L.CLOSED_REASON_MAX_CHARS)] | None = None


class CompetitorBody(Body):
    name: Annotated[str, Field(min_length=1, max_length=L.NAME_MAX_CHARS)]
    domain: Annotated[str, Field(max_length=L.DOMAIN_MAX_CHARS)] | None = None


@router.get(LEADS, summary="List cold or warm leads with pagination")
def list_leads(
    ctx: Ctx,
    page: PageQuery,
    status: Annotated[
        LeadStatus | None, Query(description="cold or warm; both when absent")
    ] = None,
) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        finish_due_outreach_jobs(conn, ctx.clock)
        items, total = leads.list_leads(conn, status, page)
    return paginated(items, page, total)


@router.get(LEAD, summary="Full lead detail")
def get_lead(lead_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return {"success": True, "data": lead_detail(conn, lead_id, ctx.clock)}


@router.post(LEADS, status_code=201, summary="Add saved companies as cold or warm leads")
def add_leads(body: AddLeadsBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return leads.add_leads(conn, body.company_ids, body.lead_status, ctx.clock.now())


@router.delete(LEADS, summary="Remove leads from outreach (frees their signal slots)")
def remove_leads(body: RemoveLeadsBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return {"success": True, "removed": leads.remove_leads(conn, body.lead_ids)}


@router.patch(LEAD + "/status", summary="Change lead status (cold/warm)")
def change_status(lead_id: IdPath, body: StatusBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return leads.set_status(conn, lead_id, body.lead_status, ctx.clock.now())


@router.patch(LEAD + "/target-score", summary="Update the target warming score (1-100)")
def change_target_score(lead_id: IdPath, body: TargetScoreBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return leads.set_target_score(conn, lead_id, body.target_score, ctx.clock.now())


@router.post(LEAD + "/signal-scan", status_code=201, summary="Start an AI signal scan")
def start_signal_scan(lead_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return scans.start_scan(
            conn, lead_id, ctx.api_key, ctx.settings.seed, ctx.settings.job_seconds, ctx.clock.now()
        )


@router.get(LEAD + "/signal-scan", summary="Get signal scan progress")
def signal_scan_progress(lead_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return scans.scan_progress(conn, lead_id, ctx.clock)


@router.patch(LEAD + "/monitoring-pages/{page_id}", summary="Enable or disable a monitoring source")
def toggle_monitoring_page(
    lead_id: IdPath, page_id: IdPath, body: SelectionBody, ctx: Ctx
) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        finish_due_outreach_jobs(conn, ctx.clock)
        return scans.toggle_page(conn, lead_id, page_id, body.is_selected)


@router.get(LEAD + "/recommendations", summary="Get active recommendations and progress")
def get_recommendations(lead_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return engagement.list_recommendations(conn, lead_id, ctx.clock)


@router.post(
    LEAD + "/recommendations/generate",
    status_code=202,
    summary="Generate recommendations from the enabled monitoring sources",
)
def generate_recommendations(lead_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        finish_due_outreach_jobs(conn, ctx.clock)
        return engagement.start_generation(
            conn, lead_id, ctx.api_key, ctx.settings.seed, ctx.settings.job_seconds, ctx.clock.now()
        )


@router.post(LEAD + "/recommendations/{rec_id}/complete", summary="Complete a recommendation")
def complete_recommendation(lead_id: IdPath, rec_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        finish_due_outreach_jobs(conn, ctx.clock)
        return engagement.complete(conn, lead_id, rec_id, ctx.clock.now())


@router.post(LEAD + "/recommendations/{rec_id}/dismiss", summary="Dismiss a recommendation")
def dismiss_recommendation(lead_id: IdPath, rec_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        finish_due_outreach_jobs(conn, ctx.clock)
        return engagement.dismiss(conn, lead_id, rec_id, ctx.clock.now())


@router.post(LEAD + "/touchpoints", status_code=201, summary="Log an activity")
def log_activity(lead_id: IdPath, body: ActivityBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return log.log_activity(conn, lead_id, body.description, body.contact_id, ctx.clock.now())


@router.get(LEAD + "/notes", summary="Get notes, newest first")
def get_notes(lead_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.read() as conn:
        return log.list_notes(conn, lead_id)


@router.post(LEAD + "/notes", status_code=201, summary="Add a note")
def add_note(lead_id: IdPath, body: NoteBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return log.add_note(conn, lead_id, body.content, ctx.clock.now())


@router.patch(LEAD + "/contacts/{contact_id}", summary="Pin or unpin a key contact")
def pin_contact(
    lead_id: IdPath, contact_id: IdPath, body: SelectionBody, ctx: Ctx
) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return people.pin_contact(conn, lead_id, contact_id, body.is_selected)


@router.patch(
    LEAD + "/deal", summary="Update deal value, currency and won/lost status (warm leads)"
)
def update_deal(lead_id: IdPath, body: DealBody, ctx: Ctx) -> dict[str, Any]:
    changes = leads.DealChanges(**body.model_dump(exclude_unset=True, exclude_none=True))
    with ctx.db.transaction() as conn:
        return leads.update_deal(conn, lead_id, changes, ctx.clock.now())


@router.post(LEAD + "/competitors", status_code=201, summary="Add a competitor to monitor")
def add_competitor(lead_id: IdPath, body: CompetitorBody, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return people.add_competitor(conn, lead_id, body.name, body.domain, ctx.clock.now())


@router.post(LEAD + "/competitors/{competitor_id}/scan", summary="Scan a competitor website")
def scan_competitor(lead_id: IdPath, competitor_id: IdPath, ctx: Ctx) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return people.scan_competitor(conn, lead_id, competitor_id, ctx.clock.now())


@router.patch(LEAD + "/competitors/{competitor_id}", summary="Pin or unpin a competitor")
def pin_competitor(
    lead_id: IdPath, competitor_id: IdPath, body: PinBody, ctx: Ctx
) -> dict[str, Any]:
    with ctx.db.transaction() as conn:
        return people.pin_competitor(conn, lead_id, competitor_id, body.is_pinned)
