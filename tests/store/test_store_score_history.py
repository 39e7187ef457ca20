"""The lead page's score history: every cached activity, not only the page's newest 200."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from warmline.store import Store

LEAD = 7
START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


def wire_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def touchpoint(n: int, points: int) -> dict[str, object]:
    return {
        "id": 5000 + n,
        "description": f"call {n}",
        "detected_type": "call",
        "contact_id": None,
        "bonus_points": points,
        "created_at": wire_time(START + timedelta(days=n)),
    }


def test_history_walks_back_over_every_cached_activity(
    store: Store, detail_item, lead_item
) -> None:
    # 250 activities of 0 or 1 point (84 in all: the walk back stays in 0..100), more than
    # the page lists
    points = [1 if n % 3 == 0 else 0 for n in range(250)]
    activities = [touchpoint(n, p) for n, p in enumerate(points)]
    store.upsert_leads([lead_item(LEAD, "Acme", warming_score=100, activity_count=250)])
    store.upsert_lead_detail(
        {**detail_item(LEAD, company_name="Acme"), "warming_score": 100, "touchpoints": activities}
    )
    store.enqueue(
        "log_activity",
        {"lead_id": LEAD, "description": "queued call", "contact_id": None},
        lead_id=LEAD,
    )

    detail = store.lead_detail(LEAD)
    assert detail is not None
    assert len(detail.touchpoints) == 200  # the page's activity list stops at 200
    history = detail.score_history
    assert len(history) == 251  # every confirmed activity and now; the queued one has no points yet
    assert [p.at for p in history[:-1]] == [a["created_at"] for a in activities]
    assert history[-1].score == history[-2].score == 100
    # after activity n the score is 100 minus the points of the activities after it
    assert [p.score for p in history[:-1]] == [100 - sum(points[n + 1 :]) for n in range(250)]
    assert history[0].score == 100 - 83


def test_history_is_clamped_to_the_score_range(store: Store, detail_item, lead_item) -> None:
    # points from elsewhere (a completed recommendation) can make the walk back go below 0
    activities = [touchpoint(0, 30), touchpoint(1, 40)]
    store.upsert_leads([lead_item(LEAD, "Acme", warming_score=35)])
    store.upsert_lead_detail(
        {**detail_item(LEAD, company_name="Acme"), "warming_score": 35, "touchpoints": activities}
    )
    assert [p.score for p in store.lead_detail(LEAD).score_history] == [0, 35, 35]


def test_no_activity_is_one_point_now(store: Store, detail_item, lead_item) -> None:
    store.upsert_leads([lead_item(LEAD, "Acme", warming_score=12)])
    store.upsert_lead_detail(
        {**detail_item(LEAD, company_name="Acme"), "warming_score": 12, "touchpoints": []}
    )
    assert [p.score for p in store.lead_detail(LEAD).score_history] == [12]
