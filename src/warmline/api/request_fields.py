"""The names of the request fields the spec does not show, as one service reads them.

The spec shows some request bodies (a note's `content`, a target's `target_score`, a key
contact's `is_selected`) and leaves others "not shown": the status change, a monitoring
source's toggle, the deal, a competitor's pin, adding to and removing from outreach. We
send the names docs/wire.md chose. A service that reads other names answers 200 and
changes nothing; the outbox then finds the change missing when it reads the lead again and
fails the op with a line that points here (`warmline.sync.confirm`). `[service.fields]` in
the config renames them per operation:

    [service.fields]
    change_lead_status = { lead_status = "status" }
    update_deal = { deal_currency = "currency" }

Only the operations and fields of `NAMED` can be renamed: the others are fixed by the spec.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

NAMED: dict[str, tuple[str, ...]] = {
    "change_lead_status": ("lead_status",),
    "toggle_monitoring_page": ("is_selected",),
    "update_deal": ("deal_value", "deal_currency", "won", "lost", "closed_reason"),
    "add_competitor": ("name", "domain"),
    "pin_competitor": ("is_pinned",),
    "add_to_outreach": ("company_ids", "lead_status"),
    "remove_lead": ("lead_ids",),
    "start_contact_search": ("company_id", "roles"),
    "list_leads": ("status",),
}
"""Each operation whose request names the spec does not show, and those fields (ours)."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}")


class RequestFieldsError(ValueError):
    """A `[service.fields]` entry that names no such operation or field, or a bad name."""


class RequestFields:
    """Our request field names -> the service's, per operation (identity by default)."""

    def __init__(self, renames: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self._renames: dict[str, dict[str, str]] = {}
        for operation, fields in (renames or {}).items():
            if operation not in NAMED:
                known = ", ".join(sorted(NAMED))
                raise RequestFieldsError(f"[service.fields] names no operation {operation!r} (known: {known})")
            if not isinstance(fields, Mapping):
                raise RequestFieldsError(f"[service.fields] {operation} must be a table of field = \"name\"")
            for ours, theirs in fields.items():
                if ours not in NAMED[operation]:
                    raise RequestFieldsError(
                        f"[service.fields] {operation} has no field {ours!r} (its fields: {', '.join(NAMED[operation])})"
                    )
                if not isinstance(theirs, str) or not _NAME.fullmatch(theirs):
                    raise RequestFieldsError(f"[service.fields] {operation}.{ours} must be a field name (got {theirs!r})")
                self._renames.setdefault(operation, {})[ours] = theirs

    def name(self, operation: str, field: str) -> str:
        """The name the service reads for our `field` of `operation`."""
        return self._renames.get(operation, {}).get(field, field)

    def body(self, operation: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """`body` with our names replaced by the service's."""
        renames = self._renames.get(operation, {})
        return {renames.get(key, key): value for key, value in body.items()}

    def renamed(self, operation: str) -> dict[str, str]:
        """The renames in force for `operation` (ours -> theirs), for messages and checks."""
        return dict(self._renames.get(operation, {}))

    def as_config(self) -> dict[str, dict[str, str]]:
        return {operation: dict(fields) for operation, fields in self._renames.items()}
