"""The checks several validators share: the lead must be known and live, a child must be
one of the lead's own, a flag must be a flag.

Validators use the spec's limits from `warmline.api.limits` (never their own copies) and
the local cache (`CacheFacts`). Bad input raises `InputError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from warmline.api.errors import InputError
from warmline.api.limits import check_id
from warmline.ops.facts import CacheFacts


def require_lead(cache: CacheFacts, lead_id: object) -> int:
    """A lead id that is in the local cache, not being removed, and not removed on the service."""
    lead = check_id("lead_id", lead_id)
    gone = cache.lead_gone(lead)
    if gone is not None:
        raise InputError("lead_id", f"{gone.message}: it takes no more actions")
    hidden = cache.lead_hidden(lead)
    if hidden is None:
        raise InputError("lead_id", f"lead {lead} is not in the local cache; run `warmline sync` first")
    if hidden:
        raise InputError("lead_id", f"lead {lead} is being removed from outreach")
    return lead


def check_flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InputError(field, f"{field} must be true or false (got {value!r})")
    return value


def optional_id(field: str, value: object) -> int | None:
    return None if value is None else check_id(field, value)


def record_id(cache: CacheFacts, field: str, value: object) -> int:
    """A service id, or the local id of a record made offline whose create is still queued
    (`warmline.ops.creates`): an op naming it waits for the create, and gets the service's
    id in its place when the create is delivered."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0 and cache.made_offline(value):
        return value
    return check_id(field, value)


def record_ids(
    cache: CacheFacts, field: str, values: object, check: Callable[[str, object], list[int]]
) -> list[int]:
    """A list of ids as `check` (a list checker of `warmline.api.limits`) wants them, where
    the local id of a record made offline whose create is still queued stands for a service
    id: the op waits for the create and gets the service's id in its place."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        return check(field, values)
    given = list(values)
    local = {v for v in given if isinstance(v, int) and not isinstance(v, bool) and v < 0 and cache.made_offline(v)}
    check(field, [1 if v in local else v for v in given])  # a local id passes as any valid id
    return [int(v) for v in given]


def optional_record_id(cache: CacheFacts, field: str, value: object) -> int | None:
    return None if value is None else record_id(cache, field, value)


def require_child(cache: CacheFacts, part: str, lead_id: int, field: str, value: int) -> None:
    """The contact, page or competitor must be one the cache knows on this lead."""
    if not cache.lead_has(part, lead_id, value):
        raise InputError(field, f"{field} {value} is not known for lead {lead_id}; refresh the lead first")
