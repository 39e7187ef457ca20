"""The seeded demo leads: alive, consistent with the live rules, and repeatable."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from warmline_sandbox import quotas
from warmline_sandbox.app import create_app
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.outreach.seed import READY_LEADS
from warmline_sandbox.settings import SandboxSettings

LEADS = "/v1/outreach/leads"


async def all_details(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    listed = (await client.get(LEADS, params={"per_page": 200})).json()["data"]
    return [(await client.get(f"{LEADS}/{lead['id']}")).json()["data"] for lead in listed]


async def test_seeded_leads_look_alive(
    client: httpx.AsyncClient, settings: SandboxSettings
) -> None:
    leads = await all_details(client)
    assert len(leads) == settings.leads
    assert {lead["lead_status"] for lead in leads} == {"cold", "warm"}
    ready = [lead for lead in leads if lead["warming_score"] >= lead["target_score"]]
    assert len(ready) == READY_LEADS
    assert {lead["lead_status"] for lead in ready} == {"warm"}
    assert all(lead["touchpoints"] for lead in leads)
    assert all(lead["contacts"] for lead in leads)
    assert sum(bool(lead["monitoring_pages"]) for lead in leads) >= settings.leads // 2
    assert sum(lead["recommendation_count"] for lead in leads) >= 10
    assert any(lead["competitors"] for lead in leads)
    assert any(any(c["is_selected"] for c in lead["contacts"]) for lead in leads)
    deals = [lead for lead in leads if lead["deal_value"] is not None]
    assert deals and {lead["lead_status"] for lead in deals} == {"warm"}
    notes = [(await client.get(f"{LEADS}/{lead['id']}/notes")).json()["data"] for lead in leads]
    assert any(notes)


async def test_seeded_leads_obey_the_live_rules(client: httpx.AsyncClient) -> None:
    for lead in await all_details(client):
        points = [t["bonus_points"] for t in lead["touchpoints"]]
        stamps = [t["created_at"] for t in lead["touchpoints"]]
        assert stamps == sorted(stamps, reverse=True)
        assert lead["activity_count"] == len(points) <= 50
        # The score is exactly the history of its activities, capped at 100.
        assert lead["warming_score"] == min(100, sum(points))
        assert lead["last_activity_at"] == stamps[0]
        assert lead["recommendation_count"] == len(lead["recommendations"])
        assert lead["monitoring_active"] == any(p["is_selected"] for p in lead["monitoring_pages"])
        assert (lead["signal_scan_status"] == "completed") == bool(lead["monitoring_pages"])
        assert {r["status"] for r in lead["recommendations"]} <= {"active"}
        actions = {r["action_type"] for r in lead["recommendations"]}
        if lead["lead_status"] == "cold":
            assert actions <= {"comment", "follow", "like"}
        if lead["deal_value"] is None:
            assert lead["won_at"] is None and lead["closed_at"] is None


async def test_seed_data_takes_no_plan_quota(
    client: httpx.AsyncClient, app: FastAPI, settings: SandboxSettings
) -> None:
    lead = (await client.get(LEADS)).json()["data"][0]
    with app.state.db.read() as conn:
        assert quotas.used(conn, settings.api_keys[0], "site_signal_slots") == 0
    # Its first scan by a key takes that key's slot.
    assert (await client.post(f"{LEADS}/{lead['id']}/signal-scan", json={})).status_code == 201
    with app.state.db.read() as conn:
        assert quotas.used(conn, settings.api_keys[0], "site_signal_slots") == 1


async def test_the_same_seed_gives_the_same_leads(
    app: FastAPI,
    settings: SandboxSettings,
    tmp_path: Path,
    client_factory: Callable[..., httpx.AsyncClient],
) -> None:
    twin_settings = SandboxSettings(**{**vars(settings), "db_path": tmp_path / "twin.sqlite3"})
    twin = create_app(twin_settings, clock=ManualClock())
    try:
        async with client_factory(app) as first, client_factory(twin) as second:
            leads = await all_details(first)
            assert leads and leads == await all_details(second)
    finally:
        twin.state.db.close()
