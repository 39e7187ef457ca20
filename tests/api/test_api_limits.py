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
        (lambda: L.check_note_content(None), "content", "must not be empty"),  # a blank form field
        (lambda: L.check_note_content(5), "content", "must be text (got int)"),
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
        # ours, where the spec is silent (docs/wire.md "Limits")
        (lambda: L.check_id("lead_id", 2**63), "lead_id", f"at most {2**63 - 1}"),
        (lambda: L.check_page(1_000_001, 50), "page", "at most 1000000"),
        (lambda: L.check_deal(deal_value=10**12 + 1), "deal_value", "at most 1,000,000,000,000"),
        (lambda: L.check_deal(lost=True, closed_reason="r" * 1001), "closed_reason", "at most 1000 characters"),
        (lambda: L.check_deal(closed_reason=5), "closed_reason", "must be text"),
        (lambda: L.check_id_list("company_ids", range(1, 502)), "company_ids", "at most 500 ids (got 501)"),
        (lambda: L.check_contact_ids([2**63]), "contact_ids", "ids up to"),
        (lambda: L.check_lookup("q" * 1001, None, None, None), "query", "at most 1000 characters"),
        (lambda: L.check_lookup(None, ["k"] * 51, None, None), "industries", "at most 50 keywords (got 51)"),
        (lambda: L.check_lookup(None, None, ["c" * 201], None), "countries", "at most 200 characters"),
        (lambda: L.check_lookup(None, None, None, [""]), "regions", "must not be empty"),
        (lambda: L.check_research_run("t" * 101, None, [1]), "template_id", "at most 100 characters"),
        (lambda: L.check_research_run(None, "T" * 201, [1]), "template_name", "at most 200 characters"),
        (lambda: L.check_competitor_domain("d" * 254), "domain", "at most 253 characters"),
        (lambda: L.check_focus("f" * 501), "focus", "at most 500 characters"),
        (lambda: L.check_company_fields({"name": "A", "size": "s" * 51}, creating=True), "size", "at most 50"),
        (lambda: L.check_company_fields({"description": "d" * 10_001}, creating=False), "description", "10000"),
        (lambda: L.check_contact_fields({"last_name": "A", "email": "e" * 255}, creating=True), "email", "254"),
        (lambda: L.check_contact_fields({"phone": "1" * 51}, creating=False), "phone", "at most 50"),
        (lambda: L.check_company_fields({"name": "A", "tags": ["t"] * 101}, creating=True), "tags", "at most 100"),
        (lambda: L.check_company_fields({"tags": ["t" * 101]}, creating=False), "tags", "1-100 characters"),
        (lambda: L.check_company_fields({"tags": [""]}, creating=False), "tags", "1-100 characters"),
        (lambda: L.check_contact_fields({"custom_fields": {"k" * 101: 1}}, creating=False), "custom_fields",
         "1-100 characters"),
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
    assert L.check_contact_roles(["champion", "influencer", "champion", "champion"]) == ["champion", "influencer"]
    assert L.check_deal(deal_value=10**12, closed_reason="r" * 1000) == {
        "deal_value": 10**12, "closed_reason": "r" * 1000}
    assert L.check_id_list("lead_ids", range(1, 501)) == list(range(1, 501))
    assert len(L.check_id_list("lead_ids", range(1, 1001), max_items=None)) == 1000
    assert L.check_id("lead_id", 2**63 - 1) == 2**63 - 1
    assert L.check_page(1_000_000, 200) == (1_000_000, 200)
    assert L.check_competitor_domain(None) is None and L.check_focus("f" * 500) == "f" * 500
    record = {"name": "A", "tags": [f"t{n}" for n in range(100)], "custom_fields": {"k" * 100: 1}}
    assert L.check_company_fields(record, creating=True) == record
    L.check_contact_name(None, "Doe")


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("rival.example", "rival.example"), ("https://www.Rival.example/about?x=1", "www.rival.example"),
     ("http://rival.example:8080/", "rival.example"), ("rival.example/careers", "rival.example"),
     ("  Rival.Example.  ", "rival.example"), ("", None), ("   ", None)],
)  # fmt: skip
def test_a_pasted_address_is_kept_as_its_domain(typed: str, kept: str | None) -> None:
    """A rep pastes the browser's address bar into Domain: the service was sent
    "https://www.rival.example/about" as a company's or a competitor's domain."""
    assert L.check_competitor_domain(typed) == kept
    body = L.check_company_fields({"name": "Rival", "domain": typed}, creating=True)
    assert body["domain"] == (kept if kept is not None else typed)  # a blank one clears the field, as before


@pytest.mark.parametrize(
    ("field", "typed", "said"),
    [("email", "dana.example.com", "email must be an address such as dana@example.com"),
     ("email", "dana@", "email must be an address such as dana@example.com"),
     ("email", "da na@example.com", "email must be an address such as dana@example.com"),
     ("social_url", "javascript:alert(1)", "social_url must be a web address starting with https:// or http://"),
     ("social_url", "linkedin.com/in/dana", "social_url must be a web address starting with https:// or http://")],
)  # fmt: skip
def test_a_contacts_email_and_profile_address_are_checked(field: str, typed: str, said: str) -> None:
    """The spec shows no contact fields; these two are read as what they are called. A
    `javascript:` profile address was saved (the cockpit would not open it, but another
    client of the service might)."""
    with pytest.raises(InputError, match=said):
        L.check_contact_fields({"first_name": "Dana", field: typed}, creating=True)


def test_a_good_email_and_profile_address_pass_and_blank_ones_clear() -> None:
    body = {"first_name": "Dana", "email": "dana.ruiz@acme-logistics.example", "social_url": "https://www.linkedin.com/in/dana"}
    assert L.check_contact_fields(body, creating=True) == body
    assert L.check_contact_fields({"email": "", "social_url": None}, creating=False) == {"email": "", "social_url": None}
