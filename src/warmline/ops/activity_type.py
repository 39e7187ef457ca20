"""A quick local guess of an activity's kind, shown while the server's answer is pending.

The service types activities itself (`detected_type`); this guess only lets the rep see
"call" at once after typing "Spoke with Dana, wants pricing by Friday". It is replaced by
the server's type when the activity is delivered. Rule: the kind whose keyword appears
first in the text wins ("Called Dana, she wants a demo" was a call, not a meeting).
"""

from __future__ import annotations

import re

# The type names as the rep reads them live in a module that loads nothing (the command line's
# cache-only commands use them); re-exported here, where the cockpit has always found them.
from warmline.vocabulary import ACTIVITY_NAMES as ACTIVITY_NAMES
from warmline.vocabulary import activity_name as activity_name

ACTIVITY_KINDS = (
    "email",
    "call",
    "meeting",
    "professional_network_message",
    "comment",
    "like",
    "follow",
    "share",
    "event",
    "other",
)

_KEYWORDS: dict[str, tuple[str, ...]] = {
    "professional_network_message": (
        "inmail", "linkedin message", "direct message", "dm", "dmed", "messaged", "connection request",
    ),
    "email": ("email", "emailed", "e-mail", "e-mailed", "mailed", "wrote to"),
    "call": ("call", "called", "calling", "phoned", "phone", "rang", "voicemail", "spoke with", "spoke to", "talked to"),
    "meeting": ("meeting", "meet", "met", "demo", "lunch", "coffee", "dinner", "zoom", "visited", "workshop"),
    "comment": ("commented", "comment"),
    "like": ("liked", "reacted to"),
    "follow": ("followed", "follow"),
    "share": ("shared", "share", "reposted", "repost"),
    "event": ("event", "conference", "webinar", "trade show", "summit", "expo", "fair", "meetup"),
}

_PATTERN = re.compile(
    "|".join(
        f"(?P<{kind}>" + "|".join(rf"\b{re.escape(word)}\b" for word in sorted(words, key=len, reverse=True)) + ")"
        for kind, words in _KEYWORDS.items()
    ),
    re.IGNORECASE,
)


# "Followed up by email" is an email, not a follow.
_FOLLOW_UP = re.compile(r"\bfollow(?:ed|ing)?[\s-]*up\b", re.IGNORECASE)


def guess_activity_type(text: str) -> str:
    """The kind of activity `text` most likely describes; `other` when nothing matches."""
    match = _PATTERN.search(_FOLLOW_UP.sub(" ", text))
    return match.lastgroup if match and match.lastgroup else "other"
