"""Dialects: other faithful readings of the places where the spec says "not shown".

The standard sandbox serves one reading (docs/wire.md). The real service may read the
same sentences differently, so the sandbox can also serve named dialects, each one a
different reading that still obeys every sentence of the spec, to test the client
against them. This module is the catalogue and the parsing of a `--dialect` list; it
imports nothing but the standard library, so the command line can check a list before
(and without) loading the server's packages. `dialect_middleware` serves them.
"""

from __future__ import annotations

from collections.abc import Iterable

STANDARD = "standard"
ALL = "all"

DIALECTS: dict[str, str] = {
    STANDARD: "today's shapes, as docs/wire.md describes them",
    "page-limit": "lists take page and limit (at most 25 a page); pagination {page, limit, total, totalPages}",
    "offset": "lists take limit (at most 30) and offset; items beside pagination {total, limit, offset, has_more}",
    "cursor": "lists take an opaque cursor and limit (at most 20); pagination {next_cursor, has_more}, no total",
    "link": "page and per_page (at most 15 a page); pagination {page, per_page} and a Link rel=\"next\" header",
    "bare": "no data wrapper (objects beside success, lists under their resource or bare); timestamps +00:00 to the second",
    "sparse": "no null fields or empty arrays; the answers the spec does not show are only success and a message",
    "words": "other words for unlisted values: job statuses, priorities, action types, roles, 1/0, tag and field lists",
    "names": "other names for unshown fields: website, employee_range, job_title, linkedin_url, results, health ...",
    "errors": "422 express-validator bodies, 402 plan limits, 400 conflicts, an HTML 404 page, no Retry-After",
    "overview-only": "research only under /v1/research-templates; /v1/research/... is an unknown route",
    "detailed-only": "research only under /v1/research/..., run status at /v1/research/run/:run_id",
    "cold-default": "the lead list without a status filter lists cold leads only",
    "request-names": "unshown request bodies read other names (status, enabled, currency, pinned) and ignore ours",
}
"""Every dialect by name, with what it changes in one line (`--dialect` accepts `all` too)."""

ALL_DIALECTS: tuple[str, ...] = (
    "cursor", "bare", "sparse", "words", "names", "errors", "overview-only", "cold-default",
)
"""What `all` stands for: every variation of the answers at once (one paging, one family)."""

PAGING: tuple[str, ...] = ("page-limit", "offset", "cursor", "link")
"""A list is paged one way: at most one of these."""

FAMILIES: tuple[str, ...] = ("overview-only", "detailed-only")
"""Research is served by one path family or both: at most one of these."""


class DialectError(ValueError):
    """A `--dialect` list that names no dialect, an unknown one, or two that exclude each other."""


def known_names() -> str:
    """The names a list may use, for error messages and help."""
    return ", ".join([*DIALECTS, ALL])


def parse_dialects(text: str) -> tuple[str, ...]:
    """`cursor,sparse` -> ("cursor", "sparse"); `standard` -> (); `all` -> ALL_DIALECTS.

    Names are separated by commas (spaces around them are ignored); the result is what
    `check_dialects` makes of them.
    """
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    if not names:
        raise DialectError(f"name at least one dialect: {known_names()}")
    return check_dialects(names)


def check_dialects(names: Iterable[str]) -> tuple[str, ...]:
    """The dialects in catalogue order, once each, `all` expanded and `standard` left out
    (it is the absence of the others); unknown names and exclusive pairs refused."""
    chosen: set[str] = set()
    for name in names:
        chosen.update(ALL_DIALECTS if name == ALL else (name,))
    unknown = sorted(chosen - set(DIALECTS))
    if unknown:
        raise DialectError(f"unknown dialect {unknown[0]!r}; the dialects: {known_names()}")
    if STANDARD in chosen and len(chosen) > 1:
        raise DialectError("standard is the absence of other dialects: it cannot be combined with them")
    for group, why in ((PAGING, "a list is paged one way"), (FAMILIES, "research has one path family")):
        clash = [name for name in group if name in chosen]
        if len(clash) > 1:
            raise DialectError(f"{' and '.join(clash)} cannot be combined: {why}")
    return tuple(name for name in DIALECTS if name in chosen and name != STANDARD)
