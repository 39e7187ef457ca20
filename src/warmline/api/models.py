"""Pydantic models of every resource and response the service sends.

Tolerance rules, because much of the spec is "not shown" (see docs/wire.md):
- Every model keeps unknown fields (`extra="allow"`): a field the server adds later is
  carried through, not dropped.
- Only identifiers are required. Any other missing field gets a neutral default, so one
  odd record never fails a whole page.
- Bounded scores are clamped into their documented range (warming 0-100, target 1-100,
  monitoring 1-10, similarity 0-1) rather than rejected, for the same reason: a score of
  101 is shown as 100, not as an empty lead list.
- Timestamps become aware UTC datetimes: a trailing `Z`, an offset, or no zone at all
  (assumed UTC) are all accepted.
- Enumerations the spec leaves open (job statuses, priorities, action types, activity
  kinds) are plain strings, read into our words where we know the service's
  (`warmline.api.dialect`: `HIGH` is `high`, `check-in` is `check_in`, `done` is
  `completed`); a word we do not know is kept as written and the UI shows it as it is.
- Fields the spec does not show may come under other names (`website`, `job_title`,
  camelCase): each record's model names its kind (`__record__`) and renames the aliases of
  `dialect.FIELD_ALIASES` before validation.
- What the service left out stays out: callers dump with `exclude_unset`
  (`warmline.sync.requests.dump`), so a default here never overwrites what the cache knows.
- Every record is one the cache can store (`textsafe.storable_json`), checked once at its top, unknown
  fields included: a lone surrogate (`"\\ud800"`) becomes U+FFFD, and a NaN or infinite
  number is left out as if the service had not sent it (a warning names the record); an
  integer beyond SQLite's 64 bits (an id of 10^23) makes the record unreadable, so a list
  skips it with a warning naming it (`payload.parse_items`) and keeps the other rows.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from warmline.api import dialect, limits
from warmline.textsafe import BeyondInt64, Repairs, storable_json

log = logging.getLogger("warmline.api")


def _as_utc(value: datetime) -> datetime:
    """Naive timestamps are taken as UTC; aware ones are converted to UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _clamper(low: float, high: float, *, whole: bool) -> BeforeValidator:
    """A validator that pulls a number into [low, high]; non-numbers are left to pydantic."""

    def clamp(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return value
        bounded = min(max(value, low), high)
        return round(bounded) if whole else float(bounded)

    return BeforeValidator(clamp)


def _id_text(value: Any) -> Any:
    """Run ids and template ids are strings; a server sending an integer is still understood."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


UtcDatetime = Annotated[datetime, AfterValidator(_as_utc)]
WarmingScore = Annotated[
    int, _clamper(limits.WARMING_SCORE_MIN, limits.WARMING_SCORE_MAX, whole=True)
]
TargetScore = Annotated[int, _clamper(limits.TARGET_SCORE_MIN, limits.TARGET_SCORE_MAX, whole=True)]
MonitoringScore = Annotated[
    int, _clamper(limits.MONITORING_SCORE_MIN, limits.MONITORING_SCORE_MAX, whole=True)
]
Progress = Annotated[int, _clamper(0, 100, whole=True)]
Similarity = Annotated[float, _clamper(0.0, 1.0, whole=False)]
TextId = Annotated[str, BeforeValidator(_id_text)]
JobStatus = Annotated[str, BeforeValidator(dialect.job_status)]
Tags = Annotated[list[str], BeforeValidator(dialect.tag_names)]
CustomFields = Annotated[dict[str, Any], BeforeValidator(dialect.custom_field_map)]
LeadStatus = Annotated[str, BeforeValidator(dialect.LEAD_STATUS)]
Priority = Annotated[str, BeforeValidator(dialect.PRIORITY)]
ActionType = Annotated[str, BeforeValidator(dialect.ACTION_TYPE)]
ActivityType = Annotated[str, BeforeValidator(dialect.ACTIVITY_TYPE)]
Role = Annotated[str, BeforeValidator(dialect.CONTACT_ROLE)]
PageType = Annotated[str, BeforeValidator(dialect.PAGE_TYPE)]
RecommendationStatus = Annotated[str, BeforeValidator(dialect.RECOMMENDATION_STATUS)]


class WireModel(BaseModel):
    """Base of every model: keeps unknown fields, accepts field names as given, and reads
    the other names a service may use for them (`__record__`, `dialect.FIELD_ALIASES`)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)
    __record__: ClassVar[str | None] = None

    @model_validator(mode="before")
    @classmethod
    def _our_names(cls, data: Any) -> Any:
        if cls.__record__ is None or not isinstance(data, dict):
            return data
        return dialect.rename_fields(data, cls.__record__, cls.model_fields)

    @model_validator(mode="before")
    @classmethod
    def _storable(cls, data: Any) -> Any:
        """The record as the cache can store it (module docstring); a nested record finds
        its data already repaired, so a repair is told once, by the outermost."""
        if not isinstance(data, dict):
            return data
        repairs = Repairs()
        try:
            repaired = storable_json(data, repairs, int64=True)
        except BeyondInt64 as exc:
            raise ValueError(str(exc)) from None
        if repairs:
            ident = repaired.get("id")
            which = cls.__record__ or cls.__name__
            log.warning("the service's %s%s held %s", which, f" {ident!r}" if ident is not None else "", repairs)
        return repaired


