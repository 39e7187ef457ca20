"""The signal scan's stand-in: which monitoring sources a lead's company has.

The real service crawls the company's site and social profiles with AI. The sandbox
derives 5-12 plausible sources from the company, its contacts and a seed, so that the
same lead scanned twice finds the same sources (a rescan keeps the rep's selections) and
a test run can be repeated.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

PAGE_TYPES = ("blog", "careers", "press", "company_social", "contact_social")
MIN_PAGES = 5
MAX_PAGES = 12
SELECTED_SCORE = 6
MIN_SELECTED = 3

# (page_type, path or network, label, lowest score, highest score). The first four are
# found for every company; the rest are extras drawn to reach the scan's page count.
_CORE_SOURCES: tuple[tuple[str, str, str, int, int], ...] = (
    ("blog", "/blog", "Company blog", 5, 9),
    ("careers", "/careers", "Careers page", 3, 7),
    ("press", "/press", "Press room", 4, 8),
    ("company_social", "linkedin", "Company page on LinkedIn", 5, 9),
)
_EXTRA_SOURCES: tuple[tuple[str, str, str, int, int], ...] = (
    ("blog", "/engineering", "Engineering blog", 3, 7),
    ("press", "/events", "Events page", 2, 6),
    ("company_social", "x", "Company on X", 3, 8),
    ("company_social", "youtube", "YouTube channel", 2, 6),
    ("company_social", "facebook", "Facebook page", 1, 5),
)
_NETWORK_URLS = {
    "linkedin": "https://www.linkedin.com/company/{slug}",
    "x": "https://x.com/{slug}",
    "youtube": "https://www.youtube.com/@{slug}",
    "facebook": "https://www.facebook.com/{slug}",
}
_ROLE_SCORES = {"decision-maker": (7, 10), "champion": (6, 9), "influencer": (4, 8)}


@dataclass(frozen=True)
class ScanCompany:
    """The company facts a scan works from."""

    name: str
    domain: str | None


@dataclass(frozen=True)
class ScanContact:
    """A contact of the lead's company whose social account may be worth monitoring."""

    id: int
    first_name: str
    last_name: str
    title: str | None
    role: str | None
    social_url: str | None
    is_selected: bool = False


@dataclass(frozen=True)
class DiscoveredPage:
    """One monitoring source found by a scan, before it is stored."""

    url: str
    label: str
    page_type: str
    score: int
    is_selected: bool
    contact_id: int | None = None
    """The contact whose social account this is (contact_social pages only)."""


def discover_pages(
    seed: int, lead_id: int, company: ScanCompany, contacts: Sequence[ScanContact]
) -> list[DiscoveredPage]:
    """Return the monitoring sources a scan of this lead finds, best first.

    Pinned contacts and decision-makers are considered first among people, so a rep who
    pins a key contact before scanning sees that contact's account monitored.
    """
    rng = random.Random(f"signal-scan:{seed}:{lead_id}")
    slug = _slug(company.name)
    domain = company.domain or f"{slug}.com"
    people = sorted(
        contacts,
        key=lambda c: (not c.is_selected, c.role != "decision-maker", c.role is None, c.id),
    )
    extras = list(_EXTRA_SOURCES)
    rng.shuffle(extras)
    core = [_company_page(source, domain, slug, rng) for source in _CORE_SOURCES]
    person_pages = [_contact_page(person, slug, rng) for person in people[:4]]
    extra_pages = [_company_page(source, domain, slug, rng) for source in extras]
    count = rng.randint(MIN_PAGES, MAX_PAGES)
    unique: dict[str, DiscoveredPage] = {}
    for page in core + person_pages[:2] + extra_pages + person_pages[2:]:
        unique.setdefault(page.url, page)
    pages = list(unique.values())[:count]
    return _with_selection(sorted(pages, key=lambda page: -page.score))


def _company_page(
    source: tuple[str, str, str, int, int], domain: str, slug: str, rng: random.Random
) -> DiscoveredPage:
    page_type, where, label, low, high = source
    if where.startswith("/"):
        url = f"https://{domain}{where}"
    else:
        url = _NETWORK_URLS[where].format(slug=slug)
    return DiscoveredPage(url, label, page_type, rng.randint(low, high), False)


def _contact_page(person: ScanContact, company_slug: str, rng: random.Random) -> DiscoveredPage:
    name = f"{person.first_name} {person.last_name}".strip() or "Key contact"
    url = person.social_url or (
        f"https://www.linkedin.com/in/{_slug(name)}-{company_slug}-{person.id}"
    )
    low, high = _ROLE_SCORES.get(person.role or "", (3, 7))
    label = f"{name} ({person.title}) on LinkedIn" if person.title else f"{name} on LinkedIn"
    return DiscoveredPage(url, label, "contact_social", rng.randint(low, high), False, person.id)


def _with_selection(pages: list[DiscoveredPage]) -> list[DiscoveredPage]:
    """Pre-select the sources worth watching: every well-scored one and at least the top few."""
    return [
        dataclasses.replace(p, is_selected=p.score >= SELECTED_SCORE or i < MIN_SELECTED)
        for i, p in enumerate(pages)
    ]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "company"
