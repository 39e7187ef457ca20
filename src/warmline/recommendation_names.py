"""What the rep reads for each kind of action a recommendation suggests (`action_type`): the
one place such a name becomes words, for the lead page's recommendations, the recommendations
queue's card, the outbox's decisions and the command line (`warmline lead`, `warmline
outreach recs`).

A module of its own, importing nothing, like `activity_names`, so a cache-only command can
name recommendations without loading the actions and the HTTP stack.
"""

from __future__ import annotations

RECOMMENDATION_ACTIONS: dict[str, str] = {
    "comment": "Comment",
    "follow": "Follow",
    "like": "Like",
    "share_content": "Share content",
    "check_in": "Check in",
    "congratulate": "Congratulate",
}


def recommendation_action(action_type: str | None) -> str:
    """A recommendation's action in words; an unknown one in words too, not snake_case
    (the caller sanitises it: it is the service's text)."""
    if not action_type:
        return ""
    return RECOMMENDATION_ACTIONS.get(action_type) or action_type.replace("_", " ").capitalize()