T = TypeVar("T")


class Pagination(WireModel):
    page: int = 1
    per_page: int | None = None
    total: int | None = None
    total_pages: int | None = None


class Page(BaseModel, Generic[T]):
    """One page of a paginated list, with its pagination (derived when the server sent none)."""

    items: list[T]
    pagination: Pagination

    @property
    def has_next(self) -> bool:
        """True when a later page exists, as far as the pagination says."""
        if self.pagination.total_pages is None:
            return False
        return self.pagination.page < self.pagination.total_pages


class Health(WireModel):
    __record__ = "health"

    status: str | None = None
    version: str | None = None
    time: UtcDatetime | None = None
    authenticated: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _status_word(cls, data: Any) -> Any:
        return dialect.health_status(data)


class CustomField(WireModel):
    """One entry of a custom field schema or a research template's data points."""

    key: str
    name: str | None = None
    type: str | None = None


class Company(WireModel):
    __record__ = "company"

    id: int
    name: str = ""
    domain: str | None = None
    industry: str | None = None
    country: str | None = None
    region: str | None = None
    size: str | None = None
    description: str | None = None
    tags: Tags = Field(default_factory=list)
    custom_fields: CustomFields = Field(default_factory=dict)
    source: str | None = None
    ai_tag: str | None = None
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class Contact(WireModel):
    __record__ = "contact"

    id: int
    company_id: int | None = None
    first_name: str | None = None
    last_name: str | None = None
    email: str | None = None
    title: str | None = None
    role: Role | None = None
    social_url: str | None = None
    phone: str | None = None
    tags: Tags = Field(default_factory=list)
    custom_fields: CustomFields = Field(default_factory=dict)
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None

    @property
    def full_name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)


class Deleted(WireModel):
    id: int | None = None
    deleted: bool = True


class LookupResult(WireModel):
    __record__ = "lookup_result"

    name: str = ""
    domain: str | None = None
    industry: str | None = None
    country: str | None = None
    region: str | None = None
    size: str | None = None
    description: str | None = None
    similarity_score: Similarity | None = None
    saved_company_id: int | None = None


class LookupResponse(WireModel):
    __record__ = "lookup"

    companies: list[LookupResult] = Field(default_factory=list)
    total: int = 0
    saved_count: int = 0
    quota_limited: int = 0


