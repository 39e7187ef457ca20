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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import Any, TextIO

from warmline.store import Store
from warmline.store.followups import FollowUp, FollowUps
from warmline.textsafe import csv_text, json_dumps, terminal_line, terminal_text
from warmline.zone import system_zone, zone_label

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
    "id", "company_id", "company_name", "first_name", "last_name", "title", "role", "email", "phone", "social_url",
    "tags",
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


def _record_rows(
    fetch: Callable[[int], Sequence[Any]],
    columns: Sequence[str],
    company_names: Callable[[Iterable[int]], dict[int, str]] | None = None,
) -> Iterator[dict[str, Any]]:
    """Records a page at a time; with `company_names`, each page's companies are named
    (`company_name`: a contact's company as the cache holds it, empty when it holds none)."""
    for page in _pages(fetch):
        names = company_names(r.company_id for r in page if r.company_id is not None) if company_names else {}
        for record in page:
            row = {name: getattr(record, name) for name in columns if name != "company_name"}
            if company_names is not None:
                row["company_name"] = names.get(record.company_id)
            yield {**row, "custom_fields": record.custom_fields}


def _custom_keys(store: Store, entity: str) -> tuple[str, ...]:
    """Custom field columns: the schema's order, then keys only the records carry."""
    schema = [str(f["key"]) for f in store.field_schemas(entity)]
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
            lambda: _record_rows(
                lambda offset: store.contacts_page(offset=offset, limit=PAGE), CONTACT_COLUMNS, store.company_names
            ),
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
    return write_file(path, lambda out: export(store, kind, fmt, out, status))


def write_file(path: Path | str, write: Callable[[TextIO], int]) -> int:
    """Run `write` into a temporary file beside `path`, then put it in place: `path` is
    replaced only once complete. Returns what `write` returned (the count of items)."""
    target = Path(path).expanduser()
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            count = write(out)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return count


# --- follow-ups ------------------------------------------------------------------------------
# Kept locally (`warmline.store.followups`), not in the cache: `warmline export followups`
# reads their own file. CSV and JSON as above; ICS for a calendar (RFC 5545), written here
# rather than with a library: one VEVENT per open follow-up needs a few lines of text, and
# the rules that matter (CRLF, folding at 75 octets, escaping, a stable UID) are below.
# tests/test_export_followups.py reads the result back with the `icalendar` library.

FOLLOWUP_FORMATS = ("csv", "json", "ics")
FOLLOWUP_COLUMNS = (
    "id", "lead_id", "company", "text", "source", "source_op_id", "due", "at", "state",
    "promised", "snoozed_until", "phrase", "created_at", "done_at",
)  # fmt: skip
"""A follow-up's fields, in CSV, in JSON and in `warmline followups --json`: `due` is the day
it is due now (ISO 8601; a snooze's day when snoozed), `promised` the day first promised,
`at` a wall-clock time in the rep's zone ("10:00") or null, `state` done / overdue / today /
snoozed / upcoming against the rep's today."""

ICS_PRODID = "-//Warmline//Follow-ups//EN"
ICS_TIMED_MINUTES = 30
"""How long a timed follow-up's event lasts in a calendar (it has no length of its own)."""


def followup_json(followup: FollowUp, today: date) -> dict[str, Any]:
    """One follow-up as `FOLLOWUP_COLUMNS` (the one JSON shape of a follow-up)."""
    return {
        "id": followup.id,
        "lead_id": followup.lead_id,
        "company": followup.company,
        "text": followup.text,
        "source": followup.source,
        "source_op_id": followup.source_op_id,
        "due": followup.due_on.isoformat(),
        "at": followup.at.strftime("%H:%M") if followup.at is not None else None,
        "state": followup.state(today),
        "promised": followup.due.isoformat(),
        "snoozed_until": followup.snoozed_until.isoformat() if followup.snoozed_until else None,
        "phrase": followup.phrase,
        "created_at": _utc_text(followup.created_at),
        "done_at": _utc_text(followup.done_at) if followup.done_at is not None else None,
    }


