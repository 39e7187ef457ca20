"""Local effects of queued actions: shown at once, kept across server refreshes, replaced by
the server's answer on delivery, and reverted exactly by undo or discard."""

from __future__ import annotations

from typing import Any

import pytest

from warmline.store import Store
from warmline.store.clock import iso

LEAD = 1
# (kind, payload, lead_id, meta): one case per kind of action a rep can queue.
CASES: list[tuple[str, dict[str, Any], int | None, dict[str, Any]]] = [
    ("log_activity", {"lead_id": LEAD, "description": "Called Dana", "contact_id": 501}, LEAD, {"guessed_type": "call"}),
    ("add_note", {"lead_id": LEAD, "content": "Wants pricing by Friday"}, LEAD, {}),
    ("complete_recommendation", {"lead_id": LEAD, "recommendation_id": 102}, LEAD, {}),
    ("dismiss_recommendation", {"lead_id": LEAD, "recommendation_id": 101}, LEAD, {}),
    ("change_lead_status", {"lead_id": LEAD, "lead_status": "warm"}, LEAD, {}),
    ("set_target_score", {"lead_id": LEAD, "target_score": 25}, LEAD, {}),
    ("pin_contact", {"lead_id": LEAD, "contact_id": 501, "is_selected": True}, LEAD, {}),
    ("toggle_monitoring_page", {"lead_id": LEAD, "page_id": 12, "is_selected": True}, LEAD, {}),
    ("update_deal", {"lead_id": LEAD, "deal_value": 24000, "deal_currency": "EUR", "won": True}, LEAD, {}),
    ("add_competitor", {"lead_id": LEAD, "name": "NewCo", "domain": "newco.example"}, LEAD, {}),
    ("scan_competitor", {"lead_id": LEAD, "competitor_id": 701}, LEAD, {}),
    ("pin_competitor", {"lead_id": LEAD, "competitor_id": 701, "is_pinned": True}, LEAD, {}),
    ("remove_lead", {"lead_id": LEAD, "lead_ids": [LEAD]}, LEAD, {}),
    ("start_signal_scan", {"lead_id": LEAD}, LEAD, {}),
    ("generate_recommendations", {"lead_id": LEAD}, LEAD, {}),
    ("start_deep_search", {"query": "dental clinics in Bavaria", "max_results": 20}, None, {}),
    ("start_contact_search", {"company_id": 1001, "roles": ["champion"]}, None, {}),
    ("start_research_run", {"template_id": "t-1", "company_ids": [1001]}, None, {}),
    ("start_company_research", {"company_id": 1001}, None, {}),
]
NO_LOCAL_EFFECT = [
    ("add_to_outreach", {"company_ids": [5], "lead_status": "cold"}, None, {}),
    ("add_found_contacts", {"job_id": 3, "contact_ids": [1]}, None, {}),
]


@pytest.fixture
def seeded(store: Store, detail_item, lead_item) -> Store:
    store.upsert_leads([lead_item(LEAD, "Acme", warming_score=30, activity_count=2, recommendation_count=2), lead_item(2)])
    store.upsert_lead_detail(detail_item(LEAD, company_name="Acme"))
    store.upsert_recommendations(
        LEAD,
        {"recommendations": detail_item(LEAD)["recommendations"], "count": 2,
         "progress": {"completed": 1, "dismissed": 0, "total": 3}, "generation_status": "completed"},
    )
    return store


def view(store: Store) -> dict[str, Any]:
    """Everything a rep can see, minus the ops' own bookkeeping."""
    jobs = [(j.kind, j.status, j.lead_id, j.params) for j in store.jobs()]
    return {
        "all": store.lead_page(),
        "warm": store.lead_page("warm"),
        "detail": store.lead_detail(LEAD),
        "queue": store.active_recommendations(),
        "progress": store.recommendation_progress(),
        "jobs": jobs,
    }


def enqueue(store: Store, case) -> str:
    kind, payload, lead_id, meta = case
    return store.enqueue(kind, payload, lead_id=lead_id, meta=meta)