class DeepSearchJob(WireModel):
    """A company deep search, as started and as polled."""

    __record__ = "deep_search"

    job_id: int
    status: JobStatus = "pending"
    query: str | None = None
    target_count: int | None = None
    progress: Progress | None = None
    found_count: int | None = None
    created_at: UtcDatetime | None = None
    completed_at: UtcDatetime | None = None
    companies: list[Company] = Field(default_factory=list)
    error: str | None = None
    message: str | None = None


class ResearchSource(WireModel):
    title: str | None = None
    url: str | None = None


class ResearchFindings(WireModel):
    summary: str | None = None
    key_facts: list[str] = Field(default_factory=list)
    sources: list[ResearchSource] = Field(default_factory=list)


class CompanyResearch(WireModel):
    """Deep research of one company (overview paths), as started and as polled."""

    __record__ = "company_research"

    search_id: int
    company_id: int | None = None
    status: JobStatus = "pending"
    progress: Progress | None = None
    created_at: UtcDatetime | None = None
    completed_at: UtcDatetime | None = None
    results: ResearchFindings | None = None


class FoundContact(WireModel):
    __record__ = "contact"

    id: int
    first_name: str | None = None
    last_name: str | None = None
    title: str | None = None
    role: Role | None = None
    email: str | None = None
    social_url: str | None = None
    company_id: int | None = None


class ContactSearchJob(WireModel):
    __record__ = "contact_search"

    job_id: int
    status: JobStatus = "pending"
    company_id: int | None = None
    progress: Progress | None = None
    created_at: UtcDatetime | None = None
    completed_at: UtcDatetime | None = None
    contacts: list[FoundContact] = Field(default_factory=list)
    message: str | None = None


class SkippedContact(WireModel):
    id: int | None = None
    reason: str | None = None


class AddContactsResult(WireModel):
    added: int = 0
    skipped: int = 0
    contacts: list[Contact] = Field(default_factory=list)
    skipped_ids: list[SkippedContact] = Field(default_factory=list)


class ResearchTemplate(WireModel):
    id: TextId
    name: str = ""
    description: str | None = None
    fields: list[CustomField] = Field(default_factory=list)
    created_at: UtcDatetime | None = None


class ResearchResult(WireModel):
    company_id: int
    fields: CustomFields = Field(default_factory=dict)


class ResearchRun(WireModel):
    __record__ = "research_run"

    run_id: TextId
    status: JobStatus = "pending"
    template_id: TextId | None = None
    company_ids: list[int] = Field(default_factory=list)
    progress: Progress | None = None
    created_at: UtcDatetime | None = None
    completed_at: UtcDatetime | None = None
    results: list[ResearchResult] = Field(default_factory=list)


class LeadListItem(WireModel):
    __record__ = "lead"

    id: int
    company_id: int | None = None
    company_name: str = ""
    lead_status: LeadStatus = "cold"
    warming_score: WarmingScore = 0
    target_score: TargetScore | None = None
    activity_count: int = 0
    recommendation_count: int = 0
    monitoring_active: bool = False
    last_activity_at: UtcDatetime | None = None
    created_at: UtcDatetime | None = None


class LeadCompany(WireModel):
    __record__ = "company"

    id: int | None = None
    name: str | None = None
    domain: str | None = None
    industry: str | None = None
    country: str | None = None
    region: str | None = None
    size: str | None = None
    description: str | None = None


class MonitoringPage(WireModel):
    __record__ = "page"

    id: int
    url: str | None = None
    label: str | None = None
    page_type: PageType | None = None
    score: MonitoringScore | None = None
    is_selected: bool = False
    last_checked_at: UtcDatetime | None = None


class LeadContact(WireModel):
    __record__ = "contact"

    id: int
    first_name: str | None = None
    last_name: str | None = None
    title: str | None = None
    role: Role | None = None
    email: str | None = None
    social_url: str | None = None
    is_selected: bool = False


