"""Instant lookup: keyword matching, semantic ranking, saving, and the spec's rules."""

from __future__ import annotations

import httpx
import pytest

from warmline_sandbox.search import resolve_countries, resolve_industries, resolve_regions

LOOKUP = "/v1/companies/lookup"
RESULT_KEYS = {"name", "domain", "industry", "country", "region", "size", "description", "saved_company_id"}


@pytest.mark.parametrize(
    ("keyword", "industry"),
    [("fintech", "Financial Services"), ("FINANCIAL", "Financial Services"), ("SaaS", "Software"),
     ("dental", "Healthcare"), ("logist", "Logistics & Supply Chain"), ("e-commerce", "Retail & E-commerce")],
)
def test_industry_keywords_match_by_synonym_case_and_part(keyword: str, industry: str) -> None:
    assert resolve_industries([keyword]) == {industry}


def test_countries_and_regions_match_names_codes_and_groups() -> None:
    assert resolve_countries(["de"]) == {"Germany"}
    assert resolve_countries(["DEU", "sweden"]) == {"Germany", "Sweden"}
    assert resolve_countries(["Nordics"]) == {"Sweden", "Norway", "Denmark", "Finland"}
    assert resolve_countries(["united"]) == {"United States", "United Kingdom"}
    assert resolve_regions(["bavaria"]) == ({"Bavaria"}, set())
    assert resolve_regions(["DACH"]) == (set(), {"Germany", "Austria", "Switzerland"})


async def test_keyword_lookup(client: httpx.AsyncClient) -> None:
    response = await client.post(LOOKUP, json={"industries": ["fintech"], "countries": ["DE", "se"], "limit": 30})
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True and body["total"] == len(body["companies"]) > 0
    assert (body["saved_count"], body["quota_limited"]) == (0, 0)
    for company in body["companies"]:
        assert set(company) == RESULT_KEYS, "no similarity score without a semantic query"
        assert company["industry"] == "Financial Services" and company["country"] in ("Germany", "Sweden")


async def test_unmatched_keyword_finds_nothing(client: httpx.AsyncClient) -> None:
    body = (await client.post(LOOKUP, json={"industries": ["underwater basket weaving"]})).json()
    assert (body["total"], body["companies"]) == (0, [])


async def test_semantic_lookup_ranks_with_scores(client: httpx.AsyncClient) -> None:
    query = {"query": "software studios in Bavaria", "limit": 20, "broaden_search": True}
    body = (await client.post(LOOKUP, json=query)).json()
    scores = [company["similarity_score"] for company in body["companies"]]
    assert body["total"] >= 2 and scores == sorted(scores, reverse=True)
    assert all(0.0 <= score <= 1.0 for score in scores)
    assert body["companies"][0]["industry"] == "Software"
    assert {company["region"] for company in body["companies"]} == {"Bavaria"}  # a place, not a word to match


async def test_broaden_search_admits_weaker_matches(client: httpx.AsyncClient) -> None:
    query = {"query": "solar battery storage for municipalities", "limit": 100}
    strict = (await client.post(LOOKUP, json=query)).json()
    broad = (await client.post(LOOKUP, json={**query, "broaden_search": True})).json()
    assert broad["total"] > strict["total"]
    assert min(c["similarity_score"] for c in broad["companies"]) < 0.6 <= min(
        c["similarity_score"] for c in strict["companies"])


async def test_location_words_in_the_query_filter(client: httpx.AsyncClient) -> None:
    body = (await client.post(LOOKUP, json={"query": "logistics software in the Nordics"})).json()
    assert body["total"] > 0
    assert {c["country"] for c in body["companies"]} <= {"Sweden", "Norway", "Denmark", "Finland"}


async def test_save_stores_results_once(client: httpx.AsyncClient) -> None:
    request = {"query": "payments platform for online merchants", "save": True, "limit": 3}
    first = (await client.post(LOOKUP, json=request)).json()
    assert (first["total"], first["saved_count"], first["quota_limited"]) == (3, 3, 0)
    saved_ids = [c["saved_company_id"] for c in first["companies"]]
    company = (await client.get(f"/v1/companies/{saved_ids[0]}")).json()["data"]
    assert company["source"] == "lookup" and company["domain"] == first["companies"][0]["domain"]
    again = (await client.post(LOOKUP, json=request)).json()
    assert again["saved_count"] == 0
    assert [c["saved_company_id"] for c in again["companies"]] == saved_ids


@pytest.mark.parametrize(
    "body",
    [{}, {"query": "ab"}, {"query": "x" * 1001}, {"industries": "fintech"}, {"query": "dental", "limit": 0},
     {"query": "dental", "limit": 10**30}, {"countries": [""]}, {"broaden_search": "maybe", "query": "abc"}],
)
async def test_invalid_lookups(client: httpx.AsyncClient, body: dict) -> None:
    response = await client.post(LOOKUP, json=body)
    assert response.status_code in (400, 422)
    assert response.json()["success"] is False and response.json()["errors"]


async def test_stopword_only_query_finds_nothing(client: httpx.AsyncClient) -> None:
    body = (await client.post(LOOKUP, json={"query": "the and of"})).json()
    assert body["total"] == 0
