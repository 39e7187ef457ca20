"""`warmline service check`: what the configured service answers like, probed read-only.

The spec leaves much "not shown", and the client reads every faithful dialect of it
(`warmline.api.dialect`, `paging`, `paths`, `request_fields`). What it cannot do alone is
tell the rep which dialect their service speaks, or which of its readings will cost them
something (a lead list that hides warm leads, a status change the service ignores). So
this module asks the service a few questions and collects the answers as facts:

- health: reachable, its clock against ours, the key accepted;
- the first pages of each list: the paging style found, the records on them, and whether
  the unfiltered lead list hides a status;
- one lead's detail: which of the fields Warmline uses the service gave
  (`model_fields_set`, on the lead and on each nested record);
- the research path families: which one answers;
- the rate-limit headers, and how the errors module reads a missing lead, an unknown
  route and a refused filter;
- with a lead to write to: one reversible round trip per request shape the spec does not
  show, each checked by reading the lead again (a 2xx alone proves nothing,
  `warmline.sync.confirm`), each put back in a `finally`.

`findings` turns the facts into the "what looks wrong" list. Nothing here prints or
imports click or Textual: `warmline.commands.service` prints and picks the exit code.
An `AuthError` or `OfflineError` from the read-only probes ends the check (the command
says it in one line); every other failure is a fact of the report.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from warmline.api import models
from warmline.api.client import ServiceClient
from warmline.api.errors import (
    ApiError,
    AuthError,
    LeadNotFoundError,
    NotFoundError,
    OfflineError,
    RouteMissingError,
    ValidationFailed,
)
from warmline.api.paging import CURSOR, LINK, OFFSET, PAGE, PAGE_LIMIT, SINGLE, ListWalk
from warmline.api.paths import FAMILIES, Family, template_list_path
from warmline.api.payload import UnreadAnswerError
from warmline.api.request_fields import NAMED
from warmline.textsafe import redact_url

V = TypeVar("V")

PAGE_SIZE = 50
"""Records asked for a page: a service may give fewer (the cursor dialect gives 20)."""
PAGES_MAX = 3
"""Pages read of each list at most: enough to see the style and a second page followed,
cheap enough for a service with 10,000 leads (15 requests for the five lists)."""
MISSING_LEAD_ID = 2**62
"""A lead id no service has: its 404 shows the error body shape."""
UNKNOWN_ROUTE = "/v1/warmline-service-check/no-such-route"
"""A path no service has: its answer shows how a missing route reads."""
BAD_STATUS = "warmline-check"
"""A lead status no service knows: its answer shows how a refused request reads."""
SKEW_NOTICED = 60.0
"""Seconds of clock difference worth a line in "what looks wrong"."""

STYLE_WORDS = {
    PAGE: "page/per_page",
    PAGE_LIMIT: "page/limit",
    OFFSET: "offset/limit",
    CURSOR: "cursor",
    LINK: "Link header",
    SINGLE: "no paging (one answer)",
}
"""Each paging style (`warmline.api.paging`) as the report names it."""

LEAD_FIELDS = (
    "company_id", "company_name", "lead_status", "warming_score", "target_score", "activity_count",
    "recommendation_count", "monitoring_active", "last_activity_at", "signal_scan_status",
    "deal_value", "deal_currency", "company", "monitoring_pages", "contacts", "competitors",
    "touchpoints", "recommendations",
)
"""The fields of a lead's detail that Warmline shows or uses (the cockpit's lead page)."""

NESTED_FIELDS: dict[str, tuple[str, ...]] = {
    "company": ("name", "domain", "industry", "country", "size", "description"),
    "monitoring_pages": ("url", "label", "page_type", "score", "is_selected"),
    "contacts": ("first_name", "last_name", "title", "role", "email", "is_selected"),
    "competitors": ("name", "domain", "is_pinned"),
    "touchpoints": ("description", "detected_type", "bonus_points", "created_at"),
    "recommendations": ("action_type", "priority", "status", "target_url", "suggested_comment"),
}
"""The fields Warmline uses of each record nested in the detail."""

ERROR_KINDS: tuple[tuple[type[ApiError], str], ...] = (
    (LeadNotFoundError, "a missing lead"),
    (NotFoundError, "a missing record"),
    (RouteMissingError, "a missing route"),
    (ValidationFailed, "a refused request"),
    (AuthError, "a refused key"),
    (ApiError, "another error"),
)
"""How the report names what the errors module made of an answer, most specific first."""


# ------------------------------------------------------------------------------ facts


@dataclass(frozen=True)
class HealthFacts:
    """The health answer, and the service's clock against ours (`skew_seconds`: its time
    minus ours, learned from every answer of the check; None without a sample)."""

    reachable: bool
    status: str | None
    version: str | None
    server_time: str | None
    key_accepted: bool
    authenticated: bool | None
    skew_seconds: float | None = None
    skew_uncertainty: float | None = None


@dataclass(frozen=True)
class ListFacts:
    """The first pages of one list: how it pages and what came."""

    name: str
    style: str | None
    pages: int
    records: int
    whole: bool
    statuses: list[str] = field(default_factory=list)
    problem: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class DefaultLeadsFacts:
    """What the lead list without a status filter holds, against the cold and warm lists:
    `hides` names each status that has leads but none in the unfiltered list."""

    statuses: list[str]
    hides: list[str]
    whole: bool


@dataclass(frozen=True)
class LeadFacts:
    """Which fields Warmline uses came in one lead's detail. `untold`: the nested lists
    that were empty on this lead, so their records' fields could not be told."""

    lead_id: int | None
    company_name: str | None
    given: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    untold: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass(frozen=True)
