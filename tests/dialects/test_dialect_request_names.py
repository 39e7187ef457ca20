"""A service that reads request fields the spec does not show under other names
(`--dialect request-names`): it answers 200 and changes nothing. Warmline never shows such a
change as done: the op fails with one line naming the field and `[service.fields]`; with
`[service.fields]` set, the same ops go through (docs/wire.md)."""

from __future__ import annotations

from pathlib import Path

import httpx

from support.dialects import World, make_world
from support.sync_helpers import KEY
from warmline import actions
from warmline.api import ServiceClient
from warmline.api.request_fields import RequestFields
from warmline.sync import SyncEngine
from warmline.sync.blocking import run_inline

THEIR_NAMES = RequestFields({
    "change_lead_status": {"lead_status": "status"},
    "toggle_monitoring_page": {"is_selected": "enabled"},
    "update_deal": {"deal_currency": "currency"},
    "pin_competitor": {"is_pinned": "pinned"},
})


async def _queue_the_four(world: World) -> dict[str, int]:
    """A status change, a source toggle, a deal currency and a competitor pin, queued."""
    await world.engine.refresh_leads()
    leads = world.server("SELECT id, lead_status FROM outreach_leads ORDER BY id")
    cold = next(row[0] for row in leads if row[1] == "cold")
    warm = next(row[0] for row in leads if row[1] == "warm")
    paged = world.one("SELECT lead_id FROM outreach_pages ORDER BY lead_id LIMIT 1")
    for lead_id in {cold, warm, paged}:
        await world.engine.refresh_lead(lead_id)
    page, was = world.server("SELECT id, is_selected FROM outreach_pages WHERE lead_id = ? ORDER BY id", (paged,))[0]
    actions.add_competitor(world.store, warm, "Rival GmbH")
    await world.deliver()
    competitor = world.one("SELECT id FROM outreach_competitors WHERE name = 'Rival GmbH'")
    actions.change_lead_status(world.store, cold, "warm")
    actions.toggle_monitoring_page(world.store, paged, page, not was)
    actions.update_deal(world.store, warm, deal_currency="CHF")
    actions.pin_competitor(world.store, warm, competitor, True)
    return {"cold": cold, "warm": warm, "page": page, "was": was, "competitor": competitor}


async def test_a_change_the_service_ignored_fails_with_its_cause(tmp_path: Path) -> None:
    async with make_world(tmp_path, "request-names") as world:
        ids = await _queue_the_four(world)
        for _ in range(3):
            await world.engine.flush(ignore_backoff=True)
        failed = {op.kind: op.last_error for op in world.store.outbox_rows() if op.state == "failed"}
        assert failed == {
            "change_lead_status": "The service accepted the request but the lead is still not warm; it may name "
            "lead_status differently (set [service.fields] change_lead_status in the config, docs/wire.md)",
            "toggle_monitoring_page": "The service accepted the request but the monitoring source is still "
            + ("on" if ids["was"] else "off") + "; it may name is_selected differently (set [service.fields] "
            "toggle_monitoring_page in the config, docs/wire.md)",
            "update_deal": "The service accepted the request but the lead's deal does not show the change; it may "
            "name deal_value, deal_currency, won, lost or closed_reason differently (set [service.fields] "
            "update_deal in the config, docs/wire.md)",
            "pin_competitor": "The service accepted the request but the competitor is still unpinned; it may name "
            "is_pinned differently (set [service.fields] pin_competitor in the config, docs/wire.md)",
        }
        assert world.store.sync_status().queued == 0  # failed, not stuck
        assert world.one("SELECT lead_status FROM outreach_leads WHERE id = ?", (ids["cold"],)) == "cold"


