"""The names of queued operations and of the jobs they start: the vocabulary every layer
shares (the outbox's `kind` column, the jobs table's `kind` column, the spec table in
`warmline.ops.specs`). Imports nothing, so the store, the command line's fast path and the
cockpit's first frame can name a kind for free.

Both are `StrEnum`s: a member is the very string stored in the cache and compared with what
older versions wrote, so `OpKind.ADD_NOTE == "add_note"`.
"""

from __future__ import annotations

from enum import StrEnum


class OpKind(StrEnum):
    """A kind of action the rep queues for the service (one spec each: `ops.specs`)."""

    LOG_ACTIVITY = "log_activity"
    ADD_NOTE = "add_note"
    COMPLETE_RECOMMENDATION = "complete_recommendation"
    DISMISS_RECOMMENDATION = "dismiss_recommendation"
    CHANGE_LEAD_STATUS = "change_lead_status"
    SET_TARGET_SCORE = "set_target_score"
    PIN_CONTACT = "pin_contact"
    TOGGLE_MONITORING_PAGE = "toggle_monitoring_page"
    UPDATE_DEAL = "update_deal"
    ADD_COMPETITOR = "add_competitor"
    SCAN_COMPETITOR = "scan_competitor"
    PIN_COMPETITOR = "pin_competitor"
    ADD_TO_OUTREACH = "add_to_outreach"
    REMOVE_LEAD = "remove_lead"
    START_SIGNAL_SCAN = "start_signal_scan"
    GENERATE_RECOMMENDATIONS = "generate_recommendations"
    START_DEEP_SEARCH = "start_deep_search"
    START_CONTACT_SEARCH = "start_contact_search"
    ADD_FOUND_CONTACTS = "add_found_contacts"
    START_RESEARCH_RUN = "start_research_run"
    START_COMPANY_RESEARCH = "start_company_research"
    CREATE_CONTACT = "create_contact"
    CREATE_COMPANY = "create_company"


class JobKind(StrEnum):
    """A kind of long-running work on the service (the `kind` column of `jobs`)."""

    SIGNAL_SCAN = "signal_scan"
    RECOMMENDATIONS = "recommendations"
    DEEP_SEARCH = "deep_search"
    CONTACT_SEARCH = "contact_search"
    RESEARCH_RUN = "research_run"
    COMPANY_RESEARCH = "company_research"
