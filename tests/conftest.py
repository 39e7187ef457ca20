"""Session-wide set-up of the suite: long tests start first.

`./dev test` runs the suite in several processes (pytest-xdist), which take tests in
collection order; a long test collected near the end would leave one process running it
alone while the others wait. Tests marked `e2e` (real processes, ports, terminals) or
`slow` are moved to the front, each group keeping its order.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None and item.get_closest_marker("e2e") is None)
