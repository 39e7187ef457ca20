"""Contract: every outreach lead operation, its results and its error paths."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest

from support.contract import API_KEY, BASE_URL, RecordingTransport, Sandbox, new_company, new_lead
from warmline.api import ServiceClient
from warmline.api.errors import ConflictError, NotFoundError, RecommendationGoneError
from warmline.api.models import LeadListItem

UNKNOWN = 987_654
LEADS_PATH = "/v1/outreach/leads"
PAGE_TYPES = {"blog", "careers", "press", "company_social", "contact_social"}
COLD_ACTIONS = {"comment", "follow", "like"}
WARM_ACTIONS = {"share_content", "check_in", "congratulate"}
PRIORITIES = {"high", "medium", "low"}
ACTIVITY_KINDS = {
    "email", "call", "meeting", "professional_network_message", "comment", "like", "follow",
    "share", "event", "other",
}
WIRE_TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
LIST_FIELDS = (
    "id", "company_id", "company_name", "lead_status", "warming_score", "target_score",
    "activity_count", "recommendation_count", "monitoring_active", "last_activity_at",
)


async def scanned_lead(sandbox: Sandbox, client: ServiceClient, name: str, status: str = "cold") -> LeadListItem:
    lead = await new_lead(client, name, status)
    await client.start_signal_scan(lead.id)
    sandbox.advance(11)
    return lead


async def test_add_list_and_detail_leads(client: ServiceClient) -> None:
    first = await new_company(client, "Alpha Analytics")
    second = await new_company(client, "Beta Biotech")
    added = await client.add_leads([first, second, UNKNOWN], "warm")
    assert added.added == 2
    assert [(lead.company_id, lead.company_name) for lead in added.leads] == [
        (first, "Alpha Analytics"),
        (second, "Beta Biotech"),
    ]
    assert [s.company_id for s in added.skipped] == [UNKNOWN] and added.skipped[0].reason
    lead = added.leads[0]
    assert (lead.lead_status, lead.warming_score, lead.activity_count) == ("warm", 0, 0)
    assert lead.monitoring_active is False and lead.last_activity_at is None
    assert lead.target_score is not None and 1 <= lead.target_score <= 100

    warm = await client.list_leads("warm", per_page=200)
    assert {first, second} <= {item.company_id for item in warm.items}
    assert all(item.lead_status == "warm" for item in warm.items)
    cold = await client.list_leads("cold", per_page=200)
    assert not {first, second} & {item.company_id for item in cold.items}
    both = await client.list_leads(per_page=200)
    assert both.pagination.total == len(both.items) == len(warm.items) + len(cold.items)
    paged = await client.list_leads(per_page=1, page=2)
    assert paged.pagination.page == 2 and len(paged.items) == 1
    assert paged.items[0].id == both.items[1].id

    detail = await client.get_lead(lead.id)
    assert (detail.id, detail.company_id, detail.company_name) == (lead.id, first, "Alpha Analytics")
    assert detail.company is not None and detail.company.name == "Alpha Analytics"
    assert detail.company.domain == "alpha-analytics.example"
    assert detail.signal_scan_status == "none" and detail.monitoring_pages == []
    assert detail.touchpoints == [] and detail.recommendations == []
    assert (detail.deal_value, detail.won_at, detail.closed_at, detail.closed_reason) == (None,) * 4


async def test_remove_leads(client: ServiceClient) -> None:
    kept = await new_lead(client, "Kept Co")
    gone = await new_lead(client, "Gone Co")
    result = await client.remove_leads([gone.id, UNKNOWN])
    assert result.removed == 1
    with pytest.raises(NotFoundError, match="^Outreach lead not found$"):
        await client.get_lead(gone.id)
    assert (await client.get_lead(kept.id)).id == kept.id


async def test_status_and_target_score(client: ServiceClient) -> None:
    lead = await new_lead(client, "Status Co")
    status = await client.set_lead_status(lead.id, "warm")
    assert (status.id, status.lead_status) == (lead.id, "warm")
    target = await client.set_target_score(lead.id, 80)
    assert (target.id, target.target_score) == (lead.id, 80)
    detail = await client.get_lead(lead.id)
    assert (detail.lead_status, detail.target_score) == ("warm", 80)


LeadOperation = Callable[[ServiceClient, int], Awaitable[object]]

LEAD_OPERATIONS: dict[str, LeadOperation] = {
    "get_lead": lambda c, lead: c.get_lead(lead),
    "set_lead_status": lambda c, lead: c.set_lead_status(lead, "warm"),
    "set_target_score": lambda c, lead: c.set_target_score(lead, 50),
    "start_signal_scan": lambda c, lead: c.start_signal_scan(lead),
    "get_signal_scan": lambda c, lead: c.get_signal_scan(lead),
    "set_monitoring_page": lambda c, lead: c.set_monitoring_page(lead, 1, True),
    "get_recommendations": lambda c, lead: c.get_recommendations(lead),
    "generate_recommendations": lambda c, lead: c.generate_recommendations(lead),
    "complete_recommendation": lambda c, lead: c.complete_recommendation(lead, 1),
    "dismiss_recommendation": lambda c, lead: c.dismiss_recommendation(lead, 1),
    "log_touchpoint": lambda c, lead: c.log_touchpoint(lead, "Called them"),
    "list_notes": lambda c, lead: c.list_notes(lead),
    "add_note": lambda c, lead: c.add_note(lead, "a note"),
    "pin_contact": lambda c, lead: c.pin_contact(lead, 1, True),
    "update_deal": lambda c, lead: c.update_deal(lead, deal_value=10.0),
    "add_competitor": lambda c, lead: c.add_competitor(lead, "Rival"),
    "scan_competitor": lambda c, lead: c.scan_competitor(lead, 1),
    "pin_competitor": lambda c, lead: c.pin_competitor(lead, 1, True),
}
"""Every operation scoped to one lead, with harmless arguments."""


@pytest.mark.parametrize("operation", sorted(LEAD_OPERATIONS))
async def test_unknown_lead_is_not_found(client: ServiceClient, operation: str) -> None:
    with pytest.raises(NotFoundError) as caught:
        await LEAD_OPERATIONS[operation](client, UNKNOWN)
    assert (caught.value.status, caught.value.message) == (404, "Outreach lead not found")
    assert not isinstance(caught.value, RecommendationGoneError)


async def test_signal_scan_discovers_scored_monitoring_pages(sandbox: Sandbox) -> None:
    client = sandbox.client()
    lead = await new_lead(client, "Scanned Software")
    before = await client.get_signal_scan(lead.id)
    assert before.status == "none" and before.message

    started = await client.start_signal_scan(lead.id)
    assert (started.status, started.lead_id) == ("pending", lead.id)
    assert started.started_at == sandbox.clock.now()
    sandbox.advance(11)
    done = await client.get_signal_scan(lead.id)
    assert done.status == "completed" and done.progress == 100
    assert done.pages_found is not None and 5 <= done.pages_found <= 12

    detail = await client.get_lead(lead.id)
    assert detail.signal_scan_status == "completed" and detail.monitoring_active is True
    assert len(detail.monitoring_pages) == done.pages_found
    for page in detail.monitoring_pages:
        assert page.page_type in PAGE_TYPES and page.score is not None and 1 <= page.score <= 10
        assert page.url and page.url.startswith("http") and page.label

    page = detail.monitoring_pages[0]
    toggled = await client.set_monitoring_page(lead.id, page.id, not page.is_selected)
    assert (toggled.id, toggled.is_selected) == (page.id, not page.is_selected)
    again = {p.id: p for p in (await client.get_lead(lead.id)).monitoring_pages}
    assert again[page.id].is_selected is (not page.is_selected)
    with pytest.raises(NotFoundError, match="^Monitoring page not found$"):
        await client.set_monitoring_page(lead.id, UNKNOWN, True)


@pytest.mark.parametrize(("status", "actions"), [("cold", COLD_ACTIONS), ("warm", WARM_ACTIONS)])
async def test_recommendations_generate_complete_and_dismiss(
    sandbox: Sandbox, status: str, actions: set[str]
) -> None:
    client = sandbox.client()
    lead = await scanned_lead(sandbox, client, f"Engaged {status.title()}", status)
    empty = await client.get_recommendations(lead.id)
    assert (empty.count, empty.recommendations, empty.progress.total) == (0, [], 0)

    started = await client.generate_recommendations(lead.id)
    assert started.status == "pending" and started.message
    sandbox.advance(11)
    listed = await client.get_recommendations(lead.id)
    assert listed.count == len(listed.recommendations) >= 2
    assert listed.progress.total == listed.count and listed.generation_status == "completed"
    for rec in listed.recommendations:
        assert rec.action_type in actions and rec.priority in PRIORITIES
        assert rec.status == "active" and rec.lead_id == lead.id
        assert rec.target_url and rec.suggested_comment and rec.engagement_reason
        assert rec.source_page_label and rec.created_at == sandbox.clock.now()

    chosen = listed.recommendations[0]
    same_post = {r.id for r in listed.recommendations[1:] if r.target_url == chosen.target_url}
    score_before = (await client.get_lead(lead.id)).warming_score
    completed = await client.complete_recommendation(lead.id, chosen.id)
    assert completed.recommendation is not None and completed.recommendation.status == "completed"
    assert completed.points_awarded > 0
    assert completed.warming_score == min(100, score_before + completed.points_awarded)
    assert set(completed.auto_dismissed) == same_post
    assert (await client.get_lead(lead.id)).warming_score == completed.warming_score

    remaining = [r for r in listed.recommendations[1:] if r.id not in same_post]
    dismissed = await client.dismiss_recommendation(lead.id, remaining[0].id)
    assert (dismissed.id, dismissed.status) == (remaining[0].id, "dismissed")
    with pytest.raises(RecommendationGoneError) as gone:
        await client.complete_recommendation(lead.id, dismissed.id)
    assert gone.value.message == "Recommendation not found or already dismissed"
    assert isinstance(gone.value, ConflictError) and gone.value.is_permanent
    with pytest.raises(RecommendationGoneError):
        await client.complete_recommendation(lead.id, UNKNOWN)

    after = await client.get_recommendations(lead.id)
    assert after.progress.completed == 1 and after.progress.dismissed == 1 + len(same_post)
    assert {r.id for r in after.recommendations} == {r.id for r in remaining[1:]}


async def test_log_touchpoint_detects_the_kind_and_raises_the_score(sandbox: Sandbox) -> None:
    client = sandbox.client()
    lead = await new_lead(client, "Called Company")
    contact = await client.create_contact(
        {"company_id": lead.company_id, "first_name": "Dana", "last_name": "Berg"}
    )
    text = "Called Dana, she wants a demo next Tuesday"
    result = await client.log_touchpoint(lead.id, text, contact.id)
    touchpoint = result.touchpoint
    assert (touchpoint.description, touchpoint.contact_id) == (text, contact.id)
    assert touchpoint.detected_type == result.detected_type == "call"
    assert touchpoint.created_at == sandbox.clock.now()
    assert result.bonus_info is not None and result.bonus_info.reason
    assert touchpoint.bonus_points == result.bonus_info.total > 0
    assert result.bonus_info.total == round(result.bonus_info.base_points * result.bonus_info.multiplier)
    assert result.warming_score == min(100, lead.warming_score + touchpoint.bonus_points)

    sandbox.advance(60)
    email = await client.log_touchpoint(lead.id, "Sent Dana the pricing sheet by email")
    assert email.detected_type == "email" and email.touchpoint.contact_id is None

    detail = await client.get_lead(lead.id)
    assert [t.id for t in detail.touchpoints] == [email.touchpoint.id, touchpoint.id]
    assert detail.activity_count == 2 and detail.warming_score == email.warming_score
    assert detail.last_activity_at == email.touchpoint.created_at


async def test_notes_come_back_newest_first(sandbox: Sandbox) -> None:
    client = sandbox.client()
    lead = await new_lead(client, "Noted Company")
    assert await client.list_notes(lead.id) == []
    added = []
    for text in ("Budget approved in Q1", "Champion is Dana", "Follow up after the fair"):
        note = await client.add_note(lead.id, text)
        assert (note.content, note.created_at) == (text, sandbox.clock.now())
        added.append(note)
        sandbox.advance(30)
    notes = await client.list_notes(lead.id)
    assert [(n.id, n.content) for n in notes] == [(n.id, n.content) for n in reversed(added)]


async def test_pin_and_unpin_a_key_contact(client: ServiceClient) -> None:
    lead = await new_lead(client, "Pinned People")
    contact = await client.create_contact(
        {"company_id": lead.company_id, "first_name": "Ola", "last_name": "Nordmann", "title": "CTO"}
    )
    pinned = await client.pin_contact(lead.id, contact.id, True)
    assert (pinned.id, pinned.is_selected, pinned.title) == (contact.id, True, "CTO")
    shown = {c.id: c for c in (await client.get_lead(lead.id)).contacts}
    assert shown[contact.id].is_selected is True
    unpinned = await client.pin_contact(lead.id, contact.id, False)
    assert unpinned.is_selected is False
    with pytest.raises(NotFoundError, match="^Contact not found$"):
        await client.pin_contact(lead.id, UNKNOWN, True)


async def test_deal_tracking_on_a_warm_lead(sandbox: Sandbox) -> None:
    client = sandbox.client()
    cold = await new_lead(client, "Cold Deal Co", "cold")
    with pytest.raises(ConflictError) as refused:
        await client.update_deal(cold.id, deal_value=1000.0)
    assert (refused.value.status, refused.value.message) == (
        409,
        "Deal tracking is only available for warm leads",
    )

    warm = await new_lead(client, "Warm Deal Co", "warm")
    won = await client.update_deal(warm.id, deal_value=24000.0, deal_currency="EUR", won=True)
    assert (won.id, won.deal_value, won.deal_currency) == (warm.id, 24000.0, "EUR")
    assert won.won_at == sandbox.clock.now() and won.closed_at is None

    sandbox.advance(3600)
    lost = await client.update_deal(warm.id, won=False, lost=True, closed_reason="Chose a rival")
    assert lost.won_at is None and lost.closed_at == sandbox.clock.now()
    assert (lost.closed_reason, lost.deal_value) == ("Chose a rival", 24000.0)
    detail = await client.get_lead(warm.id)
    assert (detail.deal_value, detail.deal_currency, detail.closed_reason) == (
        24000.0,
        "EUR",
        "Chose a rival",
    )
    assert detail.closed_at == lost.closed_at and detail.won_at is None


async def test_competitors_add_scan_and_pin(sandbox: Sandbox) -> None:
    client = sandbox.client()
    lead = await new_lead(client, "Contested Account")
    added = await client.add_competitor(lead.id, "Rival Systems", "rival.example")
    assert (added.name, added.domain, added.is_pinned) == ("Rival Systems", "rival.example", False)
    assert added.last_scanned_at is None and added.scan_summary is None

    sandbox.advance(5)
    scanned = await client.scan_competitor(lead.id, added.id)
    assert scanned.id == added.id and scanned.last_scanned_at == sandbox.clock.now()
    assert scanned.scan_summary and "Rival Systems" in scanned.scan_summary
    pinned = await client.pin_competitor(lead.id, added.id, True)
    assert pinned.is_pinned is True and pinned.scan_summary == scanned.scan_summary

    shown = {c.id: c for c in (await client.get_lead(lead.id)).competitors}
    assert shown[added.id].is_pinned is True
    with pytest.raises(NotFoundError, match="^Competitor not found$"):
        await client.scan_competitor(lead.id, UNKNOWN)
    with pytest.raises(NotFoundError, match="^Competitor not found$"):
        await client.pin_competitor(lead.id, UNKNOWN, False)


def timestamps(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every (field, text) of a JSON body whose field holds a timestamp."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from timestamps(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from timestamps(item, key)
    elif isinstance(value, str) and (key.endswith("_at") or key == "time"):
        yield key, value


async def test_seeded_leads_read_the_same_in_list_detail_and_recommendations(sandbox: Sandbox) -> None:
    """The demo data, richer than what tests build, parses and agrees with itself."""
    client = sandbox.client()
    listed = await client.list_leads(per_page=200)
    assert {lead.lead_status for lead in listed.items} == {"cold", "warm"}
    headers = {"Authorization": f"Bearer {API_KEY}"}
    raw = httpx.AsyncClient(transport=RecordingTransport(sandbox.app), base_url=BASE_URL, headers=headers)
    async with raw:
        for lead in listed.items:
            detail = await client.get_lead(lead.id)
            assert {f: getattr(detail, f) for f in LIST_FIELDS} == {f: getattr(lead, f) for f in LIST_FIELDS}
            recs = await client.get_recommendations(lead.id)
            assert lead.recommendation_count == recs.count == len(detail.recommendations)
            assert [r.id for r in recs.recommendations] == [r.id for r in detail.recommendations]
            assert all(r.status == "active" for r in detail.recommendations)

            times = [t.created_at for t in detail.touchpoints]
            assert times == sorted(times, reverse=True), "touchpoints newest first"
            assert len(detail.touchpoints) <= min(50, lead.activity_count)
            assert all(t.detected_type in ACTIVITY_KINDS for t in detail.touchpoints)
            if detail.touchpoints:
                assert lead.last_activity_at == detail.touchpoints[0].created_at

            for path in (f"{LEADS_PATH}/{lead.id}", f"{LEADS_PATH}/{lead.id}/recommendations"):
                body = (await raw.get(path)).json()
                odd = [(k, v) for k, v in timestamps(body) if not WIRE_TIMESTAMP.match(v)]
                assert not odd, f"timestamps not in the wire shape at {path}: {odd}"