class ResearchFacts:
    """Which research path family answers: the one the client settled on
    (`families.known("research")`) and each family asked on its own."""

    known_family: str | None
    templates: int | None
    families: dict[str, str]
    error: str | None = None


@dataclass(frozen=True)
class RateLimitFacts:
    headers: bool
    limit: int | None
    remaining: int | None
    reset_at: str | None


@dataclass(frozen=True)
class ErrorReading:
    """One deliberate error answer as `warmline.api.errors` reads it (`answered_2xx`: the
    service did not refuse at all)."""

    request: str
    kind: str | None
    error_class: str | None
    status: int | None
    message: str | None
    detail: Any = None
    answered_2xx: bool = False


@dataclass(frozen=True)
class RoundTrip:
    """One write of `--write`: changed, read back, put back. `outcome` is honoured,
    ignored, failed or skipped; `restore_problem` says when the original value may not
    be back."""

    name: str
    operation: str
    field: str
    sent_as: str
    outcome: str
    detail: str
    restored: bool | None = None
    restore_problem: str | None = None


@dataclass(frozen=True)
class WriteFacts:
    lead_id: int
    steps: list[RoundTrip]


@dataclass
class ServiceReport:
    """Everything the check found; `problems` is `findings(report)`."""

    base_url: str
    health: HealthFacts
    lists: dict[str, ListFacts]
    default_leads: DefaultLeadsFacts | None
    lead: LeadFacts
    research: ResearchFacts
    rate_limit: RateLimitFacts
    errors: dict[str, ErrorReading]
    write: WriteFacts | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        """Warmline can work against it: both lead lists and a lead's detail were read."""
        lists_read = all(self.lists[name].error is None for name in ("leads_cold", "leads_warm"))
        return lists_read and self.lead.error is None

    @property
    def restore_failed(self) -> bool:
        return self.write is not None and any(step.restore_problem for step in self.write.steps)


class NoSuchLead(LookupError):
    """The lead named for the write check is not on the service: nothing was changed."""

    def __init__(self, lead_id: int) -> None:
        super().__init__(f"lead {lead_id} is not on the service: nothing was changed")
        self.lead_id = lead_id


# ------------------------------------------------------------------------------ helpers


def _failure(exc: ApiError) -> str:
    """A probe's failure as one line of the report; the check itself ends on the two
    failures that make every other probe pointless (no service, no key)."""
    if isinstance(exc, AuthError | OfflineError):
        raise exc
    return str(exc)


def _iso(moment: datetime | float | None) -> str | None:
    if moment is None:
        return None
    if isinstance(moment, datetime):
        return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return datetime.fromtimestamp(moment, UTC).isoformat().replace("+00:00", "Z")


# ------------------------------------------------------------------------------ health