def refresh_from_server(store: Store, detail_item, lead_item) -> None:
    """The sync engine brings the (unchanged) server state in again."""
    store.upsert_leads(
        [lead_item(LEAD, "Acme", warming_score=30, activity_count=2, recommendation_count=2), lead_item(2)],
        full_list_for_status="all",
    )
    store.upsert_lead_detail(detail_item(LEAD, company_name="Acme"))
    store.upsert_recommendations(
        LEAD,
        {"recommendations": detail_item(LEAD)["recommendations"], "count": 2,
         "progress": {"completed": 1, "dismissed": 0, "total": 3}, "generation_status": "completed"},
    )


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_action_shows_at_once_and_undo_reverts_it_exactly(seeded: Store, case) -> None:
    before = view(seeded)
    op_id = enqueue(seeded, case)
    assert view(seeded) != before
    seeded.undo(op_id)
    assert view(seeded) == before


@pytest.mark.parametrize("case", NO_LOCAL_EFFECT, ids=[c[0] for c in NO_LOCAL_EFFECT])
def test_actions_whose_results_only_the_server_can_make(seeded: Store, case) -> None:
    before = view(seeded)
    op_id = enqueue(seeded, case)
    assert view(seeded) == before
    assert seeded.get_op(op_id).state == "pending"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_local_effects_survive_a_refresh_from_the_server(seeded: Store, case, detail_item, lead_item) -> None:
    enqueue(seeded, case)
    shown = view(seeded)
    refresh_from_server(seeded, detail_item, lead_item)
    assert view(seeded) == shown


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_discarding_a_failed_op_reverts_it(seeded: Store, case) -> None:
    before = view(seeded)
    op_id = enqueue(seeded, case)
    seeded.mark_in_flight(op_id)
    seeded.mark_failed(op_id, "Outreach lead not found")
    assert view(seeded) != before  # a failed op still shows until the rep decides
    seeded.discard(op_id)
    assert view(seeded) == before


def test_undo_of_an_earlier_op_keeps_later_ones(seeded: Store) -> None:
    first = seeded.enqueue("change_lead_status", {"lead_id": LEAD, "lead_status": "warm"}, lead_id=LEAD)
    seeded.enqueue("set_target_score", {"lead_id": LEAD, "target_score": 20}, lead_id=LEAD)
    seeded.enqueue("change_lead_status", {"lead_id": LEAD, "lead_status": "cold"}, lead_id=LEAD)
    seeded.enqueue("change_lead_status", {"lead_id": LEAD, "lead_status": "warm"}, lead_id=LEAD)
    seeded.undo(first)
    lead = seeded.get_lead(LEAD)
    assert (lead.lead_status, lead.target_score, lead.pending_ops) == ("warm", 20, 3)


def test_pending_items_are_marked_in_the_detail(seeded: Store) -> None:
    seeded.enqueue("log_activity", {"lead_id": LEAD, "description": "Called Dana", "contact_id": None}, lead_id=LEAD,
                   meta={"guessed_type": "call"})
    seeded.enqueue("pin_contact", {"lead_id": LEAD, "contact_id": 501, "is_selected": True}, lead_id=LEAD)
    detail = seeded.lead_detail(LEAD)
    newest = detail.touchpoints[0]
    assert (newest.description, newest.detected_type, newest.pending, newest.op_state) == (
        "Called Dana", "call", True, "pending")
    assert [t.pending for t in detail.touchpoints[1:]] == [False, False]
    assert detail.contacts[0].is_selected and detail.contacts[0].pending
    assert detail.lead.activity_count == 3 and detail.lead.pending_ops == 2


def test_delivered_touchpoint_replaces_the_pending_one(seeded: Store, clock) -> None:
    op_id = seeded.enqueue("log_activity", {"lead_id": LEAD, "description": "Called Dana", "contact_id": None},
                           lead_id=LEAD, meta={"guessed_type": "call"})
    seeded.mark_in_flight(op_id)
    answer = {
        "success": True,
        "touchpoint": {"id": 9999, "description": "Called Dana", "detected_type": "call", "contact_id": None,
                       "bonus_points": 8, "created_at": "2026-11-17T08:00:00.123456Z"},
        "detected_type": "call",
        "bonus_info": {"base_points": 8, "multiplier": 1.0, "total": 8, "reason": "call"},
        "warming_score": 38,
    }
    assert seeded.mark_done(op_id, answer)
    detail = seeded.lead_detail(LEAD)
    assert [(t.id, t.pending) for t in detail.touchpoints][:1] == [(9999, False)]
    assert detail.touchpoints[0].created_at == "2026-11-17T08:00:00.123Z"
    assert sum(t.pending for t in detail.touchpoints) == 0
    assert (detail.lead.warming_score, detail.lead.activity_count, detail.lead.pending_ops) == (38, 3, 0)
    # The score chart ends at today's score and steps back by each activity's points.
    assert [p.score for p in detail.score_history] == [27, 30, 38, 38]


