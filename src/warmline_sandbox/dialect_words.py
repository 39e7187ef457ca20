"""The `words` dialect: other words for the values the spec does not list.

Statuses the spec leaves open (a running or failed job or run, signal scans),
priorities, action types, the professional-network activity kind, the decision-maker
role, booleans as 1/0, tags as objects, custom fields as key/value lists and integer
research run ids. Values the spec fixes stay: `pending` and `completed` of every job
and run, the signal scan's `none`, `monitoring_active` as a boolean, lead statuses, recommendation states,
`success`. Requests accept the dialect's words as well as ours.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

from warmline_sandbox import dialect_ops as ops
from warmline_sandbox.dialect_ops import Op

SEARCH_STATUSES = {"running": "processing", "failed": "error"}
RESEARCH_STATUSES = SEARCH_STATUSES
"""The spec's transitions send every job, research runs included, from `pending` to
`completed`: only the words of running and failed are the dialect's."""
SCAN_STATUSES = {"pending": "scanning", "running": "scanning", "completed": "done", "failed": "error"}

STATUS_WORDS: dict[Op, dict[str, str]] = {
    ("POST", ops.DEEP_SEARCH): SEARCH_STATUSES,
    ("GET", ops.DEEP_SEARCH_JOB): SEARCH_STATUSES,
    ("POST", ops.CONTACT_SEARCH): SEARCH_STATUSES,
    ("GET", ops.CONTACT_SEARCH_JOB): SEARCH_STATUSES,
    ("POST", ops.COMPANY_RESEARCH): RESEARCH_STATUSES,
    ("GET", ops.COMPANY_RESEARCH_JOB): RESEARCH_STATUSES,
    ("POST", ops.RUN): RESEARCH_STATUSES,
    ("GET", ops.RUN_STATUS): RESEARCH_STATUSES,
    ("POST", ops.OVERVIEW_RUN): RESEARCH_STATUSES,
    ("GET", ops.OVERVIEW_RUN_STATUS): RESEARCH_STATUSES,
    ("POST", ops.SIGNAL_SCAN): SCAN_STATUSES,
    ("GET", ops.SIGNAL_SCAN): SCAN_STATUSES,
}
"""Operations whose top-level `status` is a job's, with the dialect's word for each."""

RUN_OPS: frozenset[Op] = frozenset({
    ("POST", ops.RUN), ("GET", ops.RUN_STATUS), ("POST", ops.OVERVIEW_RUN), ("GET", ops.OVERVIEW_RUN_STATUS),
})
"""Answers carrying a research `run_id` (an integer in this dialect)."""

RUN_STATUS_OPS: frozenset[Op] = frozenset({("GET", ops.RUN_STATUS), ("GET", ops.OVERVIEW_RUN_STATUS)})
"""Paths naming a run: its number stands for the run."""

TAG_OPS: frozenset[Op] = frozenset({("GET", ops.COMPANY_TAGS), ("GET", ops.CONTACT_TAGS)})

VALUE_WORDS: dict[str, dict[str, str]] = {
    "priority": {"high": "HIGH", "medium": "MEDIUM", "low": "LOW"},
    "action_type": {"share_content": "share-content", "check_in": "check-in"},
    "detected_type": {"professional_network_message": "linkedin_message"},
    "role": {"decision-maker": "decision_maker"},
}
"""Fields whose values have other words wherever they appear (each name means one thing)."""

BOOLEANS = frozenset({"is_selected", "is_pinned", "authenticated", "deleted"})
"""Boolean fields the spec does not type, written 1/0 (`success` and the list item's
`monitoring_active`, which the spec types as boolean, stay true/false)."""

REQUEST_BOOLEANS = frozenset({"is_selected", "is_pinned", "won", "lost", "save", "broaden_search"})
"""Boolean request fields that accept 1/0 too."""

OPAQUE = frozenset({"custom_fields", "fields"})
"""Objects holding the user's own data (custom fields, research values): never reworded."""

