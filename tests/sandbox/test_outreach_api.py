"""Every outreach route over the in-process app: shapes of docs/wire.md, the spec's rules.

Tests make their own companies and leads and never assume the database is otherwise
empty (the app may seed demo leads).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from warmline_sandbox import outreach, quotas
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.outreach.tables import ADDED_COLUMNS
from warmline_sandbox.settings import SandboxSettings

LEADS = "/v1/outreach/leads"
LIST_ITEM_KEYS = {
    "id",
    "company_id",
    "company_name",
    "lead_status",
    "warming_score",
    "activity_count",
    "recommendation_count",
    "monitoring_active",
    "last_activity_at",
    "target_score",
    "created_at",
}
DETAIL_KEYS = LIST_ITEM_KEYS | {
    "signal_scan_status",
    "company",
    "monitoring_pages",
    "contacts",
    "competitors",
    "touchpoints",
    "recommendations",
    "deal_value",
    "deal_currency",
    "won_at",
    "closed_at",
    "closed_reason",
}
LEAD_NOT_FOUND = {"success": False, "message": "Outreach lead not found", "errors": None}
REC_NOT_FOUND = {
    "success": False,
    "message": "Recommendation not found or already dismissed",
    "errors": None,
}


async def new_company(client: httpx.AsyncClient, name: str = "Nordlicht Logistics") -> int:
    domain = name.lower().replace(" ", "") + ".example"
    response = await client.post("/v1/companies", json={"name": name, "domain": domain})
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


async def new_lead(client: httpx.AsyncClient, status: str = "cold", name: str = "Nordlicht") -> int:
    company_id = await new_company(client, name)
    response = await client.post(LEADS, json={"company_ids": [company_id], "lead_status": status})
    assert response.status_code == 201, response.text
    return response.json()["leads"][0]["id"]


async def new_contact(client: httpx.AsyncClient, lead_id: int, role: str = "decision-maker") -> int:
    company_id = (await detail(client, lead_id))["company_id"]
    response = await client.post(
        "/v1/contacts",
        json={
            "company_id": company_id,
            "first_name": "Dana",
            "last_name": "Berg",
            "role": role,
            "title": "VP Operations",
            "social_url": "https://social.example/dana",
        },
    )
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


async def detail(client: httpx.AsyncClient, lead_id: int) -> dict[str, Any]:
    response = await client.get(f"{LEADS}/{lead_id}")
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def scanned_lead(client: httpx.AsyncClient, clock: ManualClock, status: str = "cold") -> int:
    lead_id = await new_lead(client, status)
    assert (await client.post(f"{LEADS}/{lead_id}/signal-scan", json={})).status_code == 201
    clock.advance(10)
    return lead_id


async def generated(client: httpx.AsyncClient, clock: ManualClock, lead_id: int) -> dict[str, Any]:
    assert (
        await client.post(f"{LEADS}/{lead_id}/recommendations/generate", json={})
    ).status_code == 202
    clock.advance(10)
    return (await client.get(f"{LEADS}/{lead_id}/recommendations")).json()


# --- leads: add, list, detail, remove ---------------------------------------------------


async def test_add_leads_adds_saved_companies_and_skips_the_rest(client: httpx.AsyncClient) -> None:
    first, second = await new_company(client, "Alpha"), await new_company(client, "Beta")
    response = await client.post(
        LEADS, json={"company_ids": [first, second, first, 999_999], "lead_status": "warm"}
    )
    assert response.status_code == 201
    body = response.json()
    assert body["success"] is True and body["added"] == 2
    assert [lead["company_id"] for lead in body["leads"]] == [first, second]
    assert set(body["leads"][0]) == LIST_ITEM_KEYS
    lead = body["leads"][0]
    assert (lead["company_name"], lead["lead_status"], lead["warming_score"]) == (
        "Alpha",
        "warm",
        0,
    )
    assert (lead["activity_count"], lead["recommendation_count"]) == (0, 0)
    assert lead["monitoring_active"] is False and lead["last_activity_at"] is None
    assert body["skipped"] == [
        {"company_id": first, "reason": "already in outreach"},
        {"company_id": 999_999, "reason": "company not found"},
    ]


async def test_list_filters_by_status_and_pages(client: httpx.AsyncClient) -> None:
    cold = {await new_lead(client, "cold", f"Cold {i}") for i in range(3)}
    warm = {await new_lead(client, "warm", f"Warm {i}") for i in range(2)}
    everything = (await client.get(LEADS, params={"per_page": 200})).json()
    assert cold | warm <= {lead["id"] for lead in everything["data"]}
    only_warm = (await client.get(LEADS, params={"status": "warm", "per_page": 200})).json()
    assert warm <= {lead["id"] for lead in only_warm["data"]}
    assert {lead["lead_status"] for lead in only_warm["data"]} == {"warm"}
    total = everything["pagination"]["total"]
    page = (await client.get(LEADS, params={"page": 2, "per_page": 2})).json()
    assert page["pagination"] == {
        "page": 2,
        "per_page": 2,
        "total": total,
        "total_pages": (total + 1) // 2,
    }
    assert [lead["id"] for lead in page["data"]] == [lead["id"] for lead in everything["data"][2:4]]
    assert (await client.get(LEADS, params={"status": "hot"})).status_code in (400, 422)


async def test_detail_has_every_field_and_company_information(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    lead = await detail(client, lead_id)
    assert set(lead) == DETAIL_KEYS
    assert (
        lead["company"]["name"] == "Nordlicht" and lead["company"]["domain"] == "nordlicht.example"
    )
    assert lead["signal_scan_status"] == "none"
    assert lead["monitoring_pages"] == lead["touchpoints"] == lead["recommendations"] == []
    assert lead["deal_value"] is None and lead["won_at"] is None and lead["closed_at"] is None


async def test_remove_leads(client: httpx.AsyncClient) -> None:
    keep, drop = await new_lead(client, name="Keep"), await new_lead(client, name="Drop")
    response = await client.request("DELETE", LEADS, json={"lead_ids": [drop, drop, 987_654]})
    assert response.json() == {"success": True, "removed": 1}
    assert (await client.get(f"{LEADS}/{drop}")).json() == LEAD_NOT_FOUND
    assert (await client.get(f"{LEADS}/{keep}")).status_code == 200


async def test_a_company_in_outreach_cannot_be_deleted(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    company_id = (await detail(client, lead_id))["company_id"]
    assert (await client.delete(f"/v1/companies/{company_id}")).status_code == 409
    await client.request("DELETE", LEADS, json={"lead_ids": [lead_id]})
    assert (await client.delete(f"/v1/companies/{company_id}")).status_code == 200


# --- unknown leads and malformed input ---------------------------------------------------

LEAD_ROUTES = [
    ("GET", "", None),
    ("PATCH", "/status", {"lead_status": "warm"}),
    ("PATCH", "/target-score", {"target_score": 50}),
    ("POST", "/signal-scan", {}),
    ("GET", "/signal-scan", None),
    ("PATCH", "/monitoring-pages/1", {"is_selected": True}),
    ("GET", "/recommendations", None),
    ("POST", "/recommendations/generate", {}),
    ("POST", "/recommendations/1/complete", None),
    ("POST", "/recommendations/1/dismiss", None),
    ("POST", "/touchpoints", {"description": "Called Dana"}),
    ("GET", "/notes", None),
    ("POST", "/notes", {"content": "hello"}),
    ("PATCH", "/contacts/1", {"is_selected": True}),
    ("PATCH", "/deal", {"deal_value": 10}),
    ("POST", "/competitors", {"name": "Globex"}),
    ("POST", "/competitors/1/scan", None),
    ("PATCH", "/competitors/1", {"is_pinned": True}),
]


@pytest.mark.parametrize(("method", "suffix", "body"), LEAD_ROUTES)
async def test_unknown_lead_is_the_specs_404(
    client: httpx.AsyncClient, method: str, suffix: str, body: dict[str, Any] | None
) -> None:
    response = await client.request(method, f"{LEADS}/424242{suffix}", json=body)
    assert response.status_code == 404
    assert response.json() == LEAD_NOT_FOUND


@pytest.mark.parametrize(("method", "suffix", "body"), LEAD_ROUTES)
async def test_every_lead_route_needs_a_key(
    anon_client: httpx.AsyncClient, method: str, suffix: str, body: dict[str, Any] | None
) -> None:
    response = await anon_client.request(method, f"{LEADS}/1{suffix}", json=body)
    assert response.status_code == 401
    assert response.json()["message"] == "Invalid or missing API key"


@pytest.mark.parametrize("lead_id", ["0", "-3", str(2**63), str(10**40), "abc"])
async def test_out_of_range_ids_are_client_errors(client: httpx.AsyncClient, lead_id: str) -> None:
    for suffix, method in (("", "GET"), ("/recommendations/1/complete", "POST")):
        response = await client.request(method, f"{LEADS}/{lead_id}{suffix}")
        assert 400 <= response.status_code < 500, response.text


@pytest.mark.parametrize(
    "body",
    [
        {"company_ids": [], "lead_status": "cold"},
        {"company_ids": [1], "lead_status": "lukewarm"},
        {"company_ids": [2**64], "lead_status": "cold"},
        {"company_ids": "1", "lead_status": "cold"},
        {"company_ids": [1]},
        {"company_ids": [1], "lead_status": "cold", "extra": 1},
    ],
)
async def test_add_leads_rejects_bad_bodies(
    client: httpx.AsyncClient, body: dict[str, Any]
) -> None:
    response = await client.post(LEADS, json=body)
    assert response.status_code in (400, 422)
    assert response.json()["success"] is False and response.json()["errors"]


async def test_bad_json_is_400(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    response = await client.post(
        f"{LEADS}/{lead_id}/notes",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 400


# --- status, target score ---------------------------------------------------------------


async def test_change_status(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    response = await client.patch(f"{LEADS}/{lead_id}/status", json={"lead_status": "warm"})
    assert response.json() == {"success": True, "id": lead_id, "lead_status": "warm"}
    assert (await detail(client, lead_id))["lead_status"] == "warm"
    bad = await client.patch(f"{LEADS}/{lead_id}/status", json={"lead_status": "hot"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "lead_status"


async def test_target_score_is_validated_per_field(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    response = await client.patch(f"{LEADS}/{lead_id}/target-score", json={"target_score": 80})
    assert response.json() == {"success": True, "id": lead_id, "target_score": 80}
    assert (await detail(client, lead_id))["target_score"] == 80
    for value in (0, 101, -5, 10**30):
        bad = await client.patch(f"{LEADS}/{lead_id}/target-score", json={"target_score": value})
        assert bad.status_code == 400, value
        assert bad.json()["errors"] == [
            {"field": "target_score", "message": bad.json()["errors"][0]["message"]}
        ]
    assert (await client.patch(f"{LEADS}/{lead_id}/target-score", json={})).status_code == 400
    wrong_type = await client.patch(
        f"{LEADS}/{lead_id}/target-score", json={"target_score": "high"}
    )
    assert wrong_type.status_code == 422
    assert (await detail(client, lead_id))["target_score"] == 80


# --- signal scan -------------------------------------------------------------------------


async def test_signal_scan_moves_from_none_to_completed(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await new_lead(client)
    await new_contact(client, lead_id)
    none = (await client.get(f"{LEADS}/{lead_id}/signal-scan")).json()
    assert none["status"] == "none" and none["success"] is True and none["message"]
    started = await client.post(f"{LEADS}/{lead_id}/signal-scan", json={})
    assert started.status_code == 201
    assert started.json()["status"] == "pending" and started.json()["lead_id"] == lead_id
    assert started.json()["started_at"] == "2026-11-22T09:00:00.000Z"
    assert (await client.get(f"{LEADS}/{lead_id}/signal-scan")).json()["status"] == "pending"
    clock.advance(5)
    running = (await client.get(f"{LEADS}/{lead_id}/signal-scan")).json()
    assert running["status"] == "running" and running["progress"] == 50
    assert (await detail(client, lead_id))["monitoring_pages"] == []
    clock.advance(5)
    done = (await client.get(f"{LEADS}/{lead_id}/signal-scan")).json()
    assert done["status"] == "completed" and done["progress"] == 100
    assert 5 <= done["pages_found"] <= 12
    assert done["completed_at"] == "2026-11-22T09:00:10.000Z"
    lead = await detail(client, lead_id)
    assert lead["signal_scan_status"] == "completed"
    assert len(lead["monitoring_pages"]) == done["pages_found"]
    page = lead["monitoring_pages"][0]
    assert set(page) == {
        "id",
        "url",
        "label",
        "page_type",
        "score",
        "is_selected",
        "last_checked_at",
    }
    assert all(1 <= p["score"] <= 10 for p in lead["monitoring_pages"])
    assert "contact_social" in {p["page_type"] for p in lead["monitoring_pages"]}
    assert lead["monitoring_active"] is True


async def test_detail_read_lands_a_due_scan(client: httpx.AsyncClient, clock: ManualClock) -> None:
    lead_id = await scanned_lead(client, clock)
    assert (await detail(client, lead_id))["signal_scan_status"] == "completed"
    listed = (await client.get(LEADS, params={"per_page": 200})).json()["data"]
    assert next(lead for lead in listed if lead["id"] == lead_id)["monitoring_active"] is True


async def test_monitoring_toggle_and_rescan_keeps_the_selection(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await scanned_lead(client, clock)
    pages = (await detail(client, lead_id))["monitoring_pages"]
    for page in pages:
        response = await client.patch(
            f"{LEADS}/{lead_id}/monitoring-pages/{page['id']}", json={"is_selected": False}
        )
        assert response.json()["page"] == {**page, "is_selected": False}
    assert (await detail(client, lead_id))["monitoring_active"] is False
    await client.patch(
        f"{LEADS}/{lead_id}/monitoring-pages/{pages[-1]['id']}", json={"is_selected": True}
    )
    await client.post(f"{LEADS}/{lead_id}/signal-scan", json={})
    clock.advance(10)
    rescanned = (await detail(client, lead_id))["monitoring_pages"]
    assert [(p["id"], p["url"]) for p in rescanned] == [(p["id"], p["url"]) for p in pages]
    assert [p["is_selected"] for p in rescanned] == [False] * (len(pages) - 1) + [True]
    missing = await client.patch(
        f"{LEADS}/{lead_id}/monitoring-pages/999999", json={"is_selected": True}
    )
    assert missing.status_code == 404 and missing.json()["message"] == "Monitoring page not found"


def limit_quota(app: FastAPI, key: str, quota: str, value: int) -> None:
    with app.state.db.transaction() as conn:
        quotas.set_limit(conn, key, quota, value)


def quota_used(app: FastAPI, key: str, quota: str) -> int:
    with app.state.db.read() as conn:
        return quotas.used(conn, key, quota)


async def test_signal_slots_are_held_per_lead_and_freed_on_removal(
    client: httpx.AsyncClient, app: FastAPI, settings: SandboxSettings, clock: ManualClock
) -> None:
    key = settings.api_keys[0]
    limit_quota(app, key, "site_signal_slots", quota_used(app, key, "site_signal_slots") + 1)
    first, second = await new_lead(client, name="First"), await new_lead(client, name="Second")
    assert (await client.post(f"{LEADS}/{first}/signal-scan", json={})).status_code == 201
    clock.advance(10)
    # A rescan of the same lead takes no new slot.
    assert (await client.post(f"{LEADS}/{first}/signal-scan", json={})).status_code == 201
    refused = await client.post(f"{LEADS}/{second}/signal-scan", json={})
    assert refused.status_code == 403
    assert refused.json()["errors"]["quota"] == "site_signal_slots"
    assert refused.json()["message"].startswith("Plan limit reached: site_signal_slots")
    assert (await client.get(f"{LEADS}/{second}/signal-scan")).json()["status"] == "none"
    await client.request("DELETE", LEADS, json={"lead_ids": [first]})
    assert (await client.post(f"{LEADS}/{second}/signal-scan", json={})).status_code == 201


# --- recommendations ---------------------------------------------------------------------


async def test_generation_is_async_and_uses_enabled_sources(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await scanned_lead(client, clock)
    before = (await client.get(f"{LEADS}/{lead_id}/recommendations")).json()
    assert before == {
        "success": True,
        "recommendations": [],
        "count": 0,
        "progress": {"completed": 0, "dismissed": 0, "total": 0},
        "generation_status": "none",
    }
    started = await client.post(f"{LEADS}/{lead_id}/recommendations/generate", json={})
    assert started.status_code == 202
    assert started.json()["status"] == "pending" and started.json()["success"] is True
    clock.advance(5)
    running = (await client.get(f"{LEADS}/{lead_id}/recommendations")).json()
    assert running["generation_status"] == "running" and running["count"] == 0
    clock.advance(5)
    body = (await client.get(f"{LEADS}/{lead_id}/recommendations")).json()
    assert body["generation_status"] == "completed"
    assert body["count"] == len(body["recommendations"]) > 0
    assert body["progress"] == {"completed": 0, "dismissed": 0, "total": body["count"]}
    rec = body["recommendations"][0]
    assert set(rec) == {
        "id",
        "lead_id",
        "action_type",
        "target_url",
        "suggested_comment",
        "priority",
        "engagement_reason",
        "source_page_label",
        "status",
        "created_at",
    }
    assert {r["action_type"] for r in body["recommendations"]} <= {"comment", "follow", "like"}
    assert {r["status"] for r in body["recommendations"]} == {"active"}
    enabled_labels = {
        p["label"] for p in (await detail(client, lead_id))["monitoring_pages"] if p["is_selected"]
    }
    assert {r["source_page_label"] for r in body["recommendations"]} <= enabled_labels
    order = {"high": 0, "medium": 1, "low": 2}
    priorities = [order[r["priority"]] for r in body["recommendations"]]
    assert priorities == sorted(priorities)
    lead = await detail(client, lead_id)
    assert lead["recommendation_count"] == body["count"]
    assert [r["id"] for r in lead["recommendations"]] == [r["id"] for r in body["recommendations"]]


async def test_warm_leads_get_nurturing_actions(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await scanned_lead(client, clock, status="warm")
    body = await generated(client, clock, lead_id)
    assert body["count"] > 0
    assert {r["action_type"] for r in body["recommendations"]} <= {
        "share_content",
        "check_in",
        "congratulate",
    }


async def test_generation_without_enabled_sources_finds_nothing(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await new_lead(client)
    body = await generated(client, clock, lead_id)
    assert body["generation_status"] == "completed" and body["count"] == 0


async def test_complete_awards_points_and_dismisses_same_target(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await scanned_lead(client, clock)
    recs = (await generated(client, clock, lead_id))["recommendations"]
    by_target: dict[str, list[dict[str, Any]]] = {}
    for rec in recs:
        by_target.setdefault(rec["target_url"], []).append(rec)
    shared = next(group for group in by_target.values() if len(group) > 1)
    chosen, twins = shared[0], [rec["id"] for rec in shared[1:]]
    response = await client.post(f"{LEADS}/{lead_id}/recommendations/{chosen['id']}/complete")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is True
    assert body["recommendation"]["status"] == "completed"
    assert body["auto_dismissed"] == twins
    assert body["points_awarded"] > 0 and body["warming_score"] == body["points_awarded"]
    listing = (await client.get(f"{LEADS}/{lead_id}/recommendations")).json()
    assert listing["count"] == len(recs) - 1 - len(twins)
    assert listing["progress"] == {"completed": 1, "dismissed": len(twins), "total": len(recs)}
    assert chosen["target_url"] not in {r["target_url"] for r in listing["recommendations"]}
    lead = await detail(client, lead_id)
    assert lead["warming_score"] == body["warming_score"]
    assert (
        lead["activity_count"] == 1
        and lead["touchpoints"][0]["bonus_points"] == body["points_awarded"]
    )
    again = await client.post(f"{LEADS}/{lead_id}/recommendations/{chosen['id']}/complete")
    assert (again.status_code, again.json()) == (404, REC_NOT_FOUND)
    twin = await client.post(f"{LEADS}/{lead_id}/recommendations/{twins[0]}/complete")
    assert (twin.status_code, twin.json()) == (404, REC_NOT_FOUND)


async def test_completing_a_recommendation_logs_it_for_the_contact_it_concerns(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    """Spec: a touchpoint's `contact_id` is the contact the activity concerns, and signal scans
    monitor key contacts' social accounts: engaging with a post there concerns that contact."""
    lead_id = await new_lead(client)
    contact_id = await new_contact(client, lead_id)
    assert (await client.post(f"{LEADS}/{lead_id}/signal-scan", json={})).status_code == 201
    clock.advance(10)
    pages = (await detail(client, lead_id))["monitoring_pages"]

    async def complete_one_from(source: dict[str, Any]) -> dict[str, Any]:
        for page in pages:
            selected = {"is_selected": page["id"] == source["id"]}
            await client.patch(f"{LEADS}/{lead_id}/monitoring-pages/{page['id']}", json=selected)
        recs = (await generated(client, clock, lead_id))["recommendations"]
        rec = next(r for r in recs if r["source_page_label"] == source["label"])
        done = await client.post(f"{LEADS}/{lead_id}/recommendations/{rec['id']}/complete")
        assert done.status_code == 200, done.text
        return (await detail(client, lead_id))["touchpoints"][0]

    contacts_account = next(p for p in pages if p["url"] == "https://social.example/dana")
    assert contacts_account["page_type"] == "contact_social"
    assert (await complete_one_from(contacts_account))["contact_id"] == contact_id
    blog = next(p for p in pages if p["page_type"] == "blog")
    assert (await complete_one_from(blog))["contact_id"] is None, "a company page concerns no contact"


