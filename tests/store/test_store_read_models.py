"""The read models: what one page of the cockpit (and the command that prints the same)
reads from the cache, assembled in the store."""

from __future__ import annotations

from warmline.store import Store
from warmline.store.company_page import Source, company_page
from warmline.store.contact_page import contact_page
from warmline.store.lookup_history import earlier_lookups
from warmline.store.people_found import people_found
from warmline.store.research_results import run_results

SCHEMA = [{"key": "icp_fit", "name": "ICP fit", "type": "number"}, {"key": "uses_sap", "name": "Uses SAP"}]


def test_a_company_page_holds_its_lead_fields_latest_jobs_and_first_people(store: Store, lead_item) -> None:
    assert company_page(store, 1001) is None
    store.upsert_companies([{"id": 1001, "name": "Kestrel", "custom_fields": {"zeta": 1, "uses_sap": True, "icp_fit": 80}}])
    store.upsert_field_schemas("companies", SCHEMA)
    store.upsert_leads([lead_item(1, "Kestrel", company_id=1001, lead_status="warm")])
    store.upsert_contacts([{"id": 10 + n, "company_id": 1001, "first_name": name} for n, name in enumerate("CAB")])
    store.record_job("company_research", "r-old", {"status": "failed", "company_id": 1001,
                                                    "created_at": "2026-11-01T00:00:00Z"})
    store.record_job("company_research", "r-new", {
        "status": "completed", "company_id": 1001, "created_at": "2026-11-02T00:00:00Z",
        "results": {"summary": "Analytics", "key_facts": ["Nordic", None],
                    "sources": [{"title": "Site", "url": "https://k.test"}, "not a source"]},
    })
    store.record_job("contact_search", "s-1", {"status": "running", "company_id": 1001})

    page = company_page(store, 1001, contacts_shown=2)

    assert page is not None and page.company.name == "Kestrel"
    assert page.lead is not None and (page.lead.id, page.lead.lead_status) == (1, "warm")
    assert [(f.label, f.value) for f in page.fields] == [("ICP fit", 80), ("Uses SAP", True), ("zeta", 1)]
    assert page.research is not None and page.research.remote_id == "r-new"
    assert page.findings is not None
    assert (page.findings.summary, page.findings.key_facts) == ("Analytics", ("Nordic", ""))
    assert page.findings.sources == (Source("Site", "https://k.test"),)
    assert page.contact_search is not None and page.contact_search.status == "running"
    assert [c.first_name for c in page.contacts] == ["A", "B"] and page.contact_total == 3

    store.mark_lead_gone(1, "removed")  # hidden: out of outreach, as on the lead list
    gone = company_page(store, 1001)
    assert gone is not None and gone.lead is None and store.lead_of_company(1001) is None


def test_a_contact_page_names_its_company_and_labels_its_fields(store: Store) -> None:
    store.upsert_companies([{"id": 1, "name": "Acme"}])
    store.upsert_field_schemas("contacts", [{"key": "lang", "name": "Language"}])
    store.upsert_contacts([{"id": 5, "company_id": 1, "first_name": "Ola", "custom_fields": {"lang": "no"}},
                           {"id": 6, "company_id": 99, "first_name": "Kai"}])
    page = contact_page(store, 5)
    assert page is not None and page.company_name == "Acme"
    assert [(f.label, f.value) for f in page.fields] == [("Language", "no")]
    other = contact_page(store, 6)
    assert other is not None and (other.company_name, other.fields) == (None, ())
    assert contact_page(store, 7) is None


def test_people_found_are_grouped_in_the_reps_order_with_their_company(store: Store) -> None:
    store.upsert_companies([{"id": 1, "name": "Acme"}])
    job = store.record_job("contact_search", 3, {"status": "completed", "company_id": 1, "contacts": [
        {"id": 1, "first_name": "No", "last_name": "Role"},
        {"id": 2, "first_name": "Ad", "role": "advisor"},
        {"id": 3, "first_name": "Cham", "role": "champion"},
        {"id": "4", "first_name": "Dee", "role": "decision-maker", "title": 7},
        "not a person",
    ]})
    found = people_found(store, job.key)
    assert found.company_name == "Acme" and found.company_id == 1
    assert [(g.role, [p.first_name for p in g.people]) for g in found.groups] == [
        ("decision-maker", ["Dee"]), ("champion", ["Cham"]), ("advisor", ["Ad"]), ("other", ["No"]),
    ]
    dee = found.groups[0].people[0]
    assert (dee.id, dee.title) == (None, "7")  # an id that is not a number cannot be added
    assert found.people[0].name == "No Role"
    assert people_found(store, 999).job is None



