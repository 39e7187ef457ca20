"""Telling "the action refused this input" apart from "the cockpit broke".

A refusal (a limit of the spec, a lead no longer in the cache, an op already sent) is
shown to the rep where they typed; anything else is a bug and is left to surface.
"""

from __future__ import annotations

from warmline.store import StoreError


class ActionRefused(Exception):
    """An action refused the rep's input; the message says why, in the rep's words."""


def refusals() -> tuple[type[Exception], ...]:
    """The exceptions actions raise for refused input.

    Imported when first needed: the API and actions packages are not needed to paint
    the lead list, and start-up time is what the rep feels every morning.
    """
    from warmline.api.errors import InputError  # deferred: first frame

    return (InputError, StoreError)


def in_reps_words(refusal: Exception) -> str:
    """A refusal's message as the rep reads it. The spec's limits are checked in one place
    for the command line and the cockpit, and name the field as the API does
    ("deal_value must be 0 or more"); the cockpit's forms label it in words ("Deal value")."""
    message = str(refusal)
    field = getattr(refusal, "field", None)
    if isinstance(field, str) and field and message.startswith(field + " "):
        return field.replace("_", " ").capitalize() + message[len(field) :]
    return message
