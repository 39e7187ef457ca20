"""The status line and the key bar are told to update often (every second; at every cursor
move); each is drawn again only when what it shows changes (an idle cockpit sends nothing,
and `j` sends its two rows: in a browser each line drawn is rebuilt in the page)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from warmline.tui.status import CockpitStatus, SyncState
from warmline.tui.widgets.key_bar import KeyBar
from warmline.tui.widgets.status_line import StatusLine


class LineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusLine(CockpitStatus(state=SyncState.OFFLINE))


async def test_the_same_words_are_not_drawn_again() -> None:
    app = LineApp()
    async with app.run_test(size=(80, 4)) as pilot:
        line = app.query_one(StatusLine)
        await pilot.pause()
        refreshes: list[object] = []
        original = line.refresh
        line.refresh = lambda *regions, **options: refreshes.append(regions) or original(*regions, **options)  # type: ignore[method-assign]
        for _ in range(3):
            line.status = CockpitStatus(state=SyncState.OFFLINE)
        await pilot.pause()
        assert refreshes == []
        line.status = CockpitStatus(state=SyncState.ONLINE)
        await pilot.pause()
        assert len(refreshes) == 1
        assert "online" in line.render().plain


class Toggling(Screen[None]):
    BINDINGS = [Binding("c", "complete", "Complete")]

    def __init__(self) -> None:
        super().__init__()
        self.can_complete = True

    def compose(self) -> ComposeResult:
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "complete" and not self.can_complete else True


class BarApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Toggling())


async def test_the_key_bar_is_drawn_again_only_when_its_keys_change() -> None:
    """Today asks for the bindings again at every cursor move (a key may apply to one row
    and not the next); the bar is drawn again only if that changed what it shows."""
    app = BarApp()
    async with app.run_test(size=(80, 4)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Toggling)
        bar = screen.query_one(KeyBar)
        refreshes: list[object] = []
        original = bar.refresh
        bar.refresh = lambda *regions, **options: refreshes.append(regions) or original(*regions, **options)  # type: ignore[method-assign]
        for _ in range(3):
            screen.refresh_bindings()
            await pilot.pause()
        assert refreshes == []
        screen.can_complete = False
        screen.refresh_bindings()
        await pilot.pause()
        assert len(refreshes) == 1
        assert [span.style for span in bar.render().spans if span.style == "dim"]