async def probe_health(client: ServiceClient) -> HealthFacts:
    """The health answer. An unreachable service or a refused key raises: nothing else
    can be asked then. The key counts as accepted when health says so or says nothing
    (the lists after it would refuse it)."""
    health = await client.health()
    return HealthFacts(
        reachable=True,
        status=health.status,
        version=health.version,
        server_time=_iso(health.time),
        key_accepted=health.authenticated is not False,
        authenticated=health.authenticated,
    )


def with_skew(health: HealthFacts, client: ServiceClient) -> HealthFacts:
    """`health` with the clock difference the client learned from all the check's answers
    (more samples than the health answer alone)."""
    estimate = client.server_clock.estimate()
    if estimate is None:
        return health
    return replace(health, skew_seconds=round(estimate.offset, 3), skew_uncertainty=round(estimate.uncertainty, 3))


# ------------------------------------------------------------------------------ lists


Walk = AsyncIterator[tuple[list[Any], ListWalk]]


async def read_pages(pages: Walk, limit: int = PAGES_MAX) -> tuple[list[Any], ListWalk | None, bool]:
    """At most `limit` pages of a walk: the records, the walk, and whether the list was
    read to its end (the walk ended there, or its `problem()` says it is whole)."""
    items: list[Any] = []
    walk: ListWalk | None = None
    whole = True
    try:
        async for page, walk in pages:
            items.extend(page)
            if walk.pages >= limit:
                whole = walk.problem() is None
                break
    finally:
        closing = getattr(pages, "aclose", None)
        if closing is not None:
            await closing()
    return items, walk, whole


async def probe_list(name: str, pages: Walk) -> tuple[ListFacts, list[Any]]:
    """One list's first pages as facts, with the records read (the lead lists are
    compared, and a lead is picked from them)."""
    try:
        items, walk, whole = await read_pages(pages)
    except ApiError as exc:
        return ListFacts(name, None, 0, 0, False, error=_failure(exc)), []
    statuses = sorted({str(item.lead_status) for item in items if isinstance(item, models.LeadListItem)})
    return ListFacts(
        name=name,
        style=walk.style if walk is not None else None,
        pages=walk.pages if walk is not None else 0,
        records=len(items),
        whole=whole,
        statuses=statuses,
        problem=walk.problem() if walk is not None and whole else None,
    ), items


def default_leads(lists: dict[str, ListFacts]) -> DefaultLeadsFacts | None:
    """Which statuses the unfiltered lead list leaves out: a status whose own list has
    leads but none of which showed in it. None when a list could not be read."""
    by_status = {"cold": lists["leads_cold"], "warm": lists["leads_warm"]}
    unfiltered = lists["leads_all"]
    if unfiltered.error or any(facts.error for facts in by_status.values()):
        return None
    hides = [status for status, facts in by_status.items() if facts.records and status not in unfiltered.statuses]
    return DefaultLeadsFacts(unfiltered.statuses, hides, unfiltered.whole)


async def probe_lists(client: ServiceClient) -> tuple[dict[str, ListFacts], list[models.LeadListItem]]:
    """The first pages of the cold, warm and unfiltered lead lists, companies and contacts;
    with the leads read (cold and warm), to pick one to look at."""
    facts: dict[str, ListFacts] = {}
    leads: list[models.LeadListItem] = []
    walks: list[tuple[str, str, Walk]] = [
        ("leads_cold", "cold leads", client.walk_leads("cold", size=PAGE_SIZE)),
        ("leads_warm", "warm leads", client.walk_leads("warm", size=PAGE_SIZE)),
        ("leads_all", "all leads", client.walk("/v1/outreach/leads", models.LeadListItem, "leads", size=PAGE_SIZE)),
        ("companies", "companies", client.walk_companies(size=PAGE_SIZE)),
        ("contacts", "contacts", client.walk_contacts(size=PAGE_SIZE)),
    ]
    for key, name, pages in walks:
        facts[key], items = await probe_list(name, pages)
        if key in ("leads_cold", "leads_warm"):
            leads += [item for item in items if isinstance(item, models.LeadListItem)]
    return facts, leads


def pick_lead(leads: Sequence[models.LeadListItem]) -> int | None:
    """The lead whose detail says the most: warm first (deals), then the busiest."""
    if not leads:
        return None
    best = max(leads, key=lambda lead: (lead.lead_status == "warm", lead.activity_count + lead.recommendation_count))
    return best.id


