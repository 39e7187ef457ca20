"""Every queued operation in one table: `SPECS`, one `OpSpec` per `OpKind`.

A spec is everything the program knows about one kind of operation, from the rep's key
to the wire and back:

- `payload`: the request's shape (`warmline.ops.payloads`), what the parts below read;
- `validate`, `editable`, `derive_meta`: the check run when the rep acts and when they
  edit the op (`warmline.actions.queue`), the fields an edit may change, and the
  local-only facts derived from the payload;
- `effect`: what the op does to the cache at once, as a value the store carries out
  (`warmline.ops.effects`, interpreted by `warmline.store.effects`);
- `reconcile`, `probe`: how an attempt whose answer was lost is settled, and the reading
  of the service that shows the op already applied (`warmline.sync.reconcile`);
- `send`, `annotate_late`: the request (`warmline.sync.requests`), and whether a late
  activity's text names when it was logged;
- `confirm`: what a 2xx answer must show to count as done (`warmline.sync.confirm`);
- `done_if_card_gone`: a card the service no longer has means the decision is moot.

A part a kind does not have is written out as `None` (or `False`): the dataclass has no
defaults, and `_spec` matches every `OpKind`, so a kind without a spec, or a spec without
a part, fails the type check.

The kinds at a glance (payload fields, and the local effect the rep sees at once):

| kind | payload | local effect |
|---|---|---|
| log_activity | lead_id, description, contact_id | pending touchpoint (guessed type), activity count, last activity |
| add_note | lead_id, content | pending note |
| complete_recommendation / dismiss_recommendation | lead_id, recommendation_id | leaves the queue (complete: with the lead's other cards on the same post) |
| change_lead_status | lead_id, lead_status | status |
| set_target_score | lead_id, target_score | target (and so gap and ready) |
| pin_contact | lead_id, contact_id, is_selected | key contact pinned or not |
| toggle_monitoring_page | lead_id, page_id, is_selected | source enabled or not |
| update_deal | lead_id, deal_value?, deal_currency?, won?, lost?, closed_reason? | deal fields |
| add_competitor | lead_id, name, domain? | pending competitor |
| scan_competitor | lead_id, competitor_id | competitor marked "scan queued" |
| pin_competitor | lead_id, competitor_id, is_pinned | pinned or not |
| add_to_outreach | company_ids, lead_status | none until the server answers with the new leads |
| remove_lead | lead_id, lead_ids (= [lead_id]; one op per lead keeps per-lead order) | lead hidden |
| start_signal_scan | lead_id | queued signal-scan job; scan status `queued` |
| generate_recommendations | lead_id | queued generation job; generation status `queued` |
| start_deep_search | query, max_results | queued job |
| start_contact_search | company_id, roles? | queued job |
| add_found_contacts | job_id, contact_ids | none until the server answers with the contacts |
| start_research_run | template_id or template_name, company_ids | queued job |
| start_company_research | company_id, focus? | queued job |

Adding an operation:

1. The spec: name it in `OpKind` (`warmline.ops.kinds`), write its payload `TypedDict`
   (`payloads`), its validator, sender and probe in its family's module (`appends`,
   `lead_fields`, `children`, `recommendations`, `starts`), its case in `_spec` with one
   of the effects of `warmline.ops.effects` (only a new kind of effect needs the store:
   its case in `warmline.store.effects._behaviour`), and its row in the table above.
2. Add the client method that sends it (`warmline.api.client.ServiceClient`); a body
   field the service's spec does not show goes in `warmline.api.request_fields.NAMED`.
3. Queue it from a screen or a command through a public action (`warmline.actions`).
4. Test it: tests/sync/test_sync_units.py checks every kind has a spec; add the kind's
   cases to the effects, reconciliation and confirmation tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, assert_never

from warmline.ops import appends, children, lead_fields, payloads, recommendations, starts
from warmline.ops.confirmation import Check, appended, flag_unshown, flag_verdict
from warmline.ops.effects import (
    AppendRow,
    ChildFlag,
    ChildTable,
    CloseRecommendation,
    CreatedByService,
    Effect,
    HideLead,
    Reconcile,
    SetDeal,
    SetLeadField,
    StartJob,
)
from warmline.ops.kinds import JobKind, OpKind
from warmline.ops.parts import MetaBuilder, Probe, Sender, Validator, probe_of, request_of


@dataclass(frozen=True)
class OpSpec:
    """One kind of queued operation, every part of it (the module docstring says each)."""

    payload: type[Any]
    validate: Validator
    editable: tuple[str, ...]
    derive_meta: MetaBuilder | None
    effect: Effect
    reconcile: Reconcile
    send: Sender
    annotate_late: bool
    probe: Probe | None
    confirm: Check | None
    done_if_card_gone: bool


def _flag(table: ChildTable, id_field: str, flag: str, detail_list: str, answer_key: str) -> ChildFlag:
    return ChildFlag(table, id_field, flag, from_payload=True, detail_list=detail_list, answer_key=answer_key)


_CONTACT_PIN = _flag("lead_contacts", "contact_id", "is_selected", "contacts", "contact")
_PAGE_TOGGLE = _flag("monitoring_pages", "page_id", "is_selected", "monitoring_pages", "page")
_COMPETITOR_PIN = _flag("competitors", "competitor_id", "is_pinned", "competitors", "competitor")
_COMPETITOR_SCAN = ChildFlag(
    "competitors", "competitor_id", "scan_queued", from_payload=False, detail_list="competitors", answer_key="competitor"
)
_CARD_STILL_ACTIVE = Check(recommendations.closed_shown, lambda op: "the recommendation is still active", "", "", None)
_DEAL_FIELDS = "deal_value, deal_currency, won, lost or closed_reason"


def _job_start(
    payload: type[Any], validate: Validator, editable: tuple[str, ...], effect: StartJob, send: Sender,
    probe: Probe | None,
) -> OpSpec:
    """A job start: settled by its key (or a probe), taken at the 2xx."""
    return OpSpec(payload, validate, editable, None, effect, Reconcile.KEYED, send, False, probe, None, False)


def _spec(kind: OpKind) -> OpSpec:
    match kind:
        case OpKind.LOG_ACTIVITY:
            return OpSpec(
                payloads.LogActivity, appends.valid_activity, ("description", "contact_id"), appends.activity_meta,
                AppendRow("touchpoints"), Reconcile.APPEND, request_of(appends.send_activity), True,
                probe_of(appends.probe_activity), appended("touchpoint"), False,
            )
        case OpKind.ADD_NOTE:
            return OpSpec(
                payloads.AddNote, appends.valid_note, ("content",), None,
                AppendRow("notes"), Reconcile.APPEND, request_of(appends.send_note), False,
                probe_of(appends.probe_note), appended("note"), False,
            )
        case OpKind.ADD_COMPETITOR:
            return OpSpec(
                payloads.AddCompetitor, appends.valid_competitor, ("name", "domain"), None,
                AppendRow("competitors"), Reconcile.APPEND, request_of(appends.send_competitor), False,
                probe_of(appends.probe_competitor), appended("competitor"), False,
            )
        case OpKind.COMPLETE_RECOMMENDATION:
            return OpSpec(
                payloads.CloseRecommendation, recommendations.valid_recommendation, (), None,
                CloseRecommendation("completed"), Reconcile.SET, request_of(recommendations.send_complete), False,
                probe_of(recommendations.probe_closed), _CARD_STILL_ACTIVE, True,
            )
        case OpKind.DISMISS_RECOMMENDATION:
            return OpSpec(
                payloads.CloseRecommendation, recommendations.valid_recommendation, (), None,
                CloseRecommendation("dismissed"), Reconcile.SET, request_of(recommendations.send_dismiss), False,
                probe_of(recommendations.probe_closed), _CARD_STILL_ACTIVE, True,
            )
        case OpKind.CHANGE_LEAD_STATUS:
            return OpSpec(
                payloads.ChangeLeadStatus, lead_fields.valid_status, ("lead_status",), None,
                SetLeadField("lead_status"), Reconcile.SET, request_of(lead_fields.send_status), False,
                probe_of(lead_fields.probe_status),
                Check(lead_fields.status_shown, lambda op: f"the lead is still not {op.payload['lead_status']}",
                      "change_lead_status", "lead_status", None),
                False,
            )
        case OpKind.SET_TARGET_SCORE:
            return OpSpec(
                payloads.SetTargetScore, lead_fields.valid_target, ("target_score",), None,
                SetLeadField("target_score"), Reconcile.SET, request_of(lead_fields.send_target), False,
                probe_of(lead_fields.probe_target),
                Check(lead_fields.target_shown, lambda op: f"the lead's target is still not {op.payload['target_score']}",
                      "", "", lead_fields.target_unshown),
                False,
            )
        case OpKind.UPDATE_DEAL:
            return OpSpec(
                payloads.UpdateDeal, lead_fields.valid_deal, lead_fields.DEAL_BODY, None,
                SetDeal(), Reconcile.SET, request_of(lead_fields.send_deal), False,
                probe_of(lead_fields.probe_deal),
                Check(lead_fields.deal_shown, lambda op: "the lead's deal does not show the change",
                      "update_deal", _DEAL_FIELDS, lead_fields.deal_unshown),
                False,
            )
        case OpKind.REMOVE_LEAD:
            return OpSpec(
                payloads.RemoveLead, lead_fields.valid_remove, (), None,
                HideLead(), Reconcile.SET, request_of(lead_fields.send_remove), False,
                probe_of(lead_fields.probe_removed),
                Check(lead_fields.removal_shown, lambda op: "the lead is still in outreach", "remove_lead", "lead_ids", None),
                False,
            )
        case OpKind.PIN_CONTACT:
            return OpSpec(
                payloads.PinContact, children.valid_pin_contact, ("is_selected",), None,
                _CONTACT_PIN, Reconcile.SET, request_of(children.send_pin_contact), False,
                probe_of(children.probe_pin_contact),
                Check(flag_verdict(_CONTACT_PIN), children.contact_still, "", "", flag_unshown(_CONTACT_PIN)),
                False,
            )
        case OpKind.TOGGLE_MONITORING_PAGE:
            return OpSpec(
                payloads.ToggleMonitoringPage, children.valid_page, ("is_selected",), None,
                _PAGE_TOGGLE, Reconcile.SET, request_of(children.send_page), False,
                probe_of(children.probe_page),
                Check(flag_verdict(_PAGE_TOGGLE), children.page_still, "toggle_monitoring_page", "is_selected",
                      flag_unshown(_PAGE_TOGGLE)),
                False,
            )
        case OpKind.SCAN_COMPETITOR:
            return OpSpec(
                payloads.OnCompetitor, children.valid_scan, (), None,
                _COMPETITOR_SCAN, Reconcile.KEYED, request_of(children.send_scan), False,
                probe_of(children.probe_scan), None, False,
            )
        case OpKind.PIN_COMPETITOR:
            return OpSpec(
                payloads.PinCompetitor, children.valid_pin_competitor, ("is_pinned",), None,
                _COMPETITOR_PIN, Reconcile.SET, request_of(children.send_pin_competitor), False,
                probe_of(children.probe_pin_competitor),
                Check(flag_verdict(_COMPETITOR_PIN), children.competitor_still, "pin_competitor", "is_pinned",
                      flag_unshown(_COMPETITOR_PIN)),
                False,
            )
        case OpKind.ADD_TO_OUTREACH:
            return OpSpec(
                payloads.AddToOutreach, starts.valid_outreach, ("company_ids", "lead_status"), None,
                CreatedByService("leads"), Reconcile.KEYED, request_of(starts.send_outreach), False,
                probe_of(starts.probe_outreach), None, False,
            )
        case OpKind.ADD_FOUND_CONTACTS:
            return OpSpec(
                payloads.AddFoundContacts, starts.valid_found_contacts, ("contact_ids",), None,
                CreatedByService("contacts"), Reconcile.KEYED, request_of(starts.send_found_contacts), False,
                None, None, False,
            )
        case OpKind.START_SIGNAL_SCAN:
            return _job_start(
                payloads.OnLead, starts.valid_lead_only, (), StartJob(JobKind.SIGNAL_SCAN, None, "signal_scan_status"),
                request_of(starts.send_signal_scan), probe_of(starts.probe_signal_scan),
            )
        case OpKind.GENERATE_RECOMMENDATIONS:
            return _job_start(
                payloads.OnLead, starts.valid_lead_only, (), StartJob(JobKind.RECOMMENDATIONS, None, "generation_status"),
                request_of(recommendations.send_generate), probe_of(recommendations.probe_generation),
            )
        case OpKind.START_DEEP_SEARCH:
            return _job_start(
                payloads.StartDeepSearch, starts.valid_deep_search, ("query", "max_results"),
                StartJob(JobKind.DEEP_SEARCH, "job_id", None), request_of(starts.send_deep_search), None,
            )
        case OpKind.START_CONTACT_SEARCH:
            return _job_start(
                payloads.StartContactSearch, starts.valid_contact_search, ("roles",),
                StartJob(JobKind.CONTACT_SEARCH, "job_id", None), request_of(starts.send_contact_search), None,
            )
        case OpKind.START_RESEARCH_RUN:
            return _job_start(
                payloads.StartResearchRun, starts.valid_research_run, ("company_ids",),
                StartJob(JobKind.RESEARCH_RUN, "run_id", None), request_of(starts.send_research_run), None,
            )
        case OpKind.START_COMPANY_RESEARCH:
            return _job_start(
                payloads.StartCompanyResearch, starts.valid_company_research, ("focus",),
                StartJob(JobKind.COMPANY_RESEARCH, "search_id", None), request_of(starts.send_company_research), None,
            )
        case _:
            assert_never(kind)


SPECS: dict[OpKind, OpSpec] = {kind: _spec(kind) for kind in OpKind}
"""Every kind's spec. Built once, at import: nothing registers itself anywhere else."""


def spec_of(kind: str) -> OpSpec | None:
    """The spec of a stored op's kind; None for a kind this version does not know (a row
    written by another version, or by hand): the outbox still reads it."""
    try:
        return SPECS[OpKind(kind)]
    except ValueError:
        return None
