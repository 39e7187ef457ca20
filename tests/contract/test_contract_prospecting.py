"""Contract: instant lookup, company deep search, per-company research, contact search."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from support.contract import Sandbox, new_company, plan
from warmline.api import ServiceClient
from warmline.api.errors import ConflictError, JobNotCompletedError, NotFoundError

ROLES = {"decision-maker", "champion", "influencer"}


async def test_semantic_lookup_scores_between_0_and_1_and_saves(client: ServiceClient) -> None:
    result = await client.lookup_companies("logistics software for warehouses", save=True, limit=5)
    assert 1 <= result.total == len(result.companies) <= 5
    scores = [c.similarity_score for c in result.companies]
    assert all(score is not None and 0.0 <= score <= 1.0 for score in scores)
    assert scores == sorted(scores, reverse=True)
    assert result.saved_count == result.total and result.quota_limited == 0

    for found in result.companies:
        assert found.saved_company_id is not None
        saved = await client.get_company(found.saved_company_id)
        assert (saved.name, saved.domain, saved.source) == (found.name, found.domain, "lookup")

    again = await client.lookup_companies("logistics software for warehouses", save=True, limit=5)
    assert again.saved_count == 0, "companies already saved (same domain) are not saved twice"
    assert [c.saved_company_id for c in again.companies] == [
        c.saved_company_id for c in result.companies
    ]


async def test_keyword_lookup_matches_filters_without_scores(client: ServiceClient) -> None:
    result = await client.lookup_companies(industries=["fintech"], countries=["DE"], limit=10)
    assert result.total == len(result.companies) >= 1
    for found in result.companies:
        assert found.industry == "Financial Services" and found.country == "Germany"
        assert found.similarity_score is None and found.saved_company_id is None
    assert (result.saved_count, result.quota_limited) == (0, 0)

    by_region = await client.lookup_companies(regions=["bavaria"], limit=3)
    assert by_region.companies and all(c.region == "Bavaria" for c in by_region.companies)


async def test_broadened_lookup_admits_weaker_matches(client: ServiceClient) -> None:
    narrow = await client.lookup_companies("dental clinics", limit=100)
    broad = await client.lookup_companies("dental clinics", broaden_search=True, limit=100)
    assert broad.total > narrow.total >= 1
    assert {c.domain for c in narrow.companies} <= {c.domain for c in broad.companies}
    weakest = min(c.similarity_score or 0.0 for c in broad.companies)
    assert 0.0 <= weakest < min(c.similarity_score or 0.0 for c in narrow.companies)


async def test_lookup_saves_are_capped_by_the_saved_companies_quota(
    sandbox_factory: Callable[..., Sandbox],
) -> None:
    sandbox = sandbox_factory(quotas=plan(saved_companies=2))
    client = sandbox.client()
    preview = await client.lookup_companies(industries=["software"], limit=10)
    unsaved = [c.domain for c in preview.companies if c.saved_company_id is None]
    assert len(unsaved) >= 3, "the seed must leave at least 3 unsaved software companies"

    result = await client.lookup_companies(industries=["software"], save=True, limit=10)
    assert [c.domain for c in result.companies] == [c.domain for c in preview.companies]
    assert (result.saved_count, result.quota_limited) == (2, len(unsaved) - 2)
    newly_saved = [c for c in result.companies if c.domain in unsaved and c.saved_company_id]
    assert len(newly_saved) == 2


async def test_deep_search_job_moves_to_completed_and_saves_companies(sandbox: Sandbox) -> None:
    client = sandbox.client()
    started = await client.start_deep_search("dental clinics", max_results=4)
    assert started.status == "pending" and started.job_id > 0
    assert (started.query, started.target_count) == ("dental clinics", 4)
    assert started.created_at == sandbox.clock.now()
    assert started.message and f"/v1/companies/deep-search/{started.job_id}" in started.message

    polled = await client.get_deep_search(started.job_id)
    assert polled.status == "pending" and polled.companies == []
    sandbox.advance(5)
    halfway = await client.get_deep_search(started.job_id)
    assert halfway.status in ("pending", "running") and halfway.completed_at is None
    sandbox.advance(6)
    done = await client.get_deep_search(started.job_id)
    assert done.status == "completed" and done.progress == 100 and done.error is None
    assert done.found_count == len(done.companies) == 4
    assert done.completed_at is not None and done.completed_at > done.created_at

    tags = {company.ai_tag for company in done.companies}
    assert len(tags) == 1 and None not in tags, "one AI-generated tag for the whole search"
    listed = await client.list_companies(per_page=200)
    by_id = {company.id: company for company in listed.items}
    for company in done.companies:
        assert company.source == "deep_search"
        assert by_id[company.id].name == company.name


async def test_deep_search_unknown_job_is_not_found(client: ServiceClient) -> None:
    with pytest.raises(NotFoundError, match="^Job not found$"):
        await client.get_deep_search(987_654)


async def test_company_research_finishes_with_findings(sandbox: Sandbox) -> None:
    client = sandbox.client()
    company_id = await new_company(client, "Researched Robotics", industry="Robotics")
    started = await client.start_company_research(company_id, focus="pricing and hiring")
    assert (started.company_id, started.status, started.results) == (company_id, "pending", None)

    sandbox.advance(11)
    done = await client.get_company_research(company_id, started.search_id)
    assert (done.search_id, done.status, done.progress) == (started.search_id, "completed", 100)
    assert done.results is not None and "Researched Robotics" in (done.results.summary or "")
    assert done.results.key_facts and all(fact for fact in done.results.key_facts)
    assert done.results.sources and all(s.url and s.url.startswith("http") for s in done.results.sources)

    other = await new_company(client, "Someone Else")
    with pytest.raises(NotFoundError, match="^Job not found$"):
        await client.get_company_research(other, started.search_id)
    with pytest.raises(NotFoundError, match="^Company not found$"):
        await client.start_company_research(987_654)
    with pytest.raises(NotFoundError, match="^Company not found$"):
        await client.get_company_research(987_654, started.search_id)


async def test_contact_search_finds_people_and_adds_them_once(sandbox: Sandbox) -> None:
    client = sandbox.client()
    company_id = await new_company(client, "Searchable Systems")
    started = await client.start_contact_search(company_id)
    assert (started.status, started.company_id, started.contacts) == ("pending", company_id, [])

    with pytest.raises(JobNotCompletedError) as early:
        await client.add_contacts(started.job_id, [1])
    assert isinstance(early.value, ConflictError) and early.value.status == 409
    assert early.value.message == "Job must be completed before adding contacts"

    sandbox.advance(11)
    done = await client.get_contact_search(started.job_id)
    assert done.status == "completed" and 3 <= len(done.contacts) <= 10
    for person in done.contacts:
        assert person.role in ROLES and person.title and person.company_id == company_id
        assert person.email and person.social_url

    chosen = [person.id for person in done.contacts[:2]]
    added = await client.add_contacts(started.job_id, chosen)
    assert (added.added, added.skipped, added.skipped_ids) == (2, 0, [])
    assert [(c.first_name, c.company_id) for c in added.contacts] == [
        (p.first_name, company_id) for p in done.contacts[:2]
    ]
    listed = await client.list_contacts(company_id=company_id)
    assert {c.id for c in listed.items} == {c.id for c in added.contacts}

    repeat = await client.add_contacts(started.job_id, chosen)
    assert (repeat.added, repeat.skipped) == (0, 2)
    assert [(s.id, s.reason) for s in repeat.skipped_ids] == [(i, "duplicate") for i in chosen]


async def test_contact_search_by_role_returns_only_those_roles(sandbox: Sandbox) -> None:
    client = sandbox.client()
    company_id = await new_company(client, "Role Filter Inc")
    started = await client.start_contact_search(company_id, roles=["champion"])
    sandbox.advance(11)
    done = await client.get_contact_search(started.job_id)
    assert done.contacts and {person.role for person in done.contacts} == {"champion"}


async def test_adding_contacts_from_an_unknown_job_is_not_found(client: ServiceClient) -> None:
    with pytest.raises(NotFoundError) as caught:
        await client.add_contacts(987_654, [1])
    assert (caught.value.status, caught.value.message) == (404, "Job not found")
    with pytest.raises(NotFoundError, match="^Job not found$"):
        await client.get_contact_search(987_654)


async def test_adding_past_contact_capacity_skips_instead_of_failing(
    sandbox_factory: Callable[..., Sandbox],
) -> None:
    sandbox = sandbox_factory(quotas=plan(contact_capacity=1))
    client = sandbox.client()
    company_id = await new_company(client, "Capacity Check")
    started = await client.start_contact_search(company_id)
    sandbox.advance(11)
    people = (await client.get_contact_search(started.job_id)).contacts[:3]
    added = await client.add_contacts(started.job_id, [p.id for p in people])
    assert (added.added, added.skipped) == (1, 2)
    assert [s.reason for s in added.skipped_ids] == ["limit", "limit"]
