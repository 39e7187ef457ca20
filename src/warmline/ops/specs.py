"""Every queued operation in one table: `SPECS`, one `OpSpec` per `OpKind`.

A spec is everything the program knows about one kind of operation, from the rep's key
to the wire and back:

- `payload`: the request's shape (a `TypedDict` in the kind's family module), what the
  parts below read;
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

1. The spec: name it in `OpKind` (`warmline.ops.kinds`), write its payload `TypedDict`,
   its validator, sender and probe in its family's module (`appends`,
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

from typing import Any, NamedTuple, assert_never

from warmline.ops import appends, children, lead_fields, recommendations, starts
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


class OpSpec(NamedTuple):
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
    return OpSpec(
        payload=payload,
        validate=validate,
        editable=editable,
        derive_meta=None,
        effect=effect,
        reconcile=Reconcile.KEYED,
        send=send,
        annotate_late=False,
        probe=probe,
        confirm=None,
        done_if_card_gone=False,
    )


def _spec(kind: OpKind) -> OpSpec:
    match kind:
        case OpKind.LOG_ACTIVITY:
            return OpSpec(
                payload=appends.LogActivity,
                validate=appends.valid_activity,
                editable=("description", "contact_id"),
                derive_meta=appends.activity_meta,
                effect=AppendRow("touchpoints"),
                reconcile=Reconcile.APPEND,
                send=request_of(appends.send_activity),
                annotate_late=True,
                probe=probe_of(appends.probe_activity),
                confirm=appended("touchpoint"),
                done_if_card_gone=False,
            )
        case OpKind.ADD_NOTE:
            return OpSpec(
                payload=appends.AddNote,
                validate=appends.valid_note,
                editable=("content",),
                derive_meta=None,
                effect=AppendRow("notes"),
                reconcile=Reconcile.APPEND,
                send=request_of(appends.send_note),
                annotate_late=False,
                probe=probe_of(appends.probe_note),
                confirm=appended("note"),
                done_if_card_gone=False,
            )
        case OpKind.ADD_COMPETITOR:
            return OpSpec(
                payload=appends.AddCompetitor,
                validate=appends.valid_competitor,
                editable=("name", "domain"),
                derive_meta=None,
                effect=AppendRow("competitors"),
                reconcile=Reconcile.APPEND,
                send=request_of(appends.send_competitor),
                annotate_late=False,
                probe=probe_of(appends.probe_competitor),
                confirm=appended("competitor"),
                done_if_card_gone=False,
            )
        case OpKind.COMPLETE_RECOMMENDATION:
            return OpSpec(
                payload=recommendations.OnRecommendation,
                validate=recommendations.valid_recommendation,
                editable=(),
                derive_meta=None,
                effect=CloseRecommendation("completed"),
                reconcile=Reconcile.SET,
                send=request_of(recommendations.send_complete),
                annotate_late=False,
                probe=probe_of(recommendations.probe_closed),
                confirm=_CARD_STILL_ACTIVE,
                done_if_card_gone=True,
            )
        case OpKind.DISMISS_RECOMMENDATION:
            return OpSpec(
                payload=recommendations.OnRecommendation,
                validate=recommendations.valid_recommendation,
                editable=(),
                derive_meta=None,
                effect=CloseRecommendation("dismissed"),
                reconcile=Reconcile.SET,
                send=request_of(recommendations.send_dismiss),
                annotate_late=False,
                probe=probe_of(recommendations.probe_closed),
                confirm=_CARD_STILL_ACTIVE,
                done_if_card_gone=True,
            )
        case OpKind.CHANGE_LEAD_STATUS:
            return OpSpec(
                payload=lead_fields.ChangeLeadStatus,
                validate=lead_fields.valid_status,
                editable=("lead_status",),
                derive_meta=None,
                effect=SetLeadField("lead_status"),
                reconcile=Reconcile.SET,
                send=request_of(lead_fields.send_status),
                annotate_late=False,
                probe=probe_of(lead_fields.probe_status),
                confirm=Check(
                    verdict=lead_fields.status_shown,
                    what=lambda op: f"the lead is still not {op.payload['lead_status']}",
                    operation="change_lead_status",
                    field="lead_status",
                    unshown=None,
                ),
                done_if_card_gone=False,
            )
        case OpKind.SET_TARGET_SCORE:
            return OpSpec(
                payload=lead_fields.SetTargetScore,
                validate=lead_fields.valid_target,
                editable=("target_score",),
                derive_meta=None,
                effect=SetLeadField("target_score"),
                reconcile=Reconcile.SET,
                send=request_of(lead_fields.send_target),
                annotate_late=False,
                probe=probe_of(lead_fields.probe_target),
                confirm=Check(
                    verdict=lead_fields.target_shown,
                    what=lambda op: f"the lead's target is still not {op.payload['target_score']}",
                    operation="",
                    field="",
                    unshown=lead_fields.target_unshown,
                ),
                done_if_card_gone=False,
            )
        case OpKind.UPDATE_DEAL:
            return OpSpec(
                payload=lead_fields.UpdateDeal,
                validate=lead_fields.valid_deal,
                editable=lead_fields.DEAL_BODY,
                derive_meta=None,
                effect=SetDeal(),
                reconcile=Reconcile.SET,
                send=request_of(lead_fields.send_deal),
                annotate_late=False,
                probe=probe_of(lead_fields.probe_deal),
                confirm=Check(
                    verdict=lead_fields.deal_shown,
                    what=lambda op: "the lead's deal does not show the change",
                    operation="update_deal",
                    field=_DEAL_FIELDS,
                    unshown=lead_fields.deal_unshown,
                ),
                done_if_card_gone=False,
            )
        case OpKind.REMOVE_LEAD:
            return OpSpec(
                payload=lead_fields.RemoveLead,
                validate=lead_fields.valid_remove,
                editable=(),
                derive_meta=None,
                effect=HideLead(),
                reconcile=Reconcile.SET,
                send=request_of(lead_fields.send_remove),
                annotate_late=False,
                probe=probe_of(lead_fields.probe_removed),
                confirm=Check(
                    verdict=lead_fields.removal_shown,
                    what=lambda op: "the lead is still in outreach",
                    operation="remove_lead",
                    field="lead_ids",
                    unshown=None,
                ),
                done_if_card_gone=False,
            )
        case OpKind.PIN_CONTACT:
            return OpSpec(
                payload=children.PinContact,
                validate=children.valid_pin_contact,
                editable=("is_selected",),
                derive_meta=None,
                effect=_CONTACT_PIN,
                reconcile=Reconcile.SET,
                send=request_of(children.send_pin_contact),
                annotate_late=False,
                probe=probe_of(children.probe_pin_contact),
                confirm=Check(
                    verdict=flag_verdict(_CONTACT_PIN),
                    what=children.contact_still,
                    operation="",
                    field="",
                    unshown=flag_unshown(_CONTACT_PIN),
                ),
                done_if_card_gone=False,
            )
        case OpKind.TOGGLE_MONITORING_PAGE:
            return OpSpec(
                payload=children.ToggleMonitoringPage,
                validate=children.valid_page,
                editable=("is_selected",),
                derive_meta=None,
                effect=_PAGE_TOGGLE,
                reconcile=Reconcile.SET,
                send=request_of(children.send_page),
                annotate_late=False,
                probe=probe_of(children.probe_page),
                confirm=Check(
                    verdict=flag_verdict(_PAGE_TOGGLE),
                    what=children.page_still,
                    operation="toggle_monitoring_page",
                    field="is_selected",
                    unshown=flag_unshown(_PAGE_TOGGLE),
                ),
                done_if_card_gone=False,
            )
        case OpKind.SCAN_COMPETITOR:
            return OpSpec(
                payload=children.OnCompetitor,
                validate=children.valid_scan,
                editable=(),
                derive_meta=None,
                effect=_COMPETITOR_SCAN,
                reconcile=Reconcile.KEYED,
                send=request_of(children.send_scan),
                annotate_late=False,
                probe=probe_of(children.probe_scan),
                confirm=None,
                done_if_card_gone=False,
            )
        case OpKind.PIN_COMPETITOR:
            return OpSpec(
                payload=children.PinCompetitor,
                validate=children.valid_pin_competitor,
                editable=("is_pinned",),
                derive_meta=None,
                effect=_COMPETITOR_PIN,
                reconcile=Reconcile.SET,
                send=request_of(children.send_pin_competitor),
                annotate_late=False,
                probe=probe_of(children.probe_pin_competitor),
                confirm=Check(
                    verdict=flag_verdict(_COMPETITOR_PIN),
                    what=children.competitor_still,
                    operation="pin_competitor",
                    field="is_pinned",
                    unshown=flag_unshown(_COMPETITOR_PIN),
                ),
                done_if_card_gone=False,
            )
        case OpKind.ADD_TO_OUTREACH:
            return OpSpec(
                payload=starts.AddToOutreach,
                validate=starts.valid_outreach,
                editable=("company_ids", "lead_status"),
                derive_meta=None,
                effect=CreatedByService("leads"),
                reconcile=Reconcile.KEYED,
                send=request_of(starts.send_outreach),
                annotate_late=False,
                probe=probe_of(starts.probe_outreach),
                confirm=None,
                done_if_card_gone=False,
            )
        case OpKind.ADD_FOUND_CONTACTS:
            return OpSpec(
                payload=starts.AddFoundContacts,
                validate=starts.valid_found_contacts,
                editable=("contact_ids",),
                derive_meta=None,
                effect=CreatedByService("contacts"),
                reconcile=Reconcile.KEYED,
                send=request_of(starts.send_found_contacts),
                annotate_late=False,
                probe=None,
                confirm=None,
                done_if_card_gone=False,
            )
        case OpKind.START_SIGNAL_SCAN:
            return _job_start(
                payload=starts.OnLead,
                validate=starts.valid_lead_only,
                editable=(),
                effect=StartJob(job=JobKind.SIGNAL_SCAN, id_field=None, lead_field="signal_scan_status"),
                send=request_of(starts.send_signal_scan),
                probe=probe_of(starts.probe_signal_scan),
            )
        case OpKind.GENERATE_RECOMMENDATIONS:
            return _job_start(
                payload=starts.OnLead,
                validate=starts.valid_lead_only,
                editable=(),
                effect=StartJob(job=JobKind.RECOMMENDATIONS, id_field=None, lead_field="generation_status"),
                send=request_of(recommendations.send_generate),
                probe=probe_of(recommendations.probe_generation),
            )
        case OpKind.START_DEEP_SEARCH:
            return _job_start(
                payload=starts.StartDeepSearch,
                validate=starts.valid_deep_search,
                editable=("query", "max_results"),
                effect=StartJob(job=JobKind.DEEP_SEARCH, id_field="job_id", lead_field=None),
                send=request_of(starts.send_deep_search),
                probe=None,
            )
        case OpKind.START_CONTACT_SEARCH:
            return _job_start(
                payload=starts.StartContactSearch,
                validate=starts.valid_contact_search,
                editable=("roles",),
                effect=StartJob(job=JobKind.CONTACT_SEARCH, id_field="job_id", lead_field=None),
                send=request_of(starts.send_contact_search),
                probe=None,
            )
        case OpKind.START_RESEARCH_RUN:
            return _job_start(
                payload=starts.StartResearchRun,
                validate=starts.valid_research_run,
                editable=("company_ids",),
                effect=StartJob(job=JobKind.RESEARCH_RUN, id_field="run_id", lead_field=None),
                send=request_of(starts.send_research_run),
                probe=None,
            )
        case OpKind.START_COMPANY_RESEARCH:
            return _job_start(
                payload=starts.StartCompanyResearch,
                validate=starts.valid_company_research,
                editable=("focus",),
                effect=StartJob(job=JobKind.COMPANY_RESEARCH, id_field="search_id", lead_field=None),
                send=request_of(starts.send_company_research),
                probe=None,
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
