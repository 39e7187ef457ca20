"""Ids and numbers the rep types: ASCII digits only.

Python's `int()` and `float()` read any Unicode decimal digit (`int("٣")` is 3, and so is
`int("３")`), underscores (`1_000`), and `float()` reads `nan`, `inf` and `1e400`. A rep who
typed `outreach remove ٣ --yes` did not mean lead 3, yet lead 3 was removed. Every id and
number the command line and the config read goes through here (the click types in
`warmline.commands.common`, the lead and company references, `config set`, custom fields).

Standard library only: the store and the core read it too.
"""

from __future__ import annotations

import math
import re

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
MAX_DIGITS = 4000
"""Longer is not a number a rep means (and `int()` refuses over 4300 digits anyway)."""


def is_ascii_whole(text: str) -> bool:
    """True for an optional sign and ASCII digits only, spaces around allowed: "42", " -7 "."""
    stripped = text.strip()
    return len(stripped) <= MAX_DIGITS and _WHOLE.fullmatch(stripped) is not None


def whole_number(text: str) -> int | None:
    """`text` as a whole number when it is one in ASCII digits (`is_ascii_whole`), else None."""
    return int(text.strip()) if is_ascii_whole(text) else None


def decimal_number(text: str) -> float | None:
    """`text` as a finite number in ASCII digits ("2.5", "-.5", "1e3"), else None: no
    Unicode digits, no underscores, no nan, inf or a value that overflows to inf."""
    stripped = text.strip()
    if len(stripped) > MAX_DIGITS or _DECIMAL.fullmatch(stripped) is None:
        return None
    value = float(stripped)
    return value if math.isfinite(value) else None


def number(text: str) -> int | float | None:
    """A whole number stays whole (42, not 42.0); else a finite decimal; else None."""
    whole = whole_number(text)
    return whole if whole is not None else decimal_number(text)
