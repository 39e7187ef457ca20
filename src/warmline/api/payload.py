"""Getting the payload out of a successful body, whatever wrapper the server chose.

The spec says successful bodies carry a `data` field but its examples show fields at top
level; docs/wire.md serves both. These helpers accept either, and turn shape surprises
into `BadResponseError` with a message naming the operation.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from warmline.api.errors import BadResponseError
from warmline.api.models import Page, Pagination

M = TypeVar("M", bound=BaseModel)


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
    """The list an operation returns: the body itself, `data`, one of `keys`, or `items`."""
    if isinstance(body, list):
        return body
    if isinstance(body, dict):
        for key in ("data", *keys, "items"):
            value = body.get(key)
            if isinstance(value, list):
                return value
            if key == "data" and isinstance(value, dict):
                return unwrap_list(value, what, *keys)
    raise BadResponseError(f"The service's answer to {what} held no list")


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
    return [parse(model, item, what) for item in items]


def parse_page(
    model: type[M], body: Any, what: str, page: int, per_page: int, *keys: str
) -> Page[M]:
    """A page of items; without a `pagination` object the answer is taken as the only page."""
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
