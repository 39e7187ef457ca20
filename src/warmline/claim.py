"""A cockpit started ahead of its browser tab: `warmline web`'s spare.

`warmline web` keeps one cockpit process started before any tab asks for it, so that a tab
does not wait for Python and the cockpit's modules to load (most of a cockpit's start). It
is plain `warmline` with `WARMLINE_WEB_CLAIM_FD` naming a pipe: the launcher loads the
cockpit's modules, then waits here, before it reads its configuration, its key or the
cache. When a tab opens, the server writes the tab's size to the pipe and closes it (the
claim); the cockpit then starts as any other and paints Today from the cache as it is
then, never from a read made while it waited. A spare the server drops (it stops, or the
spare is replaced) sees the pipe close with nothing written and exits at once; so does a
spare whose server has died, as the pipe's other end is the server's alone.
"""

from __future__ import annotations

import json
import os
import sys
from contextlib import suppress

ENV_CLAIM_FD = "WARMLINE_WEB_CLAIM_FD"
CLAIM_LIMIT = 256
"""The longest claim (a size as JSON is under 40 bytes)."""


def is_spare() -> bool:
    """Whether this process is a spare waiting to be claimed."""
    return ENV_CLAIM_FD in os.environ


def wait_for_claim() -> None:
    """Block until claimed; then Textual's web driver finds the tab's size where it looks
    (`COLUMNS`, `ROWS`). Exits 0 when dropped unclaimed, 2 on a claim it cannot read."""
    number = os.environ.pop(ENV_CLAIM_FD)
    chunks: list[bytes] = []
    try:
        fd = int(number)
        while (chunk := os.read(fd, CLAIM_LIMIT)) and sum(map(len, chunks)) <= CLAIM_LIMIT:
            chunks.append(chunk)
    except (ValueError, OSError) as exc:
        sys.exit(f"Error: the claim pipe {ENV_CLAIM_FD}={number!r} cannot be read ({exc})")
    finally:
        with suppress(ValueError, OSError):
            os.close(int(number))
    if not chunks:
        sys.exit(0)  # dropped: never claimed
    width, height = claimed_size(b"".join(chunks))
    os.environ["COLUMNS"], os.environ["ROWS"] = str(width), str(height)


def claimed_size(claim: bytes) -> tuple[int, int]:
    """The tab's size in a claim (`{"width": 120, "height": 40}`); exits 2 if it is not one."""
    try:
        size = json.loads(claim)
        width, height = size["width"], size["height"]
    except (ValueError, TypeError, KeyError):
        width = height = None
    if not all(isinstance(value, int) and 1 <= value <= 1000 for value in (width, height)):
        sys.exit("Error: the claim is not a terminal size")
    return width, height
