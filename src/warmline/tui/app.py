"""The cockpit application: screens, global keys, themes, and the status feed.

Everything is injected (the store, the sync handle, the clock, the time zone, the
browser opener, the system clipboard) so that tests drive the real app with no network and stable times, and
so the first paint comes from the cache before any network work starts. Screens change
the cache by handing a function of `warmline.actions` to `perform` or `decide`, which
type-check its arguments (`perform(actions.set_target_score, lead_id, 80)`). Screens see
the app only as a `warmline.tui.context.Cockpit`, which it implements.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sqlite3
import threading
from collections.abc import Callable, Hashable, Sequence
from contextlib import AbstractContextManager
from datetime import tzinfo
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar, TypeVarTuple

from textual.app import App
from textual.css.query import NoMatches
from textual.notifications import SeverityLevel
from textual.screen import Screen

from warmline.config import DEFAULT_THEME, Config
from warmline.startup import release_collection
from warmline.store.database import CacheUnusable
from warmline.store.followups import FollowUps
from warmline.store.sync_vocabulary import StateKey, SyncState
from warmline.termination import in_running_loop, signalled, stopping_with
from warmline.tui import browser
from warmline.tui.app_bindings import APP_BINDINGS
from warmline.tui.bindings import key_for, screen_bindings
from warmline.tui.clipboard import OSC52_NOTE, Copier, clipboard_text, system_copy
from warmline.tui.feed import status_from_store
from warmline.tui.held import QUIT_GRACE_SECONDS, Held
from warmline.tui.palette import ScreenActions
from warmline.tui.refusals import ActionRefused, in_reps_words, refusals
from warmline.tui.safe import safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen
from warmline.tui.screens.today import TodayScreen
from warmline.tui.status import SYNC_OFF_HINT, CockpitStatus, sync_result
from warmline.tui.themes import load_themes, load_user_themes, user_theme_dir
from warmline.tui.timefmt import DatetimeClock, local_zone, utc_now
from warmline.tui.typeahead import TypeaheadApp
from warmline.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from textual.theme import Theme

    from warmline.store import Store
    from warmline.tui.context import Cockpit, Decision, SyncHandle
    from warmline.tui.drafts import Drafts

P = ParamSpec("P")
R = TypeVar("R")
Ts = TypeVarTuple("Ts")

Opener = Callable[[str], object]
SYNC_OFF_NOTICE_SECONDS = 60.0
TIMES_SECONDS = 30.0
"""How long a screen may go unread before it is read again all the same: what it shows
as "5 min ago" is drawn when read, and offline nothing in the cache changes to redraw it."""



class WarmlineApp(TypeaheadApp):
    """The cockpit. With no store (no API key configured) it shows the first-run screen."""

    CSS_PATH = STYLES / "cockpit.tcss"
    TITLE = "Warmline"
    COMMANDS = App.COMMANDS | {ScreenActions}
    BINDINGS = APP_BINDINGS
    cache_error: Exception | None = None
    """A damaged cache met by a query (see `_handle_exception`), for `run_cockpit`."""
    _told_to_stop = False
    """A termination signal arrived (`_terminated`)."""
    cache_checked = False
    """The check for damaged pages has run (`check_cache`)."""

    def _handle_exception(self, error: Exception) -> None:
        """A damaged cache (a bad page read after the first paint) closes the cockpit so that
        `run_cockpit` can report it in one line; Textual's traceback screen would show a
        crash and say nothing of the file."""
        if isinstance(error, sqlite3.DatabaseError) and self.cache_error is None:
            self.cache_error = error
            self.exit(return_code=1)
            return
        if isinstance(error, NoMatches) and self._closing_down():
            # Closed while a screen was still opening: Textual mounts none of the widgets of
            # a screen being taken down, yet sends it Mount, and its handler finds none.
            # The exit goes on; a traceback would be noise on the rep's terminal.
            return
        super()._handle_exception(error)

    def _closing_down(self) -> bool:
        """The app is closing: quit (`q`, a test's end), or told to stop by a signal."""
        return not self.is_running or self._told_to_stop or signalled() is not None

    def __init__(
        self,
        store: Store | None = None,
        *,
        config: Config | None = None,
        config_path: Path | None = None,
        sync: SyncHandle | None = None,
        sync_factory: Callable[[], SyncHandle] | None = None,
        followups: FollowUps | None = None,
        clock: DatetimeClock = utc_now,
        zone: tzinfo | None = None,
        opener: Opener | None = None,
        clipboard: Copier | None = None,
        status_source: Callable[[], CockpitStatus] | None = None,
        revision_source: Callable[[], Hashable] | None = None,
        status_interval: float = 1.0,
        theme_dirs: list[Path] | None = None,
        check_cache: bool = False,
        notices: Sequence[str] = (),
    ) -> None:
        """`config` is the rep's settings (theme, keys, undo window, start screen, when a
        lead goes cold); `config_path` is where the file is or would be (the first-run
        screen names it, user themes sit beside it). The rest stands in for the world
        outside in tests: the sync handle, the clock and zone, the browser, the clipboard,
        the status and revision sources (by default read from the store)."""
        self._theme_set = False
        super().__init__()
        self._check_cache = check_cache
        """Look for damaged pages after the first frame (`Database.raise_if_damaged`)."""
        self._notices = tuple(notices)
        """Warnings written on stderr before the screen drew over them, said once it is up
        (`warmline.cockpit.startup_notices`)."""
        self.config = config if config is not None else Config()
        """The rep's settings; the app reads the [ui] and [sync] ones, screens too."""
        if followups is None and store is not None and store.path is not None:
            followups = FollowUps(store.path.parent)  # opened at its first read, not here
        self.followups = followups
        """The rep's follow-ups (a file of their own beside the cache: the service has none)."""
        self._store = store
        self._drafts: Drafts | None = None
        self._reader: Store | None = None
        self._reader_lock = threading.Lock()
        self.sync = sync
        self._sync_factory = sync_factory
        self._revalidate_later: list[int] = []
        self._sync_off = False
        self._sync_off_brief: str | None = None
        self.clock = clock
        self.zone = zone or local_zone()
        self.opener = opener
        self.clipboard_copier = clipboard
        self.sync_status = CockpitStatus()
        self._config_path = config_path
        if store is not None and status_source is None:
            status_source = partial(status_from_store, store, clock)
        if store is not None and revision_source is None:
            revision_source = partial(cockpit_revision, store, followups)
        self._status_source = status_source
        self._revision_source = revision_source
        self._revision: Hashable = None
        self._read_at = 0.0
        """When `poll_status` last had the screen read again (the store's monotonic clock)."""
        self._status_interval = status_interval
        self._held: list[Held] = []
        self._syncing_now = False
        """The rep's "Sync now" is running (the status line says so; a second press waits)."""
        self._set_up_looks(theme_dirs)

    def _set_up_looks(self, theme_dirs: list[Path] | None) -> None:
        """Register our themes and the rep's, pick the theme and apply the [keys] keymap;
        what is wrong with them is said once the cockpit is on screen (`on_mount`)."""
        themes = load_themes(theme_dirs)
        self._theme_problems: list[str] = []
        if self._config_path is not None:
            user_themes, self._theme_problems = load_user_themes(user_theme_dir(self._config_path))
            themes.update(user_themes)
        for loaded in themes.values():
            self.register_theme(loaded)
        self.offered_themes = sorted(themes)
        """The themes the palette offers: ours and the rep's, not Textual's own."""
        keymap, theme = self.config.keymap, self.config.theme
        self._keymap_ids = list(keymap)
        # The theme last picked in the palette wins over the config's: it is the rep's
        # latest choice (docs/user-guide.md, "Themes").
        remembered = self._store.get_state(StateKey.THEME) if self._store is not None else None
        if isinstance(remembered, str) and remembered in self.available_themes:
            theme = remembered
        self._requested_theme = theme
        self._start_with_theme(theme if theme in self.available_themes else DEFAULT_THEME)
        if keymap:
            self.set_keymap(keymap)

    def _start_with_theme(self, name: str) -> None:
        """Set the theme the app starts with, as Textual's theme watcher would but without
        its refresh of the CSS: before the app runs nothing is parsed yet, so the first
        parse may as well read this theme's variables, where the refresh would parse every
        stylesheet a second time before the first frame (~25 M instructions of ~1,250 M)."""
        self.set_reactive(App.theme, name)
        self._theme_set = True
        self.stylesheet.set_variables(self.get_css_variables())
        dark = self.current_theme.dark
        self.update_classes({f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False)
        self._refresh_truecolor_filter(self.ansi_theme)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's CSS variables; none while Textual's `__init__` asks for its default
        theme's, which `_start_with_theme` replaces before anything reads them (building
        them costs 4 M instructions of the first frame)."""
        return super().get_css_variables() if self._theme_set else {}

    @property
    def store(self) -> Store:
        """The cache. Only the first-run cockpit (no API key yet) has none, and its one
        screen never asks."""
        if self._store is None:
            raise RuntimeError("the first-run cockpit has no cache")
        return self._store

    # -- start-up -----------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        if self._store is None:
            # deferred: first frame (only the first run, with no key yet, shows it)
            from warmline.tui.screens.first_run import FirstRunScreen

            return FirstRunScreen(self._config_path or Path("config.toml"))
        if self.config.start_screen == "leads":
            # deferred: first frame (Today is the start screen unless the rep picks this one)
            from warmline.tui.screens.lead_list import LeadListScreen

            return LeadListScreen()
        return TodayScreen()

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's `run`, stopped by a termination signal as `q` stops it (`stopped_by_signals`)."""
        with self.stopped_by_signals():
            return super().run(*args, **kwargs)

    def stopped_by_signals(self) -> AbstractContextManager[None]:
        """While inside, SIGTERM, SIGHUP and SIGINT end the cockpit through Textual's own
        exit, which restores the terminal, never by an exception in the middle of a frame
        (`warmline.termination`); the holds are released (`_terminated`)."""
        return stopping_with(in_running_loop(self._terminated))

    def watch_app_focus(self, focus: bool) -> None:
        """Give the focus back to the screen when the app gets it back, if Textual did not.

        Textual restores only a widget that had the focus when the app lost it; in a
        browser its web driver says the app lost focus as it starts, before the first
        screen focused its table, so Today ignored `j`/`k` until the rep left it once."""
        screen = self.screen
        if focus and screen.focused is None:
            screen.focus_next(screen.AUTO_FOCUS or self.AUTO_FOCUS or "*")

    def on_mount(self) -> None:
        if signalled() is not None:  # told to stop before the loop ran: nothing could hand it over
            self._terminated()
            return
        for problem in self._theme_problems:
            self.notify_plain(f"Theme file skipped: {problem}", severity="warning")
        if self._store is None:
            return
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self._requested_theme not in self.available_themes:
            self.notify(
                f"Unknown theme {self._requested_theme!r}; using {DEFAULT_THEME}.",
                severity="warning",
                markup=False,
            )
        self.poll_status()
        self.set_interval(self._status_interval, self.poll_status)

    def on_ready(self) -> None:
        """The first frame is on screen: start what the rep need not wait for.

        Textual posts `Ready` to the app itself, once. A `call_after_refresh` from
        `on_mount` waited on whichever screen was current instead, and when the rep's first
        key (typed ahead while the cockpit started) put another screen over it at that
        moment, it could wait there for good: sync never started, and nothing the rep did
        was sent (caught in CI; `tests/tui/test_tui_startup.py`).
        """
        release_collection()  # held by `warmline` while it starts
        if self._told_to_stop or self._store is None:
            return
        if self._keymap_ids:
            self._check_keymap()
        for notice in self._notices:
            self.notify_plain(notice, severity="warning", timeout=15)
        if self._check_cache:
            self._start_cache_check()
        if self.sync is not None or self._sync_factory is not None:
            self._start_sync()

    def _terminated(self) -> None:
        """Told to stop (`run`): release this process's holds without waiting to send them
        (its decisions go with the next sync, by any process), then exit, which restores the
        terminal."""
        if self._told_to_stop:
            return
        self._told_to_stop = True
        self._held.clear()
        if self._store is not None:
            with contextlib.suppress(sqlite3.Error):  # not writable now: the holds end with their window
                self._store.release_own_holds()
        self.exit()

    def _remember_theme(self, theme: Theme) -> None:
        """Keep the rep's pick for the next start (in the cache, beside the other UI state)."""
        self.store.set_state(StateKey.THEME, theme.name)

    def _check_keymap(self) -> None:
        """Say which [keys] entries name no binding, instead of silently ignoring them."""
        # deferred: first frame (the keyboard reference imports every screen)
        from warmline.tui.keys import unknown_ids

        unknown = unknown_ids(dict.fromkeys(self._keymap_ids, ""))
        if unknown:
            self.notify_plain(
                f"Unknown key binding ids in the config's [keys]: {', '.join(unknown)}. "
                "Press ? to see the ids.",
                severity="warning",
            )

    def _start_cache_check(self) -> None:
        # A group of its own: the sync worker is exclusive in the default group and would
        # cancel it before it ran.
        self.run_worker(self._check_cache_pages(), name="cache-check", group="cache-check", exit_on_error=False)

    async def _check_cache_pages(self) -> None:
        """A damaged page closes the cockpit with one line (`_handle_exception`), whichever
        screen is open; read on the second connection, so keystrokes never wait for it."""
        try:
            await asyncio.to_thread(lambda: self.reader().raise_if_damaged())
        except (sqlite3.DatabaseError, CacheUnusable) as error:  # the second connection may not open
            if self.cache_error is None:
                self.cache_error = error
                self.exit(return_code=1)
        self.cache_checked = True

    def _start_sync(self) -> None:
        self.run_worker(self._run_sync(), name="sync", exclusive=True, exit_on_error=False)

    async def _run_sync(self) -> None:
        """Start syncing once the first frame is on screen.

        With a factory, the engine is built here, in a thread: the HTTP client and the
        service's models take a few hundred milliseconds to import, which the rep should
        not wait for before seeing the cache.
        """
        if self.sync is None and self._sync_factory is not None:
            try:
                self.sync = await asyncio.to_thread(self._sync_factory)
            except Exception as exc:  # noqa: BLE001 - a config the client refuses: say so, keep the cache
                # The notice says why; the status line says so for as long as it lasts.
                self.notify_plain(f"Sync is off: {exc}", severity="error", timeout=SYNC_OFF_NOTICE_SECONDS)
                self._sync_off = True
                self._sync_off_brief = getattr(exc, "brief", None)  # a `WiringError`'s few words
                self.poll_status()
                return
            finally:
                self._sync_factory = None
            for lead_id in self._revalidate_later:
                self.revalidate_lead(lead_id)
            self._revalidate_later.clear()
        if self.sync is not None:
            self.sync.on_lead_gone(self._sync_lead_gone)
            await self.sync.start()

    def _sync_lead_gone(self, lead_id: int) -> None:
        """The engine's word that the service removed a lead (called on our loop). Screens
        follow the cache by themselves; this the rep must be told."""
        if self._store is not None:
            self.call_later(self._lead_gone, lead_id)

    def _lead_gone(self, lead_id: int) -> None:
        gone = self.store.lead_tombstone(lead_id)
        if gone is None:
            return
        text = f"{gone.company_name} was removed on the service"
        if gone.failed:
            text += f"; {gone.failed} queued action{'s' if gone.failed != 1 else ''} on it failed: see the outbox"
        self.notify_plain(text, severity="warning", timeout=15)
        self.poll_status()  # the list (or the lead's open page) reloads from the cache now

    def revalidate_lead(self, lead_id: int) -> None:
        """The rep opened a lead: it paints from the cache at once, and its fresh detail is
        fetched in the background; the screen reloads when the cache changes."""
        if self.sync is None and self._sync_factory is not None:
            self._revalidate_later.append(lead_id)  # the engine is still being built
            return
        if self.sync is not None:
            self.run_worker(self.sync.refresh_lead(lead_id), name=f"refresh-lead-{lead_id}", exclusive=True,
                            group="revalidate", exit_on_error=False)

    @property
    def drafts(self) -> Drafts:
        """Text the rep left in a form with escape (`warmline.tui.drafts`)."""
        if self._drafts is None:
            from warmline.tui.drafts import FILE_NAME, Drafts  # deferred: first frame

            path = self.store.path
            self._drafts = Drafts(path.parent / FILE_NAME if path is not None else None)  # beside the cache
        return self._drafts

    def reader(self) -> Store:
        """A second connection to the cache for long reads in threads (exact counts).

        The store serialises its connection with a lock; a count of a long filtered list
        holding it would stall the next keystroke's page. SQLite in WAL mode lets two
        connections read at once. Opened on first use (from a counting thread); an
        in-memory store has no second connection.
        """
        with self._reader_lock:
            if self._reader is None:
                path = self.store.path
                self._reader = type(self.store)(path, self.store.clock) if path is not None else self.store
            return self._reader

    async def action_quit(self) -> None:
        """Quit; decisions still inside their undo window are sent first (briefly)."""
        held = self._held_now()
        self._held.clear()
        if held and self.sync is not None:
            op_ids = [op_id for decision in held for op_id in decision.op_ids]
            self.notify_plain(f"Sending {len(held)} decision{'s' if len(held) != 1 else ''} held for undo...")
            await self.sync.send_held(op_ids, QUIT_GRACE_SECONDS)
        self.exit()

    async def on_unmount(self) -> None:
        if self._store is not None and self.cache_error is None:
            # The next Today lists the jobs that finish after this moment.
            with contextlib.suppress(sqlite3.Error):  # not writable now: Today says "since yesterday"
                self.store.mark_cockpit_seen(self.store.clock())
        if self.followups is not None:
            self.followups.close()
        if self._store is not None:
            # Left some other way than `q`: no wait, but no hold outlives the cockpit.
            self._held.clear()
            with contextlib.suppress(sqlite3.Error):
                self.store.release_own_holds()
        if self.sync is not None:
            await self.sync.stop()
        if self._reader is not None and self._reader is not self.store:
            self._reader.close()

    # -- status and freshness -------------------------------------------------------------

    def poll_status(self) -> None:
        """Refresh the status line, and the screen if the cache changed under it.

        Does nothing once the cockpit is closing: Textual removes the screens before it
        stops this timer (and a worker may finish meanwhile), so a poll then would find
        no screen (`ScreenStackError`, a traceback on quit).
        """
        if not self.is_running:
            return
        if self._status_source is not None:
            self.sync_status = self._status_source()
            if self._sync_off:
                self.sync_status = self.sync_status._replace(state=SyncState.SYNC_OFF, sync_off=self._sync_off_brief)
            self.sync_status = self.sync_status._replace(undo=self._undo_hint(), syncing_now=self._syncing_now)
        for line in self.screen.query(StatusLine):
            line.status = self.sync_status
        if self._revision_source is not None:
            revision = self._revision_source()
            now = self.store.monotonic()
            stale = now - self._read_at >= TIMES_SECONDS
            if revision != self._revision or stale:
                changed = self._revision is not None
                self._revision = revision
                self._read_at = now
                if changed and isinstance(self.screen, CockpitScreen):
                    self.screen.reload()

    def perform(self, action: Callable[Concatenate[Store, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run `action(store, *args, **kwargs)`, a function of `warmline.actions`; refused
        input raises `ActionRefused`.

        Every change the rep makes goes through here: the action validates, writes its
        local effect and its outbox op in one transaction, then sync is woken.
        """
        try:
            result = action(self.store, *args, **kwargs)
        except refusals() as exc:
            raise ActionRefused(in_reps_words(exc)) from exc
        self.after_action()
        return result

    def decide(self, label: str, action: Decision[*Ts], *args: *Ts) -> tuple[str, ...]:
        """A one-key decision (complete, dismiss, status, pin, remove): performed like any
        action, but held for the undo window, so `u` can take it back anywhere until then.
        Returns the ids of the ops it queued.

        The hold is in the op itself (`hold_until`), so no path sends it early: not the
        engine's tick or wake, not `warmline sync` in another terminal.
        """
        seconds = self.config.undo_seconds
        result = self.perform(lambda store: action(store, *args, hold_seconds=seconds))
        op_ids = tuple(result) if isinstance(result, list) else (result,)
        if seconds > 0:
            self._held.append(Held(op_ids, label, self.store.monotonic() + seconds))
            del self._held[:-20]  # only the newest can be undone; a few are kept for quitting
            self.poll_status()
        return op_ids

    def _held_now(self) -> list[Held]:
        now = self._store.monotonic() if self._store is not None else 0.0
        return [decision for decision in self._held if decision.until > now]

    def _undo_hint(self) -> str | None:
        """"u undoes complete of Acme · 4s": the rep's undo key, the decision it takes back,
        and for how long."""
        held = self._held_now()
        if not held:
            return None
        left = max(1, math.ceil(held[-1].until - self.store.monotonic()))
        return f"{key_for(self, self, 'app.undo')} undoes {held[-1].label} · {left}s"

    def last_decision(self) -> Held | None:
        """The decision `u` would take back now, if any."""
        held = self._held_now()
        return held[-1] if held else None

    def undo_last(self) -> Held | None:
        """Take back the newest decision still inside its undo window; says what happened."""
        decision = self.last_decision()
        if decision is None:
            self._held.clear()
            self.poll_status()
            self.notify_plain(
                "Nothing to undo: decisions can be taken back for "
                f"{self.config.undo_seconds:g} s. A queued action can still be discarded in the outbox "
                f"({self.key_of('app.outbox')})."
            )
            return None
        # deferred: first frame (the actions load the HTTP stack)
        from warmline.actions import undo_many

        try:
            self.perform(undo_many, list(decision.op_ids))
        except ActionRefused as refused:
            self.notify_plain(f"Cannot undo {decision.label}: {refused}.", severity="warning")
            return None
        finally:
            self._held = [d for d in self._held if d is not decision]
            self.poll_status()  # the status line offers the next decision back, or none
        self.notify_plain(f"Undone: {decision.label}.")
        if isinstance(self.screen, CockpitScreen):
            self.screen.reload()
        return decision

    def action_undo(self) -> None:
        self.undo_last()

    def action_sync_now(self) -> None:
        """Deliver, refresh and poll jobs now, from any screen, rather than wait for the
        timers. One pass at a time: a press while one runs only says so."""
        if self._store is None:
            return
        if self.sync is None:
            why = f"sync is off: {self._sync_off_brief or SYNC_OFF_HINT}" if self._sync_off else "sync is still starting"
            self.notify_plain(f"Cannot sync now: {why}.", severity="warning")
            return
        if self._syncing_now:
            self.notify_plain(sync_result(None, self.zone, outbox_key=self.key_of("app.outbox")).text)
            return
        self._syncing_now = True
        self.poll_status()
        self.run_worker(self._sync_now(self.sync), name="sync-now", group="sync-now", exit_on_error=False)

    async def _sync_now(self, sync: SyncHandle) -> None:
        try:
            report = await sync.sync_now()
        finally:
            self._syncing_now = False
            self.poll_status()
        result = sync_result(report, self.zone, outbox_key=self.key_of("app.outbox"))
        severity: SeverityLevel = "error" if result.role == "bad" else "warning" if result.role == "warn" else "information"
        self.notify_plain(result.text, severity=severity)

    def after_action(self) -> None:
        """An action was queued: deliver it (a held one goes when its window ends: the
        engine's tick sees it come due), and show its local effect."""
        if self.sync is not None:
            self.sync.wake()
        self.poll_status()

    # -- navigation -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Without a cache (the first-run screen) there is nothing to open: hide those keys."""
        return not (self._store is None and action == "open")

    def action_open(self, name: str) -> None:
        """Go to a top-level screen: back to it if it is open under this one, else on top.

        So escape returns to where the rep came from, and the stack never holds a screen
        twice.
        """
        if self._store is None:
            return
        screen_type = self._top_level_screens().get(name)
        if screen_type is None:
            return
        if any(isinstance(screen, screen_type) for screen in self.screen_stack):
            while not isinstance(self.screen, screen_type):
                self.pop_screen()
            return
        self.push_screen(screen_type())

    def _top_level_screens(self) -> dict[str, type[Screen[Any]]]:
        # deferred: first frame (these screens load the actions, and with them the HTTP stack)
        from warmline.tui.screens.agenda import AgendaScreen
        from warmline.tui.screens.jobs import JobsScreen
        from warmline.tui.screens.lead_list import LeadListScreen
        from warmline.tui.screens.outbox import OutboxScreen
        from warmline.tui.screens.prospecting.directory import CompaniesScreen, ContactsScreen
        from warmline.tui.screens.prospecting.export import ExportDialog
        from warmline.tui.screens.prospecting.hub import ProspectingScreen
        from warmline.tui.screens.prospecting.lookup import LookupScreen
        from warmline.tui.screens.prospecting.research import TemplatesScreen
        from warmline.tui.screens.prospecting.searches import DeepSearchDialog
        from warmline.tui.screens.recommendations import RecommendationsScreen
        from warmline.tui.screens.review import ReviewScreen
        from warmline.tui.screens.search import SearchScreen

        return {
            "leads": LeadListScreen,
            "today": TodayScreen,
            "agenda": AgendaScreen,
            "review": ReviewScreen,
            "recommendations": RecommendationsScreen,
            "jobs": JobsScreen,
            "outbox": OutboxScreen,
            "prospecting": ProspectingScreen,
            "companies": CompaniesScreen,
            "contacts": ContactsScreen,
            "lookup": LookupScreen,
            "deep_search": DeepSearchDialog,
            "research": TemplatesScreen,
            "export": ExportDialog,
            "search": SearchScreen,
        }

    def open_lead(self, lead_id: int) -> None:
        # deferred: first frame (this screen loads the actions, and with them the HTTP stack)
        from warmline.tui.screens.lead_detail import LeadDetailScreen

        self.push_screen(LeadDetailScreen(lead_id))

    def open_company(self, company_id: int) -> None:
        # deferred: first frame (as for the lead's page)
        from warmline.tui.screens.prospecting.company import CompanyScreen

        self.push_screen(CompanyScreen(company_id))

    def open_contact(self, contact_id: int) -> None:
        # deferred: first frame (as for the lead's page)
        from warmline.tui.screens.prospecting.company import ContactScreen

        self.push_screen(ContactScreen(contact_id))

    def open_research(self, company_ids: list[int], labels: list[str]) -> None:
        """The research templates, to run one over these companies."""
        # deferred: first frame (as for the lead's page)
        from warmline.tui.screens.prospecting.research import TemplatesScreen

        self.push_screen(TemplatesScreen(company_ids, labels))

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Open a web link in the rep's browser: in a browser, a new tab through the driver
        (`warmline.tui.browser`); in a terminal, with the system's browser, off the event
        loop (it may block briefly). `new_tab` is Textual's; the browser decides."""
        if browser.in_browser(self):
            super().open_url(url, new_tab=new_tab)
            return
        opener = self.opener
        if opener is None:
            # deferred: first frame (Python's webbrowser looks for browsers as it loads)
            import webbrowser

            opener = webbrowser.open

        def attempt() -> None:
            # webbrowser.open answers False when no browser is registered (SSH, headless)
            try:
                opened = bool(opener(url))
                reason = "no browser is available here"
            except Exception as error:  # noqa: BLE001 - any failure of the browser means the same to the rep
                opened = False
                reason = f"the browser failed: {error}"
            if not opened:
                self.call_from_thread(self._url_not_opened, url, reason)

        self.run_worker(attempt, thread=True, exit_on_error=False, name="open-url")

    def _url_not_opened(self, url: str, reason: str) -> None:
        """No browser opened the link: the rep gets it on the clipboard instead, and is told."""
        self.copy_text(
            url,
            lambda how: f"Could not open the link ({reason}). {how} instead: {url}",
            copied="Copied it (system clipboard)",
            sent="Sent it to the terminal's clipboard (OSC 52; if nothing was copied, your terminal may not allow it)",
            severity="warning",
        )

    def copy_text(
        self,
        text: str,
        message: Callable[[str], str] = str,
        *,
        copied: str = "Copied (system clipboard).",
        sent: str = OSC52_NOTE[0].upper() + OSC52_NOTE[1:] + ".",
        browser_copied: str = "Copied.",
        severity: SeverityLevel = "information",
        multiline: bool = False,
    ) -> None:
        """Copy `text` for the rep and say how: the system clipboard when a copy command
        took it (`warmline.tui.clipboard`), else only OSC 52, which some terminals ignore
        without a word. OSC 52 is written either way (harmless when the system copy worked,
        and it keeps Textual's own clipboard for pasting inside the cockpit). The copy
        command runs off the event loop; `message` turns `copied` or `sent` into the notice.
        In a browser, OSC 52 is the browser's clipboard, and a copy command would fill
        the clipboard of the machine the cockpit runs on: `browser_copied` says so.
        Every copy is cleaned here (`clipboard_text`): a paste must not run anything; only
        a `multiline` text (a suggested comment) keeps its line breaks."""
        text = clipboard_text(text, multiline=multiline)
        self.copy_to_clipboard(text)
        if browser.in_browser(self):
            self.notify_plain(message(browser_copied), severity=severity)
            return
        copier = self.clipboard_copier or system_copy

        def attempt() -> None:
            try:
                done = bool(copier(text))
            except Exception:  # noqa: BLE001 - a failed copy command means OSC 52 only, as when there is none
                done = False
            self.call_from_thread(self.notify_plain, message(copied if done else sent), severity=severity)

        self.run_worker(attempt, thread=True, exit_on_error=False, name="copy")

    def offer_download(self, path: Path) -> bool:
        """In a browser, offer the file the cockpit has just written as a download (it was
        written on the machine the cockpit runs on, which may not be the rep's); True if
        offered. In a terminal the file is where the rep is: nothing to do."""
        if not browser.in_browser(self):
            return False
        self.deliver_text(path, save_filename=path.name)
        return True

    def action_help(self) -> None:
        # deferred: first frame (help opens on a key)
        from warmline.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        title = getattr(self.screen, "SCREEN_TITLE", "Warmline")
        coverage = self._store.detail_coverage() if self._store is not None else None
        note = browser.BROWSER_KEYS_NOTE if browser.in_browser(self) else None
        self.push_screen(HelpScreen(title, screen_bindings(self, self.screen), coverage, note))

    def notify_plain(
        self, message: str, *, severity: SeverityLevel = "information", timeout: float | None = None
    ) -> None:
        """A notification shown literally: it may quote service text or a server message."""
        self.notify(safe_text(message, multiline=True), severity=severity, markup=False, timeout=timeout)

    def key_of(self, binding_id: str) -> str:
        return key_for(self, self.screen if self.screen_stack else self, binding_id)


if TYPE_CHECKING:
    _implements: type[Cockpit] = WarmlineApp
    """mypy checks here that the app is what its screens type against (`warmline.tui.context`)."""


def cockpit_revision(store: Store, followups: FollowUps | None) -> Hashable:
    """What the open screen follows: the cache's version and the follow-ups file's, so a
    follow-up added from another terminal (`warmline log ... by Friday`, `warmline
    followups add`) shows on Today and the lead page as the cache's news does. A follow-ups
    file that cannot be read counts as unchanged (Today says why it shows none)."""
    try:
        kept = followups.data_version() if followups is not None else None
    except (CacheUnusable, sqlite3.Error):
        kept = None
    return store.data_version(), kept


def run_cockpit(
    store: Store,
    *,
    config: Config,
    config_path: Path | None = None,
    sync_factory: Callable[[], SyncHandle] | None = None,
    check_cache: bool = False,
    notices: Sequence[str] = (),
) -> None:
    """Open the cockpit on `store` (plain `warmline` and `warmline demo`, by
    `warmline.cockpit.start_cockpit`).

    A damaged cache met by a query after the first paint closes the cockpit and is raised
    here (sqlite3.DatabaseError), for the caller's one-line report instead of a traceback.
    """
    app = WarmlineApp(
        store, config=config, config_path=config_path, sync_factory=sync_factory, check_cache=check_cache,
        notices=notices,
    )
    app.run()
    if app.cache_error is not None:
        raise app.cache_error


def run_first_run(config_path: Path, *, config: Config) -> None:
    """Open the first-run screen: no key configured, explain how to set one."""
    WarmlineApp(None, config=config, config_path=config_path).run()
