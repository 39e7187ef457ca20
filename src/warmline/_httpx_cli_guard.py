"""Keep `import httpx` from importing Rich.

httpx's `__init__` imports its command-line client (`httpx._main`: click, pygments, rich)
whenever those packages are installed, and Rich always is, because the TUI depends on it.
The core layers must not load Rich (docs/architecture.md), so before httpx is first
imported we register a stand-in `httpx._main` whose `main` loads the real one on call.
Nothing in Warmline runs the httpx CLI; the stand-in only defers its import.

This must run before anything imports httpx, which is why the `warmline` package imports it
first: every layer (api, store, sync, actions) is covered, whichever is imported first.
If httpx was already imported by someone else, there is nothing left to prevent.
"""

from __future__ import annotations

import importlib
import sys
import types

_NAME = "httpx._main"


def _deferred_main(*args: object, **kwargs: object) -> object:
    """Run the real httpx CLI, importing it (and Rich) only now."""
    sys.modules.pop(_NAME, None)
    return importlib.import_module(_NAME).main(*args, **kwargs)


def install() -> None:
    if "httpx" in sys.modules or _NAME in sys.modules:
        return
    stand_in = types.ModuleType(_NAME)
    stand_in.main = _deferred_main  # type: ignore[attr-defined]
    sys.modules[_NAME] = stand_in


install()