def _utc_text(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _ics_escape(text: str) -> str:
    """A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped, line breaks
    as `\\n`; control characters and escape sequences removed first."""
    clean = terminal_text(text)
    return (
        clean.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")
    )


def _ics_fold(line: str) -> str:
    """A content line folded at 75 octets (RFC 5545 3.1): each continuation starts with a
    space; a UTF-8 character is never cut in two. Ends with CRLF."""
    pieces: list[str] = []
    current, size, limit = "", 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            pieces.append(current)
            current, size, limit = " ", 1, 75
        current += char
        size += width
    pieces.append(current)
    return "\r\n".join(pieces) + "\r\n"


def _ics_summary(followup: FollowUp) -> str:
    first = terminal_line(followup.text)
    if len(first) > 60:
        first = first[:59].rstrip() + "…"
    return f"Follow up: {terminal_line(followup.company) or f'lead {followup.lead_id}'}: {first}"


def ics_uid(followup: FollowUp, zone: tzinfo | None) -> str:
    """The event's UID: the follow-up's id and creation time, so the same follow-up exported
    again updates its event (SEQUENCE counts its changes) instead of adding one. A timed one
    read in a named zone carries the zone's name too: its UTC time changes with the zone,
    and an event once exported with a fixed offset (an hour off after a DST change) or in
    another zone must not keep its old time on a re-import, which a calendar does when
    the UID and SEQUENCE are unchanged."""
    created = followup.created_at.astimezone(UTC)
    name = zone_label(zone) if followup.at is not None else None
    tag = "-" + "".join(c if c.isascii() and (c.isalnum() or c in "+-_") else "." for c in name) if name else ""
    return f"warmline-followup-{followup.id}-{created:%Y%m%dT%H%M%SZ}{tag}@warmline"


def ics_start(day: date, at: time, zone: tzinfo) -> datetime:
    """A wall-clock time on `day` in `zone` as UTC, with that date's own offset (never
    today's). A time the DST change skips, or one it repeats, is read with the offset before
    the change, as RFC 5545 (3.3.5) reads a DATE-TIME with a TZID (zoneinfo's fold=0)."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def ics_event(followup: FollowUp, stamp: datetime, zone: tzinfo | None = None) -> list[str]:
    """The VEVENT of one follow-up, as unfolded content lines.

    All-day when it has no time (DTSTART;VALUE=DATE and the next day as DTEND); else at
    its wall-clock time in the rep's zone `zone` (None: this machine's, `system_zone`),
    written in UTC for that date (`ics_start`) so no VTIMEZONE is needed, lasting
    `ICS_TIMED_MINUTES`. The UID is `ics_uid`'s."""
    zone = zone if zone is not None else system_zone()
    created = followup.created_at.astimezone(UTC)
    lines = [
        "BEGIN:VEVENT",
        f"UID:{ics_uid(followup, zone)}",
        f"DTSTAMP:{stamp.astimezone(UTC):%Y%m%dT%H%M%SZ}",
        f"CREATED:{created:%Y%m%dT%H%M%SZ}",
        f"LAST-MODIFIED:{(followup.updated_at or followup.created_at).astimezone(UTC):%Y%m%dT%H%M%SZ}",
        f"SEQUENCE:{followup.revision}",
    ]
    day = followup.due_on
    if followup.at is None:
        lines += [f"DTSTART;VALUE=DATE:{day:%Y%m%d}", f"DTEND;VALUE=DATE:{day + timedelta(days=1):%Y%m%d}"]
    else:
        start = ics_start(day, followup.at, zone)
        end = start + timedelta(minutes=ICS_TIMED_MINUTES)
        lines += [f"DTSTART:{start:%Y%m%dT%H%M%SZ}", f"DTEND:{end:%Y%m%dT%H%M%SZ}"]
    origin = {"activity": "from an activity", "note": "from a note", "manual": "added by hand"}
    about = (
        f"Lead {followup.lead_id} ({followup.company}): {origin[followup.source]} in Warmline "
        "(kept on this machine)."
    )
    lines += [
        f"SUMMARY:{_ics_escape(_ics_summary(followup))}",
        f"DESCRIPTION:{_ics_escape(f'{followup.text}{chr(10) * 2}{about}')}",
        "TRANSP:TRANSPARENT",
        "END:VEVENT",
    ]
    return lines


def write_ics(items: Iterable[FollowUp], out: TextIO, stamp: datetime, zone: tzinfo | None = None) -> int:
    """A VCALENDAR of the open follow-ups among `items` (a done one is not on a calendar)."""
    zone = zone if zone is not None else system_zone()
    count = 0
    out.write(_ics_fold("BEGIN:VCALENDAR") + _ics_fold("VERSION:2.0") + _ics_fold(f"PRODID:{ICS_PRODID}"))
    out.write(_ics_fold("CALSCALE:GREGORIAN") + _ics_fold("METHOD:PUBLISH"))
    out.write(_ics_fold("X-WR-CALNAME:Warmline follow-ups"))
    for followup in items:
        if followup.done_at is not None:
            continue
        out.write("".join(_ics_fold(line) for line in ics_event(followup, stamp, zone)))
        count += 1
    out.write(_ics_fold("END:VCALENDAR"))
    return count


def export_followups(
    followups: FollowUps,
    fmt: str,
    out: TextIO,
    *,
    today: date,
    stamp: datetime,
    zone: tzinfo | None = None,
) -> int:
    """Write every follow-up (csv, json: done ones too, with their state; ics: the open
    ones) to `out`; returns how many were written."""
    if fmt not in FOLLOWUP_FORMATS:
        raise ValueError(f"format must be one of {', '.join(FOLLOWUP_FORMATS)} (got {fmt!r})")
    items = followups.list("all", today=today)
    if fmt == "ics":
        return write_ics(items, out, stamp, zone)
    export = Export(FOLLOWUP_COLUMNS, (), lambda: (followup_json(f, today) for f in items))
    return WRITERS[fmt](export, out)
