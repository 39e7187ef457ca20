"""CSV exports under hostile text (issue #11, item 4): a bare CR, LF, CR LF and formulas
after a line break. Each export is read back three ways: by Python's `csv` module; by a
spreadsheet's reading rules written out here (no spreadsheet installs from PyPI in a few
megabytes: CR, LF and CR LF all end a row outside quotes, `""` is a quote inside them, and
a cell starting with `=`, `+`, `-` or `@` is a formula); and line by line, as an importer
that ignores quotes would, where no line may start a formula either.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from warmline.exporting import COMPANY_COLUMNS, export
from warmline.store import Store
from warmline.textsafe import FORMULA_START, csv_text

HOSTILE_NAMES = [
    "Acme\r=2*21",  # the case: a bare CR then a formula
    "Beta\n+1+1",
    "Gamma\r\n-3+3",
    "Delta\n\n@SUM(A1:A9)",
    "\r=HYPERLINK(\"http://evil.example\")",
    "\t=1+1",
    "=cmd|' /C calc'!A0",
    "Epsilon\x1b[2J\x9b31m\u202eRLO",
    'Zeta "quoted", with a comma\r=1',
    "Eta\u2028=1",
    "Plain Theta",
]
FORMULA = tuple(c for c in FORMULA_START if c not in "\t\r")  # what a spreadsheet runs


def spreadsheet_rows(text: str) -> list[list[str]]:
    """Rows as a spreadsheet reads a CSV: any of CR, LF, CR LF ends a row outside quotes."""
    rows: list[list[str]] = []
    row: list[str] = []
    cell: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == '"' and text[i + 1:i + 2] == '"':
                cell.append('"')
                i += 1
            elif c == '"':
                quoted = False
            else:
                cell.append(c)
        elif c == '"' and not cell:
            quoted = True
        elif c == ",":
            row.append("".join(cell))
            cell = []
        elif c in "\r\n":
            if c == "\r" and text[i + 1:i + 2] == "\n":
                i += 1
            row.append("".join(cell))
            rows.append(row)
            row, cell = [], []
        else:
            cell.append(c)
        i += 1
    if cell or row:
        row.append("".join(cell))
        rows.append(row)
    return rows


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "cache.sqlite3")
    store.upsert_companies([
        {"id": i, "name": name, "description": name, "domain": f"c{i}.example", "tags": [name, "-tag"],
         "custom_fields": {"note": name, "=key\r=x": "v"}}
        for i, name in enumerate(HOSTILE_NAMES, start=1)
    ])
    return store


def exported(store: Store) -> str:
    out = io.StringIO(newline="")
    assert export(store, "companies", "csv", out) == len(HOSTILE_NAMES)
    return out.getvalue()


def unguarded(cell: str) -> list[str]:
    """The lines of a cell a spreadsheet would run as a formula (one may start a cell
    wherever an importer splits a quoted cell at its line breaks)."""
    return [line for line in cell.replace("\r\n", "\n").replace("\r", "\n").split("\n") if line.lstrip(" ").startswith(FORMULA)]


def test_csv_module_reads_every_row_whole_with_no_formula(store: Store) -> None:
    text = exported(store)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    width = len(rows[0])
    assert width == len(COMPANY_COLUMNS) + 2  # the custom fields `note` and the hostile key
    assert len(rows) == 1 + len(HOSTILE_NAMES)
    assert [len(r) for r in rows] == [width] * len(rows)
    assert sorted(int(r[0]) for r in rows[1:]) == list(range(1, len(HOSTILE_NAMES) + 1))
    assert [cell for row in rows for cell in row if unguarded(cell)] == []
    assert "\r" not in text and "\t" not in text and "\x1b" not in text


def test_a_spreadsheet_reads_every_row_whole_with_no_formula(store: Store) -> None:
    rows = spreadsheet_rows(exported(store))
    assert len(rows) == 1 + len(HOSTILE_NAMES)
    assert {len(r) for r in rows} == {len(COMPANY_COLUMNS) + 2}
    assert [cell for row in rows for cell in row if cell.lstrip(" ").startswith(FORMULA)] == []
    names = {r[0]: r[1] for r in rows[1:]}
    assert names["1"] == "Acme\n'=2*21"  # the break is kept inside the quoted cell, the formula guarded
    assert names[str(len(HOSTILE_NAMES))] == "Plain Theta"


def test_no_line_of_the_file_starts_a_formula(store: Store) -> None:
    text = exported(store)
    lines = text.split("\n")
    assert [line for line in lines if line.lstrip(' "').startswith(FORMULA)] == []


def test_a_cell_with_a_line_break_is_quoted(store: Store) -> None:
    assert '\n1,"Acme\n\'=2*21",' in exported(store)


@pytest.mark.parametrize(("raw", "cell"), [
    ("Acme\r=2*21", "Acme\n'=2*21"),
    ("=1", "'=1"),
    ("+1", "'+1"),
    ("-1", "'-1"),
    ("@x", "'@x"),
    ("\t=1", "' =1"),
    ("  @x", "'  @x"),
    ("a\r\n\r\n-b", "a\n\n'-b"),
    ("ok\x00\x7f\x9b2J", "ok"),
    ("Ünïcødé\u200dok", "Ünïcødé\u200dok"),
])
def test_csv_text(raw: str, cell: str) -> None:
    assert csv_text(raw) == cell