# ------------------------------------------------------------------------------ lead detail


def _nested_fields(detail: models.LeadDetail, name: str) -> tuple[list[str], list[str], bool]:
    """(given, missing, told) for the records under `name`: a field is given when any of
    its records carried it; an empty list tells nothing."""
    value = getattr(detail, name)
    records: list[BaseModel] = value if isinstance(value, list) else ([value] if value is not None else [])
    if not records:
        return [], [], False
    given: list[str] = []
    missing: list[str] = []
    for field_name in NESTED_FIELDS[name]:
        came = any(field_name in record.model_fields_set for record in records)
        (given if came else missing).append(f"{name}.{field_name}")
    return given, missing, True


def lead_fields(detail: models.LeadDetail) -> LeadFacts:
    """Which fields Warmline uses the detail carried (`model_fields_set`: what the service
    sent, a null included; an alias counts, being read as our name)."""
    given = [name for name in LEAD_FIELDS if name in detail.model_fields_set]
    missing = [name for name in LEAD_FIELDS if name not in detail.model_fields_set]
    untold: list[str] = []
    for name in NESTED_FIELDS:
        inner_given, inner_missing, told = _nested_fields(detail, name)
        given += inner_given
        missing += inner_missing
        if not told and name in detail.model_fields_set:
            untold.append(name)
    return LeadFacts(detail.id, detail.company_name or None, given, missing, untold)


async def probe_lead(client: ServiceClient, lead_id: int | None) -> LeadFacts:
    if lead_id is None:
        return LeadFacts(None, None, error="no lead to look at: both lead lists are empty or unread")
    try:
        return lead_fields(await client.get_lead(lead_id))
    except ApiError as exc:
        return LeadFacts(lead_id, None, error=_failure(exc))


# ------------------------------------------------------------------------------ research


async def _family_answers(client: ServiceClient, family: Family) -> str:
    """One family's template list asked directly: `answers`, `no such route`, or the error."""
    try:
        await read_pages(client.walk(template_list_path(family), models.ResearchTemplate, "templates"), limit=1)
    except RouteMissingError:
        return "no such route"
    except ApiError as exc:
        return _failure(exc)
    return "answers"


async def probe_research(client: ServiceClient) -> ResearchFacts:
    """The template list the way Warmline asks for it (the client's family fallback), then
    each family on its own."""
    families: dict[str, str] = {family: await _family_answers(client, family) for family in FAMILIES}
    try:
        templates = await client.list_research_templates()
    except ApiError as exc:
        return ResearchFacts(client.families.known("research"), None, families, _failure(exc))
    return ResearchFacts(client.families.known("research"), len(templates), families)


# ------------------------------------------------------------------------------ limits, errors


def rate_limit_facts(client: ServiceClient) -> RateLimitFacts:
    """What the `X-RateLimit-*` headers of the check's answers said (nothing: no headers)."""
    state = client.limiter.state()
    present = any(value is not None for value in (state.limit, state.remaining, state.reset_at))
    return RateLimitFacts(present, state.limit, state.remaining, _iso(state.reset_at))


def error_reading(request: str, exc: ApiError | None) -> ErrorReading:
    """An error (or its absence: the request was answered 2xx) as the errors module read it."""
    if exc is None:
        return ErrorReading(request, None, None, None, None, answered_2xx=True)
    kind = next(words for cls, words in ERROR_KINDS if isinstance(exc, cls))
    return ErrorReading(request, kind, type(exc).__name__, exc.status, exc.message, exc.errors)


async def _error_of(request: str, attempt: Callable[[], Awaitable[object]]) -> ErrorReading:
    try:
        await attempt()
    except (AuthError, OfflineError):
        raise
    except ApiError as exc:
        return error_reading(request, exc)
    return error_reading(request, None)


