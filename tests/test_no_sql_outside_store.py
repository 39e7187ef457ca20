"""SQL lives in `warmline.store` only (docs/architecture.md): screens, commands, actions and
the sync engine read and write the cache through store methods and read models, never by
running a query of their own.

Checked on the syntax tree of every module under src/warmline outside store/:
- no call of `.execute`, `.executemany` or `.executescript` (on anything);
- no call of the store's query helpers `.rows`, `.row`, `.scalar` or `.pragma` on a
  store-like receiver (`store`, `self.cockpit.store`, `db`, `conn`...) or with a string
  as the query;
- no use of the raw connection (`.conn`, `.db`, `._db`);
- no string (f-strings and `+` chains included) that reads as SQL: SELECT ... FROM,
  INSERT INTO, UPDATE ... SET, DELETE FROM, CREATE/DROP TABLE or INDEX, PRAGMA x;
- no import of sqlite_utils, and sqlite3 only for its exception classes (catching
  `sqlite3.DatabaseError` to report a damaged cache is not running a query).
There is no allow-list: nothing outside the store needs one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "warmline"
STORE = SRC / "store"

ALWAYS_SQL_METHODS = frozenset({"execute", "executemany", "executescript"})
QUERY_METHODS = frozenset({"rows", "row", "scalar", "pragma"})
STORE_LIKE = frozenset({"store", "db", "_db", "conn", "connection", "database", "cache"})
RAW_CONNECTION = frozenset({"conn", "db", "_db"})
SQL_TEXT = re.compile(
    r"\bSELECT\b[\s\S]*?\bFROM\b"
    r"|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b"
    r"|\bUPDATE\s+\S+\s+SET\b"
    r"|\bDELETE\s+FROM\b"
    r"|\b(?:CREATE|DROP)\s+(?:UNIQUE\s+|VIRTUAL\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b"
    r"|\bPRAGMA\s+\w+"
)


def _receiver_name(node: ast.expr) -> str | None:
    """The last name of a call's receiver: `store` for `self.cockpit.store.rows(...)`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _string_text(node: ast.expr) -> str | None:
    """The text of a string expression: a literal, an f-string (its holes as `{}`), or a
    `+` chain of those; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else "{}"
            for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string_text(node.left), _string_text(node.right)
        if left is not None or right is not None:
            return (left or "{}") + (right or "{}")
    return None


def _is_exception_name(name: str) -> bool:
    return name.endswith("Error") or name == "Warning"


class _Checker(ast.NodeVisitor):
    def __init__(self, sqlite3_names: set[str]) -> None:
        self.problems: list[tuple[int, str]] = []
        self.sqlite3_names = sqlite3_names  # what `import sqlite3 [as x]` bound, anywhere

    def _flag(self, node: ast.AST, why: str) -> None:
        self.problems.append((getattr(node, "lineno", 0), why))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] == "sqlite_utils":
                self._flag(node, "imports sqlite_utils")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        top = (node.module or "").split(".")[0]
        if top == "sqlite_utils":
            self._flag(node, "imports sqlite_utils")
        elif top == "sqlite3":
            for alias in node.names:
                if not _is_exception_name(alias.name):
                    self._flag(node, f"imports sqlite3.{alias.name} (only its exception classes may be used)")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in ALWAYS_SQL_METHODS:
                self._flag(node, f"calls .{func.attr}()")
            elif func.attr in QUERY_METHODS:
                query = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "sql"), None)
                if _receiver_name(func.value) in STORE_LIKE or (query is not None and _string_text(query) is not None):
                    self._flag(node, f"runs a query with .{func.attr}()")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id in self.sqlite3_names:
            if not _is_exception_name(node.attr):
                self._flag(node, f"uses sqlite3.{node.attr} (only its exception classes may be used)")
            return  # the module's name itself is judged here, not in visit_Name
        if node.attr in RAW_CONNECTION:
            self._flag(node, f"reaches the raw connection (.{node.attr})")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.sqlite3_names:  # passed around, called, aliased...
            self._flag(node, "uses the sqlite3 module itself")

    def _check_string(self, node: ast.expr) -> None:
        text = _string_text(node)
        if text is not None and SQL_TEXT.search(text):
            self._flag(node, f"holds SQL: {text.strip()[:60]!r}")

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self._check_string(node)
        for part in node.values:  # the holes may hold strings and calls of their own
            if isinstance(part, ast.FormattedValue):
                self.visit(part)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Add) and _string_text(node) is not None:
            self._check_string(node)
            for side in (node.left, node.right):
                if _string_text(side) is None:
                    self.visit(side)
            return
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self._check_string(node)


def sql_problems(source: str) -> list[tuple[int, str]]:
    """(line, why) for each way `source` runs SQL or holds it; empty when it does neither."""
    tree = ast.parse(source)
    sqlite3_names = {
        alias.asname or "sqlite3"
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "sqlite3"
    }
    checker = _Checker(sqlite3_names)
    checker.visit(tree)
    return sorted(set(checker.problems))


def modules_outside_store() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if STORE not in p.parents)


def test_no_module_outside_the_store_runs_or_holds_sql() -> None:
    found = [
        f"{path.relative_to(SRC.parent)}:{line}: {why}"
        for path in modules_outside_store()
        for line, why in sql_problems(path.read_text(encoding="utf-8"))
    ]
    assert modules_outside_store(), "no modules found: the path to src/warmline is wrong"
    assert found == []


# --- the checker itself -------------------------------------------------------------------------

FLAGGED = {
    "a query through the store": 'store.rows("SELECT id FROM leads")',
    "a query through the cockpit's store": 'self.cockpit.store.scalar("SELECT 1 FROM leads WHERE id = ?", (1,))',
    "a query held in a variable": 'sql = "SELECT key FROM jobs WHERE op_id = ?"\nstore.scalar(sql, (op,))',
    "a store-like receiver with any query": "store.row(query)",
    "an f-string query on any receiver": 'thing.rows(f"SELECT {cols} FROM {table}")',
    "an f-string split around its holes": 'x = f"SELECT id, {cols} FROM leads WHERE id IN ({marks})"',
    "a query built with +": 'x = "DELETE " + "FROM companies WHERE id = ?"',
    "execute on a connection": 'conn.execute("UPDATE leads SET hidden = 1")',
    "execute with no SQL in sight": "cursor.execute(statement)",
    "executemany": "conn.executemany(sql, rows)",
    "an insert": 'x = "INSERT OR REPLACE INTO jobs (key) VALUES (?)"',
    "an update": "x = 'UPDATE companies SET tags = ? WHERE id = ?'",
    "a pragma": 'x = "PRAGMA integrity_check"',
    "a table definition": 'x = """CREATE TABLE t (id INTEGER)"""',
    "the raw connection": "store.conn.commit()",
    "sqlite-utils through the store": 'store.db["companies"].insert_all(rows)',
    "sqlite_utils imported": "import sqlite_utils",
    "sqlite_utils imported from": "from sqlite_utils import Database",
    "sqlite3 connect": "import sqlite3\nsqlite3.connect(path)",
    "sqlite3 aliased": "import sqlite3 as lite\nlite.connect(path)",
    "sqlite3 handed around": "import sqlite3\nuse(sqlite3)",
    "sqlite3.connect imported": "from sqlite3 import connect",
    "sqlite3 imported in a function": "def f():\n    import sqlite3\n    return sqlite3.connect(':memory:')",
}

CLEAN = {
    "catching a damaged cache": "import sqlite3\ntry:\n    run()\nexcept sqlite3.DatabaseError as exc:\n    report(exc)",
    "telling a damaged cache apart": "import sqlite3\nok = isinstance(error, sqlite3.DatabaseError)",
    "an exception class imported": "from sqlite3 import OperationalError",
    "a store method": "store.lead_of_company(7)",
    "a read model": "page = company_page(store, 7)",
    "a virtual list's page of rows": "page = self._source.rows(offset, limit)",
    "a row formatter": "segments = self._formatter.row(item, width)",
    "an export's rows": "for row in export.rows():\n    pass",
    "a name like a keyword": 'SELECTED_MARK = "●"',
    "prose with the words in lower case": 'x = "select a template, then delete from the list"',
    "a heading in capitals": 'x = "SELECT the companies to add; UPDATE your plan"',
    "a transaction around store calls": "with store.write():\n    store.mark_done(op)",
}


@pytest.mark.parametrize("source", FLAGGED.values(), ids=FLAGGED.keys())
def test_the_checker_flags(source: str) -> None:
    assert sql_problems(source)


@pytest.mark.parametrize("source", CLEAN.values(), ids=CLEAN.keys())
def test_the_checker_passes(source: str) -> None:
    assert sql_problems(source) == []


def test_the_checker_finds_what_was_here_before_the_store_held_it() -> None:
    """The company page asked the cache for its lead itself (before issue 12)."""
    before = (
        "def lead_id(self):\n"
        "    return self.cockpit.store.scalar(\n"
        '        "SELECT id FROM leads WHERE company_id = ? AND hidden = 0 LIMIT 1", (self.company_id,)\n'
        "    )\n"
    )
    assert [line for line, _ in sql_problems(before)] == [2, 3]
