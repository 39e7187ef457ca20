"""No import cycles in `warmline`: the graph of which module imports which is a tree-like
order a reader can follow, with nothing that only works because of when a function runs.

The graph is read from the source with `ast`, counting imports at module top and inside
functions alike (an import inside a function is still a dependency; a cycle through one
only happens to work because of when it runs). Imports under `if TYPE_CHECKING:` are left
out: they never run, and annotations may name each other freely.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import warmline

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


def imported_modules(source: str, name: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` imports (`from a import b` names the
    module `a.b` when there is one, else `a`)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        found.update(target for target in targets if target in known and target != name)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module name -> the package's modules it imports, for every module under `root`."""
    paths = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    known = set(paths)
    return {
        name: imported_modules(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known)
        for name, path in paths.items()
    }


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


def test_warmline_has_no_import_cycle() -> None:
    graph = import_graph(Path(warmline.__file__).parent)
    assert len(graph) > 50 and graph["warmline.cli"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_a_cycle_is_found_and_printed() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"x": {"y"}, "y": {"y"}}) == ["y", "y"]


def test_imports_inside_functions_count_and_type_checking_ones_do_not() -> None:
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "import pkg.a\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.c import Thing\n"
        "else:\n"
        "    from . import d\n"
        "def f():\n"
        "    from pkg import b\n"
    )
    assert imported_modules(source, "pkg.x", False, known) == {"pkg.a", "pkg.b", "pkg.d"}
    assert imported_modules("from .a import name\n", "pkg", True, known) == {"pkg.a"}


def test_a_cycle_through_a_function_level_import_fails(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "one.py").write_text("import pkg.two\n")
    (root / "two.py").write_text("def later():\n    from pkg import one\n")
    assert find_cycle(import_graph(root)) == ["pkg.one", "pkg.two", "pkg.one"]