async def probe_errors(client: ServiceClient) -> dict[str, ErrorReading]:
    """Three deliberate errors, all reads: a lead that cannot exist, a route that cannot
    exist, a lead list filter no service knows."""
    status = client.request_fields.name("list_leads", "status")

    def first_page(path: str, filters: dict[str, str] | None = None) -> Awaitable[object]:
        return read_pages(client.walk(path, models.LeadListItem, "leads", filters, size=1), limit=1)

    return {
        "missing_lead": await _error_of(f"GET /v1/outreach/leads/{MISSING_LEAD_ID}",
                                        lambda: client.get_lead(MISSING_LEAD_ID)),
        "unknown_route": await _error_of(f"GET {UNKNOWN_ROUTE}", lambda: first_page(UNKNOWN_ROUTE)),
        "bad_filter": await _error_of(f"GET /v1/outreach/leads?{status}={BAD_STATUS}",
                                      lambda: first_page("/v1/outreach/leads", {status: BAD_STATUS})),
    }


# ------------------------------------------------------------------------------ writes


@dataclass(frozen=True)
class Step(Generic[V]):
    """One request shape to try: the value to change and back, how to read it off the
    lead (None: the record is gone), how to send one."""

    name: str
    operation: str
    field: str
    original: V
    changed: V
    read: Callable[[models.LeadDetail], V | None]
    send: Callable[[V], Awaitable[object]]


def shown(value: object) -> str:
    """A value as the report says it: true/false, text as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "nothing" if value is None else str(value)


def _same(a: object, b: object) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    return a == b


def _sent_as(client: ServiceClient, operation: str, field_name: str) -> str:
    return client.request_fields.name(operation, field_name) if operation in NAMED else field_name


def _ignored(client: ServiceClient, step: Step[Any]) -> str:
    """Why a 2xx that changed nothing matters, and how to fit the service."""
    sent = _sent_as(client, step.operation, step.field)
    said = f"the service answered 2xx but {step.field} did not change"
    if step.operation not in NAMED:
        return said
    if sent != step.field:
        return f"{said} (sent as {sent!r} from [service.fields]); check [service.fields] {step.operation}"
    return f"{said}; set [service.fields] {step.operation} = {{ {step.field} = \"...\" }}"


async def _send(step: Step[V], value: V) -> None:
    """Send `value`; an answer that carried nothing to read is delivery all the same."""
    with contextlib.suppress(UnreadAnswerError):
        await step.send(value)


async def _put_back(client: ServiceClient, lead_id: int, step: Step[V]) -> str | None:
    """Send the original value and read it back; None when it is there."""
    try:
        await _send(step, step.original)
        now = step.read(await client.get_lead(lead_id))
    except ApiError as exc:
        return f"could not put {step.name} back to {shown(step.original)}: {exc}"
    if not _same(now, step.original):
        return f"{step.name} is now {shown(now)}, was {shown(step.original)}: put it back by hand"
    return None


async def round_trip(client: ServiceClient, lead_id: int, step: Step[V]) -> RoundTrip:
    """Change one value, read the lead to see whether it changed, and put the original
    back whatever happened (`finally`: a failed step may still have applied)."""
    outcome, detail = "failed", ""
    restore_problem: str | None = None
    try:
        await _send(step, step.changed)
        seen = step.read(await client.get_lead(lead_id))
        if _same(seen, step.changed):
            outcome, detail = "honoured", f"{shown(step.original)} -> {shown(step.changed)} and back"
        else:
            outcome, detail = "ignored", _ignored(client, step)
    except ApiError as exc:
        detail = f"the request failed: {exc}"
    finally:
        restore_problem = await _put_back(client, lead_id, step)
    return RoundTrip(step.name, step.operation, step.field, _sent_as(client, step.operation, step.field),
                     outcome, detail, restore_problem is None, restore_problem)


def _skipped(name: str, operation: str, field_name: str, why: str) -> RoundTrip:
    return RoundTrip(name, operation, field_name, field_name, "skipped", why)


def _target_step(client: ServiceClient, detail: models.LeadDetail) -> Step[int] | RoundTrip:
    original = detail.target_score
    if original is None:
        return _skipped("target score", "set_target_score", "target_score",
                        "the lead has no target score, and one set could not be taken back")
    changed = original + 1 if original < 100 else original - 1
    return Step("target score", "set_target_score", "target_score", original, changed,
                lambda lead: lead.target_score,
                lambda value: client.set_target_score(detail.id, value))


@dataclass(frozen=True)
class FlagShape:
    """One flag of a lead's records that `--write` flips and puts back."""

    array: str  # the detail's list of records: "monitoring_pages", "competitors"
    name: str  # for the report: "monitoring source", "competitor pin"
    label: str  # a step's label, with the record's id: "monitoring source {id}"
    missing: str  # why the step is skipped without such a record
    operation: str
    field: str


