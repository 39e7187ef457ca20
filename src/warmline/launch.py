"""The `warmline` console script, and opening the cockpit.

Plain `warmline` is the cockpit, opened many times a day, and its first paint is measured
against a one-Label Textual app (bench/bench_tui.py). So it goes straight to the cockpit,
without loading click and the command line (about 10 ms of a start of ~270 ms); anything
with arguments is the command line (`warmline.cli`).
"""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from warmline.exit_codes import EXIT_BAD_INPUT


def main() -> None:
    """`warmline [COMMAND ...]`."""
    if len(sys.argv) > 1:
        from warmline.cli import main as command_line

        command_line()
        return
    from warmline.config import ConfigError, load_config

    try:
        config = load_config()
    except ConfigError as exc:
        from warmline.textsafe import terminal_text

        print(f"Error: {terminal_text(exc)}", file=sys.stderr)  # as the command line reports bad input
        sys.exit(EXIT_BAD_INPUT)
    start_cockpit(config)


def start_cockpit(config: Any) -> None:
    """Open the cockpit on `config`; with no API key, the first-run screen says what to do.

    The lead list paints from the cache first; the sync engine (the HTTP client, the
    service's models, the scheduler) is built by the app after that first frame, and the
    garbage collector waits for it too (see `warmline.startup`).
    """
    from warmline.startup import hold_collection

    hold_collection()
    from warmline.config import config_path

    if not config.has_api_key:
        from warmline.tui.app import run_first_run

        run_first_run(config_path(), theme=config.theme)
        return
    import sqlite3

    from warmline.store import CacheUnusable, Store
    from warmline.store.database import cache_unusable
    from warmline.tui.app import run_cockpit

    try:
        store = Store(config.db_path)  # makes the data dir (0700) and the file (0600)
    except CacheUnusable as exc:
        _cache_unusable_exit(exc)
    try:
        run_cockpit(store, sync_factory=partial(_sync_engine, store, config), keymap=config.keymap,
                    theme=config.theme, config_path=config_path(), undo_seconds=config.undo_seconds)
    except sqlite3.DatabaseError as exc:  # a damaged page met after the first paint
        _cache_unusable_exit(cache_unusable(store.path, exc))
    finally:
        store.close()


def _cache_unusable_exit(exc: Exception) -> None:
    """One line on stderr and exit 5, as the command line reports a cache it cannot use."""
    from warmline.exit_codes import EXIT_CACHE
    from warmline.textsafe import terminal_text

    print(f"Error: {terminal_text(exc)}", file=sys.stderr)
    sys.exit(EXIT_CACHE)


def _sync_engine(store: Any, config: Any) -> Any:
    """The command line's engine (its client checks the base URL); the cockpit calls this in
    a thread after its first frame, when importing the command line no longer delays it."""
    from warmline.commands.common import make_engine

    return make_engine(store, config)
