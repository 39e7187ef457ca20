"""What a screen or a dialog may use of the cockpit: the `Cockpit` protocol.

Screens and dialogs type against `Cockpit`, never against `WarmlineApp`, so that no screen
module depends on the app module that imports every screen (a type-level cycle), and so
that what a screen may reach is written down in one place. `WarmlineApp` implements it;
`warmline.tui.app` has mypy check that it does.

Also here: the shapes the app and screens share around it (a `Decision` that can be
held, the sync engine as the cockpit sees it). All of it is for typing only: modules
import it under `TYPE_CHECKING`, so its protocols are never built when the cockpit runs
(defining them cost 5 M instructions of the first frame, `warmline.startup`). What the
app needs of held decisions at run time is in `warmline.tui.held`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    ParamSpec,
    Protocol,
    TypeVar,
    TypeVarTuple,
)

if TYPE_CHECKING:
    from datetime import tzinfo
    from pathlib import Path

    from textual.notifications import SeverityLevel
    from textual.screen import Screen, ScreenResultCallbackType
    from textual.worker import Worker, WorkType

    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import Store
    from warmline.store.followups import FollowUps
    from warmline.sync.engine import LeadGoneListener, PassReport
    from warmline.tui.drafts import Drafts
    from warmline.tui.status import CockpitStatus
    from warmline.tui.timefmt import DatetimeClock

from warmline.tui.held import QUIT_GRACE_SECONDS, Held

P = ParamSpec("P")
R = TypeVar("R")
Ts = TypeVarTuple("Ts")
ScreenResult = TypeVar("ScreenResult")
WorkResult = TypeVar("WorkResult")

class Decision(Protocol[*Ts]):
    """An action a rep takes with one key, which can be held for the undo window: it
    takes `hold_seconds` and returns the id(s) of the op(s) it queued."""

    def __call__(self, store: Store, /, *args: *Ts, hold_seconds: float) -> str | list[str]: ...


class SyncHandle(Protocol):
    """What the cockpit needs from the sync engine (`warmline.sync.SyncEngine`): run it in
    our loop, nudge it, hear from it, and borrow its client for the online-only work
    (lookups, record forms)."""

    @property
    def client(self) -> ServiceClient:
        """The engine's client, shared so that direct requests keep to its rate limit."""
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def wake(self) -> None: ...

    async def send_held(self, op_ids: list[str], grace: float = QUIT_GRACE_SECONDS) -> object:
        """End the undo window of these ops and deliver them within `grace` (quitting)."""
        ...

    async def refresh_lead(self, lead_id: int) -> bool:
        """Fetch one lead's full detail into the cache (stale-while-revalidate)."""
        ...

    async def sync_now(self) -> PassReport | None:
        """One full pass now (deliver, refresh, poll jobs): the rep's "Sync now". None when
        a pass is already running: a second press starts no other."""
        ...

    def on_lead_gone(self, listener: LeadGoneListener) -> Callable[[], None]:
        """Call `listener` (on our loop) when the service said a lead does not exist; returns the undo."""
        ...


class Cockpit(Protocol):
    """The cockpit as its screens and dialogs see it (implemented by `WarmlineApp`).

    A screen reads the cache and the rep's settings, changes the cache only through
    `perform` and `decide`, tells the rep through `notify_plain`, and goes elsewhere
    through `action_open` and the `open_*` methods. The last group is Textual's own
    `App` API, which the free functions behind dialogs need without a screen at hand.
    """

    # -- what there is to read ------------------------------------------------------------

    @property
    def store(self) -> Store:
        """The cache (the screens' one source)."""
        ...

    def reader(self) -> Store:
        """A second connection to the cache, for long reads in threads (exact counts)."""
        ...

    @property
    def followups(self) -> FollowUps | None:
        """The rep's follow-ups (their own file; None in a cockpit without one)."""
        ...

    @property
    def drafts(self) -> Drafts:
        """Text the rep left in a form with escape, for its next opening."""
        ...

    @property
    def config(self) -> Config:
        """The rep's settings (`cold_after_days`, `undo_seconds`, ...)."""
        ...

    @property
    def clock(self) -> DatetimeClock:
        """Now, as an aware datetime (a fixed one in tests)."""
        ...

    @property
    def zone(self) -> tzinfo:
        """The rep's time zone: every time shown is in it."""
        ...

    @property
    def sync_status(self) -> CockpitStatus:
        """The status line's latest reading (online, offline, syncing, ...)."""
        ...

    @property
    def sync(self) -> SyncHandle | None:
        """The sync engine, for its client (online-only work); None until it is built."""
        ...

    # -- changing the cache ---------------------------------------------------------------

    def perform(self, action: Callable[Concatenate[Store, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a function of `warmline.actions` on the store; refused input raises
        `ActionRefused`."""
        ...

    def decide(self, label: str, action: Decision[*Ts], *args: *Ts) -> tuple[str, ...]:
        """A one-key decision, held for the undo window; returns the ids of its ops."""
        ...

    def last_decision(self) -> Held | None:
        """The decision `u` would take back now, if any."""
        ...

    def undo_last(self) -> Held | None:
        """Take back the newest decision still inside its undo window."""
        ...

    def poll_status(self) -> None:
        """Read the status again now (and reload the screen if the cache changed)."""
        ...

    def revalidate_lead(self, lead_id: int) -> None:
        """Fetch a lead's fresh detail in the background (the rep opened it)."""
        ...

    # -- telling the rep ------------------------------------------------------------------

    def notify_plain(
        self, message: str, *, severity: SeverityLevel = "information", timeout: float | None = None
    ) -> None:
        """A notification shown literally: it may quote service text."""
        ...

    def key_of(self, binding_id: str) -> str:
        """The key of the binding `binding_id` (the current screen's, else the app's) as the
        rep has it, for a notice that names it (`warmline.tui.bindings.key_for`)."""
        ...

    def copy_text(
        self,
        text: str,
        message: Callable[[str], str] = str,
        *,
        copied: str = ...,
        sent: str = ...,
        browser_copied: str = ...,
        severity: SeverityLevel = "information",
        multiline: bool = False,
    ) -> None:
        """Copy `text` for the rep (cleaned first) and say how."""
        ...

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Open a web link in the rep's browser (or copy it, when none opens)."""
        ...

    def offer_download(self, path: Path) -> bool:
        """In a browser, offer a file just written as a download; True if offered."""
        ...

    # -- going places ---------------------------------------------------------------------

    def action_open(self, name: str) -> None:
        """Go to a top-level screen by name ("leads", "outbox", ...)."""
        ...

    def open_lead(self, lead_id: int) -> None: ...

    def open_company(self, company_id: int) -> None: ...

    def open_contact(self, contact_id: int) -> None: ...

    def open_research(self, company_ids: list[int], labels: list[str]) -> None:
        """The research templates, to run one over these companies."""
        ...

    # -- Textual's, for dialogs and background work ---------------------------------------

    @property
    def screen(self) -> Screen[object]:
        """The screen on top (where `action_open` just went)."""
        ...

    def push_screen(
        self,
        screen: Screen[ScreenResult],
        callback: ScreenResultCallbackType[ScreenResult] | None = None,
    ) -> object: ...

    def call_after_refresh(self, callback: Callable[..., object], *args: Any, **kwargs: Any) -> bool: ...

    def call_from_thread(self, callback: Callable[..., R], *args: Any, **kwargs: Any) -> R: ...

    def run_worker(
        self,
        work: WorkType[WorkResult],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[WorkResult]: ...