RECORD_OPS: frozenset[Op] = frozenset({
    ("POST", ops.COMPANIES), ("PUT", ops.COMPANY), ("POST", ops.CONTACTS), ("PUT", ops.CONTACT),
})
"""Request bodies of records, whose tags and custom fields may come as lists of objects."""


def tag_id(name: str) -> int:
    """A stable positive id for a tag name (tags are case-insensitive, so is the id)."""
    return zlib.crc32(name.lower().encode()) % 2_000_000_000 + 1


def tag_objects(tags: list[Any]) -> list[Any]:
    return [{"id": tag_id(tag), "name": tag} if isinstance(tag, str) else tag for tag in tags]


def _reword(value: Any) -> Any:
    """Values, booleans, tags and custom fields in the dialect's words, all the way down."""
    if isinstance(value, list):
        return [_reword(item) for item in value]
    if not isinstance(value, dict):
        return value
    reworded: dict[str, Any] = {}
    for key, item in value.items():
        if key in OPAQUE:
            reworded[key] = _custom_fields(item) if key == "custom_fields" else item
        elif key in BOOLEANS and isinstance(item, bool):
            reworded[key] = int(item)
        elif key == "tags" and isinstance(item, list):
            reworded[key] = tag_objects(item)
        elif key in VALUE_WORDS and isinstance(item, str):
            reworded[key] = VALUE_WORDS[key].get(item, item)
        else:
            reworded[key] = _reword(item)
    return reworded


def _custom_fields(fields: Any) -> Any:
    if not isinstance(fields, dict):
        return fields
    return [{"key": key, "value": value} for key, value in fields.items()]


def translate_answer(op: Op, body: Any, run_numbers: Mapping[str, int]) -> Any:
    """A successful standard answer in the dialect's words; `run_numbers` maps a research
    run's id to its number (looked up by the caller, which has the database)."""
    if op in TAG_OPS and isinstance(body, dict) and isinstance(body.get("data"), list):
        body = {**body, "data": tag_objects(body["data"])}
    body = _reword(body)
    if not isinstance(body, dict):
        return body
    statuses = STATUS_WORDS.get(op)
    if statuses and isinstance(body.get("status"), str):
        body["status"] = statuses.get(body["status"], body["status"])
    detail = body.get("data")
    if op == ("GET", ops.LEAD) and isinstance(detail, dict) and "signal_scan_status" in detail:
        detail["signal_scan_status"] = SCAN_STATUSES.get(detail["signal_scan_status"], detail["signal_scan_status"])
    if op in RUN_OPS and body.get("run_id") in run_numbers:
        body["run_id"] = run_numbers[body["run_id"]]
    return body


def translate_request(op: Op, body: dict[str, Any]) -> None:
    """Accept the dialect's words in a request body (ours still work): 1/0 booleans, the
    decision_maker role, tags as objects, custom fields as a key/value list."""
    for name in REQUEST_BOOLEANS & body.keys():
        if body[name] in (0, 1) and not isinstance(body[name], bool):
            body[name] = bool(body[name])
    if isinstance(body.get("role"), str):
        body["role"] = standard_role(body["role"])
    if op == ("POST", ops.CONTACT_SEARCH) and isinstance(body.get("roles"), list):
        body["roles"] = [standard_role(role) if isinstance(role, str) else role for role in body["roles"]]
    if op in RECORD_OPS:
        if isinstance(body.get("tags"), list):
            body["tags"] = [_tag_name(tag) for tag in body["tags"]]
        if isinstance(body.get("custom_fields"), list):
            body["custom_fields"] = _fields_object(body["custom_fields"])


def standard_role(role: str) -> str:
    return "decision-maker" if role == "decision_maker" else role


def _tag_name(tag: Any) -> Any:
    """A tag object's name; anything else as sent (the route refuses what is no tag)."""
    return tag["name"] if isinstance(tag, dict) and isinstance(tag.get("name"), str) else tag


def _fields_object(items: list[Any]) -> Any:
    """`[{"key": k, "value": v}]` -> `{k: v}`; a list of another shape as sent (refused)."""
    if all(isinstance(item, dict) and isinstance(item.get("key"), str) and "value" in item for item in items):
        return {item["key"]: item["value"] for item in items}
    return items
