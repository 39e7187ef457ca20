"""Opening the cockpit on a configuration: plain `warmline`, `warmline demo`.

Today (or the lead list: `[ui] start_screen`) paints from the cache first; the sync
engine (the HTTP client, the service's models, the scheduler) is built by the app after
that first frame, in a thread (`warmline.startup` says why and what else start-up does).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, NoReturn

from warmline import logfile
from warmline.config import KEY_FROM_FILE, Config, config_path, key_file_problem
from warmline.exit_codes import EXIT_CACHE
from warmline.store import CacheUnusable, Store
from warmline.store.database import cache_unusable
from warmline.textsafe import terminal_text
from warmline.tui.app import run_cockpit, run_first_run

if TYPE_CHECKING:
    from warmline.tui.context import SyncHandle


def start_cockpit(config: Config) -> None:
    """Open the cockpit on `config`; with no API key, the first-run screen says what to do."""
    if not config.has_api_key:
        run_first_run(config_path(), config=config)
        return
    try:
        # Makes the data dir (0700) and the file (0600); says so when it upgrades an old one.
        store = Store(config.db_path, on_upgrade=_say_upgrading)
    except CacheUnusable as exc:
        _cache_unusable_exit(exc)
    # The log file only while the terminal UI runs: a line on stderr would be drawn over its
    # screen. Cheap enough before the first frame (the file opens at the first line written).
    log_warnings = logfile.configure(terminal=False, keep_level=True)
    for warning in log_warnings:
        print(f"Warning: {terminal_text(warning)}", file=sys.stderr)
    try:
        run_cockpit(store, config=config, config_path=config_path(),
                    sync_factory=partial(_sync_engine, store, config), check_cache=True,
                    notices=startup_notices(config, log_warnings))
    except CacheUnusable as exc:  # found after the first paint by the app's check of its pages
        _cache_unusable_exit(exc)
    except sqlite3.DatabaseError as exc:  # a damaged page met after the first paint
        _cache_unusable_exit(cache_unusable(store.path, exc))
    finally:
        store.close()


def startup_notices(config: Config, log_warnings: Sequence[str]) -> list[str]:
    """What the terminal was told before the cockpit's screen took it over, said again on
    that screen, which draws over it: settings of the config file Warmline does not read
    (a rep with `base_url` at the top of the file saw only "offline"), a key file other
    users can read, a log directory that cannot be written."""
    notices = []
    if config.unread_settings:
        notices.append(f"The config file has settings Warmline does not read: {', '.join(config.unread_settings)}.")
    if config.key_source == KEY_FROM_FILE and config.source is not None:
        problem = key_file_problem(config.source)
        if problem:
            notices.append(problem)
    notices += [f"Warning: {warning}" for warning in log_warnings]
    return notices


def _say_upgrading(version: int, target: int) -> None:
    """A line on the terminal while the cache of an older Warmline is brought up to date,
    before the cockpit's screen replaces it: rebuilding an index over a large cache takes
    seconds, which would otherwise pass on a blank terminal."""
    print("Updating the cache for this version of Warmline (once; a large cache takes a few seconds)...",
          file=sys.stderr, flush=True)


def _cache_unusable_exit(exc: Exception) -> NoReturn:
    """One line on stderr and exit 5, as the command line reports a cache it cannot use."""
    print(f"Error: {terminal_text(exc)}", file=sys.stderr)
    sys.exit(EXIT_CACHE)


def _sync_engine(store: Store, config: Config) -> SyncHandle:
    """The engine the command line builds too (`warmline.wiring`: its client checks the
    base URL); the app calls this in a thread after its first frame, and shows a
    `WiringError` as "Sync is off"."""
    from warmline.wiring import make_engine  # deferred: first frame

    return make_engine(store, config)
