"""The cockpit under test: a real store filled as after a sync, the real app on a fixed
clock, and stand-ins for the parts that would reach outside (browser, sync engine)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC
from typing import Any

from rich.console import Console

from warmline.api import ServiceClient
from warmline.config import Config
from warmline.store import Store
from warmline.sync.engine import PassReport
from warmline.tui.app import WarmlineApp
from warmline.tui.widgets.status_line import StatusLine

from . import tui_wire_data as W


def fill(store: Store, online: bool | None = True) -> None:
    """The cache as after a sync: every lead with its detail, notes and recommendations."""
    store.upsert_leads(W.lead_items())
    for index in range(len(W.COMPANIES)):
        store.upsert_lead_detail({**W.lead_detail(index), "notes": W.notes(index)})
        store.upsert_recommendations(100 + index, W.recommendations_response(index))
    if online is not None:
        store.set_state("online", online)
        store.set_state("last_sync_at", W.NOW.timestamp() - 10)


class Opened:
    """Records the URLs the cockpit asked the browser to open."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def __call__(self, url: str) -> bool:
        self.urls.append(url)
        return True


class Clipboard:
    """Stands in for the system clipboard's copy command: records what the cockpit copied
    and answers whether a command took it (`works`)."""

    def __init__(self, works: bool = False) -> None:
        self.works = works
        self.copied: list[str] = []

    def __call__(self, text: str) -> bool:
        self.copied.append(text)
        return self.works


def settings(**fields: Any) -> Config:
    """The rep's settings for a test cockpit: the lead list first, as before Today was the
    start screen, unless the test asks for Today (`settings(start_screen="today")`)."""
    fields.setdefault("start_screen", "leads")
    return Config(**fields)


def cockpit(store: Store | None, **options: Any) -> WarmlineApp:
    """The real app with a fixed clock (unless the test passes its own) and zone, and no
    browser or system clipboard, on `settings()` unless the test passes its own `config`."""
    options.setdefault("config", settings())
    options.setdefault("opener", Opened())
    options.setdefault("clipboard", Clipboard())
    options.setdefault("clock", lambda: W.NOW)
    return WarmlineApp(store, zone=UTC, **options)


def text_of(app: Any, selector: str) -> str:
    """The plain text a widget of the current screen renders (a Rich renderable such as the
    activity grid is printed at the widget's width)."""
    widget = app.screen.query_one(selector)
    shown = widget.render()
    if hasattr(shown, "plain"):
        return str(shown.plain)
    console = Console(width=widget.size.width or 120, record=True, color_system=None)
    console.print(widget.content)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def status_text(app: Any) -> str:
    return app.screen.query_one(StatusLine).render().plain


def deliver(store: Store, op_id: str, answer: dict[str, Any]) -> None:
    """What the sync engine does when the service accepted an op."""
    store.mark_in_flight(op_id)
    store.mark_done(op_id, answer)


class RecordingSync:
    """The sync handle's protocol (`warmline.tui.context.SyncHandle`), recording when the cockpit
    wakes it, revalidates a lead, asks for a pass (sync now) or listens for changes. It has no client: a test whose
    cockpit talks to the service uses `LookupSync`."""

    def __init__(self) -> None:
        self.wakes = 0
        self.refreshed: list[int] = []
        self.started = self.stopped = False
        self.sent_held: list[str] = []
        self.listeners: list[Callable[[int], None]] = []
        self.passes = 0
        self.pass_report = PassReport(reachable=True)
        """What `sync_now` answers."""
        self.pass_gate: asyncio.Event | None = None
        """When set by a test, a pass lasts until the test sets the event."""

    @property
    def client(self) -> ServiceClient:
        raise AssertionError("RecordingSync has no client; a test whose cockpit reaches the service uses LookupSync")

    def on_lead_gone(self, listener: Callable[[int], None]) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    async def start(self) -> None:
        self.started = True

    async def stop(self) -> None:
        self.stopped = True

    def wake(self) -> None:
        self.wakes += 1

    async def send_held(self, op_ids: list[str], grace: float = 3.0) -> None:
        self.sent_held.extend(op_ids)

    async def refresh_lead(self, lead_id: int) -> bool:
        self.refreshed.append(lead_id)
        return True

    async def sync_now(self) -> PassReport | None:
        self.passes += 1
        if self.pass_gate is not None:
            await self.pass_gate.wait()
        return self.pass_report


class LookupSync(RecordingSync):
    """A sync handle with a client, for the online-only work (lookups, record forms).
    Nothing runs in the background."""

    def __init__(self, client: ServiceClient) -> None:
        super().__init__()
        self._client = client

    @property
    def client(self) -> ServiceClient:
        return self._client


def keys_missing_from_key_bar(app: Any) -> list[str]:
    """The current screen's own keys marked to show that its key bar leaves out (those the
    screen hides, with nothing to act on, aside): the bar must be wide enough for them all."""
    from textual.binding import Binding

    from warmline.tui.widgets.key_bar import KeyBar

    screen = app.screen
    shown = screen.query_one(KeyBar).render().plain + " "
    missing = []
    for binding in type(screen).BINDINGS:
        if isinstance(binding, tuple) or not binding.show or not binding.description:
            continue
        if screen.check_action(binding.action, ()) is False:  # hidden: nothing to act on
            continue
        first = Binding(binding.key.split(",")[0].strip(), binding.action)
        if f" {app.get_key_display(first)} {binding.description} " not in shown:
            missing.append(f"{binding.key} {binding.description}")
    return missing
