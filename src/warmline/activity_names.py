"""What the rep reads for each activity type the service names (`detected_type`): the one
place a type name becomes words, for the cockpit's lead page and log form and for the
command line (`warmline lead`, what `warmline log` says was detected).

A module of its own, importing nothing, so the command line's cache-only commands can
name activities without loading `warmline.actions`, whose package loads the HTTP stack
(`warmline lead --no-refresh` took 0.42 s of CPU with it instead of 0.19 s).
`warmline.actions.activity_type` re-exports both names.
"""

from __future__ import annotations

ACTIVITY_NAMES: dict[str, str] = {
    "email": "Email",
    "call": "Call",
    "meeting": "Meeting",
    "professional_network_message": "LinkedIn message",
    "comment": "Comment",
    "like": "Like",
    "follow": "Follow",
    "share": "Share",
    "event": "Event",
    "other": "Other",
}


def activity_name(kind: str | None) -> str:
    """A human name for a service type; an unknown type is shown in words, not snake_case."""
    if not kind:
        return "Activity"
    return ACTIVITY_NAMES.get(kind) or kind.replace("_", " ").capitalize()