PAGE_FLAG = FlagShape("monitoring_pages", "monitoring source", "monitoring source {id}",
                      "the lead has no monitoring source", "toggle_monitoring_page", "is_selected")
COMPETITOR_FLAG = FlagShape("competitors", "competitor pin", "competitor {id} pin",
                            "the lead has no competitor", "pin_competitor", "is_pinned")


def _flag_step(
    detail: models.LeadDetail, shape: FlagShape, send: Callable[[int, bool], Awaitable[object]]
) -> Step[bool] | RoundTrip:
    """Flip one flag of the lead's first record of a kind (a source, a competitor) and back."""
    records: Sequence[Any] = getattr(detail, shape.array)
    if not records:
        return _skipped(shape.name, shape.operation, shape.field, shape.missing)
    first = records[0]

    def read(lead: models.LeadDetail) -> bool | None:
        return next((getattr(r, shape.field) for r in getattr(lead, shape.array) if r.id == first.id), None)

    original = getattr(first, shape.field)
    return Step(shape.label.format(id=first.id), shape.operation, shape.field, original, not original, read,
                lambda value: send(first.id, value))


def _page_step(client: ServiceClient, detail: models.LeadDetail) -> Step[bool] | RoundTrip:
    return _flag_step(detail, PAGE_FLAG, lambda page_id, value: client.set_monitoring_page(detail.id, page_id, value))


def _competitor_step(client: ServiceClient, detail: models.LeadDetail) -> Step[bool] | RoundTrip:
    return _flag_step(detail, COMPETITOR_FLAG,
                      lambda competitor_id, value: client.pin_competitor(detail.id, competitor_id, value))


def _deal_step(client: ServiceClient, detail: models.LeadDetail) -> Step[str] | RoundTrip:
    original = detail.deal_currency
    if detail.lead_status != "warm" or not original:
        return _skipped("deal currency", "update_deal", "deal_currency",
                        "the lead is not warm with a deal currency to put back")
    changed = "USD" if original.upper() != "USD" else "EUR"
    return Step("deal currency", "update_deal", "deal_currency", original, changed,
                lambda lead: lead.deal_currency,
                lambda value: client.update_deal(detail.id, deal_currency=value))


def _status_step(client: ServiceClient, detail: models.LeadDetail) -> Step[str] | RoundTrip:
    original = detail.lead_status
    if original not in ("cold", "warm"):
        return _skipped("status", "change_lead_status", "lead_status",
                        f"the lead's status {shown(original)} is not cold or warm")
    return Step("status", "change_lead_status", "lead_status", original, "warm" if original == "cold" else "cold",
                lambda lead: lead.lead_status,
                lambda value: client.set_lead_status(detail.id, value))


STEPS: tuple[Callable[[ServiceClient, models.LeadDetail], Step[Any] | RoundTrip], ...] = (
    _target_step, _page_step, _competitor_step, _deal_step, _status_step,
)
"""The round trips in order: the status last, since a deal needs the lead warm."""


async def write_check(client: ServiceClient, detail: models.LeadDetail) -> WriteFacts:
    """One round trip per request shape on the lead, one after the other."""
    steps: list[RoundTrip] = []
    for make in STEPS:
        step = make(client, detail)
        steps.append(step if isinstance(step, RoundTrip) else await round_trip(client, detail.id, step))
    return WriteFacts(detail.id, steps)


# ------------------------------------------------------------------------------ the whole check


async def _lead_to_write(client: ServiceClient, lead_id: int) -> models.LeadDetail:
    try:
        return await client.get_lead(lead_id)
    except NotFoundError:
        raise NoSuchLead(lead_id) from None


