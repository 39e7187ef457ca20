"""From the server's JSON (docs/wire.md shapes, or `model.model_dump(mode="json")` of the api
models, which match them) to the columns of the cache.

One function per kind of row, used both when fresh server data arrives and when a row's
server state is restored from its `raw` JSON after a local change is undone, so the two
can never disagree. Timestamps are normalised (see `warmline.store.clock`); every row keeps
the server's JSON in `raw`, unknown fields included.

Every row is one SQLite can hold, whatever reached it (the api models check the service's
answers first; an action's own data does not pass them): texts with lone surrogates are
repaired (U+FFFD), NaN and infinite numbers left out (`textsafe.storable_json`), and an
integer column given what no integer column holds (10^23, "inf") is empty, as for any
value that is not a number.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

from warmline.store.clock import normalize_ts
from warmline.store.values import JsonMap, JsonObject, SqlRow, SqlValue
from warmline.textsafe import INT64_MAX, INT64_MIN, has_surrogates, storable_json

# Lead fields that belong to the lead row; arrays of the detail go to their own tables.
LEAD_ARRAYS = ("monitoring_pages", "contacts", "competitors", "touchpoints", "recommendations", "notes")
_LEAD_TIMESTAMPS = ("last_activity_at", "created_at", "won_at", "closed_at")
# Column -> default used when restoring a lead from a snapshot that lacks the field.
_LEAD_SNAPSHOT_DEFAULTS: dict[str, SqlValue] = {
    "lead_status": "cold",
    "warming_score": 0,
    "target_score": None,
    "activity_count": 0,
    "recommendation_count": 0,
    "monitoring_active": 0,
    "last_activity_at": None,
    "signal_scan_status": None,
    "generation_status": None,
    "deal_value": None,
    "deal_currency": None,
    "won_at": None,
    "closed_at": None,
    "closed_reason": None,
}


def dumps(value: object) -> str:
    """Compact JSON that SQLite stores and its JSON functions read (no NaN, no surrogates:
    `storable_json` repairs what holds them, found by a first try)."""
    try:
        text = _json(value, allow_nan=False)
    except ValueError:  # NaN or infinity
        text = None
    if text is None or has_surrogates(text):
        text = _json(storable_json(value), allow_nan=True)
    return text


def _json(value: object, *, allow_nan: bool) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str, allow_nan=allow_nan)


def _row(columns: SqlRow) -> SqlRow:
    """`columns` with each text repaired and each NaN or infinite number left out (the
    column keeps what it held); integers are already bounded by `_int`."""
    row: SqlRow = storable_json(columns)
    return row


def unwrap(body: object) -> JsonObject:
    """A response body with or without the `data` wrapper, as one flat dict."""
    if not isinstance(body, Mapping):
        return {}
    data = body.get("data")
    if isinstance(data, Mapping):
        merged = {k: v for k, v in body.items() if k != "data"}
        merged.update(data)
        return merged
    return dict(body)


def _float(value: object) -> float | None:
    """`value` as a REAL column holds it; None for what is not a finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int beyond any float
        return None
    return number if math.isfinite(number) else None


def _bool(value: object) -> int:
    return 1 if value else 0


def storable_id(value: object) -> int | None:
    """A record's id as the cache keys it; None when `value` cannot be one (not a whole
    number, or beyond 64 bits)."""
    return _int(value)


def _int(value: object, default: int | None = None) -> int | None:
    """`value` as an integer column holds it; `default` for what is not a number, or is one
    no integer column holds (NaN, infinite, beyond 64 bits)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return default
    if isinstance(value, float):
        if not math.isfinite(value):
            return default
        value = int(value)
    if isinstance(value, int) and INT64_MIN <= value <= INT64_MAX:
        return value
    return default


def lead_snapshot(item: JsonMap) -> JsonObject:
    """The lead's scalar server fields (arrays removed, timestamps normalised)."""
    snapshot = {k: v for k, v in item.items() if k not in LEAD_ARRAYS}
    for key in _LEAD_TIMESTAMPS:
        if key in snapshot:
            snapshot[key] = normalize_ts(snapshot[key])
    return snapshot


def lead_columns(snapshot: JsonMap, *, complete: bool = False) -> SqlRow:
    """Lead-row columns from a snapshot.

    With `complete=False` only fields present in the snapshot are returned, so a list page
    does not wipe what the detail said. With `complete=True` every server-owned column is
    returned (defaults for missing fields): used to restore the row exactly.
    """
    columns: SqlRow = {}
    if "company_name" in snapshot or complete:
        name = snapshot.get("company_name") or ""
        columns["company_name"] = name
        columns["name_lower"] = name.lower()
    if "company_id" in snapshot:
        columns["company_id"] = _int(snapshot.get("company_id"))
    if "created_at" in snapshot:
        columns["created_at"] = normalize_ts(snapshot.get("created_at"))
    for key, default in _LEAD_SNAPSHOT_DEFAULTS.items():
        if key not in snapshot and not complete:
            continue
        value = snapshot.get(key, default)
        if key in ("warming_score", "activity_count", "recommendation_count"):
            value = _int(value, 0)  # their default
        elif key == "target_score":
            value = _int(value)
        elif key == "monitoring_active":
            value = _bool(value)
        elif key in _LEAD_TIMESTAMPS:
            value = normalize_ts(value)
        elif key == "deal_value":
            value = _float(value)
        if value is None and default is not None:
            value = default
        columns[key] = value
    return _row(columns)


