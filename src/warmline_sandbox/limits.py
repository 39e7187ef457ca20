"""Every bound the sandbox puts on a request, in one place.

Some are the spec's (lengths of notes and activities, score ranges, 1-100 research
companies); the rest are ours where the spec is silent, written down in docs/wire.md
("Limits"). The cockpit has its own copy of the same numbers in `warmline.api.limits`
(the sandbox never imports warmline); `tests/contract/test_contract_wire_limits.py`
fails if the two ever draw a line in different places.
"""

from __future__ import annotations

from warmline_sandbox.db import MAX_INT

# --- the spec's own rules ---------------------------------------------------------------
QUERY_MIN_CHARS = 3
DEEP_SEARCH_QUERY_MAX_CHARS = 1000
DEEP_SEARCH_MAX_RESULTS = 100
LOOKUP_LIMIT_MAX = 100
RESEARCH_MAX_COMPANIES = 100
TARGET_SCORE_MAX = 100
ACTIVITY_MAX_CHARS = 5000
NOTE_MAX_CHARS = 10_000

# --- ours (docs/wire.md "Limits") -------------------------------------------------------
ID_MAX = MAX_INT
"""SQLite's largest integer: bigger ids cannot name anything stored."""
PAGE_MAX = 1_000_000
PER_PAGE_MAX = 200
IDS_PER_REQUEST_MAX = 500
"""Ids in one request body: companies added to outreach, leads removed, contacts added."""
DEAL_VALUE_MAX = 1e12
CLOSED_REASON_MAX_CHARS = 1000
NAME_MAX_CHARS = 200
"""A company's or a competitor's name, a research template's name."""
DOMAIN_MAX_CHARS = 253
"""A competitor's domain: the longest DNS name."""
LOOKUP_QUERY_MAX_CHARS = 1000
LOOKUP_KEYWORD_MAX_CHARS = 200
LOOKUP_KEYWORDS_MAX = 50
"""Entries in each of a lookup's `industries`, `countries`, `regions`."""
FOCUS_MAX_CHARS = 500
TEMPLATE_ID_MAX_CHARS = 100
"""A research template id or run id (in a body or a path)."""
TAGS_MAX = 100
TAG_MAX_CHARS = 100
CUSTOM_FIELD_KEY_MAX_CHARS = 100
FILTER_MAX_CHARS = 200
"""A list's `search`, `industry`, `country` filters (its `tag` filter: TAG_MAX_CHARS)."""
IDEMPOTENCY_KEY_MAX_CHARS = 255

COMPANY_FIELD_MAX_CHARS = {
    "name": NAME_MAX_CHARS,
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
