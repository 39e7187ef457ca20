"""What a rep can do to the service: validate, apply locally, enqueue for delivery.

Every action checks the spec's limits first (`InputError` naming the field; nothing is
stored on bad input), then in one SQLite transaction applies its effect to the cache (the
rep sees it at once) and queues an outbox op, whose id is returned. The sync engine
delivers it exactly once. Never imports Textual or Rich.
"""

from warmline.actions.activity_type import ACTIVITY_KINDS, guess_activity_type
from warmline.actions.companies import QueuedCompany, create_company
from warmline.actions.contacts import QueuedContact, create_contact
from warmline.actions.leads import (
    add_competitor,
    add_note,
    change_lead_status,
    complete_recommendation,
    dismiss_recommendation,
    generate_recommendations,
    log_activity,
    pin_company_contact,
    pin_competitor,
    pin_contact,
    remove_leads,
    scan_competitor,
    set_target_score,
    start_signal_scan,
    toggle_monitoring_page,
    update_deal,
)
from warmline.actions.outbox import discard, discard_all, edit_op, retry, retry_all, undo, undo_many
from warmline.actions.prospecting import (
    add_found_contacts,
    add_to_outreach,
    start_company_research,
    start_contact_search,
    start_deep_search,
    start_research_run,
)
from warmline.api.errors import InputError

__all__ = [
    "ACTIVITY_KINDS",
    "InputError",
    "QueuedCompany",
    "QueuedContact",
    "add_competitor",
    "add_found_contacts",
    "add_note",
    "add_to_outreach",
    "change_lead_status",
    "complete_recommendation",
    "create_company",
    "create_contact",
    "discard",
    "discard_all",
    "dismiss_recommendation",
    "edit_op",
    "generate_recommendations",
    "guess_activity_type",
    "log_activity",
    "pin_company_contact",
    "pin_competitor",
    "pin_contact",
    "remove_leads",
    "retry",
    "retry_all",
    "scan_competitor",
    "set_target_score",
    "start_company_research",
    "start_contact_search",
    "start_deep_search",
    "start_research_run",
    "start_signal_scan",
    "toggle_monitoring_page",
    "undo",
    "undo_many",
    "update_deal",
]
