"""The recommendation generator's stand-in and the points a completed one is worth.

The real service reads new content on the lead's enabled monitoring sources and has AI
suggest an engagement. The sandbox invents a recent post per source from a seed and
suggests the actions the spec names: social warming for cold leads (comment, follow,
like) and nurturing for warm leads (share content, check in, congratulate). Several
suggestions may target the same post, which is what completing one auto-dismisses.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

COLD_ACTIONS = ("comment", "follow", "like")
WARM_ACTIONS = ("share_content", "check_in", "congratulate")
PRIORITIES = ("high", "medium", "low")
MAX_PER_GENERATION = 4

ACTION_POINTS: dict[str, int] = {
    "like": 2,
    "follow": 3,
    "comment": 5,
    "share_content": 5,
    "congratulate": 6,
    "check_in": 8,
}
PRIORITY_MULTIPLIERS: dict[str, float] = {"high": 1.5, "medium": 1.0, "low": 0.75}

# The activity kind a completed action is logged as in the lead's activity log.
ACTION_ACTIVITY_TYPES: dict[str, str] = {
    "comment": "comment",
    "follow": "follow",
    "like": "like",
    "share_content": "share",
    "congratulate": "comment",
    "check_in": "professional_network_message",
}

_TOPICS: dict[str, tuple[str, ...]] = {
    "blog": (
        "expanding to Poland",
        "their new pricing model",
        "cutting customer onboarding time in half",
        "lessons from a cloud migration",
        "their product roadmap for next year",
        "building a data team from scratch",
    ),
    "careers": (
        "hiring five engineers in Berlin",
        "opening a customer success team",
        "looking for a Head of Sales",
        "growing the data analytics team",
    ),
    "press": (
        "closing a Series B round",
        "a partnership with a major logistics group",
        "opening an office in Lisbon",
        "winning an industry award",
        "launching a new product line",
    ),
    "company_social": (
        "their team offsite",
        "a customer success story",
        "a new product release",
        "their sustainability report",
        "record quarterly growth",
    ),
    "contact_social": (
        "scaling a sales team",
        "what makes a good vendor partnership",
        "their first year in the role",
        "speaking at an industry conference",
        "automating repetitive operations work",
    ),
}
_MILESTONE_PAGE_TYPES = frozenset({"press", "careers"})


@dataclass(frozen=True)
class SourcePage:
    """An enabled monitoring source that recommendations can be drawn from."""

    id: int
    url: str
    label: str
    page_type: str
    score: int
    contact_id: int | None = None
    """Whose social account the page is, if a contact's."""


@dataclass(frozen=True)
class SuggestedAction:
    """One recommendation, before it is stored."""

    page_id: int
    action_type: str
    target_url: str
    suggested_comment: str
    priority: str
    engagement_reason: str
    source_page_label: str
    contact_id: int | None = None
    """The contact the engagement concerns: the owner of the source page, if a contact."""


def generate(
    seed: int, lead_id: int, lead_status: str, pages: Sequence[SourcePage], generation: int
) -> list[SuggestedAction]:
    """Suggest engagements from a lead's enabled sources, highest-scoring sources first.

    `generation` counts the lead's earlier generations so each run finds "new" posts
    rather than repeating the last run's suggestions.
    """
    rng = random.Random(f"recommendations:{seed}:{lead_id}:{generation}")
    suggestions: list[SuggestedAction] = []
    for page in sorted(pages, key=lambda p: (-p.score, p.id)):
        topic = rng.choice(_TOPICS.get(page.page_type, _TOPICS["company_social"]))
        post_url = f"{page.url.rstrip('/')}/posts/{_slug(topic)}-{generation + 1}"
        actions = _actions_for(lead_status, page, rng)
        for action in actions:
            target = page.url if action == "follow" else post_url
            suggestions.append(
                SuggestedAction(
                    page_id=page.id,
                    action_type=action,
                    target_url=target,
                    suggested_comment=_comment(action, topic, rng),
                    priority=_priority(page.score, action),
                    engagement_reason=_reason(page, topic),
                    source_page_label=page.label,
                    contact_id=page.contact_id,
                )
            )
    return suggestions[:MAX_PER_GENERATION]


def completion_points(action_type: str, priority: str) -> int:
    """Warming points for completing a recommendation: harder actions and better timing count more."""
    base = ACTION_POINTS.get(action_type, 2)
    return max(1, round(base * PRIORITY_MULTIPLIERS.get(priority, 1.0)))


def _actions_for(lead_status: str, page: SourcePage, rng: random.Random) -> list[str]:
    if lead_status == "warm":
        first = "congratulate" if page.page_type in _MILESTONE_PAGE_TYPES else "share_content"
        return [first, "check_in"] if page.score >= 7 else [first]
    actions = ["comment", "like"] if page.score >= 5 else ["like"]
    if page.page_type in ("company_social", "contact_social") and rng.random() < 0.5:
        actions.append("follow")
    return actions


def _priority(score: int, action: str) -> str:
    weight = score + (1 if action in ("comment", "check_in", "congratulate") else 0)
    if weight >= 8:
        return "high"
    return "medium" if weight >= 5 else "low"


def _reason(page: SourcePage, topic: str) -> str:
    if page.page_type == "contact_social":
        name = page.label.split(" (")[0].removesuffix(" on LinkedIn")
        return f"{name} posted about {topic}"
    verbs = {"press": "announced", "careers": "is", "blog": "published a post about"}
    return f"{page.label} {verbs.get(page.page_type, 'posted about')} {topic}"


def _comment(action: str, topic: str, rng: random.Random) -> str:
    templates: dict[str, tuple[str, ...]] = {
        "comment": (
            f"Great read on {topic}. Curious what surprised you most along the way?",
            f"Thanks for sharing this about {topic}. We see the same pattern with our customers.",
        ),
        "like": (f"A like keeps you visible while they talk about {topic}.",),
        "follow": ("Follow to see their next posts first.",),
        "share_content": (f"Sharing this piece on {topic}: worth a read for anyone in the space.",),
        "check_in": (
            f"Saw the news about {topic}. How is it going on your side? Happy to help if useful.",
        ),
        "congratulate": (
            f"Congratulations on {topic}! Well deserved.",
            f"Big news on {topic}, congratulations to the whole team.",
        ),
    }
    return rng.choice(templates[action])


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
