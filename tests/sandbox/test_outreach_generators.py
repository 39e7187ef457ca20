"""Signal-scan discovery and recommendation generation (pure rules, no server)."""

from warmline_sandbox.outreach.recommendations import (
    COLD_ACTIONS,
    MAX_PER_GENERATION,
    PRIORITIES,
    WARM_ACTIONS,
    SourcePage,
    completion_points,
    generate,
)
from warmline_sandbox.outreach.signals import (
    MAX_PAGES,
    MIN_PAGES,
    PAGE_TYPES,
    ScanCompany,
    ScanContact,
    discover_pages,
)

COMPANY = ScanCompany(name="Nordlicht Logistics GmbH", domain="nordlicht.example")
CONTACTS = [
    ScanContact(
        1, "Dana", "Berg", "VP Operations", "decision-maker", "https://social.example/dana"
    ),
    ScanContact(2, "Ola", "Nilsen", "Ops Analyst", "influencer", None),
    ScanContact(3, "Kim", "Lee", "Head of IT", "champion", None, is_selected=True),
]


def test_scan_finds_5_to_12_scored_sources_for_many_leads() -> None:
    for lead_id in range(1, 60):
        pages = discover_pages(7, lead_id, COMPANY, CONTACTS)
        assert MIN_PAGES <= len(pages) <= MAX_PAGES
        assert len({page.url for page in pages}) == len(pages)
        assert all(1 <= page.score <= 10 for page in pages)
        assert all(page.page_type in PAGE_TYPES for page in pages)
        assert {"blog", "careers", "press", "company_social"} <= {p.page_type for p in pages}
        assert sum(page.is_selected for page in pages) >= 3
        assert [page.score for page in pages] == sorted((p.score for p in pages), reverse=True)


def test_scan_is_deterministic_per_seed_and_lead() -> None:
    assert discover_pages(7, 3, COMPANY, CONTACTS) == discover_pages(7, 3, COMPANY, CONTACTS)
    runs = {tuple(discover_pages(seed, 3, COMPANY, CONTACTS)) for seed in range(10)}
    assert len(runs) > 1


def test_scan_uses_company_domain_and_contacts_social_accounts() -> None:
    for lead_id in range(1, 30):
        pages = discover_pages(7, lead_id, COMPANY, CONTACTS)
        urls = {page.url for page in pages}
        assert "https://nordlicht.example/blog" in urls
        assert "https://www.linkedin.com/company/nordlicht-logistics-gmbh" in urls
        people = {page.label for page in pages if page.page_type == "contact_social"}
        # The pinned contact, then the decision-maker, are watched first.
        by_priority = [
            "Kim Lee (Head of IT) on LinkedIn",
            "Dana Berg (VP Operations) on LinkedIn",
            "Ola Nilsen (Ops Analyst) on LinkedIn",
        ]
        assert people == set(by_priority[: len(people)])
        assert people
        if len(people) >= 2:
            assert "https://social.example/dana" in urls


def test_scan_of_a_company_without_domain_or_contacts_still_finds_sources() -> None:
    pages = discover_pages(1, 1, ScanCompany(name="Acme", domain=None), [])
    assert len(pages) >= MIN_PAGES
    assert "https://acme.com/blog" in {page.url for page in pages}


PAGES = [
    SourcePage(10, "https://nordlicht.example/blog", "Company blog", "blog", 9),
    SourcePage(11, "https://nordlicht.example/press", "Press room", "press", 7),
    SourcePage(12, "https://x.com/nordlicht", "Company on X", "company_social", 4),
    SourcePage(
        13, "https://social.example/dana", "Dana Berg (CEO) on LinkedIn", "contact_social", 8
    ),
]


def test_cold_leads_get_social_warming_actions() -> None:
    suggestions = generate(7, 1, "cold", PAGES, generation=0)
    assert suggestions
    assert {s.action_type for s in suggestions} <= set(COLD_ACTIONS)
    assert {s.priority for s in suggestions} <= set(PRIORITIES)
    assert all(s.suggested_comment and s.engagement_reason for s in suggestions)
    labels = {page.id: page.label for page in PAGES}
    assert all(s.source_page_label == labels[s.page_id] for s in suggestions)


def test_warm_leads_get_nurturing_actions() -> None:
    suggestions = generate(7, 1, "warm", PAGES, generation=0)
    assert {s.action_type for s in suggestions} <= set(WARM_ACTIONS)
    press = generate(7, 1, "warm", [PAGES[1]], generation=0)
    assert [s.action_type for s in press] == ["congratulate", "check_in"]


def test_a_generation_suggests_a_handful_from_the_best_sources() -> None:
    suggestions = generate(7, 1, "cold", PAGES, generation=0)
    assert len(suggestions) == MAX_PER_GENERATION
    assert {s.page_id for s in suggestions} <= {10, 13}


def test_a_well_scored_post_gets_several_actions_on_the_same_target() -> None:
    suggestions = [s for s in generate(7, 1, "cold", PAGES, generation=0) if s.page_id == 10]
    assert [s.action_type for s in suggestions] == ["comment", "like"]
    assert suggestions[0].target_url == suggestions[1].target_url
    assert suggestions[0].target_url.startswith("https://nordlicht.example/blog/posts/")
    assert suggestions[0].priority == "high"


def test_no_enabled_sources_means_no_suggestions() -> None:
    assert generate(7, 1, "cold", [], generation=0) == []


def test_each_generation_finds_new_posts() -> None:
    first = {s.target_url for s in generate(7, 1, "cold", PAGES, 0) if s.action_type != "follow"}
    second = {s.target_url for s in generate(7, 1, "cold", PAGES, 1) if s.action_type != "follow"}
    assert first.isdisjoint(second)


def test_completion_points_weigh_action_and_priority() -> None:
    assert completion_points("comment", "medium") == 5
    assert completion_points("comment", "high") == 8
    assert completion_points("like", "low") == 2
    assert completion_points("check_in", "high") == 12
