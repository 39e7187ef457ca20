"""JSON from the service, refused when it nests deeper than any answer of the API does.

Python's parser recurses once per level: an answer nested 100,000 deep raises
`RecursionError` (not a `ValueError`), and one nested a few hundred deep parses but then
costs every later walk over it (validation, storing, printing). No answer of the API nests
deeper than about ten levels (a lead's detail: lead, contacts, a contact's fields), so
anything past `MAX_JSON_DEPTH` is refused before parsing (docs/sync.md "Limits").

The depth is measured without parsing, at C speed for the common case: strings are cut
out (brackets inside them do not count), the remaining brackets become +1/-1 and the
running sum's maximum is the depth. Kept free of the rest of `warmline.api` so that
`errors` can use it for error bodies too.
"""

from __future__ import annotations

import json
import re
from array import array
from itertools import accumulate
from typing import Any

MAX_JSON_DEPTH = 64
"""The deepest nesting of objects and lists accepted in one answer."""

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
# '[' and '{' open (+1), ']' and '}' close (-1 as a signed byte); nothing else is left.
_STEP = bytes.maketrans(b"[]{}", b"\x01\xff\x01\xff")


class TooDeepError(ValueError):
    """The JSON nests deeper than the limit; `depth` is how deep it went (at least)."""

    def __init__(self, depth: int, limit: int) -> None:
        super().__init__(f"JSON nested {depth} deep (the limit is {limit})")
        self.depth = depth
        self.limit = limit


def json_depth(data: bytes) -> int:
    """The deepest nesting of `data`'s lists and objects (0 for a scalar); meaningful for
    valid JSON, an upper-bound-ish guess for anything else (which the parser then refuses)."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKET)
    if not brackets:
        return 0
    return max(0, max(accumulate(array("b", brackets.translate(_STEP)))))


def loads(data: bytes | str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads`, refusing nesting deeper than `max_depth` with `TooDeepError` (a
    `ValueError`, like every other refusal of the parser)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    depth = json_depth(raw)
    if depth > max_depth:
        raise TooDeepError(depth, max_depth)
    try:
        return json.loads(raw)
    except RecursionError:  # cannot happen below the limit; kept so it never escapes
        raise TooDeepError(depth, max_depth) from None
