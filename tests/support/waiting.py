"""Waiting for a condition, never for a time: a test polls what it needs to see.

The cap only bounds a test that would otherwise hang, so it is generous (a loaded
machine may be ten times slower than a quiet one); reaching it fails the test by name.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any

CAP = 60.0


async def until(
    check: Callable[[], Any], *, cap: float = CAP, pilot: Any = None, step: float = 0.02, what: str = ""
) -> None:
    """Poll `check` (a function, or a coroutine function) until it is true; between polls
    the loop runs (a Textual `pilot` pauses the app, so its workers and timers run too)."""
    deadline = time.monotonic() + cap
    while not await _truth(check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what or 'the condition'} was still not true after {cap:.0f} s")
        if pilot is not None:
            await pilot.pause(step)
        else:
            await asyncio.sleep(step)


async def _truth(value: Any) -> bool:
    return bool(await value if inspect.isawaitable(value) else value)