def test_people_found_who_are_already_contacts_of_the_company_are_known(store: Store) -> None:
    """The search's answer does not say who became a contact (the add answers with counts),
    nor whether a found id is a contact's id: the cache's contacts of the company say it,
    by email, else by full name, letter case aside. Another company's namesake is not."""
    store.upsert_companies([{"id": 1, "name": "Acme"}, {"id": 2, "name": "Other"}])
    store.upsert_contacts([
        {"id": 50, "company_id": 1, "first_name": "Dana", "last_name": "Kivi", "email": "DANA@acme.example"},
        {"id": 51, "company_id": 1, "first_name": "Jon", "last_name": "Berg", "email": None},
        {"id": 52, "company_id": 2, "first_name": "Ilkka", "last_name": "Saari", "email": "ilkka@acme.example"},
    ])
    job = store.record_job("contact_search", 3, {"status": "completed", "company_id": 1, "contacts": [
        {"id": 7001, "first_name": "D.", "last_name": "Kivi", "email": "dana@acme.example"},  # by email
        {"id": 7002, "first_name": "jon", "last_name": "BERG", "email": "jon@acme.example"},  # by name
        {"id": 7003, "first_name": "Ilkka", "last_name": "Saari", "email": "ilkka@acme.example"},  # at company 2
        {"id": 7004, "first_name": "Mira", "last_name": "Nyman"},
        {"first_name": "Dana", "last_name": "Kivi"},  # no id: cannot be added, not counted
    ]})
    found = people_found(store, job.key)
    assert found.in_contacts == frozenset({7001, 7002})
    # a contact made offline is queued, not on the service yet (a local id, below 0)
    store.upsert_contacts([{"id": -3, "company_id": 1, "first_name": "Mira", "last_name": "Nyman"}])
    assert people_found(store, job.key).in_contacts == frozenset({7001, 7002})


def test_research_results_show_each_value_as_the_cache_holds_it(store: Store) -> None:
    store.upsert_templates([{"id": "t1", "name": "ICP check"}])
    store.upsert_companies([{"id": 1, "name": "Acme"}])
    store.upsert_field_schemas("companies", SCHEMA)
    job = store.record_job("research_run", "run-1", {
        "status": "completed", "template_id": "t1",
        "results": [{"company_id": 1, "fields": {"icp_fit": 60}}, {"company_id": 2, "fields": {"icp_fit": 40}},
                    {"fields": {"icp_fit": 1}}],
    })
    store.upsert_companies([{"id": 1, "name": "Acme", "custom_fields": {"icp_fit": 65}}])  # the rep changed it

    run = run_results(store, job.key)

    assert run.template_name == "ICP check" and [f.key for f in run.schema] == ["icp_fit", "uses_sap"]
    assert [(r.company_id, r.company_name, r.values) for r in run.companies] == [
        (1, "Acme", {"icp_fit": 65}), (2, None, {"icp_fit": 40}), (None, None, {"icp_fit": 1}),
    ]
    empty = run_results(store, 999)
    assert (empty.job, empty.template_name, empty.companies) == (None, None, ())


def test_research_results_are_named_and_ordered_by_the_templates_data_points(store: Store) -> None:
    store.upsert_templates([{"id": "t2", "name": "Hiring signals", "fields": [
        {"key": "open_roles", "name": "Open roles", "type": "number"},
        {"key": "careers_page_url", "name": "Careers page", "type": "url"},
        {"name": "no key: skipped"},
    ]}])
    store.upsert_field_schemas("companies", [*SCHEMA, {"key": "open_roles", "name": "Roles (company field)"}])
    job = store.record_job("research_run", "run-2", {
        "status": "completed", "template_id": "t2",
        "results": [{"company_id": 1, "fields": {"careers_page_url": "https://a.test/jobs", "open_roles": 3}}],
    })

    run = run_results(store, job.key)

    # the template's own names and order first, then the company schema's other fields
    assert [(f.key, f.label) for f in run.schema] == [
        ("open_roles", "Open roles"), ("careers_page_url", "Careers page"), ("icp_fit", "ICP fit"), ("uses_sap", "Uses SAP"),
    ]


def test_earlier_lookups_are_newest_first_and_skip_what_cannot_be_read(store: Store, clock) -> None:
    store.save_lookup({"query": "dental"}, {"total": 1})
    clock.advance(60)
    store.save_lookup({"query": "logistics"}, {"total": 2})
    with store.write() as conn:
        conn.execute("INSERT INTO lookups (key, request, response, fetched_at) VALUES ('x', '[1]', '{}', '2099')")
    assert [e.criteria["query"] for e in earlier_lookups(store, 5)] == ["logistics", "dental"]
    assert len(earlier_lookups(store, 1)) == 0  # the newest row is the unreadable one


def test_the_queries_moved_into_the_store(store: Store, lead_item) -> None:
    store.upsert_companies([{"id": 1, "name": "Acme", "custom_fields": {"b": 1, "a": 2}},
                            {"id": 2, "name": "Acme Two", "custom_fields": {"c": 3}}, {"id": 3, "name": "Zeta"}])
    assert store.companies_named("acme", limit=6) == [(1, "Acme"), (2, "Acme Two")]
    assert store.custom_field_keys("companies") == ["a", "b", "c"]
    assert store.cached_ids("companies") == [1, 2, 3]
    store.upsert_leads([lead_item(4, deal_value=500, deal_currency="EUR")])
    deal = store.lead_deals([4])[4]
    assert (deal.deal_value, deal.deal_currency, deal.won_at) == (500, "EUR", None)
    assert store.lead_hidden(4) is False and store.lead_hidden(5) is None


def test_company_names_are_read_for_any_number_of_ids(store: Store) -> None:
    """The contacts list names each contact's company, a page at a time; a list of ids
    longer than one query binds (500) is read in parts, and ids not cached are left out."""
    store.upsert_companies([{"id": n, "name": f"Company {n}"} for n in range(1, 1201)])
    names = store.company_names([*range(1, 1201), 5000, 1, 1])
    assert len(names) == 1200 and names[1] == "Company 1" and names[1200] == "Company 1200"
    assert 5000 not in names
    assert store.company_names([]) == {}
