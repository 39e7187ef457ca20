"""The contract suite checks itself, so its coverage cannot silently rot.

- Every public coroutine method of `ServiceClient` must have been called by some contract
  test this session (recorded by `support.contract.record_calls`). This test is moved to
  the end of the run by conftest.py and skips itself when only part of the suite runs.
- docs/api-coverage.md must name, for every operation, contract tests that exist and
  that mention the operation's client method.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from support.contract import EXERCISED, client_methods

ROOT = Path(__file__).resolve().parents[2]
COVERAGE_PAGE = ROOT / "docs" / "api-coverage.md"
LIFECYCLE = {"aclose"}
"""Public coroutine methods that are not operations of the service."""

CONTRACT_COLUMN = "Sandbox contract test"
TEST_REF = re.compile(r"`(tests/contract/[\w/]+\.py)::(\w+)(?:\[[^\]]*\])?`")


def operation_rows() -> list[dict[str, str]]:
    """The Operations table of the coverage page, one dict per row keyed by column title."""
    text = COVERAGE_PAGE.read_text(encoding="utf-8")
    table = text.split("## Operations", 1)[1]
    lines = [line for line in table.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [
        dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


@functools.cache
def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@functools.cache
def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(source(path))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
    }


def test_every_client_method_is_exercised(whole_suite: None) -> None:
    missing = sorted(set(client_methods()) - LIFECYCLE - EXERCISED)
    assert not missing, f"client methods no contract test called: {missing}"


def test_the_coverage_page_names_a_contract_test_for_every_operation() -> None:
    rows = operation_rows()
    documented = {row["Client method"].strip("`").removeprefix("ServiceClient.") for row in rows}
    assert documented == set(client_methods()) - LIFECYCLE

    for row in rows:
        method = row["Client method"].strip("`").removeprefix("ServiceClient.")
        refs = TEST_REF.findall(row[CONTRACT_COLUMN])
        assert refs, f"{row['Operation']}: no contract test named in docs/api-coverage.md"
        for file, name in refs:
            path = ROOT / file
            assert path.is_file(), f"{row['Operation']}: {file} does not exist"
            assert name in defined_tests(path), f"{row['Operation']}: {file} has no {name}"
            assert f".{method}(" in source(path), f"{file} never calls {method}"
