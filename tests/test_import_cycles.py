"""No import cycles in `warmline`: which module imports which is an order a reader can
follow, with nothing that only works because of when a function runs.

The graph counts imports at module top and inside functions alike (a cycle through an
import inside a function only happens to work because of when it runs); imports under
`if TYPE_CHECKING:` are left out: they never run, and annotations may name each other
freely (`support.imports`).
"""

from __future__ import annotations

from pathlib import Path

import warmline
from support.imports import find_cycle, import_graph, imported_names


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
    assert imported_names(source, "pkg.x", False, known) == {"typing", "pkg.a", "pkg.b", "pkg.d"}
    assert imported_names("from .a import name\n", "pkg", True, known) == {"pkg.a"}


def test_a_cycle_through_a_function_level_import_fails(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "one.py").write_text("import pkg.two\n")
    (root / "two.py").write_text("def later():\n    from pkg import one\n")
    assert find_cycle(import_graph(root)) == ["pkg.one", "pkg.two", "pkg.one"]
