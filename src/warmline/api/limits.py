"""The spec's input limits, and ours where it is silent, checked before anything is sent
or stored.

Both the client (before a request) and `warmline.actions` (before a local write) call these,
so a rep sees "note must be at most 10000 characters" at once instead of an op that fails
in the outbox an hour later. Each check returns the value to send (normalised where that is
harmless, e.g. a currency code upper-cased) and raises `InputError` naming the field and the
limit. The constants are public so screens can show counters ("4812 / 5000"). The limits
the spec leaves open (deal value, closed reason, ids per request, record field lengths...)
are our choices, written in docs/wire.md "Limits" and served by the sandbox.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any, TypeGuard
from urllib.parse import urlsplit

from warmline.api.errors import InputError, TooManyPagesError

LOOKUP_QUERY_MIN_CHARS = 3
LOOKUP_LIMIT_MIN = 1
LOOKUP_LIMIT_MAX = 100
DEEP_SEARCH_QUERY_MIN_CHARS = 3
DEEP_SEARCH_QUERY_MAX_CHARS = 1000
DEEP_SEARCH_MAX_RESULTS_DEFAULT = 20
DEEP_SEARCH_MAX_RESULTS_MIN = 1
DEEP_SEARCH_MAX_RESULTS_MAX = 100
RESEARCH_RUN_MAX_COMPANIES = 100
TARGET_SCORE_MIN = 1
TARGET_SCORE_MAX = 100
WARMING_SCORE_MIN = 0
WARMING_SCORE_MAX = 100
MONITORING_SCORE_MIN = 1
MONITORING_SCORE_MAX = 10
MAX_ACTIVITY_CHARS = 5000
MAX_NOTE_CHARS = 10000
MAX_COMPANY_NAME_CHARS = 200
PER_PAGE_MIN = 1
PER_PAGE_MAX = 200
LEAD_STATUSES = ("cold", "warm")
CONTACT_ROLES = ("decision-maker", "champion", "influencer")

# Ours, where the spec is silent (docs/wire.md "Limits"). The sandbox holds the same numbers
# in `warmline_sandbox.limits`; tests/contract/test_contract_wire_limits.py fails if the two
# ever differ.
ID_MAX = 2**63 - 1
PAGE_MAX = 1_000_000
IDS_PER_REQUEST_MAX = 500
DEAL_VALUE_MAX = 1_000_000_000_000
MAX_CLOSED_REASON_CHARS = 1000
MAX_DOMAIN_CHARS = 253
LOOKUP_QUERY_MAX_CHARS = 1000
LOOKUP_KEYWORD_MAX_CHARS = 200
LOOKUP_KEYWORDS_MAX = 50
MAX_FOCUS_CHARS = 500
MAX_TEMPLATE_ID_CHARS = 100
MAX_TEMPLATE_NAME_CHARS = 200
TAGS_MAX = 100
MAX_TAG_CHARS = 100
MAX_CUSTOM_FIELD_KEY_CHARS = 100
MAX_FILTER_CHARS = 200
"""A list's `search`, `industry`, `country` filters; its `tag` filter is MAX_TAG_CHARS."""
IDEMPOTENCY_KEY_MAX_CHARS = 255
LIST_PAGES_MAX = 1000
"""The most pages of one list read whole (a refresh of the lead list, the directory): at
200 a page, 200,000 records, twice the largest cache we measure (bench/bench_store.py). A
list claiming more pages, or never saying it ended, is a lying service, not data: reading
it stops with `TooManyPagesError` (docs/sync.md "Limits")."""
COMPANY_FIELD_MAX_CHARS = {
    "name": MAX_COMPANY_NAME_CHARS,
    "domain": 200,
    "industry": 200,
    "country": 200,
    "region": 200,
    "size": 50,
    "description": 10_000,
}
CONTACT_FIELD_MAX_CHARS = {
    "first_name": 100,
    "last_name": 100,
    "email": 254,
    "title": 200,
    "social_url": 500,
    "phone": 50,
}

_CURRENCY = re.compile(r"^[A-Z]{3}$")


