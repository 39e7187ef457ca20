"""Every queued operation in one table: `SPECS`, one `OpSpec` (`warmline.ops.spec`) per
`OpKind`. `_spec` matches every kind, so a kind without a spec fails the type check; each
spec is written in its family's module, beside its payload, validator, sender and probe.

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
| create_contact | local_id (< 0, never sent), first_name/last_name, email?, title?, role?, company_id? (a service id or a company made offline) | the contact, pending, under its local id; on delivery the service's id replaces it everywhere |
| create_company | local_id (< 0, never sent), name, domain?, industry?, country?, region?, size?, description? | the company, pending, under its local id; on delivery the service's id replaces it in queued payloads (`company_id`, `company_ids`) and pending contacts |

Adding an operation:

1. The spec: name it in `OpKind` (`warmline.ops.kinds`), write its payload `TypedDict`,
   its validator, sender and probe, and its `OpSpec` (with one of the effects of
   `warmline.ops.effects`) in its family's module (`appends`, `lead_fields`, `children`,
   `recommendations`, `starts`, `creates`); then its case in `_spec` and its row in the table above.
   Only a new kind of effect needs the store: its case in `warmline.store.effects`.
2. Add the client method that sends it (`warmline.api.client.ServiceClient`); a body
   field the service's spec does not show goes in `warmline.api.request_fields.NAMED`.
3. Queue it from a screen or a command through a public action (`warmline.actions`).
4. Test it: tests/sync/test_sync_units.py checks every kind has a spec; add the kind's
   cases to the effects, reconciliation and confirmation tests.
"""

from __future__ import annotations

from typing import assert_never

from warmline.ops import appends, children, creates, lead_fields, recommendations, starts
from warmline.ops.kinds import OpKind
from warmline.ops.spec import OpSpec


def _spec(kind: OpKind) -> OpSpec:
    match kind:
        case OpKind.LOG_ACTIVITY:
            return appends.LOG_ACTIVITY_SPEC
        case OpKind.ADD_NOTE:
            return appends.ADD_NOTE_SPEC
        case OpKind.COMPLETE_RECOMMENDATION:
            return recommendations.COMPLETE_RECOMMENDATION_SPEC
        case OpKind.DISMISS_RECOMMENDATION:
            return recommendations.DISMISS_RECOMMENDATION_SPEC
        case OpKind.CHANGE_LEAD_STATUS:
            return lead_fields.CHANGE_LEAD_STATUS_SPEC
        case OpKind.SET_TARGET_SCORE:
            return lead_fields.SET_TARGET_SCORE_SPEC
        case OpKind.PIN_CONTACT:
            return children.PIN_CONTACT_SPEC
        case OpKind.TOGGLE_MONITORING_PAGE:
            return children.TOGGLE_MONITORING_PAGE_SPEC
        case OpKind.UPDATE_DEAL:
            return lead_fields.UPDATE_DEAL_SPEC
        case OpKind.ADD_COMPETITOR:
            return appends.ADD_COMPETITOR_SPEC
        case OpKind.SCAN_COMPETITOR:
            return children.SCAN_COMPETITOR_SPEC
        case OpKind.PIN_COMPETITOR:
            return children.PIN_COMPETITOR_SPEC
        case OpKind.ADD_TO_OUTREACH:
            return starts.ADD_TO_OUTREACH_SPEC
        case OpKind.REMOVE_LEAD:
            return lead_fields.REMOVE_LEAD_SPEC
        case OpKind.START_SIGNAL_SCAN:
            return starts.START_SIGNAL_SCAN_SPEC
        case OpKind.GENERATE_RECOMMENDATIONS:
            return recommendations.GENERATE_RECOMMENDATIONS_SPEC
        case OpKind.START_DEEP_SEARCH:
            return starts.START_DEEP_SEARCH_SPEC
        case OpKind.START_CONTACT_SEARCH:
            return starts.START_CONTACT_SEARCH_SPEC
        case OpKind.ADD_FOUND_CONTACTS:
            return starts.ADD_FOUND_CONTACTS_SPEC
        case OpKind.START_RESEARCH_RUN:
            return starts.START_RESEARCH_RUN_SPEC
        case OpKind.START_COMPANY_RESEARCH:
            return starts.START_COMPANY_RESEARCH_SPEC
        case OpKind.CREATE_CONTACT:
            return creates.CREATE_CONTACT_SPEC
        case OpKind.CREATE_COMPANY:
            return creates.CREATE_COMPANY_SPEC
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