async def check_service(client: ServiceClient, write_lead: int | None = None) -> ServiceReport:
    """Every probe, in an order that stops early on what makes the rest pointless: health
    (no service, no key), then the lead to write to (`NoSuchLead` when it does not
    exist: nothing was changed), then the read-only probes, then the writes."""
    health = await probe_health(client)
    write_detail = await _lead_to_write(client, write_lead) if write_lead is not None else None
    lists, leads = await probe_lists(client)
    lead_id = write_lead if write_lead is not None else pick_lead(leads)
    lead = lead_fields(write_detail) if write_detail is not None else await probe_lead(client, lead_id)
    research = await probe_research(client)
    errors = await probe_errors(client)
    write = await write_check(client, write_detail) if write_detail is not None else None
    report = ServiceReport(
        base_url=redact_url(client.base_url),
        health=with_skew(health, client),
        lists=lists,
        default_leads=default_leads(lists),
        lead=lead,
        research=research,
        rate_limit=rate_limit_facts(client),
        errors=errors,
        write=write,
    )
    report.problems = findings(report)
    return report


# ------------------------------------------------------------------------------ what looks wrong


def _list_findings(report: ServiceReport) -> list[str]:
    found = [f"{facts.name}: could not be read: {facts.error}" for facts in report.lists.values() if facts.error]
    found += [f"{facts.name}: {facts.problem}" for facts in report.lists.values() if facts.problem]
    cold = report.lists["leads_cold"]
    if "warm" in cold.statuses:
        found.append(
            "the cold lead list holds warm leads: the service ignores the status filter; "
            'set [service.fields] list_leads = { status = "..." }'
        )
    default = report.default_leads
    if default is not None and default.hides:
        shown = " and ".join(default.statuses) or "no"
        qualifier = "" if default.whole else " (on the pages read)"
        found.append(
            f"the unfiltered lead list holds {shown} leads only{qualifier}: Warmline asks for each status"
        )
    return found


def _lead_findings(report: ServiceReport) -> list[str]:
    lead = report.lead
    if lead.error:
        return [f"lead detail: could not be read: {lead.error}"]
    if not lead.missing:
        return []
    return [f"lead {lead.lead_id}: not given by the service: {', '.join(lead.missing)} (Warmline shows them empty)"]


def _research_findings(research: ResearchFacts) -> list[str]:
    answering = [family for family, said in research.families.items() if said == "answers"]
    if research.error or not answering:
        return [f"research: neither path family answers{': ' + research.error if research.error else ''}"]
    if len(answering) == 1:
        return [f"research: only the {answering[0]} family answers"]
    return []


def _error_findings(errors: dict[str, ErrorReading]) -> list[str]:
    found = []
    missing = errors["missing_lead"]
    if missing.answered_2xx:
        found.append("a lead that cannot exist was answered 2xx")
    elif missing.error_class == "RouteMissingError":
        found.append("a missing lead reads as a missing route: Warmline cannot tell a removed lead from an unknown path")
    elif missing.error_class != "LeadNotFoundError":
        found.append(f"a missing lead reads as {missing.kind} ({missing.message}), not as a removed lead")
    unknown = errors["unknown_route"]
    if unknown.error_class != "RouteMissingError":
        found.append(
            f"an unknown route reads as {unknown.kind or 'a 2xx answer'}, not a missing route: "
            "the research path fallback cannot work"
        )
    return found


def _write_findings(write: WriteFacts | None) -> list[str]:
    if write is None:
        return []
    found = []
    for step in write.steps:
        if step.outcome in ("ignored", "failed"):
            found.append(f"{step.name}: {step.outcome}: {step.detail}")
        if step.restore_problem:
            found.append(f"{step.name}: NOT PUT BACK: {step.restore_problem}")
    return found


def findings(report: ServiceReport) -> list[str]:
    """The "what looks wrong" list: each line a fact that costs the rep something, with
    what Warmline does about it or what to set."""
    found: list[str] = []
    skew = report.health.skew_seconds
    if skew is not None and abs(skew) > SKEW_NOTICED:
        side = "ahead of" if skew > 0 else "behind"
        found.append(f"the service's clock is {abs(skew):.0f} s {side} ours")
    found += _list_findings(report)
    found += _lead_findings(report)
    found += _research_findings(report.research)
    if not report.rate_limit.headers:
        found.append("no rate-limit headers: Warmline only slows down after a 429")
    found += _error_findings(report.errors)
    found += _write_findings(report.write)
    return found
