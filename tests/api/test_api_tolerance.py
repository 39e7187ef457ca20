"""The client accepts every successful shape the spec allows, and says so when it cannot."""

from __future__ import annotations

import httpx
import pytest

from support.api_samples import COMPANY, LEAD, LEAD_DETAIL, NOTE, REC, TEMPLATE
from warmline.api import ServiceClient
from warmline.api.errors import BadResponseError


def ok(**fields):
    return {"success": True, **fields}


@pytest.mark.parametrize(
    ("call", "answer", "check"),
    [
        # Objects at top level beside success, or inside a data wrapper.
        (lambda c: c.get_company(7), ok(**COMPANY), lambda r: r.name == "Acme Logistics"),
        (lambda c: c.get_lead(3), ok(**LEAD_DETAIL), lambda r: r.deal_currency == "EUR"),
        (lambda c: c.get_lead(3), {"data": {"lead": LEAD_DETAIL}}, lambda r: r.id == 3),
        (lambda c: c.get_deep_search(5), ok(data={"job_id": 5, "status": "running", "progress": 40}),
         lambda r: r.status == "running" and r.progress == 40),
        (lambda c: c.get_recommendations(3), ok(data={"recommendations": [REC], "count": 1}),
         lambda r: r.count == 1 and r.progress.total == 0),
        (lambda c: c.add_note(3, "x"), ok(data={"note": NOTE}), lambda r: r.id == 31),
        (lambda c: c.add_note(3, "x"), ok(data=NOTE), lambda r: r.id == 31),
        (lambda c: c.add_note(3, "x"), ok(**NOTE), lambda r: r.id == 31),
        (lambda c: c.health(), ok(data={"status": "ok"}), lambda r: r.status == "ok"),
        # Lists bare, wrapped in data, or under their own name.
        (lambda c: c.list_notes(3), [NOTE], lambda r: r[0].id == 31),
        (lambda c: c.list_notes(3), ok(notes=[NOTE]), lambda r: r[0].id == 31),
        (lambda c: c.list_research_templates(), ok(templates=[TEMPLATE]), lambda r: r[0].name == "ICP fit"),
        (lambda c: c.company_tags(7), ["a", "b"], lambda r: r == ["a", "b"]),
        (lambda c: c.company_tags(7), ok(data={"tags": ["a"]}), lambda r: r == ["a"]),
        # Missing optional fields get defaults; ids as integers where strings are documented.
        (lambda c: c.get_research_run("9"), ok(run_id=9, status="running"),
         lambda r: r.run_id == "9" and r.results == [] and r.completed_at is None),
        (lambda c: c.get_signal_scan(3), ok(status="none"), lambda r: r.message is None),
    ],
)
async def test_successful_shapes(call, answer, check, client: ServiceClient, service) -> None:
    service.reply(httpx.Response(200, json=answer))
    assert check(await call(client))


@pytest.mark.parametrize(
    ("answer", "total", "page"),
    [
        (ok(data=[LEAD, {**LEAD, "id": 4}]), 2, 1),
        ([LEAD], 1, 1),
        (ok(leads=[LEAD]), 1, 1),
        (ok(data={"items": [LEAD], "pagination": {"page": 1, "total": 9, "total_pages": 3}}), 9, 1),
    ],
)
async def test_pagination_present_nested_or_derived(answer, total, page, client, service) -> None:
    service.reply(httpx.Response(200, json=answer))
    result = await client.list_leads()
    assert result.pagination.total == total
    assert result.pagination.page == page
    assert result.has_next is (total == 9)


async def test_unknown_fields_are_kept_at_every_level(client, service) -> None:
    detail = {**LEAD_DETAIL, "health_flag": "green", "touchpoints": [{**LEAD_DETAIL["touchpoints"][0], "sentiment": 0.8}]}
    service.reply(httpx.Response(200, json=ok(data=detail)))
    lead = await client.get_lead(3)
    assert lead.model_extra["health_flag"] == "green"
    assert lead.touchpoints[0].model_extra["sentiment"] == 0.8


async def test_out_of_range_scores_are_clamped_not_rejected(client, service) -> None:
    leads = [{**LEAD, "warming_score": 140}, {**LEAD, "id": 4, "warming_score": -3, "target_score": 0}]
    service.reply(httpx.Response(200, json=ok(data=leads)))
    page = await client.list_leads()
    assert [lead.warming_score for lead in page.items] == [100, 0]
    assert page.items[1].target_score == 1


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("2026-11-22T10:24:11.123Z", "2026-11-22T10:24:11.123000+00:00"),
        ("2026-11-22T12:24:11+02:00", "2026-11-22T10:24:11+00:00"),
        ("2026-11-22T10:24:11", "2026-11-22T10:24:11+00:00"),
    ],
)
async def test_timestamps_become_aware_utc(stamp, expected, client, service) -> None:
    service.reply(httpx.Response(200, json=ok(data=[{**NOTE, "created_at": stamp}])))
    (note,) = await client.list_notes(3)
    assert note.created_at.isoformat() == expected


@pytest.mark.parametrize(
    ("response", "fragment"),
    [
        (httpx.Response(200, text="<html>ok</html>"), "was not JSON"),
        (httpx.Response(200, json=ok(data={"name": "no id"})), "GET /v1/companies/7 could not be read: id"),
        (httpx.Response(200, json=ok(data={"id": "seven"})), "could not be read: id"),
        (httpx.Response(200, json="just text"), "was not an object"),
    ],
)
async def test_unreadable_success_is_bad_response(response, fragment, client, service) -> None:
    service.reply(response)
    with pytest.raises(BadResponseError) as info:
        await client.get_company(7)
    assert fragment in str(info.value)
    assert info.value.is_ambiguous


async def test_empty_success_body_is_accepted_for_removal(client, service) -> None:
    service.reply(httpx.Response(204))
    assert (await client.remove_leads([3])).removed == 0
