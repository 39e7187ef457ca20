"""Strict in what we believe: after a 2xx, does the service show the change?

Any 2xx answer to a mutation is delivery: the op is never left queued because the answer
lacked a field we hoped for (`{"success": true, "message": "..."}` where the spec shows
no response). But a 2xx is not proof: a service that reads a request field under another
name answers 200 and changes nothing. So each set-to-value op is checked:

- the answer shows the value: confirmed;
- the answer shows another value: refused, with the likely cause named;
- the answer does not say: the lead is read again (the op's reconciliation probe,
  `reconcile.already_applied`); the value there confirms the op, another value fails it,
  and a lead that does not carry the field at all (a sparse reading) leaves the 2xx
  standing: nothing contradicts it.

An append (activity, note, competitor) answered without its record is looked up the same
way, so the cache gets the service's record (and its id); if it is not there yet, the
delivery stands and the next refresh brings it. Job starts and the other kinds are taken
at the 2xx. The failure message names the operation and the field, and points to
`[service.fields]`, the way to fit a service that names the field otherwise
(`warmline.api.request_fields`, docs/wire.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from warmline.api import ServiceClient
from warmline.api.dialect import LEAD_STATUS
from warmline.ops.kinds import OpKind
from warmline.store import Store
from warmline.store.rows import Op
from warmline.store.values import JsonMap
from warmline.sync.reconcile import already_applied
from warmline.sync.requests import Answer


@dataclass(frozen=True)
class Confirmed:
    """The answer to fold in (the service's own, or what the re-read found)."""

    answer: Answer


@dataclass(frozen=True)
class Refused:
    """The service accepted the request but does not show the change: the op fails."""

    message: str


Verdict = bool | None
"""What an answer says of the change: True shown, False another value shown, None silent."""


def _record(answer: Answer, key: str) -> JsonMap | None:
    value = answer.get(key)
    return value if isinstance(value, Mapping) else None


def _field(answer: JsonMap | None, field: str, wanted: object) -> Verdict:
    if answer is None or field not in answer or answer[field] is None:
        return None
    value = answer[field]
    if isinstance(wanted, str):
        return str(LEAD_STATUS(value)).casefold() == wanted.casefold()
    return bool(value == wanted)


def _status(op: Op, answer: Answer) -> Verdict:
    return _field(answer, "lead_status", op.payload["lead_status"])


def _target(op: Op, answer: Answer) -> Verdict:
    return _field(answer, "target_score", op.payload["target_score"])


def _contact_pin(op: Op, answer: Answer) -> Verdict:
    return _field(_record(answer, "contact"), "is_selected", op.payload["is_selected"])


def _page_toggle(op: Op, answer: Answer) -> Verdict:
    return _field(_record(answer, "page"), "is_selected", op.payload["is_selected"])


def _competitor_pin(op: Op, answer: Answer) -> Verdict:
    return _field(_record(answer, "competitor"), "is_pinned", op.payload["is_pinned"])




def _deal(op: Op, answer: Answer) -> Verdict:
    """Every deal field the op names, as the answer shows it (won/lost by their dates)."""
    verdicts: list[Verdict] = []
    for ours, shown in _DEAL_SHOWN.items():
        wanted = op.payload.get(ours)
        if wanted is None:
            continue
        if shown not in answer:
            return None
        value = answer[shown]
        if ours in ("won", "lost"):
            verdicts.append((value is not None) == wanted)
        elif ours == "deal_currency":
            verdicts.append(isinstance(value, str) and value.upper() == str(wanted).upper())
        elif ours == "deal_value":
            verdicts.append(isinstance(value, int | float) and float(value) == float(wanted))
        else:
            verdicts.append(value == wanted)
    return all(verdicts) if verdicts else None


def _closed(op: Op, answer: Answer) -> Verdict:
    """A completed or dismissed card: the answer's status, when it gives one."""
    record = _record(answer, "recommendation")
    status = None if record is None else record.get("status")
    if not isinstance(status, str):
        return None
    return status.casefold() in ("completed", "dismissed")


def _removed(op: Op, answer: Answer) -> Verdict:
    removed = answer.get("removed")
    if isinstance(removed, bool) or not isinstance(removed, int):
        return None
    return removed > 0


def _appended(key: str) -> Callable[[Op, Answer], Verdict]:
    def check(op: Op, answer: Answer) -> Verdict:
        record = _record(answer, key)
        return True if record is not None and record.get("id") is not None else None

    return check


@dataclass(frozen=True)
class Check:
    """How one kind is confirmed: what the answer says, and what to call the failure."""

    verdict: Callable[[Op, Answer], Verdict]
    what: Callable[[Op], str] | None  # None: an append, never failed for a silent answer
    operation: str = ""
    field: str = ""


CHECKS: dict[str, Check] = {
    OpKind.CHANGE_LEAD_STATUS: Check(_status, lambda op: f"the lead is still not {op.payload['lead_status']}",
                                "change_lead_status", "lead_status"),
    OpKind.SET_TARGET_SCORE: Check(_target, lambda op: f"the lead's target is still not {op.payload['target_score']}"),
    OpKind.PIN_CONTACT: Check(_contact_pin, lambda op: "the key contact is still " + (
        "unpinned" if op.payload["is_selected"] else "pinned")),
    OpKind.TOGGLE_MONITORING_PAGE: Check(_page_toggle, lambda op: "the monitoring source is still " + (
        "off" if op.payload["is_selected"] else "on"), "toggle_monitoring_page", "is_selected"),
    OpKind.PIN_COMPETITOR: Check(_competitor_pin, lambda op: "the competitor is still " + (
        "unpinned" if op.payload["is_pinned"] else "pinned"), "pin_competitor", "is_pinned"),
    OpKind.UPDATE_DEAL: Check(_deal, lambda op: "the lead's deal does not show the change",
                         "update_deal", "deal_value, deal_currency, won, lost or closed_reason"),
    OpKind.COMPLETE_RECOMMENDATION: Check(_closed, lambda op: "the recommendation is still active"),
    OpKind.DISMISS_RECOMMENDATION: Check(_closed, lambda op: "the recommendation is still active"),
    OpKind.REMOVE_LEAD: Check(_removed, lambda op: "the lead is still in outreach", "remove_lead", "lead_ids"),
    OpKind.LOG_ACTIVITY: Check(_appended("touchpoint"), None),
    OpKind.ADD_NOTE: Check(_appended("note"), None),
    OpKind.ADD_COMPETITOR: Check(_appended("competitor"), None),
}
"""The kinds confirmed after delivery; the others are taken at the 2xx."""


def refusal(check: Check, op: Op) -> str:
    """The one line a rep reads when the service accepted a change it does not show."""
    assert check.what is not None
    hint = ""
    if check.operation:
        hint = (f"; it may name {check.field} differently (set [service.fields] {check.operation}"
                " in the config, docs/wire.md)")
    return f"The service accepted the request but {check.what(op)}{hint}"


_DEAL_SHOWN = {"deal_value": "deal_value", "deal_currency": "deal_currency", "won": "won_at",
               "lost": "closed_at", "closed_reason": "closed_reason"}
_CHILD_FLAGS: dict[str, tuple[str, str, str]] = {
    OpKind.PIN_CONTACT: ("contacts", "contact_id", "is_selected"),
    OpKind.TOGGLE_MONITORING_PAGE: ("monitoring_pages", "page_id", "is_selected"),
    OpKind.PIN_COMPETITOR: ("competitors", "competitor_id", "is_pinned"),
}


async def _unshown(client: ServiceClient, op: Op) -> bool:
    """True when the lead as the service gives it does not carry the field `op` changed at
    all (a sparse reading leaves out what it does not know): then nothing contradicts the
    2xx, and the change is taken as answered."""
    lead_id = op.payload.get("lead_id")
    if op.kind not in (OpKind.SET_TARGET_SCORE, OpKind.UPDATE_DEAL, *_CHILD_FLAGS) or not isinstance(lead_id, int):
        return False
    detail = await client.get_lead(lead_id)
    if op.kind == OpKind.SET_TARGET_SCORE:
        return "target_score" not in client.lead_fields_seen
    if op.kind == OpKind.UPDATE_DEAL:
        # A deal field this service has shown on some lead is null here, not unknown.
        named = [shown for ours, shown in _DEAL_SHOWN.items() if op.payload.get(ours) is not None]
        return any(shown not in client.lead_fields_seen for shown in named)
    array, key, flag = _CHILD_FLAGS[op.kind]
    record = next((r for r in getattr(detail, array) if r.id == op.payload.get(key)), None)
    return record is not None and flag not in record.model_fields_set


async def confirm(client: ServiceClient, store: Store, op: Op, answer: Answer) -> Confirmed | Refused:
    """Whether the service shows `op`'s change after answering it with a 2xx (`answer`).

    Errors of the re-read propagate: the caller then keeps the op delivered as answered
    (the 2xx stands) rather than failing it on a read that did not happen."""
    check = CHECKS.get(op.kind)
    if check is None:
        return Confirmed(answer)
    verdict = check.verdict(op, answer)
    if verdict is True:
        return Confirmed(answer)
    if verdict is False and check.what is not None:
        return Refused(refusal(check, op))
    found = await already_applied(client, store, op)
    if found is not None:
        return Confirmed({**answer, **found})
    if check.what is None or await _unshown(client, op):
        return Confirmed(answer)  # an append not listed yet, or a field never shown: the 2xx stands
    return Refused(refusal(check, op))