def test_delivered_recommendation_completion_with_auto_dismissals(seeded: Store) -> None:
    op_id = seeded.enqueue("complete_recommendation", {"lead_id": LEAD, "recommendation_id": 102}, lead_id=LEAD)
    # Card 101 is on the same post: the spec's rule takes it out of the queue at once too.
    assert seeded.recommendation_progress() == type(seeded.recommendation_progress())(2, 1, 3)
    assert seeded.active_recommendations() == []
    assert seeded.get_lead(LEAD).recommendation_count == 0
    seeded.mark_in_flight(op_id)
    seeded.mark_done(op_id, {"recommendation": {"id": 102, "status": "completed"}, "points_awarded": 5,
                             "warming_score": 35, "auto_dismissed": [101]})
    assert seeded.active_recommendations() == []
    lead = seeded.get_lead(LEAD)
    assert (lead.warming_score, lead.recommendation_count) == (35, 0)
    progress = seeded.recommendation_progress()
    assert (progress.completed, progress.dismissed, progress.total) == (2, 1, 3)


def test_delivered_set_ops_become_the_server_state(seeded: Store, detail_item) -> None:
    status = seeded.enqueue("change_lead_status", {"lead_id": LEAD, "lead_status": "warm"}, lead_id=LEAD)
    deal = seeded.enqueue("update_deal", {"lead_id": LEAD, "deal_value": 24000, "deal_currency": "EUR"}, lead_id=LEAD)
    for op_id, answer in (
        (status, {"success": True, "id": LEAD, "lead_status": "warm"}),
        (deal, {"success": True, "id": LEAD, "deal_value": 24000.0, "deal_currency": "EUR", "won_at": None,
                "closed_at": None, "closed_reason": None}),
    ):
        seeded.mark_in_flight(op_id)
        seeded.mark_done(op_id, answer)
    detail = seeded.lead_detail(LEAD)
    assert (detail.lead.lead_status, detail.deal_value, detail.deal_currency) == ("warm", 24000.0, "EUR")
    # Undo is no longer possible, and nothing reverts on the next refresh of other data.
    seeded.upsert_recommendations(LEAD, {"recommendations": [], "count": 0})
    assert seeded.get_lead(LEAD).lead_status == "warm"


def test_a_delivered_job_start_gets_its_remote_id(seeded: Store, clock) -> None:
    op_id = seeded.enqueue("start_deep_search", {"query": "dental clinics", "max_results": 20})
    [queued] = seeded.jobs()
    assert (queued.status, queued.remote_id, queued.queued_offline) == ("queued", None, False)
    seeded.mark_in_flight(op_id)
    seeded.mark_done(op_id, {"success": True, "job_id": 42, "status": "pending", "query": "dental clinics",
                             "target_count": 20, "created_at": "2026-11-17T00:00:00.000Z", "message": "poll"})
    [job] = seeded.jobs()
    assert (job.remote_id, job.status, job.active, job.next_poll_at) == ("42", "pending", True, clock.now)
    assert [j.key for j in seeded.due_jobs()] == [job.key]


def test_a_second_signal_scan_reuses_the_lead_s_job(seeded: Store) -> None:
    for _ in range(2):
        op_id = seeded.enqueue("start_signal_scan", {"lead_id": LEAD}, lead_id=LEAD)
        seeded.mark_in_flight(op_id)
        seeded.mark_done(op_id, {"success": True, "lead_id": LEAD, "status": "pending", "started_at": None})
    jobs = seeded.jobs()
    assert [(j.kind, j.remote_id, j.status) for j in jobs] == [("signal_scan", str(LEAD), "pending")]
    assert seeded.lead_detail(LEAD).signal_scan_status == "pending"


def test_jobs_queued_offline_are_marked(seeded: Store) -> None:
    seeded.set_state("online", False)
    seeded.enqueue("start_deep_search", {"query": "dental clinics", "max_results": 20})
    assert seeded.jobs()[0].queued_offline