class Competitor(WireModel):
    __record__ = "competitor"

    id: int
    name: str = ""
    domain: str | None = None
    is_pinned: bool = False
    last_scanned_at: UtcDatetime | None = None
    scan_summary: str | None = None


class Touchpoint(WireModel):
    __record__ = "touchpoint"

    id: int
    description: str = ""
    detected_type: ActivityType | None = None
    contact_id: int | None = None
    bonus_points: int = 0
    created_at: UtcDatetime | None = None


class Recommendation(WireModel):
    __record__ = "recommendation"

    id: int
    lead_id: int | None = None
    action_type: ActionType | None = None
    target_url: str | None = None
    suggested_comment: str | None = None
    priority: Priority | None = None
    engagement_reason: str | None = None
    source_page_label: str | None = None
    status: RecommendationStatus | None = None
    created_at: UtcDatetime | None = None


class LeadDetail(LeadListItem):
    signal_scan_status: JobStatus | None = None
    company: LeadCompany | None = None
    monitoring_pages: list[MonitoringPage] = Field(default_factory=list)
    contacts: list[LeadContact] = Field(default_factory=list)
    competitors: list[Competitor] = Field(default_factory=list)
    touchpoints: list[Touchpoint] = Field(default_factory=list)
    recommendations: list[Recommendation] = Field(default_factory=list)
    deal_value: float | None = None
    deal_currency: str | None = None
    won_at: UtcDatetime | None = None
    closed_at: UtcDatetime | None = None
    closed_reason: str | None = None


class SkippedLead(WireModel):
    company_id: int | None = None
    reason: str | None = None


class AddLeadsResult(WireModel):
    added: int = 0
    leads: list[LeadListItem] = Field(default_factory=list)
    skipped: list[SkippedLead] = Field(default_factory=list)


class RemoveLeadsResult(WireModel):
    removed: int = 0


class LeadStatusResult(WireModel):
    __record__ = "lead"

    id: int | None = None
    lead_status: LeadStatus | None = None


class TargetScoreResult(WireModel):
    id: int | None = None
    target_score: TargetScore | None = None


class SignalScan(WireModel):
    """A lead's signal scan, as started and as polled; `status` is `none` before any scan."""

    __record__ = "signal_scan"

    status: JobStatus = "none"
    lead_id: int | None = None
    progress: Progress | None = None
    pages_found: int | None = None
    started_at: UtcDatetime | None = None
    completed_at: UtcDatetime | None = None
    message: str | None = None


class RecommendationProgress(WireModel):
    completed: int = 0
    dismissed: int = 0
    total: int = 0


class RecommendationList(WireModel):
    __record__ = "recommendations"

    recommendations: list[Recommendation] = Field(default_factory=list)
    count: int = 0
    progress: RecommendationProgress = Field(default_factory=RecommendationProgress)
    generation_status: JobStatus | None = None


class GenerationStarted(WireModel):
    status: JobStatus = "pending"
    message: str | None = None


class CompleteResult(WireModel):
    recommendation: Recommendation | None = None
    points_awarded: int = 0
    warming_score: WarmingScore | None = None
    auto_dismissed: list[int] = Field(default_factory=list)


class BonusInfo(WireModel):
    base_points: int = 0
    multiplier: float = 1.0
    total: int = 0
    reason: str | None = None


class TouchpointResult(WireModel):
    touchpoint: Touchpoint | None = None
    detected_type: ActivityType | None = None
    bonus_info: BonusInfo | None = None
    warming_score: WarmingScore | None = None


class Note(WireModel):
    __record__ = "note"

    id: int
    content: str = ""
    created_at: UtcDatetime | None = None


class DealResult(WireModel):
    __record__ = "deal"

    id: int | None = None
    deal_value: float | None = None
    deal_currency: str | None = None
    won_at: UtcDatetime | None = None
    closed_at: UtcDatetime | None = None
    closed_reason: str | None = None
