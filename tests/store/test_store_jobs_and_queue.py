"""Jobs (polling bookkeeping, results pulled in once), the recommendations queue, the
prospecting tables and the shared sync state."""

from __future__ import annotations

import pytest

from warmline.store import Store
from warmline.store.jobs import result_summary
from warmline.store.sync_vocabulary import STORED_FIELDS, StateKey, SyncState


def test_jobs_are_polled_until_they_end_and_unknown_statuses_are_kept(store: Store, clock) -> None:
    job = store.record_job("deep_search", 7, {"job_id": 7, "status": "pending", "query": "dental", "target_count": 2},
                           next_poll_at=clock.now + 5)
    assert (job.status, job.active, job.params) == ("pending", True, {"query": "dental", "target_count": 2})
    assert store.due_jobs() == []
    clock.advance(5)
    assert [j.remote_id for j in store.due_jobs()] == ["7"]
    job = store.record_job("deep_search", 7, {"job_id": 7, "status": "thinking-hard", "progress": 40},
                           next_poll_at=clock.now + 7)
    assert (job.status, job.active, job.progress) == ("thinking-hard", True, 40)
    assert store.next_job_poll_at() == clock.now + 7
    companies = [{"id": 1, "name": "Dental One", "tags": ["dental"]}, {"id": 2, "name": "Dental Two"}]
    job = store.record_job("deep_search", 7, {"success": True, "data": {
        "job_id": 7, "status": "completed", "found_count": 2, "companies": companies,
        "completed_at": "2026-11-17T01:00:00Z"}})
    assert (job.active, job.results_applied, job.result_summary) == (False, True, "2 companies found")
    assert job.completed_at == "2026-11-17T01:00:00.000Z"
    assert store.due_jobs(clock.now + 999) == []
    assert [c.name for c in store.companies_page()] == ["Dental One", "Dental Two"]
    assert store.get_company(1).tags == ["dental"]


def test_research_results_fill_custom_fields(store: Store) -> None:
    store.upsert_companies([{"id": 1, "name": "Acme", "custom_fields": {"kept": "yes"}}])
    store.record_job("research_run", "run-1", {"run_id": "run-1", "status": "completed",
                                               "results": [{"company_id": 1, "fields": {"icp_fit": "high"}}]})
    assert store.get_company(1).custom_fields == {"kept": "yes", "icp_fit": "high"}


def test_contact_search_results_are_kept_for_picking(store: Store) -> None:
    job = store.record_job("contact_search", 3, {"job_id": 3, "status": "completed", "company_id": 1,
                                                 "contacts": [{"id": 91, "first_name": "Ola"}]})
    assert job.company_id == 1 and job.result_summary == "1 contact found"
    assert store.found_contacts(job.key) == [{"id": 91, "first_name": "Ola"}]


def test_a_failed_job_that_found_nothing_has_no_summary_but_a_partial_find_is_kept(store: Store) -> None:
    failed = {"status": "failed", "error": "Plan limit reached"}
    assert store.record_job("contact_search", 4, {**failed, "contacts": []}).result_summary is None
    assert store.record_job("deep_search", 5, {**failed, "found_count": 3}).result_summary == "3 companies found"
    assert store.record_job("contact_search", 6, {"status": "completed", "contacts": []}).result_summary == "0 contacts found"


def test_signal_scan_status_follows_its_job(store: Store, lead_item) -> None:
    store.upsert_leads([lead_item(1)])
    store.record_job("signal_scan", 1, {"status": "running", "progress": 50}, lead_id=1)
    assert store.lead_detail(1).signal_scan_status == "running"
    store.record_job("signal_scan", 1, {"status": "completed", "pages_found": 4})
    detail = store.lead_detail(1)
    assert detail.signal_scan_status == "completed"
    assert store.find_job("signal_scan", 1).result_summary == "4 sources found"


