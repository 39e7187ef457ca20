"""What a delivered op's answer does to the cache, each rule with a case that fails without
it (mutation audit of store/effects.py: tools/mutation_audit.py)."""

from __future__ import annotations

from warmline import actions
from warmline.store import Store

LEAD = 1


def _seed(store: Store, lead_item, detail_item) -> None:
    store.upsert_leads([lead_item(LEAD, "Acme", lead_status="warm", last_activity_at="2026-10-01T09:00:00.000Z")])
    store.upsert_lead_detail(detail_item(LEAD, company_name="Acme", lead_status="warm",
                                         last_activity_at="2026-10-01T09:00:00.000Z"))


def _deliver(store: Store, op_id: str, answer: dict) -> None:
    store.mark_in_flight(op_id)
    assert store.mark_done(op_id, answer)


def test_a_delivered_activity_moves_the_last_activity_to_the_server_s_time(store: Store, lead_item, detail_item) -> None:
    _seed(store, lead_item, detail_item)
    op_id = store.enqueue("log_activity", {"lead_id": LEAD, "description": "Called Dana"}, lead_id=LEAD)
    _deliver(store, op_id, {"touchpoint": {"id": 9001, "description": "Called Dana", "detected_type": "call",
                                           "bonus_points": 5, "created_at": "2026-11-20T10:00:00.000Z"}})
    assert store.get_lead(LEAD).last_activity_at == "2026-11-20T10:00:00.000Z"


def test_un_losing_a_deal_clears_its_closed_reason(store: Store, lead_item, detail_item) -> None:
    _seed(store, lead_item, detail_item)
    lost = store.enqueue("update_deal", {"lead_id": LEAD, "lost": True, "closed_reason": "budget"}, lead_id=LEAD)
    _deliver(store, lost, {"success": True, "message": "Deal updated"})
    assert store.lead_detail(LEAD).closed_reason == "budget"
    again = store.enqueue("update_deal", {"lead_id": LEAD, "lost": False}, lead_id=LEAD)
    detail = store.lead_detail(LEAD)
    assert (detail.closed_at, detail.closed_reason) == (None, None)  # at once, locally
    _deliver(store, again, {"success": True, "message": "Deal updated"})
    detail = store.lead_detail(LEAD)
    assert (detail.closed_at, detail.closed_reason) == (None, None)


def test_the_service_s_answer_wins_over_what_was_sent(store: Store, lead_item, detail_item) -> None:
    """The service stamps when a deal was won; a partial answer blanks nothing else."""
    _seed(store, lead_item, detail_item)
    op_id = store.enqueue("update_deal", {"lead_id": LEAD, "deal_value": 1000, "deal_currency": "EUR", "won": True},
                          lead_id=LEAD)
    _deliver(store, op_id, {"id": LEAD, "won_at": "2026-11-21T08:30:00.000Z", "deal_value": 1000.0})
    detail = store.lead_detail(LEAD)
    assert detail.won_at == "2026-11-21T08:30:00.000Z"
    assert (detail.deal_value, detail.deal_currency) == (1000.0, "EUR")  # currency kept from the update


def test_an_edited_job_start_shows_its_new_query(store: Store) -> None:
    """A start the service refused, fixed by the rep: one queued job, with the new query."""
    op_id = actions.start_deep_search(store, "dental clinics in Bavaria", 20)
    store.mark_in_flight(op_id)
    store.mark_failed(op_id, "query too vague")
    new_id = actions.edit_op(store, op_id, query="dental clinics in Saxony")
    assert new_id != op_id  # sent before: a new Idempotency-Key
    assert [job.params.get("query") for job in store.jobs()] == ["dental clinics in Saxony"]


def test_an_edited_note_shows_its_new_text_once(store: Store, lead_item, detail_item) -> None:
    _seed(store, lead_item, detail_item)
    op_id = actions.add_note(store, LEAD, "Prefers emali")
    actions.edit_op(store, op_id, content="Prefers email")
    pending = [n.content for n in store.lead_detail(LEAD).notes if n.pending]
    assert pending == ["Prefers email"]