def page_columns(lead_id: int, page: JsonMap) -> SqlRow:
    return _row({
        "id": _int(page.get("id")),
        "lead_id": lead_id,
        "url": page.get("url"),
        "label": page.get("label"),
        "page_type": page.get("page_type"),
        "score": _int(page.get("score")),
        "is_selected": _bool(page.get("is_selected")),
        "last_checked_at": normalize_ts(page.get("last_checked_at")),
        "raw": dumps(dict(page)),
    })


def lead_contact_columns(lead_id: int, contact: JsonMap) -> SqlRow:
    contact_id = contact.get("contact_id", contact.get("id"))
    return _row({
        "lead_id": lead_id,
        "contact_id": _int(contact_id),
        "first_name": contact.get("first_name"),
        "last_name": contact.get("last_name"),
        "title": contact.get("title"),
        "role": contact.get("role"),
        "email": contact.get("email"),
        "social_url": contact.get("social_url"),
        "is_selected": _bool(contact.get("is_selected")),
        "raw": dumps(dict(contact)),
    })


def competitor_columns(lead_id: int, competitor: JsonMap) -> SqlRow:
    return _row({
        "id": _int(competitor.get("id")),
        "lead_id": lead_id,
        "name": competitor.get("name") or "",
        "domain": competitor.get("domain"),
        "is_pinned": _bool(competitor.get("is_pinned")),
        "last_scanned_at": normalize_ts(competitor.get("last_scanned_at")),
        "scan_summary": competitor.get("scan_summary"),
        "scan_queued": 0,
        "raw": dumps(dict(competitor)),
    })


def touchpoint_columns(lead_id: int, touchpoint: JsonMap) -> SqlRow:
    return _row({
        "id": _int(touchpoint.get("id")),
        "lead_id": lead_id,
        "description": touchpoint.get("description") or "",
        "detected_type": touchpoint.get("detected_type"),
        "contact_id": _int(touchpoint.get("contact_id")),
        "bonus_points": _int(touchpoint.get("bonus_points"), 0),
        "created_at": normalize_ts(touchpoint.get("created_at")),
        "raw": dumps(dict(touchpoint)),
    })


def note_columns(lead_id: int, note: JsonMap) -> SqlRow:
    return _row({
        "id": _int(note.get("id")),
        "lead_id": lead_id,
        "content": note.get("content") or "",
        "created_at": normalize_ts(note.get("created_at")),
        "raw": dumps(dict(note)),
    })


def recommendation_columns(lead_id: int, rec: JsonMap) -> SqlRow:
    return _row({
        "id": _int(rec.get("id")),
        "lead_id": _int(rec.get("lead_id"), lead_id),
        "action_type": rec.get("action_type"),
        "target_url": rec.get("target_url"),
        "suggested_comment": rec.get("suggested_comment"),
        "priority": rec.get("priority"),
        "engagement_reason": rec.get("engagement_reason"),
        "source_page_label": rec.get("source_page_label"),
        "status": rec.get("status") or "active",
        "created_at": normalize_ts(rec.get("created_at")),
        "raw": dumps(dict(rec)),
    })


def company_columns(company: JsonMap) -> SqlRow:
    name = company.get("name") or ""
    domain = company.get("domain") or ""
    return _row({
        "id": _int(company.get("id")),
        "name": name,
        "name_lower": name.lower(),
        "search_text": f"{name} {domain}".strip().lower(),
        "domain": company.get("domain"),
        "industry": company.get("industry"),
        "country": company.get("country"),
        "region": company.get("region"),
        "size": company.get("size"),
        "description": company.get("description"),
        "tags": dumps(list(company.get("tags") or [])),
        "custom_fields": dumps(dict(company.get("custom_fields") or {})),
        "source": company.get("source"),
        "ai_tag": company.get("ai_tag"),
        "created_at": normalize_ts(company.get("created_at")),
        "updated_at": normalize_ts(company.get("updated_at")),
        "raw": dumps(dict(company)),
    })


def contact_columns(contact: JsonMap) -> SqlRow:
    first = contact.get("first_name") or ""
    last = contact.get("last_name") or ""
    full = f"{first} {last}".strip()
    email = contact.get("email") or ""
    return _row({
        "id": _int(contact.get("id")),
        "company_id": _int(contact.get("company_id")),
        "first_name": contact.get("first_name"),
        "last_name": contact.get("last_name"),
        "name_lower": full.lower(),
        "search_text": f"{full} {email}".strip().lower(),
        "email": contact.get("email"),
        "title": contact.get("title"),
        "role": contact.get("role"),
        "social_url": contact.get("social_url"),
        "phone": contact.get("phone"),
        "tags": dumps(list(contact.get("tags") or [])),
        "custom_fields": dumps(dict(contact.get("custom_fields") or {})),
        "created_at": normalize_ts(contact.get("created_at")),
        "updated_at": normalize_ts(contact.get("updated_at")),
        "raw": dumps(dict(contact)),
    })


def template_columns(template: JsonMap) -> SqlRow:
    name = template.get("name") or ""
    return _row({
        "id": str(template.get("id")),
        "name": name,
        "name_lower": name.lower(),
        "description": template.get("description"),
        "fields": dumps(list(template.get("fields") or [])),
        "created_at": normalize_ts(template.get("created_at")),
        "raw": dumps(dict(template)),
    })