def test_queue_orders_by_priority_then_age_and_hides_taken_ones(store: Store, lead_item, rec_item) -> None:
    store.upsert_leads([lead_item(1, "Acme"), lead_item(2, "Bolt")])
    store.upsert_recommendations(1, {"recommendations": [
        rec_item(11, 1, "low", "2026-11-01T00:00:00Z"), rec_item(12, 1, "high", "2026-11-03T00:00:00Z")],
        "count": 2, "progress": {"completed": 0, "dismissed": 0, "total": 2}})
    store.upsert_recommendations(2, {"recommendations": [
        rec_item(21, 2, "high", "2026-11-02T00:00:00Z"), rec_item(22, 2, "urgent?", "2026-11-01T00:00:00Z"),
        rec_item(23, 2, "medium", "2026-11-05T00:00:00Z")],
        "count": 3, "progress": {"completed": 4, "dismissed": 1, "total": 8}})
    queue = store.active_recommendations()
    assert [r.id for r in queue] == [21, 12, 23, 11, 22]
    assert queue[0].company_name == "Bolt"
    store.enqueue("dismiss_recommendation", {"lead_id": 2, "recommendation_id": 21}, lead_id=2)
    assert [r.id for r in store.active_recommendations(limit=2)] == [12, 23]
    progress = store.recommendation_progress()
    assert (progress.completed, progress.dismissed, progress.total, progress.active) == (4, 2, 10, 4)
    assert store.get_lead(2).recommendation_count == 2
    # The server no longer lists 11: it leaves the queue.
    store.upsert_recommendations(1, {"recommendations": [rec_item(12, 1, "high", "2026-11-03T00:00:00Z")], "count": 1})
    assert [r.id for r in store.active_recommendations(lead_id=1)] == [12]


def test_field_schemas_tags_templates_and_lookups(store: Store) -> None:
    store.upsert_field_schemas("companies", [{"key": "icp_fit", "name": "ICP fit", "type": "text"},
                                             {"key": "arr", "name": "ARR", "type": "number"}])
    store.upsert_field_schemas("companies", [{"key": "arr", "name": "ARR", "type": "number"}])
    assert store.field_schemas("companies") == [{"key": "arr", "name": "ARR", "type": "number"}]
    store.upsert_companies([{"id": 1, "name": "Acme"}])
    store.set_tags("companies", 1, ["saas", "nordics"])
    assert store.get_company(1).tags == ["saas", "nordics"]
    store.upsert_templates([{"id": "t-1", "name": "ICP Fit", "fields": [{"key": "icp_fit", "name": "ICP", "type": "text"}]},
                            {"id": "t-2", "name": "Hiring"}])
    store.upsert_templates([{"id": "t-1", "name": "ICP Fit"}])
    assert [t.id for t in store.templates()] == ["t-1"]
    assert store.find_template("icp fit").id == "t-1"
    assert store.find_template("t-1").name == "ICP Fit"
    request = {"query": "logistics saas", "countries": ["Norway"], "save": True}
    store.save_lookup(request, {"success": True, "companies": [
        {"name": "Fjord Freight", "domain": "fjord.example", "saved_company_id": 50},
        {"name": "Unsaved", "domain": "u.example", "saved_company_id": None}], "total": 2, "saved_count": 1})
    cached = store.cached_lookup({"save": True, "countries": ["Norway"], "query": "logistics saas"})
    assert [c["name"] for c in cached["companies"]] == ["Fjord Freight", "Unsaved"]
    assert store.get_company(50).name == "Fjord Freight"
    assert store.cached_lookup({"query": "other"}) is None


def test_sync_state_is_shared_through_the_database(store: Store, db_path, clock) -> None:
    store.set_state("online", False)
    store.set_state("rate_limited_until", clock.now + 30)
    other = Store(db_path, clock=clock)
    status = other.sync_status()
    assert status.online is False
    assert status.rate_limited(clock.now) and not status.rate_limited(clock.now + 31)
    other.close()


