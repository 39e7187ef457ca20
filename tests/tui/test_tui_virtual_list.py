"""The virtual list reads only the pages it draws, and moves like a list should."""

import threading
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region

from support.waiting import until
from warmline.tui.widgets.virtual_list import VirtualList


class CountingSource:
    """Numbers 0..n-1, recording every window asked for."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.windows: list[tuple[int, int]] = []
        self.counts = 0

    def count(self) -> int:
        self.counts += 1
        return self.n

    def rows(self, offset: int, limit: int) -> Sequence[int]:
        self.windows.append((offset, limit))
        return list(range(offset, min(self.n, offset + limit)))


class NumberFormatter:
    def header(self, width: int) -> Text:
        return Text("Number")

    def row(self, item: int, width: int) -> Text:
        return Text(f"row {item}")


class HeldCount(CountingSource):
    """A source whose count waits until the test lets it answer."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.answer = threading.Event()

    def count(self) -> int:
        self.answer.wait(30)
        return super().count()


class ListApp(App[None]):
    def __init__(self, source: CountingSource, page_size: int = 50) -> None:
        super().__init__()
        self.source = source
        self.page_size = page_size
        self.selected: list[int] = []
        self.updates: list[str] = []
        """The kinds of screen update drawn (`LayoutUpdate`: every line; `ChopsUpdate`: the
        lines that changed)."""

    def _display(self, screen: Any, renderable: Any) -> None:
        self.updates.append(type(renderable).__name__)
        super()._display(screen, renderable)

    def compose(self) -> ComposeResult:
        yield VirtualList(NumberFormatter(), self.source, page_size=self.page_size, empty_text="Empty.", key=lambda n: n)

    def on_mount(self) -> None:
        self.query_one(VirtualList).focus()

    def on_virtual_list_selected(self, event: VirtualList.Selected) -> None:
        self.selected.append(event.item)


def visible_lines(app: ListApp) -> list[str]:
    widget = app.query_one(VirtualList)
    return [
        "".join(segment.text for segment in widget.render_line(y)).rstrip()
        for y in range(widget.scrollable_content_region.height)
    ]


async def test_only_visible_pages_are_read_from_a_huge_source() -> None:
    source = CountingSource(100_000)
    app = ListApp(source)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        assert source.windows == [(0, 50)]
        widget = app.query_one(VirtualList)
        # the first paint is the first page; the exact count comes from a thread
        await until(lambda: widget.counted, pilot=pilot, step=0.05, what="the exact count")
        assert widget.counted and widget.row_count == 100_000
        assert source.counts == 1
        lines = visible_lines(app)
        assert lines[0] == "Number"
        assert lines[1:3] == ["row 0", "row 1"]
        await pilot.press("G")
        await pilot.pause()
        assert widget.cursor == 99_999
        assert visible_lines(app)[-1] == "row 99999"
        assert source.windows == [(0, 50), (99_950, 50)]


async def test_cursor_keys_and_enter() -> None:
    source = CountingSource(30)
    app = ListApp(source)
    async with app.run_test(size=(40, 12)) as pilot:
        widget = app.query_one(VirtualList)
        await pilot.press("j", "j", "down", "k")
        assert widget.cursor == 2
        await pilot.press("pagedown")
        assert widget.cursor == 2 + widget.scrollable_content_region.height - 1
        await pilot.press("g")
        assert widget.cursor == 0
        await pilot.press("k")
        assert widget.cursor == 0
        await pilot.press("end", "j")
        assert widget.cursor == 29
        await pilot.press("enter")
        await pilot.pause()
        assert app.selected == [29]


async def test_new_source_resets_cursor_and_shows_empty_text() -> None:
    app = ListApp(CountingSource(30))
    async with app.run_test(size=(40, 12)) as pilot:
        widget = app.query_one(VirtualList)
        await pilot.press("j", "j")
        widget.set_source(CountingSource(0))
        await pilot.pause()
        assert widget.cursor == 0
        assert widget.current is None
        assert visible_lines(app)[1] == "Empty."
        await pilot.press("enter")
        assert app.selected == []


async def test_a_long_list_opened_after_a_quiet_spell_is_counted_at_once(monkeypatch) -> None:
    """The rep opens the lead list: its exact count (the title, the scroll bar) should not
    wait out the delay meant for a filter being typed. Sources changed in quick succession
    (typing) still wait for the query to hold before one is counted. `count_delay` is a
    minute here, so a count that waited would not come within the test."""
    monkeypatch.setattr(VirtualList, "count_delay", 60.0)
    source = CountingSource(100_000)
    app = ListApp(source)
    async with app.run_test(size=(40, 12)) as pilot:
        widget = app.query_one(VirtualList)
        await until(lambda: widget.counted, pilot=pilot, step=0.05, cap=20.0, what="the exact count, at once")
        assert widget.row_count == 100_000 and source.counts == 1
        typed = [CountingSource(90_000), CountingSource(80_000)]
        for later in typed:  # two keystrokes of a filter
            widget.set_source(later)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [s.counts for s in typed] == [0, 0] and not widget.counted


