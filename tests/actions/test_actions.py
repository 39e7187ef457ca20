"""Each action: what it queues, what it refuses (storing nothing), undo and edit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from warmline import actions
from warmline.store import OpStateError, Store

COLD, WARM = 1, 2

# (name, call, expected kind, expected payload)
QUEUED: list[tuple[str, Callable[[Store], Any], str, dict[str, Any]]] = [
    ("log_activity", lambda s: actions.log_activity(s, COLD, "Called Dana", contact_id=20),
     "log_activity", {"lead_id": COLD, "description": "Called Dana", "contact_id": 20}),
    ("add_note", lambda s: actions.add_note(s, COLD, "Wants pricing"),
     "add_note", {"lead_id": COLD, "content": "Wants pricing"}),
    ("complete_recommendation", lambda s: actions.complete_recommendation(s, 41),
     "complete_recommendation", {"lead_id": COLD, "recommendation_id": 41}),
    ("dismiss_recommendation", lambda s: actions.dismiss_recommendation(s, 82),
     "dismiss_recommendation", {"lead_id": WARM, "recommendation_id": 82}),
    ("change_lead_status", lambda s: actions.change_lead_status(s, COLD, "warm"),
     "change_lead_status", {"lead_id": COLD, "lead_status": "warm"}),
    ("set_target_score", lambda s: actions.set_target_score(s, COLD, 80),
     "set_target_score", {"lead_id": COLD, "target_score": 80}),
    ("pin_contact", lambda s: actions.pin_contact(s, COLD, 20),
     "pin_contact", {"lead_id": COLD, "contact_id": 20, "is_selected": True}),
    ("toggle_monitoring_page", lambda s: actions.toggle_monitoring_page(s, COLD, 10, True),
     "toggle_monitoring_page", {"lead_id": COLD, "page_id": 10, "is_selected": True}),
    ("update_deal", lambda s: actions.update_deal(s, WARM, deal_value=24000, deal_currency="eur"),
     "update_deal", {"lead_id": WARM, "deal_value": 24000, "deal_currency": "EUR"}),
    ("update_deal_lost", lambda s: actions.update_deal(s, WARM, lost=True, closed_reason="Budget"),
     "update_deal", {"lead_id": WARM, "lost": True, "closed_reason": "Budget"}),
    ("add_competitor", lambda s: actions.add_competitor(s, COLD, "NewCo", " newco.example "),
     "add_competitor", {"lead_id": COLD, "name": "NewCo", "domain": "newco.example"}),
    ("scan_competitor", lambda s: actions.scan_competitor(s, COLD, 30),
     "scan_competitor", {"lead_id": COLD, "competitor_id": 30}),
    ("pin_competitor", lambda s: actions.pin_competitor(s, COLD, 30, pinned=True),
     "pin_competitor", {"lead_id": COLD, "competitor_id": 30, "is_pinned": True}),
    ("start_signal_scan", lambda s: actions.start_signal_scan(s, COLD),
     "start_signal_scan", {"lead_id": COLD}),
    ("generate_recommendations", lambda s: actions.generate_recommendations(s, WARM),
     "generate_recommendations", {"lead_id": WARM}),
    ("add_to_outreach", lambda s: actions.add_to_outreach(s, [7, 8, 7], "warm"),
     "add_to_outreach", {"company_ids": [7, 8], "lead_status": "warm"}),
    ("start_deep_search", lambda s: actions.start_deep_search(s, "dental clinics in Bavaria"),
     "start_deep_search", {"query": "dental clinics in Bavaria", "max_results": 20}),
    ("start_contact_search", lambda s: actions.start_contact_search(s, 101, ["champion"]),
     "start_contact_search", {"company_id": 101, "roles": ["champion"]}),
    ("add_found_contacts", lambda s: actions.add_found_contacts(s, 5, [1, 2]),
     "add_found_contacts", {"job_id": 5, "contact_ids": [1, 2]}),
    ("start_research_run_by_name", lambda s: actions.start_research_run(s, [101], template_name="icp fit"),
     "start_research_run", {"company_ids": [101], "template_id": "5b6c-icp"}),
    ("start_research_run_unknown_name", lambda s: actions.start_research_run(s, [101], template_name="Other"),
     "start_research_run", {"company_ids": [101], "template_name": "Other"}),
    ("start_company_research", lambda s: actions.start_company_research(s, 101, focus="pricing"),
     "start_company_research", {"company_id": 101, "focus": "pricing"}),
    # the last value of each of our wire limits (docs/wire.md "Limits") still goes through
    ("update_deal_at_limits", lambda s: actions.update_deal(s, WARM, deal_value=10**12, lost=True,
                                                          closed_reason="r" * 1000),
     "update_deal", {"lead_id": WARM, "deal_value": 10**12, "lost": True, "closed_reason": "r" * 1000}),
    ("add_to_outreach_at_limit", lambda s: actions.add_to_outreach(s, range(1, 501)),
     "add_to_outreach", {"company_ids": list(range(1, 501)), "lead_status": "cold"}),
    ("add_found_contacts_at_limit", lambda s: actions.add_found_contacts(s, 5, range(1, 501)),
     "add_found_contacts", {"job_id": 5, "contact_ids": list(range(1, 501))}),
    ("add_competitor_domain_at_limit", lambda s: actions.add_competitor(s, COLD, "NewCo", "d" * 253),
     "add_competitor", {"lead_id": COLD, "name": "NewCo", "domain": "d" * 253}),
    ("start_company_research_focus_at_limit",
     lambda s: actions.start_company_research(s, 101, focus=" " + "f" * 500 + " "),
     "start_company_research", {"company_id": 101, "focus": "f" * 500}),
]


@pytest.mark.parametrize(("name", "call", "kind", "payload"), QUEUED, ids=[q[0] for q in QUEUED])
def test_each_action_queues_one_op_with_the_request(store: Store, name, call, kind, payload) -> None:
    op_id = call(store)
    op = store.get_op(op_id)
    assert (op.kind, op.payload, op.state, op.attempts) == (kind, payload, "pending", 0)
    assert op.lead_id == payload.get("lead_id")
    assert [o.op_id for o in store.outbox_rows()] == [op_id]


def test_removing_many_leads_has_no_per_request_cap(store: Store) -> None:
    """Each lead is its own op naming only itself, so the 500-ids-per-request cap never applies."""
    for lead_id in range(3, 503):
        store.upsert_lead_detail({"id": lead_id, "company_id": 1000 + lead_id, "company_name": f"Lead {lead_id}",
                                  "lead_status": "cold", "warming_score": 0})
    assert len(actions.remove_leads(store, range(1, 503))) == 502


def test_remove_leads_queues_one_op_per_lead(store: Store) -> None:
    op_ids = actions.remove_leads(store, [COLD, WARM, COLD])
    assert [store.get_op(o).payload for o in op_ids] == [
        {"lead_id": COLD, "lead_ids": [COLD]}, {"lead_id": WARM, "lead_ids": [WARM]}]
    assert store.lead_page() == []


# (name, call, field named by the error)
REFUSED: list[tuple[str, Callable[[Store], Any], str]] = [
    ("empty activity", lambda s: actions.log_activity(s, COLD, "   "), "description"),
    ("activity too long", lambda s: actions.log_activity(s, COLD, "x" * 5001), "description"),
    ("activity bad contact", lambda s: actions.log_activity(s, COLD, "hi", contact_id=0), "contact_id"),
    ("unknown lead", lambda s: actions.log_activity(s, 999, "hi"), "lead_id"),
    ("note too long", lambda s: actions.add_note(s, COLD, "x" * 10001), "content"),
    ("note not text", lambda s: actions.add_note(s, COLD, 42), "content"),
    ("unknown recommendation", lambda s: actions.complete_recommendation(s, 999), "recommendation_id"),
    ("bad status", lambda s: actions.change_lead_status(s, COLD, "hot"), "lead_status"),
    ("target too low", lambda s: actions.set_target_score(s, COLD, 0), "target_score"),
    ("target too high", lambda s: actions.set_target_score(s, COLD, 101), "target_score"),
    ("target not whole", lambda s: actions.set_target_score(s, COLD, 50.5), "target_score"),
    ("unknown contact", lambda s: actions.pin_contact(s, COLD, 40), "contact_id"),
    ("pin flag not bool", lambda s: actions.pin_contact(s, COLD, 20, pinned="yes"), "is_selected"),
    ("unknown page", lambda s: actions.toggle_monitoring_page(s, COLD, 20, True), "page_id"),
    ("deal on a cold lead", lambda s: actions.update_deal(s, COLD, deal_value=1), "lead_status"),
    ("deal bad currency", lambda s: actions.update_deal(s, WARM, deal_currency="EURO"), "deal_currency"),
    ("deal negative", lambda s: actions.update_deal(s, WARM, deal_value=-5), "deal_value"),
    ("deal won and lost", lambda s: actions.update_deal(s, WARM, won=True, lost=True), "won"),
    ("deal empty", lambda s: actions.update_deal(s, WARM), "deal"),
    ("competitor no name", lambda s: actions.add_competitor(s, COLD, ""), "name"),
    ("competitor of another lead", lambda s: actions.scan_competitor(s, COLD, 60), "competitor_id"),
    ("outreach no companies", lambda s: actions.add_to_outreach(s, []), "company_ids"),
    ("outreach bad status", lambda s: actions.add_to_outreach(s, [1], "lukewarm"), "lead_status"),
    ("deep search query short", lambda s: actions.start_deep_search(s, "ab"), "query"),
    ("deep search too many", lambda s: actions.start_deep_search(s, "dentists", 101), "max_results"),
    ("contact search bad role", lambda s: actions.start_contact_search(s, 101, ["ceo"]), "roles"),
    ("found contacts empty", lambda s: actions.add_found_contacts(s, 5, []), "contact_ids"),
    ("research no template", lambda s: actions.start_research_run(s, [1]), "template_id"),
    ("research too many", lambda s: actions.start_research_run(s, range(1, 102), template_id="t"), "company_ids"),
    ("remove unknown lead", lambda s: actions.remove_leads(s, [COLD, 999]), "lead_id"),
    # our wire limits (docs/wire.md "Limits"): refused at once, not failed in the outbox later
    ("deal value too large", lambda s: actions.update_deal(s, WARM, deal_value=10**12 + 1), "deal_value"),
    ("closed reason too long", lambda s: actions.update_deal(s, WARM, lost=True, closed_reason="r" * 1001),
     "closed_reason"),
    ("outreach too many companies", lambda s: actions.add_to_outreach(s, range(1, 502)), "company_ids"),
    ("outreach id too large", lambda s: actions.add_to_outreach(s, [2**63]), "company_ids"),
    ("found contacts too many", lambda s: actions.add_found_contacts(s, 5, range(1, 502)), "contact_ids"),
    ("competitor domain too long", lambda s: actions.add_competitor(s, COLD, "NewCo", "d" * 254), "domain"),
    ("research focus too long", lambda s: actions.start_company_research(s, 101, focus="f" * 501), "focus"),
    ("research template name too long",
     lambda s: actions.start_research_run(s, [1], template_name="T" * 201), "template_name"),
]


@pytest.mark.parametrize(("name", "call", "field"), REFUSED, ids=[r[0] for r in REFUSED])
def test_bad_input_is_refused_and_nothing_is_stored(store: Store, fingerprint, name, call, field) -> None:
    before = fingerprint(store)
    with pytest.raises(actions.InputError) as refused:
        call(store)
    assert refused.value.field == field
    assert str(refused.value)
    assert fingerprint(store) == before


def test_a_recommendation_cannot_be_taken_twice(store: Store, fingerprint) -> None:
    actions.complete_recommendation(store, 41)
    before = fingerprint(store)
    with pytest.raises(actions.InputError, match="already completed"):
        actions.dismiss_recommendation(store, 41)
    assert fingerprint(store) == before


def test_a_lead_being_removed_takes_no_more_actions(store: Store) -> None:
    actions.remove_leads(store, [COLD])
    with pytest.raises(actions.InputError, match="being removed"):
        actions.add_note(store, COLD, "late")


def test_a_competitor_still_being_added_cannot_be_scanned(store: Store) -> None:
    actions.add_competitor(store, COLD, "Pending Co")
    pending = [c for c in store.lead_detail(COLD).competitors if c.id is None]
    assert [c.name for c in pending] == ["Pending Co"]
    with pytest.raises(actions.InputError):
        actions.scan_competitor(store, COLD, pending[0].local_id)


def test_deal_allowed_after_a_queued_move_to_warm(store: Store) -> None:
    actions.change_lead_status(store, COLD, "warm")
    op_id = actions.update_deal(store, COLD, deal_value=5000, won=True)
    detail = store.lead_detail(COLD)
    assert (detail.deal_value, detail.won_at is not None) == (5000.0, True)
    assert store.get_op(op_id).payload == {"lead_id": COLD, "deal_value": 5000, "won": True}


def test_logged_activity_shows_its_guessed_type(store: Store) -> None:
    actions.log_activity(store, COLD, "Spoke with Dana (VP Ops), wants pricing by Friday")
    newest = store.lead_detail(COLD).touchpoints[0]
    assert (newest.detected_type, newest.pending) == ("call", True)


def test_undo_by_short_id(store: Store, fingerprint) -> None:
    before = fingerprint(store)
    op_id = actions.complete_recommendation(store, 41)
    assert [r.id for r in store.active_recommendations(lead_id=COLD)] == [42]
    assert actions.undo(store, op_id[:10]).op_id == op_id
    assert fingerprint(store) == before


def test_undo_after_sending_is_refused(store: Store) -> None:
    op_id = actions.add_note(store, COLD, "sent")
    store.mark_in_flight(op_id)
    with pytest.raises(OpStateError):
        actions.undo(store, op_id)


def test_edit_revalidates_and_refreshes_the_guess(store: Store) -> None:
    op_id = actions.log_activity(store, COLD, "Called Dana")
    store.mark_in_flight(op_id)
    store.mark_failed(op_id, "description: rejected")
    with pytest.raises(actions.InputError):
        actions.edit_op(store, op_id, description="")
    assert store.get_op(op_id).payload["description"] == "Called Dana"
    with pytest.raises(actions.InputError, match="cannot change"):
        actions.edit_op(store, op_id, lead_id=WARM)
    new_id = actions.edit_op(store, op_id, description="Emailed Dana the pricing")
    op = store.get_op(new_id)
    assert (op.state, op.payload["description"], op.meta["guessed_type"]) == ("pending", "Emailed Dana the pricing", "email")
    assert store.lead_detail(COLD).touchpoints[0].detected_type == "email"


def test_retry_and_discard_through_actions(store: Store) -> None:
    op_id = actions.add_note(store, COLD, "n")
    store.mark_in_flight(op_id)
    store.mark_failed(op_id, "Outreach lead not found")
    assert actions.retry(store, op_id)
    assert store.get_op(op_id).state == "pending"
    assert actions.retry_all(store) == 1
    assert actions.discard(store, op_id).op_id == op_id
    assert store.lead_detail(COLD).notes == []


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Spoke with Dana (VP Ops), wants pricing by Friday", "call"),
        ("Called Dana, she wants a demo next Tuesday", "call"),
        ("Demo with the ops team, went well", "meeting"),
        ("Followed up by email with the deck", "email"),
        ("Sent an InMail to the CFO", "professional_network_message"),
        ("Commented on their hiring post", "comment"),
        ("Liked the CEO's post", "like"),
        ("Followed the company page", "follow"),
        ("Shared their case study", "share"),
        ("Saw them at the logistics conference", "event"),
        ("Something else entirely", "other"),
    ],
)
def test_guess_activity_type(text: str, kind: str) -> None:
    assert actions.guess_activity_type(text) == kind
    assert kind in actions.ACTIVITY_KINDS