def test_an_older_database_gets_the_contact_columns(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.sqlite3")
    old_schema = outreach.SCHEMA.replace("    contact_id INTEGER,\n", "").replace(",\n    contact_id INTEGER\n", "\n")
    conn.executescript("CREATE TABLE companies (id INTEGER PRIMARY KEY);" + old_schema)
    columns = {t: [row[1] for row in conn.execute(f"PRAGMA table_info({t})")] for t, _, _ in ADDED_COLUMNS}
    assert all("contact_id" not in names for names in columns.values()), "the old schema lacks them"
    for _ in range(2):
        outreach.add_missing_columns(conn)
    for table, column, _ in ADDED_COLUMNS:
        assert [row[1] for row in conn.execute(f"PRAGMA table_info({table})")][-1] == column
    conn.close()


async def test_dismiss_then_complete_fails(client: httpx.AsyncClient, clock: ManualClock) -> None:
    lead_id = await scanned_lead(client, clock)
    rec = (await generated(client, clock, lead_id))["recommendations"][0]
    dismissed = await client.post(f"{LEADS}/{lead_id}/recommendations/{rec['id']}/dismiss")
    assert dismissed.json() == {"success": True, "recommendation": {**rec, "status": "dismissed"}}
    assert (await detail(client, lead_id))["warming_score"] == 0
    for action in ("complete", "dismiss"):
        response = await client.post(f"{LEADS}/{lead_id}/recommendations/{rec['id']}/{action}")
        assert (response.status_code, response.json()) == (404, REC_NOT_FOUND)
    unknown = await client.post(f"{LEADS}/{lead_id}/recommendations/999999/complete")
    assert (unknown.status_code, unknown.json()) == (404, REC_NOT_FOUND)
    other_lead = await new_lead(client, name="Other")
    foreign = await client.post(f"{LEADS}/{other_lead}/recommendations/{rec['id']}/complete")
    assert foreign.status_code == 404


async def test_points_never_lift_the_score_past_100(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await scanned_lead(client, clock)
    for _ in range(6):
        clock.advance(86_400)
        await client.post(f"{LEADS}/{lead_id}/touchpoints", json={"description": "Meeting on site"})
    assert (await detail(client, lead_id))["warming_score"] == 90
    rec = (await generated(client, clock, lead_id))["recommendations"][0]
    logged = (
        await client.post(f"{LEADS}/{lead_id}/touchpoints", json={"description": "Called Dana"})
    ).json()
    assert logged["bonus_info"]["total"] == 10 and logged["warming_score"] == 100
    body = (await client.post(f"{LEADS}/{lead_id}/recommendations/{rec['id']}/complete")).json()
    assert body["points_awarded"] > 0 and body["warming_score"] == 100


# --- activity log --------------------------------------------------------------------------


async def test_log_activity_answers_the_specs_table(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    contact_id = await new_contact(client, lead_id, role="decision-maker")
    response = await client.post(
        f"{LEADS}/{lead_id}/touchpoints",
        json={
            "description": "Called Dana, she wants a demo next Tuesday",
            "contact_id": contact_id,
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"success", "touchpoint", "detected_type", "bonus_info", "warming_score"}
    assert body["touchpoint"] == {
        "id": body["touchpoint"]["id"],
        "description": "Called Dana, she wants a demo next Tuesday",
        "detected_type": "call",
        "contact_id": contact_id,
        "bonus_points": 18,
        "created_at": "2026-11-22T09:00:00.000Z",
    }
    assert body["detected_type"] == "call"
    assert body["bonus_info"]["base_points"] == 10
    assert body["bonus_info"]["multiplier"] == 1.8
    assert body["bonus_info"]["total"] == 18
    assert "decision-maker" in body["bonus_info"]["reason"]
    assert "next step" in body["bonus_info"]["reason"]
    assert body["warming_score"] == 18
    lead = await detail(client, lead_id)
    assert lead["warming_score"] == 18 and lead["activity_count"] == 1
    assert lead["last_activity_at"] == "2026-11-22T09:00:00.000Z"


async def test_activity_without_contact_and_repeat_within_a_day(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    first = (
        await client.post(f"{LEADS}/{lead_id}/touchpoints", json={"description": "Sent an email"})
    ).json()
    second = (
        await client.post(
            f"{LEADS}/{lead_id}/touchpoints",
            json={"description": "Emailed again", "contact_id": None},
        )
    ).json()
    assert first["bonus_info"]["total"] == 5 and first["touchpoint"]["contact_id"] is None
    assert second["bonus_info"]["multiplier"] == 0.5
    assert second["warming_score"] == first["warming_score"] + second["bonus_info"]["total"]


async def test_activity_validation(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    url = f"{LEADS}/{lead_id}/touchpoints"
    assert (await client.post(url, json={"description": ""})).status_code == 400
    assert (await client.post(url, json={"description": "x" * 5001})).status_code == 400
    assert (await client.post(url, json={"description": "x" * 5000})).status_code == 201
    assert (await client.post(url, json={})).status_code == 400
    unknown = await client.post(url, json={"description": "Called", "contact_id": 999_999})
    assert unknown.status_code == 404 and unknown.json()["message"] == "Contact not found"
    assert (await detail(client, lead_id))["activity_count"] == 1


async def test_detail_shows_the_50_newest_touchpoints_newest_first(
    client: httpx.AsyncClient, clock: ManualClock
) -> None:
    lead_id = await new_lead(client)
    for number in range(55):
        clock.advance(60)
        await client.post(
            f"{LEADS}/{lead_id}/touchpoints", json={"description": f"Liked post {number}"}
        )
    lead = await detail(client, lead_id)
    assert lead["activity_count"] == 55
    assert [t["description"] for t in lead["touchpoints"]] == [
        f"Liked post {n}" for n in range(54, 4, -1)
    ]
    assert lead["last_activity_at"] == lead["touchpoints"][0]["created_at"]
    assert lead["warming_score"] <= 100


# --- notes ----------------------------------------------------------------------------------


async def test_notes_newest_first(client: httpx.AsyncClient, clock: ManualClock) -> None:
    lead_id = await new_lead(client)
    created = []
    for text in ("first", "second", "third"):
        response = await client.post(f"{LEADS}/{lead_id}/notes", json={"content": text})
        assert response.status_code == 201
        assert set(response.json()["note"]) == {"id", "content", "created_at"}
        created.append(response.json()["note"])
        clock.advance(1)
    # Two notes in the same millisecond still come newest first.
    created.append(
        (await client.post(f"{LEADS}/{lead_id}/notes", json={"content": "fourth"})).json()["note"]
    )
    created.append(
        (await client.post(f"{LEADS}/{lead_id}/notes", json={"content": "fifth"})).json()["note"]
    )
    notes = (await client.get(f"{LEADS}/{lead_id}/notes")).json()
    assert notes == {"success": True, "data": created[::-1]}
    assert (await client.post(f"{LEADS}/{lead_id}/notes", json={"content": ""})).status_code == 400
    assert (
        await client.post(f"{LEADS}/{lead_id}/notes", json={"content": "x" * 10_001})
    ).status_code == 400
    assert (await client.post(f"{LEADS}/{lead_id}/notes", json={"content": 5})).status_code == 422


# --- key contacts, competitors, deal --------------------------------------------------------


async def test_pin_and_unpin_a_key_contact(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    contact_id = await new_contact(client, lead_id)
    url = f"{LEADS}/{lead_id}/contacts/{contact_id}"
    pinned = (await client.patch(url, json={"is_selected": True})).json()
    assert pinned["success"] is True
    assert pinned["contact"] == {
        "id": contact_id,
        "first_name": "Dana",
        "last_name": "Berg",
        "title": "VP Operations",
        "role": "decision-maker",
        "email": None,
        "social_url": "https://social.example/dana",
        "is_selected": True,
    }
    assert (await client.patch(url, json={"is_selected": True})).json() == pinned
    assert (await detail(client, lead_id))["contacts"] == [pinned["contact"]]
    unpinned = (await client.patch(url, json={"is_selected": False})).json()
    assert unpinned["contact"]["is_selected"] is False
    other_company_contact = (await client.post("/v1/contacts", json={"first_name": "Eve"})).json()[
        "data"
    ]["id"]
    stranger = await client.patch(
        f"{LEADS}/{lead_id}/contacts/{other_company_contact}", json={"is_selected": True}
    )
    assert stranger.status_code == 404 and stranger.json()["message"] == "Contact not found"
    assert (await client.patch(url, json={"is_selected": "yes"})).status_code == 422


async def test_competitors_add_scan_pin(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    added = await client.post(
        f"{LEADS}/{lead_id}/competitors", json={"name": "Globex", "domain": "globex.example"}
    )
    assert added.status_code == 201
    competitor = added.json()["competitor"]
    assert competitor == {
        "id": competitor["id"],
        "name": "Globex",
        "domain": "globex.example",
        "is_pinned": False,
        "last_scanned_at": None,
        "scan_summary": None,
    }
    scanned = (await client.post(f"{LEADS}/{lead_id}/competitors/{competitor['id']}/scan")).json()
    assert scanned["competitor"]["last_scanned_at"] == "2026-11-22T09:00:00.000Z"
    assert scanned["competitor"]["scan_summary"].startswith("Globex: ")
    pinned = (
        await client.patch(
            f"{LEADS}/{lead_id}/competitors/{competitor['id']}", json={"is_pinned": True}
        )
    ).json()
    assert pinned["competitor"]["is_pinned"] is True
    assert (await detail(client, lead_id))["competitors"] == [pinned["competitor"]]
    missing = await client.post(f"{LEADS}/{lead_id}/competitors/999999/scan")
    assert missing.status_code == 404 and missing.json()["message"] == "Competitor not found"
    assert (
        await client.post(f"{LEADS}/{lead_id}/competitors", json={"name": ""})
    ).status_code == 400


async def test_deal_only_for_warm_leads(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client, "cold")
    refused = await client.patch(f"{LEADS}/{lead_id}/deal", json={"deal_value": 1000})
    assert refused.status_code == 409
    assert refused.json()["message"] == "Deal tracking is only available for warm leads"


async def test_deal_value_won_and_lost(client: httpx.AsyncClient, clock: ManualClock) -> None:
    lead_id = await new_lead(client, "warm")
    url = f"{LEADS}/{lead_id}/deal"
    body = (await client.patch(url, json={"deal_value": 24000, "deal_currency": "eur"})).json()
    assert body == {
        "success": True,
        "id": lead_id,
        "deal_value": 24000,
        "deal_currency": "EUR",
        "won_at": None,
        "closed_at": None,
        "closed_reason": None,
    }
    won = (await client.patch(url, json={"won": True})).json()
    assert won["won_at"] == "2026-11-22T09:00:00.000Z" and won["deal_value"] == 24000
    clock.advance(60)
    assert (await client.patch(url, json={"won": True})).json()["won_at"] == won["won_at"]
    assert (await client.patch(url, json={"won": False})).json()["won_at"] is None
    lost = (await client.patch(url, json={"lost": True, "closed_reason": "No budget"})).json()
    assert lost["closed_at"] == "2026-11-22T09:01:00.000Z" and lost["closed_reason"] == "No budget"
    lead = await detail(client, lead_id)
    assert (lead["deal_value"], lead["deal_currency"], lead["closed_reason"]) == (
        24000,
        "EUR",
        "No budget",
    )
    reopened = (await client.patch(url, json={"lost": False})).json()
    assert reopened["closed_at"] is None and reopened["closed_reason"] is None
    both = await client.patch(url, json={"won": True, "lost": True})
    assert both.status_code == 400
    for bad in (
        {"deal_value": -1},
        {"deal_currency": "EURO"},
        {"deal_value": 1e300},
        {"won": "yes"},
    ):
        assert (await client.patch(url, json=bad)).status_code in (400, 422), bad


# --- retries ----------------------------------------------------------------------------------


async def test_a_retried_activity_is_logged_once(client: httpx.AsyncClient) -> None:
    lead_id = await new_lead(client)
    url, headers = f"{LEADS}/{lead_id}/touchpoints", {"Idempotency-Key": "op-1"}
    first = await client.post(url, json={"description": "Called Dana"}, headers=headers)
    again = await client.post(url, json={"description": "Called Dana"}, headers=headers)
    assert again.status_code == first.status_code == 201
    assert again.json() == first.json()
    other = await client.post(url, json={"description": "Emailed Dana"}, headers=headers)
    assert other.status_code == 422
    assert (await detail(client, lead_id))["activity_count"] == 1


async def test_removing_a_lead_mid_scan_fails_its_jobs_quietly(
    client: httpx.AsyncClient, app: FastAPI, clock: ManualClock
) -> None:
    lead_id = await new_lead(client)
    await client.post(f"{LEADS}/{lead_id}/signal-scan", json={})
    await client.post(f"{LEADS}/{lead_id}/recommendations/generate", json={})
    await client.request("DELETE", LEADS, json={"lead_ids": [lead_id]})
    clock.advance(10)
    listed = await client.get(LEADS, params={"per_page": 200})
    assert listed.status_code == 200
    assert lead_id not in {lead["id"] for lead in listed.json()["data"]}
    with app.state.db.read() as conn:
        rows = conn.execute(
            "SELECT kind, status, error FROM jobs WHERE subject_id = ? AND kind IN (?, ?) ORDER BY id",
            (lead_id, "signal_scan", "recommendation_generation"),
        ).fetchall()
    assert [tuple(row) for row in rows] == [
        ("signal_scan", "failed", "Outreach lead not found"),
        ("recommendation_generation", "failed", "Outreach lead not found"),
    ]
