"""Reading any faithful dialect of the service: other names, other words, other shapes.

The spec leaves many shapes "not shown", so a real service will choose differently from
our sandbox in many places while obeying every sentence of the spec. This module is the
one place that knows the differences we accept in answers (docs/wire.md, "Dialects we
accept"); `paging.py` knows the paging styles and `paths.py` the research path families.

- **Names** (`FIELD_ALIASES`): a field the spec does not show may come under another name
  (`website` for `domain`, `job_title` for `title`, camelCase for snake_case). The model
  of each record renames what it finds to our name before validation; a name we already
  have wins over an alias.
- **Words** (`word`): values the spec does not list are compared case-insensitively, with
  `-`, `_` and spaces as one (`check-in` is `check_in`, `HIGH` is `high`), and a few
  synonyms are known (`linkedin_message`). A word we do not know is kept as written.
- **Job statuses** (`job_status`): `done`, `finished`, `succeeded` mean completed;
  `error`, `errored` mean failed; `processing`, `in_progress`, `scanning` mean running. A
  status we do not know is kept as the service wrote it, and counts as running until a
  terminal word appears (`warmline.store.jobs.is_terminal`).
- **Shapes**: tags as strings or `{id, name}` objects; custom fields as a map or a
  `[{key, value}]` list; flags as `true`/`1`/`"true"` (pydantic's lax booleans).

Nothing here imports pydantic or httpx: the store and the command line may use the word
tables without loading the HTTP stack.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# ------------------------------------------------------------------------------ words


def word_key(value: str) -> str:
    """The comparison key of a vocabulary word: case, `-`, `_` and spaces do not matter."""
    return re.sub(r"[\s_\-]+", "_", value.strip().casefold()).strip("_")


class Vocabulary:
    """The words we know for one field, each under its comparison key, plus synonyms."""

    def __init__(self, words: Iterable[str], synonyms: Mapping[str, str] | None = None) -> None:
        self.words = tuple(words)
        self._by_key = {word_key(w): w for w in self.words}
        for other, ours in (synonyms or {}).items():
            self._by_key[word_key(other)] = ours

    def __call__(self, value: object) -> object:
        """Our word for `value` when we know it; anything else unchanged (shown as written)."""
        if not isinstance(value, str):
            return value
        return self._by_key.get(word_key(value), value)

    def knows(self, value: str) -> bool:
        return word_key(value) in self._by_key


LEAD_STATUS = Vocabulary(("cold", "warm"))
PRIORITY = Vocabulary(("high", "medium", "low"))
ACTION_TYPE = Vocabulary(
    ("comment", "follow", "like", "share_content", "check_in", "congratulate"),
    {"share": "share_content", "checkin": "check_in", "congrats": "congratulate"},
)
ACTIVITY_TYPE = Vocabulary(
    ("email", "call", "meeting", "professional_network_message", "comment", "like", "follow",
     "share", "event", "other"),
    {
        "linkedin_message": "professional_network_message",
        "linkedin": "professional_network_message",
        "linkedin_dm": "professional_network_message",
        "inmail": "professional_network_message",
        "social_message": "professional_network_message",
        "network_message": "professional_network_message",
        "phone": "call",
        "phone_call": "call",
        "mail": "email",
        "e_mail": "email",
        "meet": "meeting",
    },
)
CONTACT_ROLE = Vocabulary(("decision-maker", "champion", "influencer"), {"decisionmaker": "decision-maker"})
RECOMMENDATION_STATUS = Vocabulary(("active", "completed", "dismissed"), {"done": "completed"})
PAGE_TYPE = Vocabulary(("blog", "careers", "press", "company_social", "contact_social"))

COMPLETED_WORDS = frozenset({"completed", "complete", "done", "finished", "succeeded", "success", "successful", "ready"})
FAILED_WORDS = frozenset({"failed", "failure", "error", "errored"})
CANCELLED_WORDS = frozenset({"cancelled", "canceled", "aborted", "expired"})
RUNNING_WORDS = frozenset({"running", "processing", "in_progress", "scanning", "started", "working", "active", "generating"})
PENDING_WORDS = frozenset({"pending", "queued", "waiting", "created", "scheduled", "accepted"})


def job_status(value: object) -> object:
    """Our word for a job's, run's or scan's status (`completed`, `failed`, `cancelled`,
    `running`, `pending`); `none` (no scan yet) and words we do not know stay as written."""
    if not isinstance(value, str):
        return value
    key = word_key(value)
    for words, ours in (
        (COMPLETED_WORDS, "completed"),
        (FAILED_WORDS, "failed"),
        (CANCELLED_WORDS, "cancelled"),
        (RUNNING_WORDS, "running"),
        (PENDING_WORDS, "pending"),
    ):
        if key in words:
            return ours
    return "none" if key == "none" else value


# ------------------------------------------------------------------------------ shapes


def tag_names(value: object) -> object:
    """Tags as a list of names, whether the service sent strings or `{id, name}` objects."""
    if not isinstance(value, list):
        return value
    names: list[str] = []
    for item in value:
        if isinstance(item, Mapping):
            item = next((item[k] for k in ("name", "label", "tag", "value") if isinstance(item.get(k), str)), None)
        if isinstance(item, str | int | float) and not isinstance(item, bool):
            names.append(str(item))
    return names


def custom_field_map(value: object) -> object:
    """Custom fields as a map, whether the service sent one or a `[{key, value}]` list."""
    if not isinstance(value, list):
        return value
    fields: dict[str, Any] = {}
    for item in value:
        if not isinstance(item, Mapping):
            continue
        key = next((item[k] for k in ("key", "name", "field", "id") if isinstance(item.get(k), str | int)), None)
        if key is not None:
            fields[str(key)] = item.get("value")
    return fields


def _camel_to_snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


# ------------------------------------------------------------------------------ names

FIELD_ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "company": {
        "name": ("company_name",),
        "domain": ("website", "url", "domain_name", "web"),
        "size": ("employee_range", "employee_count", "employees", "company_size", "headcount"),
        "industry": ("sector",),
    },
    "contact": {
        "title": ("job_title", "position", "role_title"),
        "social_url": ("linkedin_url", "linkedin", "profile_url", "social_profile"),
        "email": ("email_address",),
        "phone": ("phone_number",),
    },
    "page": {
        "label": ("title", "name"),
        "score": ("monitoring_score", "monitoring_value", "value_score", "relevance"),
        "is_selected": ("is_enabled", "enabled", "selected", "is_active", "monitored"),
        "page_type": ("type", "source_type", "kind"),
    },
    "competitor": {
        "domain": ("website", "url"),
        "is_pinned": ("pinned", "is_selected"),
        "scan_summary": ("summary",),
    },
    "lookup": {"companies": ("results", "items", "data")},
    "lookup_result": {
        "similarity_score": ("similarity", "score", "relevance"),
        "saved_company_id": ("company_id",),
    },
    "deal": {"deal_currency": ("currency",), "deal_value": ("value", "amount")},
    "lead": {
        "lead_status": ("status",),
        "deal_currency": ("currency",),
        "target_score": ("target",),
    },
    "health": {
        "time": ("server_time", "timestamp", "now", "serverTime"),
        "version": ("api_version",),
    },
    "touchpoint": {"detected_type": ("type", "activity_type"), "description": ("text",)},
    "note": {"content": ("text", "body")},
    "recommendation": {"engagement_reason": ("reason",), "action_type": ("action",)},
    "recommendations": {"recommendations": ("items", "data", "results")},
    "contact_search": {"job_id": ("id", "search_id"), "contacts": ("results",)},
    "deep_search": {"job_id": ("id",)},
    "company_research": {"search_id": ("id", "job_id")},
    "research_run": {"run_id": ("id", "runId")},
    "signal_scan": {},
}
"""For each kind of record: our field name -> the names another reading of the spec may use.
Only fields the spec does not show (or shows without naming) are listed; docs/wire.md
"Dialects we accept" prints this table."""


def rename_fields(data: object, record: str, known: Iterable[str]) -> object:
    """`data` with alias and camelCase keys renamed to ours (a key we already have wins).

    `known` are the model's own field names: a camelCase key is renamed only to one of
    them. Anything that is not a mapping is returned as it is, for pydantic to judge."""
    if not isinstance(data, Mapping):
        return data
    fields = set(known)
    renamed = dict(data)
    for key in list(data):
        if isinstance(key, str) and key not in fields:
            snake = _camel_to_snake(key)
            if snake != key and snake in fields and snake not in renamed:
                renamed[snake] = renamed.pop(key)
    for ours, others in FIELD_ALIASES.get(record, {}).items():
        if ours in renamed and renamed[ours] is not None:
            continue
        for other in others:
            if other in renamed and other not in fields and renamed[other] is not None:
                renamed[ours] = renamed.pop(other)
                break
    return renamed


def health_status(data: object) -> object:
    """A health answer that says `healthy: true` (or `ok: true`) instead of a status word."""
    if not isinstance(data, Mapping) or isinstance(data.get("status"), str):
        return data
    for key in ("healthy", "ok", "up"):
        flag = data.get(key)
        if isinstance(flag, bool | int):
            return {**data, "status": "ok" if flag else "down"}
    return data