def test_delivered_outreach_and_contacts_enter_the_cache(seeded: Store, lead_item) -> None:
    add = seeded.enqueue("add_to_outreach", {"company_ids": [5], "lead_status": "warm"})
    found = seeded.enqueue("add_found_contacts", {"job_id": 3, "contact_ids": [77]})
    for op_id, answer in (
        (add, {"success": True, "added": 1, "leads": [lead_item(55, "Fresh Lead", lead_status="warm")], "skipped": []}),
        (found, {"success": True, "added": 1, "skipped": 0, "contacts": [{"id": 77, "first_name": "Ola"}]}),
    ):
        seeded.mark_in_flight(op_id)
        seeded.mark_done(op_id, answer)
    assert [r.company_name for r in seeded.lead_page("warm")] == ["Fresh Lead"]
    assert seeded.get_contact(77).first_name == "Ola"


def test_delivered_removal_deletes_the_lead_and_its_detail(seeded: Store) -> None:
    later = seeded.enqueue("add_note", {"lead_id": 2, "content": "other lead"}, lead_id=2)
    op_id = seeded.enqueue("remove_lead", {"lead_id": LEAD, "lead_ids": [LEAD]}, lead_id=LEAD)
    assert [r.id for r in seeded.lead_page()] == [2]
    seeded.mark_in_flight(op_id)
    seeded.mark_done(op_id, {"success": True, "removed": 1})
    assert seeded.lead_detail(LEAD) is None
    assert seeded.active_recommendations() == []
    assert seeded.get_op(later).state == "pending"


def test_an_answer_wrapped_in_data_is_understood(seeded: Store) -> None:
    op_id = seeded.enqueue("pin_contact", {"lead_id": LEAD, "contact_id": 501, "is_selected": True}, lead_id=LEAD)
    seeded.mark_in_flight(op_id)
    seeded.mark_done(op_id, {"success": True, "data": {"contact": {"id": 501, "first_name": "Dana", "is_selected": True}}})
    contact = seeded.lead_detail(LEAD).contacts[0]
    assert (contact.is_selected, contact.pending, contact.first_name) == (True, False, "Dana")


def test_effects_on_a_lead_missing_from_the_cache_are_harmless(store: Store) -> None:
    op_id = store.enqueue("add_note", {"lead_id": 404, "content": "x"}, lead_id=404)
    assert store.lead_detail(404) is None
    store.mark_in_flight(op_id)
    assert store.mark_done(op_id, {"note": {"id": 1, "content": "x"}})


def _server_detail(detail_item, touchpoints: list[dict[str, Any]], notes: list[dict[str, Any]]) -> dict[str, Any]:
    item = detail_item(LEAD, company_name="Acme")
    item["touchpoints"] = [*touchpoints, *item["touchpoints"]]
    item["notes"] = notes
    return item


def test_the_time_an_append_was_logged_survives_delivery_and_refreshes(seeded: Store, clock, detail_item) -> None:
    logged = iso(clock())
    activity = seeded.enqueue("log_activity", {"lead_id": LEAD, "description": "Called Dana", "contact_id": None},
                              lead_id=LEAD, meta={"guessed_type": "call"})
    note = seeded.enqueue("add_note", {"lead_id": LEAD, "content": "Wants pricing"}, lead_id=LEAD)
    detail = seeded.lead_detail(LEAD)
    assert (detail.touchpoints[0].logged_at, detail.notes[0].logged_at) == (logged, logged)

    clock.advance(1800)  # delivered half an hour later: the service stamps its own time
    delivered = iso(clock())
    touchpoint = {"id": 9999, "description": "Called Dana", "detected_type": "call", "contact_id": None,
                  "bonus_points": 8, "created_at": delivered}
    server_note = {"id": 8888, "content": "Wants pricing", "created_at": delivered}
    for op_id in (activity, note):
        seeded.mark_in_flight(op_id)
    assert seeded.mark_done(activity, {"touchpoint": touchpoint, "warming_score": 38})
    assert seeded.mark_done(note, {"note": server_note})

    def mine(detail):
        tp = next(t for t in detail.touchpoints if t.id == 9999)
        nt = next(n for n in detail.notes if n.id == 8888)
        return (tp.created_at, tp.logged_at, nt.created_at, nt.logged_at)

    assert mine(seeded.lead_detail(LEAD)) == (delivered, logged, delivered, logged)

    clock.advance(600)  # a later refresh of the lead rewrites its children from the service
    seeded.upsert_lead_detail(_server_detail(detail_item, [touchpoint], [server_note]))
    seeded.upsert_notes(LEAD, [server_note])
    detail = seeded.lead_detail(LEAD)
    assert mine(detail) == (delivered, logged, delivered, logged)
    # Records made elsewhere have no logged time.
    assert [t.logged_at for t in detail.touchpoints if t.id != 9999] == [None, None]


