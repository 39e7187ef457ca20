"""Keys as a terminal delivers a burst: every key handed to the driver at once.

Pilot's `press` waits for the app to go idle after each key, which hides races between
keys (a priority binding overtaking a move still queued at a widget, a form that mounts
a few turns after the key that opened it). `type_fast` hands them all over in one go.
"""

from __future__ import annotations

import unicodedata

from textual import events
from textual.app import REPLACED_KEYS, App, _character_to_key, _get_unicode_name_from_key


def key_event(key: str) -> events.Key:
    """The event Textual's own `press` builds for `key`."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


def type_fast(app: App[object], *keys: str) -> None:
    """Every key to the driver in one go, nothing awaited in between."""
    assert app._driver is not None
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app._driver.send_message(event)
