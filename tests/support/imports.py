"""The import graph of a package, read from its source with `ast` (tests/test_import_cycles.py,
tests/test_layering.py).

Imports at module top and inside functions count alike (an import inside a function is still
a dependency). Imports under `if TYPE_CHECKING:` do not: they never run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

Graph = Mapping[str, Iterable[str]]


def module_name(path: Path, root: Path) -> str:
    """`warmline.tui.app` for `<root>/tui/app.py`, `warmline.tui` for its `__init__.py`."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, at any depth, skipping `if TYPE_CHECKING:` bodies."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]))
        else:
            yield from _imports(node)


def imported_names(source: str, name: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules the module `name` imports, as absolute names: `from a import b` names the
    module `a.b` when `known` has it, else `a`."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names)
    found.discard(name)
    return found


def import_graph(root: Path, *, external: bool = False) -> dict[str, set[str]]:
    """Module name -> the modules it imports, for every module under `root`: only the
    package's own modules, or (`external`) every module named."""
    paths = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    known = set(paths)
    graph = {}
    for name, path in paths.items():
        names = imported_names(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known)
        graph[name] = names if external else names & known
    return graph


def find_cycle(graph: Graph) -> list[str] | None:
    """One cycle of `graph` as [a, b, ..., a], or None (depth-first search, in name order)."""
    state: dict[str, str] = {}  # "open" while on the path, "done" once fully explored
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return [*path[path.index(target):], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def reachable(graph: Graph, starts: Iterable[str]) -> set[str]:
    """Every node reachable from `starts`, the starts included."""
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return seen
