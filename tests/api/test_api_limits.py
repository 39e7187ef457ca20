"""The spec's limits are checked with messages that name the field and the limit."""

import pytest

from warmline.api import limits as L
from warmline.api.errors import InputError


@pytest.mark.parametrize(
    ("call", "field", "fragment"),
    [
        (lambda: L.check_lookup_query("  ab "), "query", "at least 3 characters (got 2)"),
        (lambda: L.check_lookup(None, None, [], None), "query", "at least 3 characters or one of"),
        (lambda: L.check_lookup("abc", None, None, None, limit=101), "limit", "between 1 and 100 (got 101)"),
        (lambda: L.check_deep_search("ab"), "query", "at least 3 characters (got 2)"),
        (lambda: L.check_deep_search("x" * 1001), "query", "at most 1000 characters (got 1001)"),
        (lambda: L.check_deep_search("dental clinics", 0), "max_results", "between 1 and 100 (got 0)"),
        (lambda: L.check_deep_search("dental clinics", 101), "max_results", "between 1 and 100 (got 101)"),
        (lambda: L.check_research_run(None, "  ", [1]), "template_id", "template_id or template_name"),
        (lambda: L.check_research_run("t", None, []), "company_ids", "at least 1 id"),
        (lambda: L.check_research_run("t", None, list(range(1, 102))), "company_ids", "at most 100 ids (got 101)"),
        (lambda: L.check_target_score(150), "target_score", "between 1 and 100 (got 150)"),
        (lambda: L.check_target_score(0), "target_score", "between 1 and 100 (got 0)"),
        (lambda: L.check_target_score(True), "target_score", "whole number"),
        (lambda: L.check_target_score(50.0), "target_score", "whole number"),
        (lambda: L.check_activity_description(""), "description", "must not be empty"),
        (lambda: L.check_activity_description(" \n\t"), "description", "must not be empty"),
        (lambda: L.check_activity_description("x" * 5001), "description", "at most 5000 characters (got 5001)"),
        (lambda: L.check_note_content("x" * 10001), "content", "at most 10000 characters (got 10001)"),
        (lambda: L.check_note_content(None), "content", "must be text"),
        (lambda: L.check_contact_ids([]), "contact_ids", "at least 1 id"),
        (lambda: L.check_contact_ids([1, "2"]), "contact_ids", "positive whole numbers (got '2')"),
        (lambda: L.check_contact_ids("12"), "contact_ids", "must be a list"),
        (lambda: L.check_lead_status("hot"), "lead_status", "cold, warm (got 'hot')"),
        (lambda: L.check_contact_roles(["ceo"]), "roles", "decision-maker, champion, influencer"),
        (lambda: L.check_currency("EURO"), "deal_currency", "3-letter ISO 4217"),
        (lambda: L.check_deal(deal_value=-1), "deal_value", "0 or more"),
        (lambda: L.check_deal(deal_value=True), "deal_value", "must be a number"),
        (lambda: L.check_deal(won=True, lost=True), "won", "both won and lost"),
        (lambda: L.check_deal(), "deal", "at least one of"),
        (lambda: L.check_company_name("x" * 201), "name", "at most 200 characters"),
        (lambda: L.check_contact_name(" ", None), "first_name", "first_name or a last_name"),
        (lambda: L.check_competitor_name(""), "name", "must not be empty"),
        (lambda: L.check_page(0, 50), "page", "1 or more"),
        (lambda: L.check_page(1, 201), "per_page", "between 1 and 200 (got 201)"),
        (lambda: L.check_id("lead_id", 0), "lead_id", "positive whole number"),
    ],
)
def test_limit_violations_name_field_and_limit(call, field, fragment) -> None:
    with pytest.raises(InputError) as info:
        call()
    assert info.value.field == field
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_valid_values_come_back_ready_to_send() -> None:
    assert L.check_lookup_query("  logistics ") == "logistics"
    assert L.check_lookup(None, ["saas"], None, None) is None
    assert L.check_deep_search("x" * 1000, 100) == ("x" * 1000, 100)
    assert L.check_deep_search("abc") == ("abc", L.DEEP_SEARCH_MAX_RESULTS_DEFAULT)
    assert L.check_research_run(None, "ICP fit", range(1, 101)) == list(range(1, 101))
    assert L.check_target_score(1) == 1 and L.check_target_score(100) == 100
    assert L.check_activity_description("x" * 5000) == "x" * 5000
    assert L.check_note_content(" keep spaces ") == " keep spaces "
    assert L.check_currency(" eur ") == "EUR"
    assert L.check_deal(deal_value=24000, deal_currency="eur", won=False) == {
        "deal_value": 24000,
        "deal_currency": "EUR",
        "won": False,
    }
    assert L.check_contact_roles(("champion",)) == ["champion"]
    L.check_contact_name(None, "Doe")