def _is_int(value: object) -> TypeGuard[int]:
    """True for real integers; `True`/`False` are ints to Python but never ids or scores."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_int_range(field: str, value: object, low: int, high: int) -> int:
    """An integer within [low, high]."""
    if not _is_int(value):
        raise InputError(field, f"{field} must be a whole number between {low} and {high} (got {value!r})")
    if not low <= value <= high:
        raise InputError(field, f"{field} must be between {low} and {high} (got {value})")
    return value


def check_id(field: str, value: object) -> int:
    """A positive integer identifier, small enough to name something stored."""
    if not _is_int(value) or value < 1:
        raise InputError(field, f"{field} must be a positive whole number (got {value!r})")
    if value > ID_MAX:
        raise InputError(field, f"{field} must be at most {ID_MAX} (got {value})")
    return value


def check_text(field: str, text: object, max_chars: int, min_chars: int = 1) -> str:
    """Text of min_chars..max_chars characters that is not only whitespace; sent unchanged.
    None is a field left empty (a form's blank field), and said so."""
    if text is None:
        raise InputError(field, f"{field} must not be empty")
    if not isinstance(text, str):
        raise InputError(field, f"{field} must be text (got {type(text).__name__})")
    if not text.strip():
        raise InputError(field, f"{field} must not be empty")
    if len(text) < min_chars:
        raise InputError(
            field, f"{field} must be at least {min_chars} characters (got {len(text)})"
        )
    if len(text) > max_chars:
        raise InputError(field, f"{field} must be at most {max_chars} characters (got {len(text)})")
    return text


def check_id_list(field: str, ids: object, max_items: int | None = IDS_PER_REQUEST_MAX) -> list[int]:
    """A non-empty list of positive integer ids, at most max_items long (None: any length,
    for callers that never send the whole list in one request)."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Iterable):
        raise InputError(field, f"{field} must be a list of ids")
    values = list(ids)
    if not values:
        raise InputError(field, f"{field} must contain at least 1 id")
    if max_items is not None and len(values) > max_items:
        raise InputError(field, f"{field} must contain at most {max_items} ids (got {len(values)})")
    for value in values:
        if not _is_int(value) or value < 1:
            raise InputError(field, f"{field} must contain only positive whole numbers (got {value!r})")
        if value > ID_MAX:
            raise InputError(field, f"{field} must contain only ids up to {ID_MAX} (got {value})")
    return values


def check_optional_text(field: str, text: object, max_chars: int) -> str | None:
    """Optional text of at most max_chars characters (None stays None)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise InputError(field, f"{field} must be text (got {type(text).__name__})")
    if len(text) > max_chars:
        raise InputError(field, f"{field} must be at most {max_chars} characters (got {len(text)})")
    return text


def check_lookup_query(query: object) -> str:
    """A lookup query: 3-1000 characters once surrounding spaces are removed."""
    if not isinstance(query, str):
        raise InputError("query", f"query must be text (got {type(query).__name__})")
    stripped = query.strip()
    if len(stripped) < LOOKUP_QUERY_MIN_CHARS:
        raise InputError(
            "query", f"query must be at least {LOOKUP_QUERY_MIN_CHARS} characters (got {len(stripped)})"
        )
    return check_text("query", stripped, LOOKUP_QUERY_MAX_CHARS)


def check_keywords(field: str, keywords: list[str] | None) -> None:
    """A lookup filter: at most 50 keywords of 1-200 characters each."""
    if keywords is None:
        return
    if isinstance(keywords, str) or not isinstance(keywords, list):
        raise InputError(field, f"{field} must be a list of keywords")
    if len(keywords) > LOOKUP_KEYWORDS_MAX:
        raise InputError(
            field, f"{field} must contain at most {LOOKUP_KEYWORDS_MAX} keywords (got {len(keywords)})"
        )
    for keyword in keywords:
        check_text(field, keyword, LOOKUP_KEYWORD_MAX_CHARS)


def check_lookup(
    query: str | None,
    industries: list[str] | None,
    countries: list[str] | None,
    regions: list[str] | None,
    limit: int | None = None,
) -> str | None:
    """A lookup needs a query or at least one filter; returns the query to send (or None)."""
    cleaned = check_lookup_query(query) if query is not None else None
    for field, keywords in (("industries", industries), ("countries", countries), ("regions", regions)):
        check_keywords(field, keywords)
    if cleaned is None and not (industries or countries or regions):
        raise InputError(
            "query", "lookup needs a query of at least 3 characters or one of industries, countries, regions"
        )
    if limit is not None:
        check_int_range("limit", limit, LOOKUP_LIMIT_MIN, LOOKUP_LIMIT_MAX)
    return cleaned


def check_deep_search(
    query: object, max_results: object = DEEP_SEARCH_MAX_RESULTS_DEFAULT
) -> tuple[str, int]:
    """A deep search: query of 3-1000 characters, max_results 1-100 (default 20)."""
    text = check_text(
        "query", query, DEEP_SEARCH_QUERY_MAX_CHARS, min_chars=DEEP_SEARCH_QUERY_MIN_CHARS
    )
    count = check_int_range(
        "max_results", max_results, DEEP_SEARCH_MAX_RESULTS_MIN, DEEP_SEARCH_MAX_RESULTS_MAX
    )
    return text, count


def check_research_run(template_id: object, template_name: object, company_ids: object) -> list[int]:
    """A research run: template_id (up to 100 characters) or template_name (up to 200),
    and 1-100 company ids."""
    has_id = isinstance(template_id, str) and bool(template_id.strip())
    has_name = isinstance(template_name, str) and bool(template_name.strip())
    if not (has_id or has_name):
        raise InputError("template_id", "a research run needs template_id or template_name")
    check_optional_text("template_id", template_id, MAX_TEMPLATE_ID_CHARS)
    check_optional_text("template_name", template_name, MAX_TEMPLATE_NAME_CHARS)
    return check_id_list("company_ids", company_ids, RESEARCH_RUN_MAX_COMPANIES)


def check_target_score(value: object) -> int:
    """A target warming score: whole number 1-100."""
    return check_int_range("target_score", value, TARGET_SCORE_MIN, TARGET_SCORE_MAX)


def check_activity_description(text: object) -> str:
    """An activity description: 1-5000 characters, not only whitespace."""
    return check_text("description", text, MAX_ACTIVITY_CHARS)


def check_note_content(text: object) -> str:
    """A note: 1-10000 characters, not only whitespace."""
    return check_text("content", text, MAX_NOTE_CHARS)


def check_contact_ids(ids: object) -> list[int]:
    """Contacts to add from a search: a non-empty list of ids."""
    return check_id_list("contact_ids", ids)


def check_lead_status(status: object) -> str:
    """A lead status: `cold` or `warm`."""
    if not isinstance(status, str) or status not in LEAD_STATUSES:
        raise InputError("lead_status", f"lead_status must be one of cold, warm (got {status!r})")
    return status


def check_contact_roles(roles: object) -> list[str]:
    """Contact search roles: each one of decision-maker, champion, influencer, named once
    (a repeat is dropped: it asks for nothing more, and the service takes at most three)."""
    if isinstance(roles, str) or not isinstance(roles, Iterable):
        raise InputError("roles", "roles must be a list")
    values = list(dict.fromkeys(roles))
    for role in values:
        if role not in CONTACT_ROLES:
            raise InputError("roles", f"roles must be among {', '.join(CONTACT_ROLES)} (got {role!r})")
    return values


def check_currency(code: object) -> str:
    """An ISO 4217 currency code: three letters, returned upper-case."""
    if not isinstance(code, str) or not _CURRENCY.match(code.strip().upper()):
        raise InputError("deal_currency", f"deal_currency must be a 3-letter ISO 4217 code (got {code!r})")
    return code.strip().upper()


def check_finite(field: str, value: object) -> float | int:
    """A real, finite number. NaN compares false with every bound, so a range check alone
    would let it through (and infinity past a bound of `math.inf`); NaN and infinity are
    also not JSON, and SQLite stores NaN as NULL."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(field, f"{field} must be a number (got {value!r})")
    if not math.isfinite(value):
        raise InputError(field, f"{field} must be a finite number (got {value!r})")
    return value


def check_deal_value(value: object) -> float | int:
    """A deal value: a finite number from 0 to 1e12."""
    value = check_finite("deal_value", value)
    if value < 0:
        raise InputError("deal_value", f"deal_value must be 0 or more (got {value:g})")
    if value > DEAL_VALUE_MAX:
        raise InputError("deal_value", f"deal_value must be at most {DEAL_VALUE_MAX:,} (got {value:,})")
    return value


def check_deal(
    deal_value: object = None,
    deal_currency: object = None,
    won: bool | None = None,
    lost: bool | None = None,
    closed_reason: str | None = None,
) -> dict[str, Any]:
    """A deal update: only the given fields; won and lost cannot both be set. Returns the body."""
    body: dict[str, Any] = {}
    if deal_value is not None:
        body["deal_value"] = check_deal_value(deal_value)
    if deal_currency is not None:
        body["deal_currency"] = check_currency(deal_currency)
    for name, flag in (("won", won), ("lost", lost)):
        if flag is not None:
            if not isinstance(flag, bool):
                raise InputError(name, f"{name} must be true or false (got {flag!r})")
            body[name] = flag
    if won and lost:
        raise InputError("won", "a deal cannot be marked both won and lost")
    if closed_reason is not None:
        body["closed_reason"] = check_optional_text("closed_reason", closed_reason, MAX_CLOSED_REASON_CHARS)
    if not body:
        raise InputError(
            "deal", "a deal update needs at least one of deal_value, deal_currency, won, lost, closed_reason"
        )
    return body


def check_company_name(name: object) -> str:
    """A company name: 1-200 characters."""
    return check_text("name", name, MAX_COMPANY_NAME_CHARS)


def check_contact_name(first_name: object, last_name: object) -> None:
    """A new contact needs a first or a last name."""
    first, last = _name_part("first_name", first_name), _name_part("last_name", last_name)
    if not (first or last):
        raise InputError("first_name", "a contact needs a first_name or a last_name")


def _name_part(field: str, value: object) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(field, f"{field} must be text")
    return value.strip()


def check_competitor_name(name: object) -> str:
    """A competitor name: required, 1-200 characters."""
    return check_text("name", name, MAX_COMPANY_NAME_CHARS)


def check_competitor_domain(domain: object) -> str | None:
    """A competitor's domain: optional, at most 253 characters (the longest DNS name)."""
    checked = check_optional_text("domain", domain, MAX_DOMAIN_CHARS)
    return (site_domain(checked) or None) if checked is not None else None


def site_domain(text: str) -> str:
    """A domain as a rep may paste it, made the domain alone: the host of an address
    (`https://www.rival.example/about` gives `www.rival.example`), lowercased, without a
    port, a path or a trailing dot. A rep pastes the browser's address bar; the service
    was sent the whole address as a company's or a competitor's domain."""
    text = text.strip()
    host = urlsplit(text if "://" in text else f"//{text}").hostname if text else None
    return (host or text).rstrip(".")


def check_focus(focus: object) -> str | None:
    """What a per-company research should look at: optional, at most 500 characters."""
    return check_optional_text("focus", focus, MAX_FOCUS_CHARS)


def check_page(page: object, per_page: object) -> tuple[int, int]:
    """Pagination: page 1 to 1,000,000, per_page 1-200."""
    if not _is_int(page) or page < 1:
        raise InputError("page", f"page must be 1 or more (got {page!r})")
    if page > PAGE_MAX:
        raise InputError("page", f"page must be at most {PAGE_MAX} (got {page})")
    return page, check_int_range("per_page", per_page, PER_PAGE_MIN, PER_PAGE_MAX)


COMPANY_FIELDS = frozenset(
    {"name", "domain", "industry", "country", "region", "size", "description", "tags", "custom_fields"}
)
CONTACT_FIELDS = frozenset(
    {
        "company_id",
        "first_name",
        "last_name",
        "email",
        "title",
        "role",
        "social_url",
        "phone",
        "tags",
        "custom_fields",
    }
)


def _check_record_keys(kind: str, fields: object, allowed: frozenset[str], max_chars: dict[str, int]) -> dict[str, Any]:
    """A mapping of known record fields within their lengths; custom ones belong under
    `custom_fields` (at most 100 characters a key), tags at most 100 of 1-100 characters."""
    if not isinstance(fields, dict):
        raise InputError(kind, f"{kind} fields must be a mapping of field names to values")
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise InputError(
            unknown[0],
            f"unknown {kind} field {unknown[0]!r}; known fields are {', '.join(sorted(allowed))} "
            "(put your own fields under custom_fields)",
        )
    for field, limit in max_chars.items():
        check_optional_text(field, fields.get(field), limit)
    if "tags" in fields:
        _check_tags(fields["tags"])
    if "custom_fields" in fields:
        _check_custom_keys(fields["custom_fields"])
    return dict(fields)


def _check_tags(tags: object) -> None:
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise InputError("tags", "tags must be a list of text")
    if len(tags) > TAGS_MAX:
        raise InputError("tags", f"tags must be at most {TAGS_MAX} (got {len(tags)})")
    for tag in tags:
        if not 1 <= len(tag) <= MAX_TAG_CHARS:
            raise InputError("tags", f"each tag must be 1-{MAX_TAG_CHARS} characters (got {len(tag)})")


def _check_custom_keys(custom_fields: object) -> None:
    if not isinstance(custom_fields, dict):
        raise InputError("custom_fields", "custom_fields must be a mapping")
    for key in custom_fields:
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_CUSTOM_FIELD_KEY_CHARS:
            raise InputError(
                "custom_fields", f"custom field names must be 1-{MAX_CUSTOM_FIELD_KEY_CHARS} characters (got {key!r:.40})"
            )


def check_company_fields(fields: object, *, creating: bool) -> dict[str, Any]:
    """A company body: known fields only; a name (1-200 characters) required on create."""
    body = _check_record_keys("company", fields, COMPANY_FIELDS, COMPANY_FIELD_MAX_CHARS)
    if isinstance(body.get("domain"), str) and body["domain"].strip():
        body["domain"] = site_domain(body["domain"])
    if creating or "name" in body:
        check_company_name(body.get("name"))
    if not creating and not body:
        raise InputError("company", "a company update needs at least one field")
    return body


def check_contact_fields(fields: object, *, creating: bool) -> dict[str, Any]:
    """A contact body: known fields only; a first or last name required on create."""
    body = _check_record_keys("contact", fields, CONTACT_FIELDS, CONTACT_FIELD_MAX_CHARS)
    if creating:
        check_contact_name(body.get("first_name"), body.get("last_name"))
    elif not body:
        raise InputError("contact", "a contact update needs at least one field")
    if body.get("role") is not None and body["role"] not in CONTACT_ROLES:
        raise InputError("role", f"role must be one of {', '.join(CONTACT_ROLES)} (got {body['role']!r})")
    if body.get("company_id") is not None:
        check_id("company_id", body["company_id"])
    if body.get("email") and not EMAIL.fullmatch(str(body["email"]).strip()):
        raise InputError("email", f"email must be an address such as dana@example.com (got {body['email']!r})")
    if body.get("social_url"):
        check_web_address("social_url", body["social_url"])
    return body


EMAIL = re.compile(r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+")
"""An email address as far as a typo shows: one `@`, a dot in the domain, no spaces. The
spec shows no contact fields; `email` is read as what it is called."""


def check_web_address(field: str, value: object, label: str | None = None) -> str:
    """An http(s) address with a host: a `javascript:` or `file:` one, or a bare
    `linkedin.com/in/...`, is refused in words, naming the field by `label` (a custom
    field's own name) or else by `field`."""
    text = str(value).strip()
    try:
        parts = urlsplit(text)
    except ValueError:  # an unbalanced IPv6 bracket
        parts = urlsplit("")
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise InputError(field, f"{label or field} must be a web address starting with https:// or http:// (got {text!r})")
    return text


def check_list_pages(what: str, page: int, total_pages: int | None, has_next: bool) -> None:
    """Raise `TooManyPagesError` when walking a list whole would go past LIST_PAGES_MAX pages:
    at once when the service claims more (a list of 10^6 pages is refused at its first page,
    not after 1000 requests), or when page LIST_PAGES_MAX still says there is a next one."""
    if total_pages is not None and total_pages > LIST_PAGES_MAX:
        raise TooManyPagesError(
            f"The service's {what} claims {total_pages} pages; "
            f"at most {LIST_PAGES_MAX} are read, so it was not taken"
        )
    if has_next and page >= LIST_PAGES_MAX:
        raise TooManyPagesError(
            f"The service's {what} did not end within {LIST_PAGES_MAX} pages; it was not taken"
        )
