"""The `errors` dialect: the error statuses and bodies of an express service.

The spec fixes the 401 body and some messages but not the statuses or the validation
details. This reading answers validation failures 422 with express-validator's body,
plan limits 402, conflicts 400 `{"error": message}`, an unknown route (or method) with
express's HTML 404 page, and 429 without `Retry-After`. The 401 body, the resource 404
messages and the contact-search add endpoint's `{error}` shape stay as the spec says.
The HTML page is also what a research path answers in a dialect serving only the
other path family.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

NOT_FOUND_PAGE = (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n'
    "</head>\n<body>\n<pre>{message}</pre>\n</body>\n</html>\n"
)
NOT_FOUND_HEADERS = {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'",
    "x-content-type-options": "nosniff",
}
"""What express's final handler sends with its page."""

_HTML_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
_INDEX = re.compile(r"\.(\d+)(?=\.|$)")

Location = Callable[[str], str]
"""A field's express-validator location: body, query, params or headers."""


def not_found_page(method: str, path: str) -> bytes:
    """Express's page for a route it does not have: `Cannot GET /v1/the/path`."""
    message = "".join(_HTML_ESCAPES.get(char, char) for char in f"Cannot {method} {path}")
    return NOT_FOUND_PAGE.format(message=message).encode()


def _is_envelope(body: Any) -> bool:
    return isinstance(body, dict) and body.get("success") is False and isinstance(body.get("message"), str)


def _is_short(body: Any) -> bool:
    return isinstance(body, dict) and set(body) == {"error"}


def express_path(field: str) -> str:
    """`company_ids.1` -> `company_ids[1]`, as express-validator names an array item."""
    return _INDEX.sub(r"[\1]", field)


def validation_body(body: dict[str, Any], location: Location) -> dict[str, Any]:
    """express-validator's `{"errors": [{type, msg, path, location}]}` from our envelope."""
    listed = body.get("errors")
    items = listed if isinstance(listed, list) and listed else [{"field": "", "message": body["message"]}]
    errors = []
    for item in items:
        field = str(item.get("field", "")) if isinstance(item, dict) else ""
        message = str(item.get("message", body["message"])) if isinstance(item, dict) else body["message"]
        errors.append({"type": "field", "msg": message, "path": express_path(field), "location": location(field)})
    return {"errors": errors}


def translate(status: int, body: Any, location: Location) -> tuple[int, Any]:
    """An error answer's status and body in the dialect (anything else as it is)."""
    if status in (400, 422):
        if _is_short(body):
            return 422, body  # the add endpoint's shape is the spec's
        if _is_envelope(body):
            return 422, validation_body(body, location)
    if status == 403 and _is_envelope(body) and isinstance(body.get("errors"), dict) and "quota" in body["errors"]:
        message = f"Plan limit reached: {body['errors']['quota']}"
        return 402, {"error": {"message": message, "code": "plan_limit"}}
    if status == 409 and (_is_envelope(body) or _is_short(body)):
        return 400, {"error": body.get("message") or body.get("error")}
    return status, body


def rename_fields(body: Any, renamed: dict[str, str]) -> Any:
    """Our error's field names as the request named them (a dialect's name for our field)."""
    if not renamed or not _is_envelope(body) or not isinstance(body.get("errors"), list):
        return body
    for item in body["errors"]:
        if isinstance(item, dict) and isinstance(item.get("field"), str):
            head, dot, rest = item["field"].partition(".")
            if head in renamed:
                item["field"] = renamed[head] + dot + rest
    return body