def test_a_refresh_before_an_ambiguous_append_is_settled_keeps_the_logged_time(
    seeded: Store, clock, detail_item
) -> None:
    logged = iso(clock())
    op_id = seeded.enqueue("log_activity", {"lead_id": LEAD, "description": "Called Dana", "contact_id": None},
                           lead_id=LEAD, meta={"guessed_type": "call"})
    seeded.mark_in_flight(op_id)
    seeded.mark_ambiguous(op_id, clock(), "answer lost")
    clock.advance(300)
    touchpoint = {"id": 9999, "description": "Called Dana", "detected_type": "call", "contact_id": None,
                  "bonus_points": 8, "created_at": iso(clock())}
    # The refresh brings the service's record in before reconciliation adopts it.
    seeded.upsert_lead_detail(_server_detail(detail_item, [touchpoint], []))
    assert next(t for t in seeded.lead_detail(LEAD).touchpoints if t.id == 9999).logged_at is None

    seeded.mark_in_flight(op_id)
    assert seeded.mark_done(op_id, {"touchpoint": touchpoint, "reconciled": True})
    rows = [t for t in seeded.lead_detail(LEAD).touchpoints if t.description == "Called Dana"]
    assert [(t.id, t.op_id, t.logged_at) for t in rows] == [(9999, op_id, logged)]


def test_the_services_reason_for_the_points_is_kept_through_refreshes(seeded: Store, clock, detail_item) -> None:
    activity = seeded.enqueue("log_activity", {"lead_id": LEAD, "description": "Called Dana", "contact_id": None},
                              lead_id=LEAD, meta={"guessed_type": "call"})
    touchpoint = {"id": 9999, "description": "Called Dana", "detected_type": "call", "contact_id": None,
                  "bonus_points": 12, "created_at": iso(clock())}
    reason = "Call: 10 base points x 1.2 (next step scheduled)"
    seeded.mark_in_flight(activity)
    assert seeded.mark_done(activity, {"touchpoint": touchpoint, "bonus_info": {
        "base_points": 10, "multiplier": 1.2, "total": 12, "reason": reason}, "warming_score": 38})
    assert next(t for t in seeded.lead_detail(LEAD).touchpoints if t.id == 9999).bonus_reason == reason

    # The lead's detail lists touchpoints without the reason: a refresh keeps it.
    seeded.upsert_lead_detail(_server_detail(detail_item, [touchpoint], []))
    detail = seeded.lead_detail(LEAD)
    assert next(t for t in detail.touchpoints if t.id == 9999).bonus_reason == reason
    assert [t.bonus_reason for t in detail.touchpoints if t.id != 9999] == [None, None]


def test_a_refresh_listing_none_left_drops_the_rows_it_no_longer_lists(store: Store, detail_item) -> None:
    """The service answers that the lead has no sources, contacts, competitors or active
    recommendations left (or that no research template is left): the cache keeps none. `NOT IN (NULL)`,
    used for an empty list, is never true in SQL, and kept every old row."""
    store.upsert_lead_detail(detail_item(LEAD))
    detail = store.lead_detail(LEAD)
    assert detail.monitoring_pages and detail.contacts and detail.competitors and detail.recommendations
    store.upsert_lead_detail({**detail_item(LEAD), "monitoring_pages": [], "contacts": [], "competitors": [],
                              "recommendations": []})
    detail = store.lead_detail(LEAD)
    assert (detail.monitoring_pages, detail.contacts, detail.competitors, detail.recommendations) == ([], [], [], [])
    assert store.active_recommendations() == []  # handled elsewhere: out of the triage queue too

    store.upsert_templates([{"id": "t1", "name": "ICP fit", "data_points": []}])
    assert [t.id for t in store.templates()] == ["t1"]
    store.upsert_templates([])
    assert store.templates() == []
