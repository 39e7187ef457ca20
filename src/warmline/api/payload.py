"""Getting the payload out of a successful body, whatever wrapper the server chose.

The spec says successful bodies carry a `data` field but its examples show fields at top
level; docs/wire.md serves both. These helpers accept either, and turn shape surprises
into `BadResponseError` with a message naming the operation.
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from warmline.api.errors import BadResponseError, UnreadAnswerError
from warmline.api.models import Page, Pagination

M = TypeVar("M", bound=BaseModel)

log = logging.getLogger("warmline.api")

__all__ = ["UnreadAnswerError", "parse", "parse_items", "parse_list", "parse_page", "unwrap_list", "unwrap_object"]

LIST_KEYS = ("data", "items", "results")
"""Where a list may sit in an answer besides the operation's own name (`leads`, `notes`)."""


def unwrap_object(
    body: object, what: str, key: str | None = None, marker: str | None = None
) -> dict[str, Any]:
    """The object an operation returns.

    `key` names a wrapper field the object may sit in (`{success, note: {...}}`); `marker`
    is a field that, present at top level, means the payload is not wrapped in `data`.
    """
    if not isinstance(body, dict):
        raise BadResponseError(f"The service's answer to {what} was not an object")
    wrapped = body.get(key) if key is not None else None
    if isinstance(wrapped, dict):
        return wrapped
    data = body.get("data")
    if isinstance(data, dict) and (marker is None or marker not in body):
        inner = data.get(key) if key is not None else None
        return inner if isinstance(inner, dict) else data
    return body


def unwrap_list(body: object, what: str, *keys: str) -> list[Any]:
    """The list an operation returns: the body itself, `data`, one of `keys`, `items` or
    `results`."""
    if isinstance(body, list):
        return body
    if isinstance(body, dict):
        for key in (*keys, *LIST_KEYS):
            value = body.get(key)
            if isinstance(value, list):
                return value
            if key == "data" and isinstance(value, dict):
                return unwrap_list(value, what, *keys)
    if isinstance(body, dict) and _holds_nothing(body, (*keys, *LIST_KEYS)):
        return []  # `{"success": true, "pagination": {...}}`: a sparse answer leaves [] out
    raise BadResponseError(f"The service's answer to {what} held no list")


_PAGING_KEYS = frozenset({"pagination", "paging", "meta", "links"})


def _holds_nothing(body: dict[str, Any], names: tuple[str, ...]) -> bool:
    """True for an answer with no list, no object but its paging, and nothing under a name a
    list goes by: an empty list left out (a string where the list goes is not that)."""
    if not body or any(body.get(name) is not None for name in names):
        return False  # an empty body is no answer at all
    return not any(isinstance(v, list | dict) for k, v in body.items() if k not in _PAGING_KEYS)


def parse(model: type[M], data: Any, what: str) -> M:
    """Validate into a model, reporting the first problem in words."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "body"
        raise BadResponseError(
            f"The service's answer to {what} could not be read: {where}: {first.get('msg')}"
        ) from None


def parse_list(model: type[M], items: list[Any], what: str) -> list[M]:
    """Every readable item; one that cannot be read is skipped with a warning naming it,
    so one odd record never hides the page (`skipped` says how many were)."""
    return parse_items(model, items, what)[0]


def parse_items(model: type[M], items: list[Any], what: str) -> tuple[list[M], int]:
    """The readable items and how many were skipped (a listing with skips is not whole)."""
    read: list[M] = []
    skipped = 0
    for index, item in enumerate(items):
        try:
            read.append(parse(model, item, what))
        except BadResponseError as exc:
            skipped += 1
            ident = item.get("id") if isinstance(item, dict) else None
            which = f"item {index + 1}" + (f" (id {ident!r})" if ident is not None else "")
            log.warning("skipped %s of %s: %s", which, what, exc)
    return read, skipped


def parse_page(
    model: type[M], body: Any, what: str, page: int, per_page: int, *keys: str
) -> Page[M]:
    """One page of items (`list_leads` and the like: a page asked for by number); without a
    `pagination` object the answer is taken as the only page. Walking a whole list is
    `ServiceClient.walk`, which reads every paging style."""
    items = parse_list(model, unwrap_list(body, what, *keys), what)
    raw = None
    if isinstance(body, dict):
        raw = body.get("pagination")
        if raw is None and isinstance(body.get("data"), dict):
            raw = body["data"].get("pagination")
    if isinstance(raw, dict):
        pagination = parse(Pagination, raw, what)
    else:
        pagination = Pagination(page=page, per_page=per_page, total=None, total_pages=page)
        if page == 1:
            pagination.total = len(items)
    # Parametrised with the caller's model class at run time, which mypy cannot follow.
    return Page[model](items=items, pagination=pagination)  # type: ignore[valid-type]
