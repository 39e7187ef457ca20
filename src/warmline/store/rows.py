"""What the store hands to the cockpit, the CLI and the sync engine: plain frozen records.

They are named tuples rather than dataclasses: as light to build for a page of 100,000
leads, and about ten times cheaper to define, which every start of the cockpit pays
before its first paint (16 frozen dataclasses cost ~13 ms to create).

They are built from SQLite rows by `build`, which picks the record's fields by name, so
a query only has to name its columns like the fields. `pending` on a detail item means a
queued action made it and the server has not confirmed it yet; `failed` means that action
was set aside with a server message (see the outbox).

Annotations are evaluated, not strings (no `from __future__ import annotations`): typing
compiles each string annotation of a named tuple's fields, which made defining these
records cost about twice as much (`warmline.startup`, point 4). A method naming its own
class quotes it.
"""


import json
from collections.abc import Mapping
from typing import TypeVar, overload

from warmline.named_tuple import NamedTuple

# The queued operation and its states live with the operations (`warmline.ops.op`);
# re-exported here, where the store, the engine and the cockpit have always found them.
from warmline.ops.op import AMBIGUOUS as AMBIGUOUS
from warmline.ops.op import DONE as DONE
from warmline.ops.op import EFFECT_STATES as EFFECT_STATES
from warmline.ops.op import FAILED as FAILED
from warmline.ops.op import IN_FLIGHT as IN_FLIGHT
from warmline.ops.op import PENDING as PENDING
from warmline.ops.op import QUEUE_STATES as QUEUE_STATES
from warmline.ops.op import Op as Op
from warmline.store.values import JsonObject, JsonValue, SqlRow, SqlValue

R = TypeVar("R", bound=NamedTuple)

def build(cls: type[R], row: Mapping[str, object]) -> R:
    """An instance of record `cls` from the row's columns of the same names (a field the
    row lacks takes its default). The values are trusted to have the fields' types: the
    schema fixes them, and the queries name their columns like the fields."""
    defaults = cls._field_defaults
    return cls._make([row[name] if name in row else defaults[name] for name in cls._fields])


@overload
def plain_data(value: NamedTuple) -> JsonObject: ...
@overload
def plain_data(value: object) -> object: ...
def plain_data(value: object) -> object:
    """A record as plain dicts and lists (nested records too), for JSON output."""
    if hasattr(value, "_asdict"):
        return {name: plain_data(item) for name, item in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [plain_data(item) for item in value]
    if isinstance(value, dict):
        return {key: plain_data(item) for key, item in value.items()}
    return value


def loads(text: SqlValue, default: JsonValue = None) -> JsonValue:
    """JSON text from a column, or `default` when empty, not text or not JSON."""
    if not text or not isinstance(text, str):
        return default
    try:
        value: JsonValue = json.loads(text)
    except ValueError:
        return default
    return value


def json_object(text: SqlValue) -> JsonObject:
    """A JSON object from a column; empty when the column is empty or holds anything else."""
    value = loads(text)
    return value if isinstance(value, dict) else {}


def json_list(text: SqlValue) -> list[JsonValue]:
    """A JSON array from a column; empty when the column is empty or holds anything else."""
    value = loads(text)
    return value if isinstance(value, list) else []


class LeadRow(NamedTuple):
    """One line of the lead list. Counts include what the rep queued locally."""

    id: int
    company_id: int | None
    company_name: str
    lead_status: str
    warming_score: int
    target_score: int | None
    gap: int
    ready: bool
    activity_count: int
    recommendation_count: int
    monitoring_active: bool
    last_activity_at: str | None
    pending_ops: int = 0
    failed_ops: int = 0


class Recommendation(NamedTuple):
    id: int
    lead_id: int
    company_name: str
    action_type: str | None
    target_url: str | None
    suggested_comment: str | None
    priority: str | None
    engagement_reason: str | None
    source_page_label: str | None
    status: str
    created_at: str | None


class RecommendationProgress(NamedTuple):
    completed: int
    dismissed: int
    total: int

    @property
    def active(self) -> int:
        return max(0, self.total - self.completed - self.dismissed)


class ScorePoint(NamedTuple):
    """The warming score just after an activity (or now, for the last point)."""

    at: str
    score: int


def op_from_row(row: SqlRow) -> Op:
    """The queued operation (`warmline.ops.op.Op`) of an outbox row."""
    result = loads(row.get("result"))
    data: dict[str, object] = dict(row)
    data["payload"] = json_object(row["payload"])
    data["meta"] = json_object(row.get("meta"))
    data["result"] = result if isinstance(result, dict) else None
    return build(Op, data)


class OutboxCounts(NamedTuple):
    pending: int
    in_flight: int
    ambiguous: int
    failed: int

    @property
    def queued(self) -> int:
        """Everything still to be delivered (what the status bar calls pending)."""
        return self.pending + self.in_flight + self.ambiguous


class Job(NamedTuple):
    key: int
    kind: str
    remote_id: str | None
    lead_id: int | None
    company_id: int | None
    status: str
    active: bool
    progress: int | None
    params: JsonObject
    result_summary: str | None
    error: str | None
    created_at: str | None
    updated_at: str | None
    completed_at: str | None
    next_poll_at: float | None
    queued_offline: bool
    results_applied: bool
    op_id: str | None
    raw: JsonObject

    @classmethod
    def from_row(cls, row: SqlRow) -> "Job":
        data: dict[str, object] = dict(row)
        data["params"] = json_object(row["params"])
        data["raw"] = json_object(row["raw"])
        for flag in ("active", "queued_offline", "results_applied"):
            data[flag] = bool(row[flag])
        return build(cls, data)


class CompanyRow(NamedTuple):
    id: int
    name: str
    domain: str | None
    industry: str | None
    country: str | None
    region: str | None
    size: str | None
    description: str | None
    tags: list[str]
    custom_fields: JsonObject
    source: str | None
    ai_tag: str | None

    @classmethod
    def from_row(cls, row: SqlRow) -> "CompanyRow":
        data: dict[str, object] = dict(row)
        data["tags"] = json_list(row["tags"])
        data["custom_fields"] = json_object(row["custom_fields"])
        return build(cls, data)


class ContactRow(NamedTuple):
    id: int
    company_id: int | None
    first_name: str | None
    last_name: str | None
    email: str | None
    title: str | None
    role: str | None
    social_url: str | None
    phone: str | None
    tags: list[str]
    custom_fields: JsonObject

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)

    @classmethod
    def from_row(cls, row: SqlRow) -> "ContactRow":
        data: dict[str, object] = dict(row)
        data["tags"] = json_list(row["tags"])
        data["custom_fields"] = json_object(row["custom_fields"])
        return build(cls, data)


class ResearchTemplate(NamedTuple):
    id: str
    name: str
    description: str | None
    fields: list[JsonObject]

    @classmethod
    def from_row(cls, row: SqlRow) -> "ResearchTemplate":
        data: dict[str, object] = dict(row)
        data["fields"] = [field for field in json_list(row["fields"]) if isinstance(field, dict)]
        return build(cls, data)