def test_every_field_of_the_status_is_read_back_from_the_keys_already_in_caches(store: Store) -> None:
    # The key strings are stored in every rep's cache: renaming one would need a migration.
    assert {key.value for key in StateKey} == {
        "online", "syncing", "auth_failed", "service_failing", "last_sync_at", "rate_limited_until",
        "last_error", "rate_limit_service", "rate_limit_cleared_at", "server_clock", "service_dialect", "clock_note",
        "sync_step", "service_address", "tui.jobs_seen_at", "tui.theme", "tui.cockpit_last_seen",
    }
    written = {
        "online": True, "syncing": True, "auth_failed": True, "service_failing": "lead list (HTTP 503)",
        "last_sync_at": 100.0, "rate_limited_until": 200.0, "last_error": "boom",
        "clock_note": "clock 2.0 d ahead of the service", "sync_step": "reading leads",
    }
    for key, value in written.items():
        store.set_state(key, value)
    status = store.sync_status()
    assert {field: getattr(status, field) for field in STORED_FIELDS} == {
        field: written[key] for field, key in STORED_FIELDS.items()
    }
    assert status.state(150.0) == SyncState.AUTH_FAILED == "auth_failed"
    store.set_state("service_failing", "")
    assert store.sync_status().failing is None
    store.set_state("last_sync_at", "yesterday")  # not the engine's: read as none, not shown as text
    store.set_state("last_error", {"code": 5})
    assert (store.sync_status().last_sync_at, store.sync_status().last_error) == (None, None)


def test_notes_detail_in_a_data_wrapper_and_forgetting_leads(store: Store, lead_item, detail_item) -> None:
    store.upsert_lead_detail({"success": True, "data": detail_item(1)})
    assert store.lead_detail(1).signal_scan_status == "completed"
    store.upsert_notes(1, {"success": True, "data": [
        {"id": 2, "content": "newer", "created_at": "2026-11-02T00:00:00Z"},
        {"id": 1, "content": "older", "created_at": "2026-11-01T00:00:00Z"}]})
    store.upsert_notes(1, [{"id": 3, "content": "newest", "created_at": "2026-11-03T00:00:00Z"}])
    assert [n.content for n in store.lead_detail(1).notes] == ["newest", "newer", "older"]
    store.upsert_notes(404, [{"id": 9, "content": "no such lead"}])
    store.forget_leads([1])
    assert store.lead_detail(1) is None
    assert store.rows("SELECT count(*) AS n FROM notes")[0]["n"] == 0


@pytest.mark.parametrize(
    ("kind", "answer", "summary"),
    [
        ("deep_search", {"status": "completed", "found_count": 1}, "1 company found"),
        ("deep_search", {"status": "completed", "found_count": 1200}, "1,200 companies found"),
        # Counted while the job runs: a count that will still grow.
        ("deep_search", {"status": "running", "found_count": 1200}, "1,200 companies found so far"),
        ("deep_search", {"status": "pending", "found_count": 0}, "0 companies found so far"),
        ("deep_search", {"found_count": 4}, "4 companies found"),  # no status: not said to run
        ("contact_search", {"status": "completed", "contacts": [{"id": 1}]}, "1 contact found"),
        ("research_run", {"status": "completed", "results": [{}]}, "1 company enriched"),
        ("recommendations", {"status": "completed", "recommendations": [{}]}, "1 recommendation"),
        ("signal_scan", {"status": "completed", "pages_found": 1}, "1 source found"),
        # The service's count is its word: one that is not a count says nothing.
        ("deep_search", {"status": "running", "found_count": {"x": 1}}, None),
        ("deep_search", {"status": "running", "found_count": "12"}, None),
        ("deep_search", {"status": "running", "found_count": True}, None),
        ("deep_search", {"status": "running", "found_count": -3}, None),
        ("signal_scan", {"status": "completed", "pages_found": 2.5}, None),
    ],
)
def test_a_jobs_summary_counts_in_words(kind: str, answer: dict, summary: str | None) -> None:
    assert result_summary(kind, answer) == summary