async def test_with_service_fields_set_the_same_ops_go_through(tmp_path: Path) -> None:
    async with make_world(tmp_path, "request-names", THEIR_NAMES) as world:
        ids = await _queue_the_four(world)
        await world.deliver()
        assert [op for op in world.store.outbox_rows() if op.state != "done"] == []
        assert world.one("SELECT lead_status FROM outreach_leads WHERE id = ?", (ids["cold"],)) == "warm"
        assert world.one("SELECT is_selected FROM outreach_pages WHERE id = ?", (ids["page"],)) == int(not ids["was"])
        assert world.one("SELECT deal_currency FROM outreach_leads WHERE id = ?", (ids["warm"],)) == "CHF"
        assert world.one("SELECT is_pinned FROM outreach_competitors WHERE id = ?", (ids["competitor"],)) == 1


async def test_our_names_work_against_the_standard_reading(tmp_path: Path) -> None:
    """The control: the same four ops against the standard sandbox, no [service.fields]."""
    async with make_world(tmp_path, "standard") as world:
        await _queue_the_four(world)
        await world.deliver()
        assert [op for op in world.store.outbox_rows() if op.state != "done"] == []


async def test_failed_ops_retried_once_the_names_are_set_go_through(tmp_path: Path) -> None:
    """The rep's path: the ops fail, [service.fields] is set, `R` (retry) sends them again.
    The sandbox keeps Idempotency-Keys, so the renamed body goes under a key of its own."""
    async with make_world(tmp_path, "request-names") as world:
        ids = await _queue_the_four(world)
        for _ in range(3):
            await world.engine.flush(ignore_backoff=True)
        assert world.store.sync_status().failed == 4
        async with ServiceClient("http://127.0.0.1", KEY, transport=httpx.ASGITransport(app=world.app),
                                 clock=world.clock, request_fields=THEIR_NAMES) as fixed:
            engine = SyncEngine(world.store, fixed, clock=world.clock, blocking=run_inline)
            assert actions.retry_all(world.store) == 4
            await engine.flush(ignore_backoff=True)
        assert [op.state for op in world.store.outbox_rows()].count("failed") == 0
        assert world.one("SELECT lead_status FROM outreach_leads WHERE id = ?", (ids["cold"],)) == "warm"
        assert world.one("SELECT deal_currency FROM outreach_leads WHERE id = ?", (ids["warm"],)) == "CHF"


async def test_a_silent_answer_is_checked_by_reading_the_lead_again(tmp_path: Path) -> None:
    """`sparse` answers the four with `{success, message}` only: the re-read shows nothing
    changed, so each fails with its cause, as when the answer says so."""
    async with make_world(tmp_path, "sparse,request-names") as world:
        await world.engine.refresh_leads()
        for (lead_id,) in world.server("SELECT id FROM outreach_leads"):
            await world.engine.refresh_lead(lead_id)  # every lead's detail, as sync's prefetch reads them
        assert world.one("SELECT count(*) FROM outreach_leads WHERE deal_currency IS NOT NULL") > 0
        await _queue_the_four(world)
        for _ in range(3):
            await world.engine.flush(ignore_backoff=True)
        failed = sorted(op.kind for op in world.store.outbox_rows() if op.state == "failed")
        assert failed == ["change_lead_status", "pin_competitor", "toggle_monitoring_page", "update_deal"]


async def test_an_answer_showing_another_value_fails_without_a_second_read(tmp_path: Path) -> None:
    """The answer is proof enough: the lead is not read again to learn the same thing."""
    async with make_world(tmp_path, "request-names") as world:
        ids = await _queue_the_four(world)
        reads: list[str] = []
        get_lead = world.client.get_lead

        async def counted(lead_id: int):  # type: ignore[no-untyped-def]
            reads.append(str(lead_id))
            return await get_lead(lead_id)

        world.client.get_lead = counted  # type: ignore[method-assign]
        for _ in range(3):
            await world.engine.flush(ignore_backoff=True)
        status = next(op for op in world.store.outbox_rows() if op.kind == "change_lead_status")
        assert status.state == "failed"
        assert str(ids["cold"]) not in reads