async def test_an_exact_count_redraws_the_scroll_bar_not_the_screen() -> None:
    """A list just opened gets its exact count after its first paint. Its scroll bar, shown
    already, takes a new thumb: that is all that is drawn again, not every line of the
    screen (Textual's `virtual_size` is a layout reactive: 40 KB more for the lead list at
    120x40, in tmux and to a browser)."""
    source = HeldCount(100_000)
    app = ListApp(source)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        widget = app.query_one(VirtualList)
        assert widget.show_vertical_scrollbar and widget.row_count == 50  # the first page
        app.updates.clear()
        source.answer.set()
        await until(lambda: widget.counted, pilot=pilot, step=0.05, what="the exact count")
        await pilot.pause()
        assert widget.row_count == 100_000 and widget.vertical_scrollbar.window_virtual_size == 100_001
        assert app.updates and "LayoutUpdate" not in app.updates, app.updates


async def test_a_count_that_needs_a_scroll_bar_gets_one() -> None:
    source = HeldCount(1_000)
    app = ListApp(source, page_size=5)  # a first page shorter than the screen: no scroll bar yet
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        widget = app.query_one(VirtualList)
        assert not widget.show_vertical_scrollbar and widget.row_count == 5
        source.answer.set()
        await until(lambda: widget.counted, pilot=pilot, step=0.05, what="the exact count")
        await pilot.pause()
        assert widget.show_vertical_scrollbar and widget.row_count == 1_000
        assert visible_lines(app)[1:3] == ["row 0", "row 1"]
        await pilot.press("G")
        await pilot.pause()
        assert visible_lines(app)[-1].startswith("row 999")


async def test_a_short_result_is_counted_from_its_first_page() -> None:
    source = CountingSource(30)
    app = ListApp(source)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        widget = app.query_one(VirtualList)
        assert widget.counted and widget.row_count == 30
        assert source.counts == 0


async def test_reload_keeps_cursor_within_new_count() -> None:
    source = CountingSource(30)
    app = ListApp(source)
    async with app.run_test(size=(40, 12)) as pilot:
        widget = app.query_one(VirtualList)
        await pilot.press("end")
        source.n = 10
        widget.reload()
        await pilot.pause()
        assert widget.cursor == 9
        assert widget.current == 9


class ShufflingSource(CountingSource):
    """Rows whose order changes between reads, as a re-sorted list does after new scores."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.order = list(range(n))

    def rows(self, offset: int, limit: int) -> Sequence[int]:
        self.windows.append((offset, limit))
        return self.order[offset : offset + limit]


async def test_reload_keeps_the_cursor_on_the_same_row_when_it_moved() -> None:
    source = ShufflingSource(300)
    app = ListApp(source)
    async with app.run_test(size=(40, 12)) as pilot:
        widget = app.query_one(VirtualList)
        await until(lambda: widget.counted, pilot=pilot, step=0.05, what="the exact count")
        widget.cursor = 120
        await pilot.pause()
        assert widget.current == 120
        source.order.remove(120)
        source.order.insert(60, 120)
        widget.reload()
        await pilot.pause()
        assert widget.current == 120
        assert widget.cursor == 60
        assert widget.row_count == 300


def cursor_lines(widget: VirtualList) -> list[str]:
    """The lines drawn with the cursor's colours, as the screen holds them: lines not
    refreshed since the last frame come from the widget's cache of drawn lines."""
    cursor = widget._look_up_styles()["cursor"].bgcolor
    strips = widget.render_lines(widget.scrollable_content_region.reset_offset)
    return [strip.text.rstrip() for strip in strips if any(segment.style and segment.style.bgcolor == cursor
                                                            for segment in strip)]


async def test_a_cursor_move_repaints_its_two_rows_only_also_when_scrolled() -> None:
    """`j` redraws the row it leaves and the row it lands on, not the whole list: in a
    browser every line drawn is a line sent and rebuilt in the page."""
    app = ListApp(CountingSource(100))
    async with app.run_test(size=(40, 12)) as pilot:
        widget = app.query_one(VirtualList)
        await pilot.press("pagedown", "pagedown", "k", "k")  # scrolled down, cursor mid-screen
        await pilot.pause()
        assert widget.scroll_offset.y > 0
        assert cursor_lines(widget) == [f"row {widget.cursor}"]
        refreshed: list[tuple[Region, ...]] = []
        original = widget.refresh

        def recording(*regions: Region, **options: bool) -> VirtualList:
            refreshed.append(regions)
            return original(*regions, **options)

        widget.refresh = recording  # type: ignore[method-assign]
        await pilot.press("k")
        await pilot.pause()
        assert cursor_lines(widget) == [f"row {widget.cursor}"]
        assert refreshed and all(regions for regions in refreshed), "the whole list was refreshed"
        assert sum(region.height for regions in refreshed for region in regions) == 2


async def test_an_empty_list_wraps_its_text_instead_of_cutting_it() -> None:
    """At 80 columns an empty state's hint ("No saved companies yet. i looks companies up,
    f starts a deep search (or warmline sync).") lost its end to an ellipsis; the list has
    room below its header for all of it."""

    class EmptyApp(App[None]):
        def compose(self) -> ComposeResult:
            yield VirtualList(NumberFormatter(), CountingSource(0), empty_text="one two three four five six seven eight")

    app = EmptyApp()
    async with app.run_test(size=(20, 8)) as pilot:
        await pilot.pause()
        widget = app.query_one(VirtualList)
        lines = [
            "".join(segment.text for segment in widget.render_line(y)).rstrip()
            for y in range(widget.scrollable_content_region.height)
        ]
        assert lines[:5] == ["Number", "one two three four", "five six seven", "eight", ""]
