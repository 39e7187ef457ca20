"""The outreach lead operations (`warmline outreach status|target|deal|scan|scan-status|
source|recs|generate|complete|dismiss|pin|competitor-*`) against the in-process sandbox:
each one changes the service's state, works offline by queueing, and exits 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from support.cli_sandbox import make_sandbox, open_store, run, serve
from warmline.vocabulary import recommendation_action


@pytest.fixture
def synced(online: Path) -> Path:
    """A cache filled by one sync with the sandbox's seeded leads."""
    result = run("sync")
    assert result.exit_code == 0, result.output
    return online


def server(app: FastAPI, sql: str, *params: Any) -> Any:
    """One value of the sandbox's own database: what the service now holds."""
    with app.state.db.read() as conn:
        row = conn.execute(sql, params).fetchone()
    return None if row is None else row[0]


def detail(lead_id: int) -> dict[str, Any]:
    """The lead's detail as `warmline lead` shows it (fetched first when online)."""
    return json.loads(ok("lead", str(lead_id), "--json"))


def lead_ids(data_dir: Path, status: str | None = None) -> list[int]:  # noqa: F811
    with open_store(data_dir) as store:
        return [r.id for r in store.lead_page(status=status, sort="score", offset=0, limit=50)]


def lead_with(data_dir: Path, status: str) -> int:  # noqa: F811
    return lead_ids(data_dir, status)[0]


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def bad(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 2, result.output
    return result.stderr


# --- the lead's own fields --------------------------------------------------------------------


def test_status_moves_the_lead_on_the_service(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = lead_with(synced, "cold")
    out = ok("outreach", "status", str(lead_id), "warm")
    assert "Queued status warm on" in out and "Delivered." in out
    assert server(sandbox, "SELECT lead_status FROM outreach_leads WHERE id = ?", lead_id) == "warm"
    assert detail(lead_id)["lead"]["lead_status"] == "warm"


def test_target_sets_the_score_and_refuses_one_outside_1_to_100(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = lead_with(synced, "cold")
    assert "Delivered." in ok("outreach", "target", str(lead_id), "55")
    assert server(sandbox, "SELECT target_score FROM outreach_leads WHERE id = ?", lead_id) == 55
    assert "target_score" in bad("outreach", "target", str(lead_id), "101")
    assert "target_score" in bad("outreach", "target", str(lead_id), "0")
    assert server(sandbox, "SELECT target_score FROM outreach_leads WHERE id = ?", lead_id) == 55


def test_deal_updates_a_warm_lead_and_marks_it_lost(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = lead_with(synced, "warm")
    out = ok("outreach", "deal", str(lead_id), "--value", "12000", "--currency", "EUR", "--lost", "no budget")
    assert "Delivered." in out
    row = ("deal_value", "deal_currency", "closed_reason")
    found = [server(sandbox, f"SELECT {c} FROM outreach_leads WHERE id = ?", lead_id) for c in row]
    assert found == [12000, "EUR", "no budget"]
    assert server(sandbox, "SELECT closed_at FROM outreach_leads WHERE id = ?", lead_id) is not None
    ok("outreach", "deal", str(lead_id), "--not-lost", "--won")
    assert server(sandbox, "SELECT closed_at FROM outreach_leads WHERE id = ?", lead_id) is None
    assert server(sandbox, "SELECT won_at FROM outreach_leads WHERE id = ?", lead_id) is not None


def test_deal_value_reads_amounts_as_the_cockpits_form_does(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = lead_with(synced, "warm")
    ok("outreach", "deal", str(lead_id), "--value", "1.500,50")
    assert server(sandbox, "SELECT deal_value FROM outreach_leads WHERE id = ?", lead_id) == 1500.5
    ok("outreach", "deal", str(lead_id), "--value", "24k")
    assert server(sandbox, "SELECT deal_value FROM outreach_leads WHERE id = ?", lead_id) == 24000
    assert "is not an amount such as 24000, 24,000.50 or 24k" in bad("outreach", "deal", str(lead_id), "--value", "1.2.3")


def test_deal_refuses_bad_input_with_exit_2(synced: Path) -> None:
    warm, cold = lead_with(synced, "warm"), lead_with(synced, "cold")
    assert "only available for warm leads" in bad("outreach", "deal", str(cold), "--value", "10")
    assert "at least one" in bad("outreach", "deal", str(warm))
    assert "cannot be used together" in bad("outreach", "deal", str(warm), "--lost", "x", "--not-lost")
    assert "deal_value" in bad("outreach", "deal", str(warm), "--value", "-5")
    with open_store(synced) as store:
        assert store.outbox_counts().queued == 0


# --- signal scan and monitoring sources --------------------------------------------------------


def test_scan_wait_follows_the_scan_and_scan_status_shows_it(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = lead_with(synced, "cold")
    out = ok("outreach", "scan", str(lead_id), "--wait")
    assert "The signal scan" in out and "completed" in out
    status = json.loads(ok("outreach", "scan-status", str(lead_id), "--json"))
    assert status["signal_scan_status"] == "completed"
    assert status["job"]["status"] == "completed" and status["job"]["lead_id"] == lead_id
    pages = server(sandbox, "SELECT count(*) FROM outreach_pages WHERE lead_id = ?", lead_id)
    assert len(status["monitoring_pages"]) == pages > 0
    text = ok("outreach", "scan-status", str(lead_id))
    assert "signal scan completed" in text.splitlines()[0]
    assert text.splitlines()[1].split() == ["ID", "ON", "SCORE", "TYPE", "LABEL", "URL"]
    # the type in words as the lead page names it (`Company social`), the JSON keeps the service's value
    types = {p["page_type"] for p in status["monitoring_pages"]}
    assert "company_social" in types and "Company social" in text and "company_social" not in text


def test_source_turns_a_monitoring_page_on_and_off(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = lead_with(synced, "cold")
    page = next(p["id"] for p in detail(lead_id)["monitoring_pages"] if not p["is_selected"])
    assert "Delivered." in ok("outreach", "source", str(lead_id), str(page), "on")
    assert server(sandbox, "SELECT is_selected FROM outreach_pages WHERE id = ?", page) == 1
    ok("outreach", "source", str(lead_id), str(page), "off")
    assert server(sandbox, "SELECT is_selected FROM outreach_pages WHERE id = ?", page) == 0
    assert "page_id" in bad("outreach", "source", str(lead_id), "999999", "on")



def test_a_scan_the_plan_refuses_exits_1_with_the_fix(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    app = make_sandbox(tmp_path / "limited", site_signal_slots=1)
    try:
        serve(monkeypatch, app)
        ok("sync")
        first, second = lead_ids(data_dir)[:2]
        assert "Started signal scan" in ok("outreach", "scan", str(first))
        result = run("outreach", "scan", str(second))
        assert result.exit_code == 1, result.output
        assert "site_signal_slots" in result.stderr and "warmline outbox retry" in result.stderr
    finally:
        app.state.db.close()

# --- recommendations ---------------------------------------------------------------------------


def active_recs(app: FastAPI) -> list[int]:
    with app.state.db.read() as conn:
        return sorted(r[0] for r in conn.execute("SELECT id FROM outreach_recommendations WHERE status = 'active'"))


def test_recs_lists_every_leads_active_recommendations(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    listed = json.loads(ok("outreach", "recs", "--json"))
    assert sorted(r["id"] for r in listed) == active_recs(sandbox) != []
    assert set(listed[0]) >= {"id", "lead_id", "company_name", "action_type", "target_url", "priority"}
    lines = ok("outreach", "recs").splitlines()
    assert lines[0].split() == ["ID", "PRIORITY", "ACTION", "COMPANY", "SOURCE", "TARGET"]
    assert len(lines) == 1 + len(listed)
    # the action in words, as the lead page names it; --json keeps the service's value
    text = "\n".join(lines)
    for rec in listed:
        assert recommendation_action(rec["action_type"]) in text
    assert "_" not in "".join(line.split()[2] for line in lines[1:])
    shown = ok("lead", str(listed[0]["lead_id"]))
    assert f"] {recommendation_action(listed[0]['action_type'])}: " in shown


def test_generate_wait_brings_new_recommendations_for_the_lead(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = next(i for i in lead_ids(synced) if not json.loads(ok("outreach", "recs", str(i), "--json")))
    out = ok("outreach", "generate", str(lead_id), "--wait")
    assert "completed" in out
    listed = json.loads(ok("outreach", "recs", str(lead_id), "--json"))
    on_server = server(sandbox, "SELECT count(*) FROM outreach_recommendations WHERE lead_id = ? AND status = 'active'",
                       lead_id)
    assert len(listed) == on_server > 0 and {r["lead_id"] for r in listed} == {lead_id}


def test_complete_and_dismiss_close_recommendations_on_the_service(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    second, first = active_recs(sandbox)[:2]  # dismissed first: completing one may close its twins
    assert "Delivered." in ok("outreach", "dismiss", str(second))
    assert "Delivered." in ok("outreach", "complete", str(first))
    assert server(sandbox, "SELECT status FROM outreach_recommendations WHERE id = ?", first) == "completed"
    assert server(sandbox, "SELECT status FROM outreach_recommendations WHERE id = ?", second) == "dismissed"
    assert "already" in bad("outreach", "complete", str(first))
    assert "not in the local cache" in bad("outreach", "dismiss", "999999")


# --- key contacts and competitors -------------------------------------------------------------


def test_pin_and_unpin_key_contacts(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id, contact = next((i, c["contact_id"]) for i in lead_ids(synced) for c in detail(i)["contacts"]
                            if not c["is_selected"])
    pinned = "SELECT count(*) FROM outreach_key_contacts WHERE lead_id = ? AND contact_id = ?"
    assert "Delivered." in ok("outreach", "pin", str(lead_id), str(contact))
    assert server(sandbox, pinned, lead_id, contact) == 1
    ok("outreach", "pin", str(lead_id), str(contact), "--unpin")
    assert server(sandbox, pinned, lead_id, contact) == 0
    assert "contact 999999 is not a cached contact" in bad("outreach", "pin", str(lead_id), "999999")
    assert "contact_id" in bad("outreach", "pin", str(lead_id), "999999", "--unpin")


def test_pin_adopts_a_company_contact_the_lead_does_not_list_yet(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    # as the cockpit's `A` picker does (actions.pin_company_contact): a contact just created
    # for the lead's company is not in the lead's cached detail, and is pinned all the same
    lead_id = lead_ids(synced)[0]
    with open_store(synced) as store:
        lead = store.get_lead(lead_id)
        assert lead is not None and lead.company_id is not None
        company_id = lead.company_id
    created = json.loads(ok("contacts", "create", "--set", f"company_id={company_id}",
                            "--set", "first_name=Dana", "--set", "title=VP Ops", "--json"))
    contact = created["id"]  # `contacts create --json` prints the record
    with open_store(synced) as store:
        cached = store.lead_detail(lead_id)
        assert cached is not None and contact not in {c.contact_id for c in cached.contacts}
    assert "Delivered." in ok("outreach", "pin", str(lead_id), str(contact))
    pinned = "SELECT count(*) FROM outreach_key_contacts WHERE lead_id = ? AND contact_id = ?"
    assert server(sandbox, pinned, lead_id, contact) == 1
    with open_store(synced) as store:
        cached = store.lead_detail(lead_id)
        assert cached is not None and {c.contact_id: c.is_selected for c in cached.contacts}[contact] is True
    # a contact of another company is still refused, and nothing is queued for it
    other = next(i for i in lead_ids(synced) if i != lead_id)
    assert "not a cached contact" in bad("outreach", "pin", str(other), str(contact))
    with open_store(synced) as store:
        assert store.outbox_rows(lead_id=other) == []


def test_competitor_add_scan_and_pin(synced: Path, sandbox: FastAPI) -> None:  # noqa: F811
    lead_id = lead_with(synced, "cold")
    assert "Delivered." in ok("outreach", "competitor-add", str(lead_id), "Rival GmbH", "--domain", "rival.example")
    added = server(sandbox, "SELECT id FROM outreach_competitors WHERE lead_id = ? AND name = 'Rival GmbH'", lead_id)
    assert server(sandbox, "SELECT domain FROM outreach_competitors WHERE id = ?", added) == "rival.example"
    competitor = detail(lead_id)["competitors"][0]["id"]
    assert "Delivered." in ok("outreach", "competitor-scan", str(lead_id), str(competitor))
    assert server(sandbox, "SELECT last_scanned_at FROM outreach_competitors WHERE id = ?", competitor) is not None
    ok("outreach", "competitor-pin", str(lead_id), str(competitor))
    assert server(sandbox, "SELECT is_pinned FROM outreach_competitors WHERE id = ?", competitor) == 1
    ok("outreach", "competitor-pin", str(lead_id), str(competitor), "--unpin")
    assert server(sandbox, "SELECT is_pinned FROM outreach_competitors WHERE id = ?", competitor) == 0
    assert "competitor_id" in bad("outreach", "competitor-scan", str(lead_id), "999999")
    assert "name" in bad("outreach", "competitor-add", str(lead_id), "")


# --- offline and bad leads ----------------------------------------------------------------------


def test_offline_the_action_is_queued_applied_locally_and_sent_by_the_next_sync(
    synced: Path, sandbox: FastAPI, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    lead_id = lead_with(synced, "cold")
    serve(monkeypatch, None)
    out = ok("outreach", "status", str(lead_id), "warm")
    assert "Queued; offline now" in out
    assert detail(lead_id)["lead"]["lead_status"] == "warm"
    assert server(sandbox, "SELECT lead_status FROM outreach_leads WHERE id = ?", lead_id) == "cold"
    assert json.loads(ok("outreach", "recs", "--json"))  # the cached listing still answers
    serve(monkeypatch, sandbox)
    ok("sync")
    assert server(sandbox, "SELECT lead_status FROM outreach_leads WHERE id = ?", lead_id) == "warm"


def test_scan_offline_is_queued_and_wait_exits_4(synced: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lead_id = lead_with(synced, "cold")
    serve(monkeypatch, None)
    assert "offline now, it will start when online" in ok("outreach", "scan", str(lead_id))
    result = run("outreach", "scan", str(lead_id), "--wait")
    assert result.exit_code == 4, result.output


def test_an_unknown_lead_or_status_exits_2(synced: Path) -> None:
    for args in (("status", "999999", "warm"), ("target", "Nobody Such", "50"), ("scan-status", "zzz"),
                 ("recs", "999999"), ("generate", "999999")):
        assert run("outreach", *args).exit_code == 2, args
    assert run("outreach", "status", "1", "hot").exit_code == 2
    assert run("outreach", "source", "1", "1", "maybe").exit_code == 2


def test_a_new_contacts_company_may_be_given_by_name(synced: Path) -> None:
    """As the cockpit's contact form reads it: `company_id=` takes the start of a cached
    company's name, not only its id."""
    with open_store(synced) as store:
        lead = store.get_lead(lead_ids(synced)[0])
        assert lead is not None and lead.company_id is not None
    created = json.loads(ok("contacts", "create", "--set", f"company_id={lead.company_name}",
                            "--set", "first_name=Dana", "--json"))
    assert created["company_id"] == lead.company_id
    assert "no cached company matches 'zzzz'" in bad("contacts", "create", "--set", "company_id=zzzz",
                                                     "--set", "first_name=Dana")
