"""The `sparse` dialect: nothing null, nothing empty, and short answers where none is shown.

A service may leave out every field whose value is null and every empty array, and never
send our extra `generation_status`. Where the spec does not show a mutation's answer, it
may answer only that it worked: `{"success": true, "message": ...}`, and for a create the
new id. Answers the spec shows (target score, log activity, add note, add contacts,
deep and contact search starts, research run start) keep their fields.
"""

from __future__ import annotations

from typing import Any

from warmline_sandbox import dialect_ops as ops
from warmline_sandbox.dialect_ops import Op

MESSAGES: dict[Op, str] = {
    ("PATCH", ops.LEAD_STATUS): "Lead status updated",
    ("POST", ops.SIGNAL_SCAN): "Signal scan started",
    ("PATCH", ops.MONITORING_PAGE): "Monitoring page updated",
    ("POST", ops.GENERATE): "Recommendation generation started",
    ("POST", ops.COMPLETE): "Recommendation completed",
    ("POST", ops.DISMISS): "Recommendation dismissed",
    ("PATCH", ops.KEY_CONTACT): "Key contact updated",
    ("PATCH", ops.DEAL): "Deal updated",
    ("POST", ops.COMPETITORS): "Competitor added",
    ("POST", ops.COMPETITOR_SCAN): "Competitor scanned",
    ("PATCH", ops.COMPETITOR): "Competitor updated",
    ("POST", ops.LEADS): "Leads added to outreach",
    ("DELETE", ops.LEADS): "Leads removed from outreach",
    ("PUT", ops.COMPANY): "Company updated",
    ("DELETE", ops.COMPANY): "Company deleted",
    ("PUT", ops.CONTACT): "Contact updated",
    ("DELETE", ops.CONTACT): "Contact deleted",
}
"""Mutations whose answer the spec does not show: only this message."""

CREATED: dict[Op, str] = {("POST", ops.COMPANIES): "Company created", ("POST", ops.CONTACTS): "Contact created"}
"""Creates: the message and the new record's id."""

NEVER_SENT = frozenset({"generation_status"})


def minimal_answer(op: Op, body: Any) -> Any:
    """The short answer of a mutation the spec does not show; any other answer as it is."""
    if op in MESSAGES:
        return {"success": True, "message": MESSAGES[op]}
    if op in CREATED:
        record = body.get("data") if isinstance(body, dict) else None
        return {"success": True, "message": CREATED[op], "id": record.get("id") if isinstance(record, dict) else None}
    return body


def strip(value: Any) -> Any:
    """Leave out null fields, empty arrays and `generation_status`, all the way down.

    Only fields are left out: a null or empty item of an array stays (an array keeps its
    length), and so does a whole answer that is an empty array.
    """
    if isinstance(value, list):
        return [strip(item) for item in value]
    if not isinstance(value, dict):
        return value
    kept: dict[str, Any] = {}
    for key, item in value.items():
        item = strip(item)
        if item is None or item == [] or key in NEVER_SENT:
            continue
        kept[key] = item
    return kept
