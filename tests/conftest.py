"""Session-wide set-up of the suite: a home of its own, how many processes run it, and
long tests first.

Each test process (and every program it starts) gets its own XDG data, config, cache and
state directories, so no test reads the rep's real config or writes a cache where another
process of a parallel run writes its own.

`./dev test` runs the suite in several processes (pytest-xdist, `-n auto`), which take
tests in collection order; a long test collected near the end would leave one process
running it alone while the others wait. Tests marked `e2e` (real processes, ports,
terminals) or `slow` are moved to the front, each group keeping its order.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The `chromium` fixture (a real headless browser, or a skip that says why).
pytest_plugins = ["support.browser"]

XDG_DIRS = ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")


def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="warmline-tests-home-"))
    for name in XDG_DIRS:
        os.environ[name] = str(home / name.lower())
    # `warmline log` / `note` start no background sender (a fork of the test process, a
    # process outliving the test); tests/cli/test_cli_queueing.py removes it to test one.
    os.environ["WARMLINE_NO_DETACH"] = "1"
    config.add_cleanup(lambda: shutil.rmtree(home, ignore_errors=True))


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: `-p no:xdist` still runs
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: two processes a core (PYTEST_XDIST_AUTO_NUM_WORKERS still decides if set).

    Most tests wait more than they compute: Textual's pilot waits for the app to go idle
    20 ms at a time, and subprocesses and servers take their time to answer. With one
    process a core the cores stood a third idle (tests/tui: 104 s with two, 65 s with four;
    the whole suite 4.5 min with two, 3 min with four).
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return 2 * len(os.sched_getaffinity(0))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None and item.get_closest_marker("e2e") is None)
