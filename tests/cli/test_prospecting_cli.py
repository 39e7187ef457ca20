"""The prospecting commands against the in-process sandbox: lookup, deep search, contact
search, research, companies, outreach; their costs, exit codes, JSON and offline behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi import FastAPI

from support.cli_sandbox import configure, make_sandbox, open_store, run, serve
from warmline.ops.kinds import JobKind


def found_companies(query: str = "dental clinics", count: int = 3) -> list[dict]:
    result = run("deep-search", query, "--max", str(count), "--wait", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["results"]


# --- lookup ---------------------------------------------------------------------------------------


def test_lookup_semantic_shows_scores_and_cost_first(online: Path) -> None:
    result = run("lookup", "--query", "logistics software", "--limit", "3")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("This uses 1 instant lookup from your plan.")
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["SCORE", "NAME"]
    assert len(lines) == 1 + 3  # the table alone: its figures go to stderr
    scores = [float(line.split()[0]) for line in lines[1:4]]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    assert result.stderr.splitlines()[-1] == "total 3 · saved 0 · not saved (plan limit) 0"


def test_lookup_json_is_stable_and_save_puts_companies_in_the_cache(online: Path) -> None:
    result = run("lookup", "--industry", "Logistics", "--country", "Sweden", "--country", "Norway",
                 "--save", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["total", "saved_count", "quota_limited", "cached", "fetched_at", "companies"]
    assert data["cached"] is False and data["total"] == len(data["companies"]) > 0
    assert data["saved_count"] == data["total"]
    first = data["companies"][0]
    assert list(first) == ["name", "domain", "industry", "country", "region", "size", "description",
                           "similarity_score", "saved_company_id"]
    assert all(c["country"] in ("Sweden", "Norway") for c in data["companies"])
    assert first["similarity_score"] is None  # keyword search: no score
    with open_store(online) as store:
        assert store.get_company(first["saved_company_id"]).name == first["name"]


def test_lookup_save_top_saves_only_the_first_n_saying_the_cost_first(online: Path) -> None:
    plain_answer = json.loads(run("lookup", "--query", "logistics software", "--limit", "5", "--json").stdout)
    assert [c["saved_company_id"] for c in plain_answer["companies"]] == [None] * 5
    result = run("lookup", "--query", "logistics software", "--limit", "5", "--save-top", "2", "--json")
    assert result.exit_code == 0, result.output
    notice = "Saves 2 companies: uses 2 of your plan's saved-company slots (no instant lookup)."
    assert result.stderr.index("This uses 1 instant lookup") < result.stderr.index(notice)
    companies = json.loads(result.stdout)["companies"]
    assert [c["saved_company_id"] is not None for c in companies] == [True, True, False, False, False]
    with open_store(online) as store:
        assert [store.get_company(c["saved_company_id"]).name for c in companies[:2]] == [c["name"] for c in companies[:2]]
    # from the cached answer: no lookup spent, only the third is new
    again = run("lookup", "--query", "logistics software", "--limit", "5", "--save-top", "3", "--cached", "--json")
    assert again.exit_code == 0, again.output
    assert "This uses 1 instant lookup" not in again.stderr and "Saves 1 company: uses 1 of" in again.stderr
    assert [c["saved_company_id"] is not None for c in json.loads(again.stdout)["companies"]] == [True] * 3 + [False] * 2
    assert json.loads(again.stdout)["companies"][:2] == companies[:2]


@pytest.mark.parametrize(
    "args",
    [
        ["--query", "ab"],
        [],
        ["--industry", "  "],
        ["--broaden", "--industry", "Energy"],
        ["--query", "logistics", "--limit", "0"],
        ["--query", "logistics", "--save-top", "0"],
        ["--query", "logistics", "--save", "--save-top", "2"],
    ],
)
def test_lookup_bad_input_exits_2_before_spending(online: Path, args: list[str]) -> None:
    result = run("lookup", *args)
    assert result.exit_code == 2, result.output
    assert "instant lookup" not in result.stderr


def test_lookup_offline_offers_the_cached_answer(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run("lookup", "--query", "dental clinics", "--json")
    assert first.exit_code == 0, first.output
    serve(monkeypatch, None)
    again = run("lookup", "--query", "dental clinics", "--json")
    assert again.exit_code == 0, again.output
    assert "Offline" in again.stderr and "cached answer" in again.stderr
    cached = json.loads(again.stdout)
    assert cached["cached"] is True and cached["fetched_at"]
    assert cached["companies"] == json.loads(first.stdout)["companies"]
    # --cached rereads it without asking the service at all
    reread = run("lookup", "--query", "dental clinics", "--cached")
    assert reread.exit_code == 0 and "instant lookup" not in reread.stderr


def test_lookup_offline_with_nothing_cached_exits_4(offline: Path) -> None:
    result = run("lookup", "--query", "dental clinics")
    assert result.exit_code == 4
    assert "Offline" in result.stderr


def test_lookup_without_an_api_key_exits_3(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(monkeypatch, data_dir, key=None)
    assert run("lookup", "--query", "dental clinics").exit_code == 3


def test_lookup_refused_key_exits_3(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARMLINE_API_KEY", "not-a-known-key")
    result = run("lookup", "--query", "dental clinics")
    assert result.exit_code == 3
    assert "not-a-known-key" not in result.output


def test_lookup_plan_limit_is_reported(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_sandbox(tmp_path, instant_lookups=1)
    serve(monkeypatch, app)
    try:
        assert run("lookup", "--query", "dental clinics").exit_code == 0
        result = run("lookup", "--query", "logistics")
    finally:
        app.state.db.close()
    assert result.exit_code == 1
    assert "Plan limit reached: instant_lookups" in result.stderr


# --- deep search --------------------------------------------------------------------------------------


def test_deep_search_wait_lists_found_companies_with_their_ai_tag(online: Path) -> None:
    result = run("deep-search", "dental clinics", "--max", "3", "--wait")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("This uses 1 deep search from your plan.")
    assert "completed: 3 companies found" in result.stdout
    header = next(line for line in result.stdout.splitlines() if line.startswith("ID "))
    assert "AI TAG" in header
    assert result.stdout.count("AI: dental clinics") == 3
    with open_store(online) as store:
        assert store.company_count() >= 3  # saved in the cache too


def test_deep_search_json_and_jobs(online: Path) -> None:
    companies = found_companies(count=2)
    assert len(companies) == 2 and all(c["ai_tag"] for c in companies)
    with open_store(online) as store:
        job = store.jobs()[0]
    assert job.kind == JobKind.DEEP_SEARCH and job.status == "completed"


def test_deep_search_without_wait_starts_and_returns(online: Path) -> None:
    result = run("deep-search", "dental clinics")
    assert result.exit_code == 0, result.output
    assert "Started deep search" in result.stdout
    with open_store(online) as store:
        job = store.jobs()[0]
    assert job.remote_id is not None and job.params["max_results"] == 20


@pytest.mark.parametrize("args", [["ab"], ["x" * 1001], ["dental clinics", "--max", "0"], ["dental clinics", "--max", "101"]])
def test_deep_search_bad_input_exits_2_and_queues_nothing(online: Path, args: list[str]) -> None:
    result = run("deep-search", *args)
    assert result.exit_code == 2, result.output
    with open_store(online) as store:
        assert store.outbox_rows() == [] and store.jobs() == []


def test_deep_search_offline_is_queued_then_started_by_sync(offline: Path, sandbox: FastAPI,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    result = run("deep-search", "dental clinics")
    assert result.exit_code == 0, result.output
    assert "will start when online" in result.stdout
    with open_store(offline) as store:
        assert [(j.kind, j.status, j.remote_id) for j in store.jobs()] == [(JobKind.DEEP_SEARCH, "queued", None)]
    assert run("deep-search", "dental clinics", "--wait").exit_code == 4
    serve(monkeypatch, sandbox)
    assert run("sync").exit_code == 0
    with open_store(offline) as store:
        assert all(j.remote_id is not None for j in store.jobs())
        assert store.outbox_counts().queued == 0


def test_deep_search_refused_by_plan_limit(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_sandbox(tmp_path, deep_searches=0)
    serve(monkeypatch, app)
    try:
        result = run("deep-search", "dental clinics", "--wait")
    finally:
        app.state.db.close()
    assert result.exit_code == 1
    assert "Plan limit reached: deep_searches" in result.stderr
    assert "warmline outbox discard" in result.stderr


# --- contacts ------------------------------------------------------------------------------------------------


def test_contact_search_groups_people_by_role_then_add_explains_skips(online: Path) -> None:
    company = found_companies()[0]
    result = run("contacts", "search", company["name"][:6], "--wait")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("This uses 1 deep search from your plan.")
    out = result.stdout
    positions = [out.index(h) for h in ("Decision-makers:", "Champions:", "Influencers:")]
    assert positions == sorted(positions)
    with open_store(online) as store:
        job = next(j for j in store.jobs() if j.kind == JobKind.CONTACT_SEARCH)
        people = store.found_contacts(job.key)
    assert f"warmline contacts add {job.remote_id} CONTACT_ID..." in result.stderr  # a hint, not the table
    first, second = people[0]["id"], people[1]["id"]

    listed = run("contacts", "found", job.remote_id, "--json")
    assert listed.exit_code == 0
    assert [p["id"] for p in json.loads(listed.stdout)] == [p["id"] for p in people]

    added = run("contacts", "add", job.remote_id, str(first), str(second))
    assert added.exit_code == 0, added.output
    assert "uses contact capacity" in added.stderr
    assert "Added 2; skipped 0." in added.stdout
    again = run("contacts", "add", job.remote_id, str(first), "99999", "--json")
    data = json.loads(again.stdout)
    assert (data["state"], data["added"], data["skipped"]) == ("sent", 0, 2)
    assert {(s["id"], s["reason"]) for s in data["skipped_ids"]} == {(first, "duplicate"), (99999, "unknown")}
    text = run("contacts", "add", job.remote_id, str(first))
    name = f"{people[0]['first_name']} {people[0]['last_name']}"  # named as the search found them
    assert f"skipped {name}: already in your contacts" in text.stdout
    with open_store(online) as store:
        assert len(store.contacts_page(company_id=company["id"])) == 2
        assert store.contact_count() == 2
    listed = json.loads(run("contacts", "found", job.remote_id, "--json").stdout)
    assert [p["id"] for p in listed if p["in_contacts"]] == [first, second]  # as the cached contacts say
    table = run("contacts", "found", job.remote_id).stdout
    assert [line.split()[0] for line in table.splitlines() if line.endswith("  yes")] == [str(first), str(second)]


def test_contacts_add_before_the_search_completed_is_refused(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    company = found_companies(count=1)[0]
    monkeypatch.setattr("warmline.sync.jobs.POLL_MIN", 60.0)
    started = run("contacts", "search", str(company["id"]))
    assert started.exit_code == 0, started.output
    with open_store(online) as store:
        job = next(j for j in store.jobs() if j.kind == JobKind.CONTACT_SEARCH)
    result = run("contacts", "add", job.remote_id, "1")
    assert result.exit_code == 2
    assert "Job must be completed before adding contacts" in result.stderr
    assert run("contacts", "found", job.remote_id).exit_code == 2


def test_contacts_add_to_an_unknown_job_is_refused_by_the_service(online: Path) -> None:
    result = run("contacts", "add", "424242", "1")
    assert result.exit_code == 1
    assert "Job not found" in result.stderr


def test_company_names_must_be_known_and_unambiguous(online: Path) -> None:
    with open_store(online) as store:
        store.upsert_companies([
            {"id": 9001, "name": "Acme North", "domain": "acme-north.example"},
            {"id": 9002, "name": "Acme", "domain": "acme.example"},
            {"id": 9003, "name": "Acme South", "domain": "acme-south.example"},
        ])
    unknown = run("companies", "show", "Zzzz no such company")
    assert unknown.exit_code == 2
    assert "no cached company matches 'Zzzz no such company' (run `warmline companies --refresh`)" in unknown.stderr
    ambiguous = run("companies", "show", "acm")
    assert ambiguous.exit_code == 2
    assert "matches several companies: Acme (9002), Acme North (9001), Acme South (9003)" in ambiguous.stderr
    assert json.loads(run("companies", "show", "ACME", "--json").stdout)["id"] == 9002  # whole name
    assert json.loads(run("companies", "show", "acme s", "--json").stdout)["id"] == 9003  # one prefix
    assert json.loads(run("companies", "show", "9001", "--json").stdout)["name"] == "Acme North"


def test_a_list_of_companies_names_every_one_it_cannot_resolve(online: Path) -> None:
    """Every unknown or ambiguous name in one line (one correction, not one a run), and a
    company named twice is run once."""
    with open_store(online) as store:
        store.upsert_companies([
            {"id": 9001, "name": "Acme North", "domain": "acme-north.example"},
            {"id": 9003, "name": "Acme South", "domain": "acme-south.example"},
        ])
    result = run("research", "run", "ICP fit", "Zzzz", "acme", "9001", "Yyyy")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert ("no cached company matches 'Zzzz'; 'acme' matches several companies: Acme North (9001), "
            "Acme South (9003); no cached company matches 'Yyyy' (run `warmline companies --refresh`)") in result.stderr
    company = found_companies(count=1)[0]
    twice = run("research", "run", "ICP fit", company["name"], str(company["id"]))
    assert twice.exit_code == 0, twice.output
    assert "This uses 1 company enrichment from your plan (one per company)." in twice.stderr


# --- research ---------------------------------------------------------------------------------------------------


def test_research_templates_list_their_fields(online: Path) -> None:
    result = run("research", "templates", "--json")
    assert result.exit_code == 0, result.output
    templates = json.loads(result.stdout)
    assert {"ICP fit", "Tech stack"} <= {t["name"] for t in templates}
    assert all(list(t) == ["id", "name", "description", "fields"] for t in templates)
    assert all({"key", "name", "type"} <= set(f) for t in templates for f in t["fields"])
    text = run("research", "templates")
    assert "ICP fit" in text.stdout and "icp_fit_score" in text.stdout


def test_research_run_by_name_fills_custom_fields(online: Path) -> None:
    companies = found_companies(count=2)
    ids = [str(c["id"]) for c in companies]
    result = run("research", "run", "icp FIT", *ids, "--wait")
    assert result.exit_code == 0, result.output
    assert "This uses 2 company enrichments from your plan (one per company)." in result.stderr
    assert "2 companies enriched" in result.stdout
    assert result.stdout.count("icp_fit_score") == 2
    shown = json.loads(run("companies", "show", ids[0], "--json").stdout)
    assert isinstance(shown["custom_fields"]["icp_fit_score"], int)
    assert "icp_fit_score" in run("companies", "show", ids[1]).stdout


def test_research_run_json_results(online: Path) -> None:
    company = found_companies(count=1)[0]
    result = run("research", "run", "Tech stack", str(company["id"]), "--wait", "--json")
    data = json.loads(result.stdout)
    assert data["job"]["status"] == "completed"
    assert [r["company_id"] for r in data["results"]] == [company["id"]]
    assert "tech_stack" in data["results"][0]["fields"]


def test_research_run_bad_input(online: Path) -> None:
    found_companies(count=1)
    assert run("research", "run", "ICP fit", *[str(i) for i in range(1, 102)]).exit_code == 2
    unknown = run("research", "run", "No such template", "1")
    assert unknown.exit_code == 1
    assert "Research template not found" in unknown.stderr


# --- companies ------------------------------------------------------------------------------------------------------


def test_companies_from_the_cache_with_search_limit_and_json(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "No companies in the cache" in run("companies").stderr
    fetched = run("companies", "--refresh")
    assert fetched.exit_code == 0 and "Fetched" in fetched.stderr
    serve(monkeypatch, None)  # the rest reads the cache only
    listing = json.loads(run("companies", "--json").stdout)
    assert len(listing) > 3
    assert list(listing[0]) == ["id", "name", "domain", "industry", "country", "region", "size",
                                "description", "tags", "custom_fields", "source", "ai_tag"]
    assert [c["name"].lower() for c in listing] == sorted(c["name"].lower() for c in listing)
    assert len(json.loads(run("companies", "--json", "--limit", "2").stdout)) == 2
    target = listing[1]
    searched = json.loads(run("companies", "--search", target["domain"], "--json").stdout)
    assert [c["id"] for c in searched] == [target["id"]]
    assert run("companies", "--limit", "0").exit_code == 2
    assert target["name"] in run("companies").stdout


# --- outreach --------------------------------------------------------------------------------------------------------


def test_outreach_add_as_cold_then_remove_with_confirmation(online: Path) -> None:
    first, second = found_companies(count=2)
    result = run("outreach", "add", str(first["id"]), second["name"], "--as", "cold", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["state"] == "sent" and data["added"] == 2
    assert {lead["company_id"] for lead in data["leads"]} == {first["id"], second["id"]}
    assert {lead["lead_status"] for lead in data["leads"]} == {"cold"}
    lead_ids = [str(lead["id"]) for lead in data["leads"]]
    leads = json.loads(run("leads", "--json").stdout)
    assert {str(lead["id"]) for lead in leads} >= set(lead_ids)

    # A lead already, by the cache: left out by name, nothing queued (adding is no way to
    # change a lead's status, and the spec does not say what the service does with one).
    again = run("outreach", "add", str(first["id"]), "--as", "warm")
    assert again.exit_code == 0, again.output
    assert f"Left out {first['name']} ({first['id']}): already a cold lead" in again.stderr
    assert "Nothing to add." in again.stderr
    with open_store(online) as store:
        assert not store.outbox_rows()
    third = next(c for c in found_companies(count=5) if c["id"] not in (first["id"], second["id"]))
    mixed = json.loads(run("outreach", "add", str(first["id"]), str(third["id"]), "--as", "cold", "--json").stdout)
    assert mixed["added"] == 1 and [lead["company_id"] for lead in mixed["leads"]] == [third["id"]]
    assert mixed["skipped"] == [{"company_id": first["id"], "reason": "already a cold lead"}]
    nothing = json.loads(run("outreach", "add", str(first["id"]), "--as", "cold", "--json").stdout)
    assert (nothing["op_id"], nothing["ops"], nothing["added"]) == (None, [], 0)
    assert nothing["skipped"] == [{"company_id": first["id"], "reason": "already a cold lead"}]
    lead_ids.append(str(mixed["leads"][0]["id"]))

    declined = run("outreach", "remove", lead_ids[0], input="n\n")
    assert declined.exit_code == 1 and "Nothing removed" in declined.stderr
    removed = run("outreach", "remove", *lead_ids, input="y\n")
    assert removed.exit_code == 0, removed.output
    assert "Removed 3 lead(s)." in removed.stdout
    remaining = {lead["id"] for lead in json.loads(run("leads", "--json").stdout)}
    assert not remaining & {int(i) for i in lead_ids}


def test_outreach_offline_is_queued(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    company = found_companies(count=1)[0]
    serve(monkeypatch, None)
    result = run("outreach", "add", str(company["id"]), "--as", "warm")
    assert result.exit_code == 0
    assert "Queued; offline now" in result.stdout
    as_json = run("outreach", "add", str(company["id"]), "--as", "warm", "--json")
    assert as_json.exit_code == 0
    data = json.loads(as_json.stdout)
    assert {k: v for k, v in data.items() if k not in ("op_id", "ops")} == {
        "state": "queued", "jobs": [], "added": None, "leads": [], "skipped": []}
    assert [(op["op_id"], op["kind"], op["state"]) for op in data["ops"]] == [(data["op_id"], "add_to_outreach", "queued")]
    assert "Queued; offline now" in as_json.stderr
    with open_store(online) as store:
        assert [op.kind for op in store.outbox_rows()] == ["add_to_outreach", "add_to_outreach"]


def test_outreach_bad_input(online: Path) -> None:
    assert run("outreach", "add", "1").exit_code == 2  # --as is required
    assert run("outreach", "add", "1", "--as", "hot").exit_code == 2
    assert run("outreach", "remove", "no such lead", "--yes").exit_code == 2


def test_company_research_reports_its_findings(online: Path) -> None:
    company = found_companies(count=1)[0]
    result = run("companies", "research", company["name"], "--focus", "expansion plans", "--wait")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("This uses 1 deep search from your plan.")
    assert "company research" in result.stdout and "completed: " in result.stdout
    assert "Key facts:" in result.stdout and "Sources:" in result.stdout
    data = json.loads(run("companies", "research", str(company["id"]), "--wait", "--json").stdout)
    assert data["job"]["kind"] == "company_research" and data["job"]["company_id"] == company["id"]
    findings = data["results"][0]
    assert findings["summary"] and findings["key_facts"] and findings["sources"][0]["url"].startswith("http")


# --- company and contact records ------------------------------------------------------------------------------------


def test_company_create_edit_tags_fields_delete(online: Path) -> None:
    created = run("companies", "create", "--set", "name=Fjord Freight", "--set", "domain=fjord.example",
                  "--tag", "nordics", "--tag", "saas", "--custom", "icp_fit_score=80", "--json")
    assert created.exit_code == 0, created.output
    company = json.loads(created.stdout)
    assert (company["name"], company["tags"], company["custom_fields"]) == ("Fjord Freight", ["nordics", "saas"], {"icp_fit_score": 80})

    edited = run("companies", "edit", "fjord", "--set", "industry=Logistics", "--custom", "uses_crm=true", "--json")
    assert edited.exit_code == 0, edited.output
    changed = json.loads(edited.stdout)
    assert changed["industry"] == "Logistics"
    assert changed["custom_fields"] == {"icp_fit_score": 80, "uses_crm": True}  # merged, not replaced
    assert "uses_crm               true" in run("companies", "show", "Fjord").stdout

    assert json.loads(run("companies", "tags", str(company["id"]), "--json").stdout) == ["nordics", "saas"]
    schema = json.loads(run("companies", "fields", "--json").stdout)
    assert "icp_fit_score" in {f["key"] for f in schema}
    with open_store(online) as store:
        assert [f["key"] for f in store.field_schemas("companies")] == [f["key"] for f in schema]

    declined = run("companies", "delete", "Fjord", input="n\n")
    assert declined.exit_code == 1 and "Nothing deleted" in declined.stderr
    deleted = run("companies", "delete", "Fjord", "--yes")
    assert deleted.exit_code == 0 and "Deleted Fjord Freight" in deleted.stdout
    assert run("companies", "show", str(company["id"])).exit_code == 2
    assert run("companies", "edit", str(company["id"]), "--set", "size=1-10").exit_code == 2  # gone on the service


def test_custom_values_are_read_by_the_cached_schema_like_the_cockpit_forms(online: Path) -> None:
    assert run("companies", "fields").exit_code == 0  # caches the schema
    created = run("companies", "create", "--set", "name=Typed Co", "--custom", "uses_crm=yes",
                  "--custom", "icp_fit_score=72", "--custom", 'not_in_schema={"a": 1}', "--json")
    assert created.exit_code == 0, created.output
    assert json.loads(created.stdout)["custom_fields"] == {"uses_crm": True, "icp_fit_score": 72, "not_in_schema": {"a": 1}}
    refused = run("companies", "edit", "Typed", "--custom", "icp_fit_score=lots")
    assert refused.exit_code == 2 and "must be a number" in refused.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "domain=no-name.example"],  # a name is required
        ["--set", "name=X", "--set", "colour=blue"],  # unknown field
        ["--set", "name"],  # not FIELD=VALUE
        ["--set", "name=X", "--set", "tags=a"],  # tags go through --tag
    ],
)
def test_company_create_bad_input_exits_2(online: Path, args: list[str]) -> None:
    assert run("companies", "create", *args).exit_code == 2


def test_records_need_the_service(offline: Path) -> None:
    """Creating is queued offline (issue 23, test_acting_json.py); reading the fields needs the service."""
    result = run("companies", "fields")
    assert result.exit_code == 4 and "Offline" in result.stderr
    assert run("contacts", "fields").exit_code == 4


def test_contact_create_list_edit_delete(online: Path) -> None:
    company = found_companies(count=1)[0]
    created = run("contacts", "create", "--set", "first_name=Dana", "--set", "last_name=Berg",
                  "--set", f"company_id={company['id']}", "--set", "role=champion", "--json")
    assert created.exit_code == 0, created.output
    contact = json.loads(created.stdout)
    assert (contact["company_id"], contact["role"]) == (company["id"], "champion")
    listed = json.loads(run("contacts", "list", "--company", str(company["id"]), "--json").stdout)
    assert [c["id"] for c in listed] == [contact["id"]]
    assert list(listed[0]) == ["id", "company_id", "first_name", "last_name", "title", "role", "email", "phone",
                               "social_url", "tags", "custom_fields"]
    table = run("contacts", "list").stdout.splitlines()
    assert "Dana Berg" in table[1] and company["name"] in table[1]  # the company by name, not its id
    assert table[0].split()[5] == "COMPANY"
    edited = json.loads(run("contacts", "edit", str(contact["id"]), "--set", "title=CTO", "--json").stdout)
    assert edited["title"] == "CTO" and edited["first_name"] == "Dana"
    assert "title:        CTO" in run("contacts", "show", str(contact["id"])).stdout
    assert run("contacts", "show", "Dana").exit_code == 2  # contacts are named by id
    assert run("contacts", "create", "--set", "role=boss", "--set", "first_name=X").exit_code == 2
    assert run("contacts", "delete", str(contact["id"]), "--yes").exit_code == 0
    assert json.loads(run("contacts", "list", "--json").stdout) == []
    empty = run("contacts", "list")
    assert "Try `warmline contacts list --refresh`." in empty.stderr  # the command that exists
    refreshed = run("contacts", "list", "--refresh", "--json")
    assert refreshed.exit_code == 0 and "Fetched" in refreshed.stderr


def test_show_refresh_reads_the_service_and_falls_back_to_the_cache(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(online) as store:
        store.upsert_companies([{"id": 1, "name": "Stale name"}])
    fresh = json.loads(run("companies", "show", "1", "--refresh", "--json").stdout)
    assert fresh["name"] != "Stale name" and fresh["domain"]
    serve(monkeypatch, None)
    cached = run("companies", "show", "1", "--refresh", "--json")
    assert cached.exit_code == 0 and "Showing the cached company" in cached.stderr
    assert json.loads(cached.stdout)["name"] == fresh["name"]
    assert run("contacts", "show", "424242", "--refresh").exit_code == 2


def test_research_show_one_template(online: Path) -> None:
    listed = {t["name"]: t for t in json.loads(run("research", "templates", "--json").stdout)}
    by_id = json.loads(run("research", "show", listed["Tech stack"]["id"], "--json").stdout)
    assert by_id == listed["Tech stack"]
    by_name = run("research", "show", "tech STACK")
    assert by_name.exit_code == 0 and "tech_stack" in by_name.stdout
    assert run("research", "show", "no-such-template").exit_code == 2
