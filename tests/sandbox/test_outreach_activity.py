"""Activity typing, date detection and bonus points (pure rules, no server)."""

from datetime import date

import pytest

from warmline_sandbox.outreach.activity import (
    BASE_POINTS,
    apply_points,
    detect_dates,
    detect_type,
    score_activity,
)

# Sunday 22 November 2026.
TODAY = date(2026, 11, 22)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Sent Dana an email with the pricing sheet", "email"),
        ("E-mailed the deck to the CFO", "email"),
        ("Called Dana, she wants a demo next Tuesday", "call"),
        ("Spoke with Dana (VP Ops), wants pricing by Friday", "call"),
        ("Left a voicemail for the CTO", "call"),
        ("Met Dana for coffee at their office", "meeting"),
        ("Video call with the procurement team", "meeting"),
        ("Gave a demo to the ops team", "meeting"),
        ("Messaged Dana on LinkedIn about the webinar", "professional_network_message"),
        ("Sent a connection request to the CEO", "professional_network_message"),
        ("Wrote to Dana on LinkedIn about the pilot", "professional_network_message"),
        ("Sent Dana a LinkedIn message", "professional_network_message"),
        ("Commented on her post on LinkedIn", "comment"),
        ("Commented on their post about hiring", "comment"),
        ("Liked the CEO's post about Poland", "like"),
        ("Followed the company page", "follow"),
        ("Shared their article on supply chains", "share"),
        ("Saw them at the Logistics Summit booth", "event"),
        ("Registered for their webinar", "event"),
        ("Updated the CRM record", "other"),
    ],
)
def test_detect_type(text: str, kind: str) -> None:
    assert detect_type(text) == kind


def test_follow_up_is_not_a_follow() -> None:
    assert detect_type("Followed up by email on the proposal") == "email"
    assert detect_type("Follow-up call with Dana") == "call"


def test_phrase_mentioned_first_wins() -> None:
    assert detect_type("Email after the meeting") == "email"
    assert detect_type("Meeting booked after my email") == "meeting"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wants pricing by Friday", [date(2026, 11, 27)]),
        ("demo next Tuesday", [date(2026, 11, 24)]),
        ("met last Thursday", [date(2026, 11, 19)]),
        ("call on Sunday", [date(2026, 11, 29)]),
        ("renewal on 2026-12-01", [date(2026, 12, 1)]),
        ("kick-off on 3 March", [date(2027, 3, 3)]),
        ("signed on November 20th", [date(2026, 11, 20)]),
        ("board meets 5th of January 2027", [date(2027, 1, 5)]),
        ("call back tomorrow", [date(2026, 11, 23)]),
        ("spoke yesterday", [date(2026, 11, 21)]),
        ("revisit in 2 weeks", [date(2026, 12, 6)]),
        ("no date here", []),
        ("impossible 31 February", []),
        ("Monday or 2026-11-23", [date(2026, 11, 23)]),
    ],
)
def test_detect_dates(text: str, expected: list[date]) -> None:
    assert detect_dates(text, TODAY) == expected


def test_dates_come_in_text_order() -> None:
    assert detect_dates("Friday, then 2026-12-15, then tomorrow", TODAY) == [
        date(2026, 11, 27),
        date(2026, 12, 15),
        date(2026, 11, 23),
    ]


def test_plain_activity_scores_its_base_points() -> None:
    score = score_activity("Updated the CRM record", today=TODAY)
    assert (score.detected_type, score.base_points, score.multiplier, score.total) == (
        "other",
        BASE_POINTS["other"],
        1.0,
        BASE_POINTS["other"],
    )
    assert score.reason == "Other: 2 base points"


def test_decision_maker_and_next_step_multiply() -> None:
    score = score_activity(
        "Called Dana, she wants a demo next Tuesday", today=TODAY, contact_role="decision-maker"
    )
    assert score.detected_type == "call"
    assert score.detected_dates == [date(2026, 11, 24)]
    assert score.multiplier == 1.8
    assert score.total == 18
    assert "decision-maker contact" in score.reason
    assert "next step scheduled" in score.reason


def test_past_date_is_not_a_next_step() -> None:
    score = score_activity("Called Dana yesterday", today=TODAY)
    assert score.multiplier == 1.0


def test_repeat_of_a_recent_kind_is_halved_but_worth_at_least_one() -> None:
    assert (
        score_activity("Sent an email", today=TODAY, recent_types=frozenset({"email"})).total == 2
    )
    assert score_activity("Liked a post", today=TODAY, recent_types=frozenset({"like"})).total == 1


def test_unknown_role_has_no_effect() -> None:
    assert score_activity("Sent an email", today=TODAY, contact_role=None).multiplier == 1.0


def test_apply_points_caps_at_100() -> None:
    assert apply_points(95, 18) == 100
    assert apply_points(40, 5) == 45
