"""The `names` dialect: other names for the fields the spec does not show.

Answers name the unshown fields differently (a company's `website`, a contact's
`job_title`, a monitoring page's `is_enabled`, the lookup's `results`, ...); requests
may use either name. Only objects of a known kind are renamed, found where each
operation puts them, because the same name means different things in different
objects (a contact's `title` becomes `job_title` while a page's `label` becomes `title`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from warmline_sandbox import dialect_ops as ops
from warmline_sandbox.dialect_ops import Op

COMPANY = {"domain": "website", "size": "employee_range"}
CONTACT = {"title": "job_title", "social_url": "linkedin_url"}
PAGE = {"label": "title", "score": "monitoring_score", "is_selected": "is_enabled"}
COMPETITOR = {"domain": "website", "is_pinned": "pinned"}
LOOKUP_RESULT = {**COMPANY, "similarity_score": "similarity"}
DEAL = {"deal_currency": "currency"}

REQUEST_FIELDS: dict[Op, dict[str, str]] = {
    ("POST", ops.COMPANIES): COMPANY,
    ("PUT", ops.COMPANY): COMPANY,
    ("POST", ops.CONTACTS): CONTACT,
    ("PUT", ops.CONTACT): CONTACT,
    ("PATCH", ops.MONITORING_PAGE): {"is_selected": "is_enabled"},
    ("POST", ops.COMPETITORS): {"domain": "website"},
    ("PATCH", ops.COMPETITOR): {"is_pinned": "pinned"},
    ("PATCH", ops.DEAL): DEAL,
}
"""Request bodies that may use the dialect's names: standard name -> the dialect's."""


def translate_request(op: Op, body: dict[str, Any], renamed: dict[str, str]) -> None:
    """Accept the dialect's names as well as ours: its name becomes ours (it wins when a body
    has both). `renamed` learns the standard name -> the name sent, for error messages."""
    for standard, alias in REQUEST_FIELDS.get(op, {}).items():
        if alias in body:
            body.pop(standard, None)
            body[standard] = body.pop(alias)
            renamed[standard] = alias


def rename(record: dict[str, Any], names: Mapping[str, str]) -> None:
    """Rename some keys of one object in place, keeping their order."""
    if not isinstance(record, dict) or not any(name in record for name in names):
        return
    items = [(names.get(key, key), value) for key, value in record.items()]
    record.clear()
    record.update(items)


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    """The objects of a value that is one object or a list of them."""
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            yield item


def _renamings(op: Op, body: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Mapping[str, str]]]:
    """Each object of an answer with a renamed field, with its renaming."""
    data = body.get("data")
    if op in {("GET", ops.COMPANIES), ("POST", ops.COMPANIES), ("GET", ops.COMPANY), ("PUT", ops.COMPANY)}:
        yield from ((company, COMPANY) for company in _objects(data))
    elif op in {("GET", ops.CONTACTS), ("POST", ops.CONTACTS), ("GET", ops.CONTACT), ("PUT", ops.CONTACT)}:
        yield from ((contact, CONTACT) for contact in _objects(data))
    elif op == ("GET", ops.DEEP_SEARCH_JOB):
        yield from ((company, COMPANY) for company in _objects(body.get("companies") or []))
    elif op in {("GET", ops.CONTACT_SEARCH_JOB), ("POST", ops.CONTACT_SEARCH_ADD)}:
        yield from ((contact, CONTACT) for contact in _objects(body.get("contacts") or []))
    elif op == ("GET", ops.LEAD) and isinstance(data, dict):
        yield from _detail(data)
    elif op == ("PATCH", ops.MONITORING_PAGE):
        yield from ((page, PAGE) for page in _objects(body.get("page")))
    elif op == ("PATCH", ops.KEY_CONTACT):
        yield from ((contact, CONTACT) for contact in _objects(body.get("contact")))
    elif op in {("POST", ops.COMPETITORS), ("POST", ops.COMPETITOR_SCAN), ("PATCH", ops.COMPETITOR)}:
        yield from ((competitor, COMPETITOR) for competitor in _objects(body.get("competitor")))
    elif op == ("PATCH", ops.DEAL):
        yield body, DEAL
    elif op == ("POST", ops.LOOKUP):
        yield from ((result, LOOKUP_RESULT) for result in _objects(body.get("companies") or []))
        yield body, {"companies": "results"}


def _detail(detail: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Mapping[str, str]]]:
    """A lead detail: its company information, contacts, pages, competitors and deal."""
    yield from ((company, COMPANY) for company in _objects(detail.get("company")))
    yield from ((contact, CONTACT) for contact in _objects(detail.get("contacts") or []))
    yield from ((page, PAGE) for page in _objects(detail.get("monitoring_pages") or []))
    yield from ((competitor, COMPETITOR) for competitor in _objects(detail.get("competitors") or []))
    yield detail, DEAL


def health(body: dict[str, Any]) -> dict[str, Any]:
    """Health in the dialect's words: healthy, server_time, api_version."""
    return {"success": True, "healthy": body.get("status") == "ok", "server_time": body.get("time"),
            "api_version": "1", "authenticated": body.get("authenticated")}


def translate_answer(op: Op, body: Any) -> Any:
    """A successful standard answer with the dialect's field names."""
    if not isinstance(body, dict):
        return body
    if op == ("GET", ops.HEALTH):
        return health(body)
    for record, names in list(_renamings(op, body)):
        rename(record, names)
    return body
