"""The `request-names` dialect: unshown request bodies read other field names, and ignore ours.

The spec does not show the bodies of the lead status change, the monitoring page toggle,
the deal update or the competitor pin. This reading takes `status`, `enabled`,
`currency` and `pinned`, and, like a service that reads `req.body.status`, silently
ignores the names we send: such a request answers 200 with the standard body and
changes nothing. For the three whose standard route needs the field, that answer is
read from the lead detail instead (`NoChange`); the deal route already takes an empty
body as "change nothing".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warmline_sandbox import dialect_ops as ops
from warmline_sandbox.dialect_ops import Op, Operation
from warmline_sandbox.errors import error_body

READS: dict[Op, tuple[str, str]] = {
    ("PATCH", ops.LEAD_STATUS): ("status", "lead_status"),
    ("PATCH", ops.MONITORING_PAGE): ("enabled", "is_selected"),
    ("PATCH", ops.DEAL): ("currency", "deal_currency"),
    ("PATCH", ops.COMPETITOR): ("pinned", "is_pinned"),
}
"""Operation -> (the name the service reads, our name it ignores)."""

NOT_FOUND = {
    ("PATCH", ops.MONITORING_PAGE): ("page_id", "monitoring_pages", "Monitoring page not found"),
    ("PATCH", ops.COMPETITOR): ("competitor_id", "competitors", "Competitor not found"),
}


def translate_request(op: Op, body: dict[str, Any], renamed: dict[str, str]) -> None:
    """Drop our name, read the service's (`renamed` learns it, for error messages)."""
    if op not in READS:
        return
    theirs, ours = READS[op]
    body.pop(ours, None)
    if theirs in body:
        body[ours] = body.pop(theirs)
        renamed[ours] = theirs


def changes_nothing(op: Op, body: dict[str, Any]) -> bool:
    """Whether a translated body is empty for an operation whose route needs the field:
    the service answers as if asked to set the current value."""
    return op in READS and op != ("PATCH", ops.DEAL) and not body


def can_read_instead(operation: Operation) -> bool:
    """Whether the lead detail can answer for the operation: its ids are whole numbers (a
    malformed id goes to the standard route, which says what is wrong with it)."""
    return all(value.isascii() and value.isdigit() for value in operation.params.values())


@dataclass(frozen=True)
class NoChange:
    """A request that changes nothing: served as a read of the lead, answered in the shape
    of the operation asked for."""

    operation: Operation

    @property
    def read_path(self) -> str:
        return ops.LEAD.replace("{lead_id}", self.operation.params["lead_id"])

    def answer(self, detail: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The standard answer of the operation, from the lead detail's standard answer."""
        lead = detail.get("data") or {}
        if self.operation.key == ("PATCH", ops.LEAD_STATUS):
            return 200, {"success": True, "id": lead.get("id"), "lead_status": lead.get("lead_status")}
        param, listed, message = NOT_FOUND[self.operation.key]
        wanted = int(self.operation.params[param])
        found = next((item for item in lead.get(listed) or [] if item.get("id") == wanted), None)
        if found is None:
            return 404, error_body(message)
        return 200, {"success": True, ("page" if listed == "monitoring_pages" else "competitor"): found}
