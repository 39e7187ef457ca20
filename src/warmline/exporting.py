"""Exporting leads, companies and contacts from the cache as CSV or JSON.

CSV is what a rep pastes into a spreadsheet: a header row, one row per item, a stable
column order (the fixed columns below, then one column per custom field: the field
schema's order first, then any other key found, alphabetically), lists joined with
"; ". Company names and descriptions come from the web, so every text cell goes through
`warmline.textsafe.csv_text`: escape sequences and control characters are removed, a
line break inside a cell (CR LF, a bare CR) becomes LF and the cell is quoted, a tab
becomes a space, and the cell and each line inside it that a spreadsheet would run as a
formula (starting with `=`, `+`, `-` or `@`) is prefixed with `'`, the usual guard. A
bare CR is never written: `csv` does not quote a field holding one when the line ends
with LF, and a spreadsheet then splits the row there (`Acme\r=2*21`). JSON is a list of
objects with the same fields, values kept as they are (lists stay lists, custom fields
stay an object), control characters written as `\\uXXXX` escapes.

Rows are read a page at a time, so a 100,000-company export never holds the list in
memory. Shared by `warmline export` and the cockpit's palette; never imports Textual.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from warmline.store import Store
from warmline.textsafe import csv_text, json_dumps

KINDS = ("leads", "companies", "contacts")
FORMATS = ("csv", "json")
PAGE = 500
LIST_SEPARATOR = "; "

LEAD_COLUMNS = (
    "id", "company_id", "company_name", "lead_status", "warming_score", "target_score", "ready",
    "activity_count", "recommendation_count", "monitoring_active", "last_activity_at",
    "deal_value", "deal_currency", "won_at", "closed_at", "closed_reason",
)
COMPANY_COLUMNS = (
    "id", "name", "domain", "industry", "country", "region", "size", "description", "tags",
    "source", "ai_tag",
)
CONTACT_COLUMNS = (
    "id", "company_id", "first_name", "last_name", "title", "role", "email", "phone", "social_url", "tags",
)
_DEAL_COLUMNS = ("deal_value", "deal_currency", "won_at", "closed_at", "closed_reason")


@dataclass(frozen=True)
class Export:
    """What one export holds: its columns, and its rows (fixed fields plus custom fields)."""

    columns: tuple[str, ...]
    custom_keys: tuple[str, ...]
    rows: Callable[[], Iterator[dict[str, Any]]]


def _pages(fetch: Callable[[int], Sequence[Any]]) -> Iterator[Sequence[Any]]:
    """Pages of `PAGE` items from `fetch(offset)` until a short one."""
    offset = 0
    while True:
        page = fetch(offset)
        if page:
            yield page
        if len(page) < PAGE:
            return
        offset += PAGE


def _lead_rows(store: Store, status: str | None) -> Iterator[dict[str, Any]]:
    """Leads, highest score first, with their deal (kept in the cache beside the list row)."""
    for page in _pages(lambda offset: store.lead_page(status=status, sort="score", offset=offset, limit=PAGE)):
        deals = store.lead_deals([row.id for row in page])
        for lead in page:
            deal = deals.get(lead.id)
            yield {
                **{name: getattr(lead, name) for name in LEAD_COLUMNS if name not in _DEAL_COLUMNS},
                **{name: getattr(deal, name) if deal is not None else None for name in _DEAL_COLUMNS},
            }


def _record_rows(fetch: Callable[[int], Sequence[Any]], columns: Sequence[str]) -> Iterator[dict[str, Any]]:
    for page in _pages(fetch):
        for record in page:
            yield {**{name: getattr(record, name) for name in columns}, "custom_fields": record.custom_fields}


def _custom_keys(store: Store, entity: str) -> tuple[str, ...]:
    """Custom field columns: the schema's order, then keys only the records carry."""
    schema = [f["key"] for f in store.field_schemas(entity)]
    extra = [key for key in store.custom_field_keys(entity) if key not in schema]
    return tuple(dict.fromkeys([*schema, *extra]))


def build_export(store: Store, kind: str, status: str | None = None) -> Export:
    """The columns and rows of an export of `kind` (leads: optionally only cold or warm)."""
    if kind == "leads":
        return Export(LEAD_COLUMNS, (), lambda: _lead_rows(store, status))
    if status is not None:
        raise ValueError("only leads can be exported by status")
    if kind == "companies":
        return Export(
            COMPANY_COLUMNS,
            _custom_keys(store, "companies"),
            lambda: _record_rows(lambda offset: store.companies_page(offset=offset, limit=PAGE), COMPANY_COLUMNS),
        )
    if kind == "contacts":
        return Export(
            CONTACT_COLUMNS,
            _custom_keys(store, "contacts"),
            lambda: _record_rows(lambda offset: store.contacts_page(offset=offset, limit=PAGE), CONTACT_COLUMNS),
        )
    raise ValueError(f"kind must be one of {', '.join(KINDS)} (got {kind!r})")


def _cell(value: Any) -> str:
    """A value as spreadsheet text: one safe cell (`csv_text`), formulas defused with `'`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return _cell(LIST_SEPARATOR.join(_cell(v) for v in value))
    if isinstance(value, dict):
        return _cell(json.dumps(value, ensure_ascii=False, sort_keys=True))
    if isinstance(value, int | float):
        return str(value)
    return csv_text(value)


def write_csv(export: Export, out: TextIO) -> int:
    """Header and rows; a cell holding a line break is quoted (QUOTE_MINIMAL quotes LF,
    the line terminator; `_cell` leaves no CR), so a row is never split."""
    writer = csv.writer(out, lineterminator="\n")
    # A custom field named like a fixed column gets its own header, so no two columns share one.
    # Custom field keys come from the service: their headers are cells like any other.
    writer.writerow([*export.columns, *(f"custom:{k}" if k in export.columns else csv_text(k) for k in export.custom_keys)])
    count = 0
    for row in export.rows():
        custom = row.get("custom_fields") or {}
        writer.writerow([_cell(row[c]) for c in export.columns] + [_cell(custom.get(k)) for k in export.custom_keys])
        count += 1
    return count


def write_json(export: Export, out: TextIO) -> int:
    """A JSON list, written item by item (one object per line) so memory stays flat."""
    out.write("[")
    count = 0
    for row in export.rows():
        item = {c: row[c] for c in export.columns}
        if "custom_fields" in row:
            item["custom_fields"] = row.get("custom_fields") or {}
        out.write(("," if count else "") + "\n  " + json_dumps(item))
        count += 1
    out.write("\n]\n" if count else "]\n")
    return count


WRITERS: dict[str, Callable[[Export, TextIO], int]] = {"csv": write_csv, "json": write_json}


def export(store: Store, kind: str, fmt: str, out: TextIO, status: str | None = None) -> int:
    """Write `kind` from the cache to `out` in `fmt`; returns how many items were written."""
    if fmt not in WRITERS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)} (got {fmt!r})")
    return WRITERS[fmt](build_export(store, kind, status), out)


def export_to_file(store: Store, kind: str, fmt: str, path: Path | str, status: str | None = None) -> int:
    """Export into a file, replacing it only once complete (a failed export leaves no half file)."""
    target = Path(path).expanduser()
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            count = export(store, kind, fmt, out, status)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return count
