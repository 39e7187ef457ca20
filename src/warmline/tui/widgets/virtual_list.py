"""A list that draws only the rows on screen and pages them in from a data source.

A `DataTable` holding every row needs seconds at 100,000 leads; this widget follows
toolong's Line-API approach instead: its virtual height is the row count, each visible
line asks a small page cache for its row, and a page is read from SQLite only when a
line on it is first drawn. The first line is a fixed column header that does not scroll.

A reload (the cache changed: a score, a status, a last activity) never moves the cursor to
another row's item. Over a `StableSource` it holds the order the rep sees and refreshes
the rows in place, until the rep moves: the move goes by that order, then the list is read
again in its sort with the cursor on the row it moved to, on the same screen line where the
sort allows. So `esc` back from a lead and `↓` opens the lead the rep saw under it.

A list may go without the header (`header=False`), and may have rows the cursor steps
over (`skip`: the headings of a `SectionList`), by keys, mouse or after a reload.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from warmline.store.paging import is_prefix_search

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
T_contra = TypeVar("T_contra", contravariant=True)


def filter_miss(text: str, *, contains: str, starts: str) -> Text:
    """The line of a list whose filter finds nothing: `contains` ("No companies match") or
    `starts` ("No company's name starts with"), then the text. Under three letters the
    filter reads the start of names (`is_prefix_search`), and the line says so: "an"
    finding nothing among names that hold it ("Leblanc") would read as a fault."""
    if is_prefix_search(text):
        return Text(f"{starts} “{text}”; a third letter searches inside names. Escape clears the filter.")
    return Text(f"{contains} “{text}”. Escape clears the filter.")


class RowSource(Protocol[T_co]):
    """Where rows come from: a count and a window; both must be cheap (indexed SQLite)."""

    def count(self) -> int: ...

    def rows(self, offset: int, limit: int) -> Sequence[T_co]: ...


@runtime_checkable
class StableSource(Protocol[T]):
    """A source that can refresh rows in place and find a row after a re-sort; a list over
    one keeps its order under the cursor until the rep moves (see the module's docstring)."""

    def count(self) -> int: ...

    def rows(self, offset: int, limit: int) -> Sequence[T]: ...

    def fresh(self, rows: Sequence[T]) -> Sequence[T]:
        """`rows` re-read, in the same order, leaving out rows no longer in the query."""
        ...

    def index_of(self, row: T) -> int | None:
        """Where `row` is in the query's order now (None when it left the query)."""
        ...


Line = Text | list[Segment]
"""A drawn line: `Text`, or (faster, for rows drawn on every scroll) a list of segments."""


class RowFormatter(Protocol[T_contra]):
    """How rows look: a header line and one line per row, never markup (see `safe`)."""

    def header(self, width: int) -> Line: ...

    def row(self, item: T_contra, width: int) -> Line: ...


class EmptySource:
    """A source with no rows, for lists whose real source is not known yet."""

    def count(self) -> int:
        return 0

    def rows(self, offset: int, limit: int) -> Sequence[Any]:
        return []


class VirtualList(ScrollView, Generic[T], can_focus=True):
    """A keyboard-driven list over a `RowSource`, rendering only visible rows."""

    DEFAULT_CSS = """
    VirtualList {
        height: 1fr;
        overflow-x: hidden;
        scrollbar-gutter: stable;  /* no second layout when the scrollbar appears */
        background: $surface;
    }
    VirtualList > .virtual-list--header {
        text-style: bold;
        color: $text-primary;
        background: $panel;
    }
    VirtualList > .virtual-list--cursor {
        background: $accent 30%;
    }
    VirtualList:focus > .virtual-list--cursor {
        background: $accent 60%;
    }
    VirtualList > .virtual-list--empty {
        color: $foreground-muted;
        text-style: italic;
    }
    """

    COMPONENT_CLASSES = {
        "virtual-list--header",
        "virtual-list--cursor",
        "virtual-list--empty",
    }

    BINDINGS = [
        Binding("j,down", "cursor_down", "Down", show=False, id="list.down"),
        Binding("k,up", "cursor_up", "Up", show=False, id="list.up"),
        Binding("g,home", "first", "First", show=False, id="list.first"),
        Binding("G,end", "last", "Last", show=False, id="list.last"),
        Binding("pageup,ctrl+b", "page_up", "Page up", show=False, id="list.page_up"),
        Binding("pagedown,ctrl+f", "page_down", "Page down", show=False, id="list.page_down"),
        Binding("enter", "select", "Open", id="list.open"),
    ]

    cursor: reactive[int] = reactive(0, init=False, repaint=False)
    """The row under the cursor. Not a repaint of the whole list: `watch_cursor` redraws
    the two rows that change (in a browser every line drawn is a line sent and rebuilt)."""

    count_delay: float = 0.15
    """Seconds a long result must stay on screen before it is counted exactly, when it
    follows another one that soon (a filter being typed). After a quiet spell (a list just
    opened) the count starts at once."""

    class Highlighted(Message):
        """The cursor moved to another row."""

        def __init__(self, virtual_list: VirtualList[Any], index: int, item: Any) -> None:
            super().__init__()
            self.virtual_list = virtual_list
            self.index = index
            self.item = item

        @property
        def control(self) -> VirtualList[Any]:
            return self.virtual_list

    class Selected(Highlighted):
        """The rep pressed enter (or clicked) on a row."""

    class Counted(Message):
        """The number of rows is known (`exact`) or bounded below (a count is running)."""

        def __init__(self, virtual_list: VirtualList[Any], count: int, exact: bool) -> None:
            super().__init__()
            self.virtual_list = virtual_list
            self.count = count
            self.exact = exact

        @property
        def control(self) -> VirtualList[Any]:
            return self.virtual_list

    def __init__(
        self,
        formatter: RowFormatter[T],
        source: RowSource[T] | None = None,
        *,
        empty_text: Text | str = "Nothing here.",
        key: Callable[[T], Hashable] | None = None,
        page_size: int = 100,
        cached_pages: int = 12,
        header: bool = True,
        skip: Callable[[T], bool] | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._formatter = formatter
        self._key = key
        self._header_lines = 1 if header else 0
        self._skip = skip
        self._source: RowSource[T] = source or EmptySource()
        self._empty_text = empty_text if isinstance(empty_text, Text) else Text(empty_text)
        self._page_size = page_size
        self._cached_pages = cached_pages
        self._pages: OrderedDict[int, Sequence[T]] = OrderedDict()
        self._count = 0
        self._exact = True
        self._loaded = False
        self._generation = 0
        self._count_asked_at = -math.inf
        """When a count was last asked for (`time.monotonic`): within `count_delay` of it, the
        next one waits."""
        self._held = False
        """Whether the pages hold the order the rep saw, not the query's order now."""
        self._frame_styles: dict[str, Style] = {}

    # -- data ---------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Rows known so far: exact, or a lower bound while a long count runs (`counted`)."""
        if not self._loaded:
            self._load(keep_cursor=True)
        return self._count

    @property
    def counted(self) -> bool:
        """Whether `row_count` is exact (a count of a long result runs in the background)."""
        return self._exact

    @property
    def source(self) -> RowSource[T]:
        return self._source

    def set_source(self, source: RowSource[T], *, keep_cursor: bool = False) -> None:
        """Show another query (a new filter, sort or tab); the cursor goes to the top."""
        self._source = source
        self._held = False
        self._read_again(keep_cursor=keep_cursor)

    def set_empty_text(self, text: Text | str) -> None:
        self._empty_text = text if isinstance(text, Text) else Text(text)
        self.refresh()

    def reload(self, *, keep_cursor: bool = True) -> None:
        """Re-read the first page now and count the rest off the event loop.

        The first page is all a paint needs; counting a long filtered result can take
        longer than a keystroke should, so a full page paints at once with a provisional
        count and the exact count follows from a thread (`Counted` is posted).

        Keeping the cursor over a `StableSource` holds the order on screen instead (the
        rows refresh in place) until the rep moves; a row gone from the query ends the hold.
        """
        if keep_cursor and self._loaded and self._hold():
            self.refresh()
            self._post_highlight()
            return
        self._read_again(keep_cursor=keep_cursor)

    def _read_again(self, *, keep_cursor: bool) -> None:
        """Read the query in its order now, the cursor on the row it was on (if kept)."""
        previous = self.current if keep_cursor and self._loaded else None
        line = self.cursor - int(self.scroll_offset.y)
        self._held = False
        self._load(keep_cursor=keep_cursor)
        if previous is not None:
            self._follow(previous, line)
        if not keep_cursor:
            self.scroll_to(y=0, animate=False, immediate=True)
        self._scroll_cursor_into_view()
        self.refresh()
        self._post_highlight()

    def _hold(self) -> bool:
        """Refresh the pages on screen and the cursor's in place, keeping their order; the
        others are dropped (read again when drawn). False when the source cannot, or a
        row has left the query (a removed lead): then the list is read again in order."""
        source = self._source
        if self._key is None or not isinstance(source, StableSource):
            return False
        size = self._page_size
        top = int(self.scroll_offset.y)
        shown = range(top // size, (top + self._visible_rows) // size + 1)
        kept: OrderedDict[int, Sequence[T]] = OrderedDict()
        for number in sorted({*shown, self.cursor // size}):
            page = self._pages.get(number)
            if page is None:
                continue
            rows = source.fresh(page)
            if len(rows) != len(page):
                return False
            kept[number] = rows
        self._pages = kept
        self._held = True
        return True

    def _follow(self, item: T, line: int) -> None:
        """Put the cursor on `item` after a re-read moved it (its score changed and the
        list is sorted by score, say), on screen line `line` where the order allows."""
        key = self._key_of(item)
        if key is None or self._key_of(self.current) == key:
            return
        index = self._index_of(item, key)
        if index is None:
            return
        if index >= self._count:  # the provisional count of a long list is short of it
            self._set_count(index + 1, False)
        self.set_reactive(VirtualList.cursor, index)
        self.scroll_to(y=max(0, index - line), animate=False, immediate=True)

    def _index_of(self, item: T, key: Hashable) -> int | None:
        """Where `item` is now: asked of a `StableSource`, else looked for in the page
        around the cursor and its neighbours."""
        if isinstance(self._source, StableSource):
            index: int | None = self._source.index_of(item)
            return index
        page_number = self.cursor // self._page_size
        for number in (page_number, page_number - 1, page_number + 1):
            if number < 0:
                continue
            self.item_at(number * self._page_size)  # reads the page if it is not cached
            for position, row in enumerate(self._pages.get(number, ())):
                if self._key_of(row) == key:
                    return number * self._page_size + position
        return None

    def _load(self, *, keep_cursor: bool) -> None:
        self._generation += 1
        self._pages.clear()
        first = list(self._source.rows(0, self._page_size))
        self._pages[0] = first
        exact = len(first) < self._page_size
        # Until the exact count comes, a reloaded long list keeps its old length, so the
        # cursor of a rep deep in the list is not pulled back to the first page.
        provisional = max(len(first), self._count) if keep_cursor and self._loaded and not exact else len(first)
        self._loaded = True
        self._set_count(provisional, exact, keep_cursor=keep_cursor)
        if not exact:
            self._count_in_background(self._source, self._generation)

    def _set_count(self, count: int, exact: bool, *, keep_cursor: bool = True) -> None:
        self._count, self._exact = count, exact
        self._set_virtual_height(count + self._header_lines)
        target = min(self.cursor, max(0, count - 1)) if keep_cursor else 0
        self.set_reactive(VirtualList.cursor, self._landing(target, 1))
        self.post_message(self.Counted(self, count, exact))

    def _count_in_background(self, source: RowSource[T], generation: int) -> None:
        """Count once the first page is drawn after a quiet spell (the list just opened: its
        title and scroll bar take their exact count with no wait, and the count does not
        compete with the first paint); within `count_delay` of the last query, only once the
        query has been stable that long (typing a filter makes many queries; counting each
        would hold the database from the next keystroke's page)."""

        def count() -> None:
            total = source.count()
            self.app.call_from_thread(self._counted_in_background, generation, total)

        def start() -> None:
            if generation == self._generation:
                self.run_worker(count, thread=True, group="count", exit_on_error=False)

        now = time.monotonic()
        quiet = now - self._count_asked_at >= self.count_delay
        self._count_asked_at = now
        if quiet:
            self.call_after_refresh(start)
        else:
            self.set_timer(self.count_delay, start)

    def _counted_in_background(self, generation: int, total: int) -> None:
        if generation != self._generation:
            return
        before = self._count
        self._set_count(total, True)
        if min(before, total) < int(self.scroll_offset.y) + self._visible_rows:
            self.refresh()  # rows on screen came or went; else only the scroll bar changed

    def _set_virtual_height(self, height: int) -> None:
        """Size the scrollable area to `height` lines (the width is unused: no horizontal
        scroll). Textual's `virtual_size` is a layout reactive: setting it lays the whole
        screen out again and redraws every line of it. So when a list just opened got its
        exact count, the whole screen was sent a second time (40 KB at 120x40, in tmux and
        to a browser) for a scroll bar's new thumb. Once the list has been laid out, the
        size is set without that and the scroll bar updated (`_scroll_update`); a scroll bar
        that appears or goes still lays the screen out (`show_vertical_scrollbar` is a
        layout reactive itself)."""
        size = Size(0, height)
        if size == self.virtual_size:
            return
        if not self.container_size:
            self.virtual_size = size
            return
        self.set_reactive(VirtualList.virtual_size, size)
        self._scroll_update(size)

    def item_at(self, index: int) -> T | None:
        """The row at `index`, reading its page from the source when not cached."""
        if index < 0 or index >= self.row_count:
            return None
        page_number, position = divmod(index, self._page_size)
        page = self._pages.get(page_number)
        if page is None:
            page = self._source.rows(page_number * self._page_size, self._page_size)
            self._pages[page_number] = page
            while len(self._pages) > self._cached_pages:
                self._pages.popitem(last=False)
        else:
            self._pages.move_to_end(page_number)
        return page[position] if position < len(page) else None

    def _key_of(self, item: T | None) -> Hashable | None:
        if item is None or self._key is None:
            return None
        return self._key(item)

    @property
    def current(self) -> T | None:
        return self.item_at(self.cursor)

    # -- drawing ------------------------------------------------------------------------

    @property
    def _visible_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - self._header_lines)

    def on_resize(self) -> None:
        self._scroll_cursor_into_view()

    def render_lines(self, crop: Region) -> list[Strip]:
        # Styles are looked up once per frame, not once per line (the lookup is not free);
        # a frame may follow a focus or theme change, so they are looked up every frame.
        self._frame_styles = self._look_up_styles()
        return super().render_lines(crop)

    def _look_up_styles(self) -> dict[str, Style]:
        base = self.rich_style
        return {
            "base": base,
            "header": base + self.get_component_rich_style("virtual-list--header"),
            "cursor": base + self.get_component_rich_style("virtual-list--cursor"),
            "empty": base + self.get_component_rich_style("virtual-list--empty"),
        }

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        styles = self._frame_styles or self._look_up_styles()
        if y < self._header_lines:
            return self._strip(self._formatter.header(width), width, styles["header"])
        index = int(self.scroll_offset.y) + y - self._header_lines
        if self.row_count == 0:
            # The text wraps over the list's lines (an empty state's hint is often longer
            # than an 80-column line, and its end names the way out).
            wrapped = self._empty_text.wrap(self.app.console, width)
            line = y - self._header_lines
            if line < len(wrapped):
                return self._strip(wrapped[line], width, styles["empty"])
            return Strip.blank(width, styles["base"])
        item = self.item_at(index)
        if item is None:
            return Strip.blank(width, styles["base"])
        style = styles["cursor"] if index == self.cursor else styles["base"]
        return self._strip(self._formatter.row(item, width), width, style)

    def _strip(self, content: Line, width: int, style: Style) -> Strip:
        if isinstance(content, Text):
            text = content.copy()
            text.no_wrap = True
            text.truncate(width, overflow="ellipsis")
            segments: list[Segment] = list(text.render(self.app.console, end=""))
        else:
            segments = content
        return Strip(Segment.apply_style(segments, style)).crop_extend(0, width, style)

    # -- cursor -------------------------------------------------------------------------

    def _landing(self, index: int, step: int) -> int:
        """Where the cursor lands when sent to `index` going `step` (+1 down, -1 up): the
        first row from there that is not skipped, else the first the other way; `index`
        itself when every row is skipped (or none is)."""
        if self._skip is None:
            return index
        for direction in (step, -step):
            row = index
            while 0 <= row < self._count:
                item = self.item_at(row)
                if item is None or not self._skip(item):
                    return row
                row += direction
        return index

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, self.row_count - 1)) if self.row_count else 0

    def watch_cursor(self, old: int, new: int) -> None:
        self._scroll_cursor_into_view()
        self._refresh_index(old)
        self._refresh_index(new)
        self._post_highlight()

    def _refresh_index(self, index: int) -> None:
        line = index - int(self.scroll_offset.y) + self._header_lines
        if self._header_lines <= line < self._header_lines + self._visible_rows:
            # The line on screen: ScrollView.refresh_line takes a line of the content.
            self.refresh(Region(0, line, self.size.width, 1))

    def _scroll_cursor_into_view(self) -> None:
        top = int(self.scroll_offset.y)
        rows = self._visible_rows
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + rows:
            self.scroll_to(y=self.cursor - rows + 1, animate=False, immediate=True)

    def _post_highlight(self) -> None:
        self.post_message(self.Highlighted(self, self.cursor, self.current))

    def move_to(self, index: int) -> None:
        """The rep moves the cursor to row `index` as shown. A held order ends here: the row
        is taken from the order the rep saw, then the list re-sorts and follows it."""
        index = self._landing(self.validate_cursor(index), 1 if index >= self.cursor else -1)
        if not self._held:
            self.cursor = index
            return
        target = self.item_at(index)
        line = index - int(self.scroll_offset.y)
        self._held = False
        self._load(keep_cursor=True)
        self.set_reactive(VirtualList.cursor, self.validate_cursor(index))
        if target is not None:
            self._follow(target, line)
        self._scroll_cursor_into_view()
        self.refresh()
        self._post_highlight()

    def action_cursor_down(self) -> None:
        self.move_to(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.move_to(self.cursor - 1)

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(self.row_count - 1)

    def action_page_down(self) -> None:
        self.move_to(self.cursor + self._visible_rows)

    def action_page_up(self) -> None:
        self.move_to(self.cursor - self._visible_rows)

    def action_select(self) -> None:
        item = self.current
        if item is not None:
            self.post_message(self.Selected(self, self.cursor, item))

    def on_click(self, event: events.Click) -> None:
        if event.y < self._header_lines:
            return
        index = int(self.scroll_offset.y) + event.y - self._header_lines
        if 0 <= index < self.row_count:
            if index == self.cursor and event.chain >= 2:
                self.action_select()
            self.move_to(index)
