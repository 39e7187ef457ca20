"""Search everywhere: one query box over the whole cache, results as you type, offline.

`ctrl+k` from every screen, and `/` where `/` does not filter a list (the lead list,
companies and contacts keep theirs), open it (`app.search`). The box reads the syntax of
`warmline.store.search_query` (words in any order, each a prefix; "a phrase"; `kind:note`);
the results come from the cache's word indexes (`warmline.store.search`), grouped by kind
under headings with their counts, the matched words underlined, and enter opens the
result's page: the lead's (for a lead, a deal, a follow-up, a note, an activity or a
recommendation), the company's or the contact's.

Each keystroke waits `DEBOUNCE` seconds for the next before the query runs, in a thread
on the cockpit's second connection (`Cockpit.reader`): a query takes tens of milliseconds
at 10,000 leads and half a million activities (bench/bench_search.py), more on a busy
machine, and the box must take the next key meanwhile. A newer query makes an older
one's results stale: they are dropped. When the cache changes under the screen (sync
brought a note, a follow-up was added elsewhere), the app calls `reload`, which runs the
query again.

Not on the first frame's path: the app imports it when the rep first opens it.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from functools import partial

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import Input, Static

from warmline.store.search import SearchHit, SearchResults, search_everything
from warmline.store.search_query import KIND_TITLES, KINDS, SearchQuery, Segment, parse_query
from warmline.tui.columns import Column
from warmline.tui.safe import plain
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.follow_up_words import due_text
from warmline.tui.screens.today_sections import open_lead
from warmline.tui.timefmt import relative
from warmline.tui.widgets.section_list import Rows, SectionList
from warmline.tui.widgets.virtual_list import VirtualList

HEADING = SectionList.HEADING_PREFIX
DEBOUNCE = 0.08
"""Seconds a keystroke waits for the next before the query runs (a burst runs it once)."""
MATCH_STYLE = "bold underline"

EMPTY_QUERY = (
    "Type to search everything in the cache, offline: leads and companies (name, domain, "
    "industry, country), contacts (name, title, email), deals, follow-ups, notes, "
    "activities, and recommendations (reasons and comments).\n\n"
    'Words in any order, each the start of a word: cfo soc finds "the CFO mentioned SOC 2".\n'
    '"a quoted phrase" finds those words together.\n'
    f"kind:note keeps one kind ({', '.join(KINDS)}).\n\n"
    "down / up move through the results, enter opens one, escape goes back."
)


def styled(segments: tuple[Segment, ...], style: str = "") -> Text:
    """Segments as one `Text` (never markup), the matched words in `MATCH_STYLE`."""
    text = Text(no_wrap=True, style=style)
    for segment in segments:
        text.append(segment.text, style=MATCH_STYLE if segment.hit else "")
    return text


class SearchScreen(CockpitScreen):
    """A query box and the results under it, grouped by kind; enter opens one."""

    DEFAULT_CSS = """
    SearchScreen #search-query { margin: 0 1; }
    SearchScreen #search-results { height: 1fr; }
    SearchScreen #search-empty { padding: 1 2; }
    """

    SCREEN_TITLE = "Search"
    AUTO_FOCUS = "#search-query"

    BINDINGS = [
        Binding("enter", "open_hit", "Open", priority=True, id="search.open"),
        Binding("down", "move(1)", "Next result", show=False, priority=True, id="search.next"),
        Binding(
            "up", "move(-1)", "Previous result", show=False, priority=True, id="search.previous"
        ),
        Binding("ctrl+k,slash", "focus_query", "Back to the query", show=False, id="search.query"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._query: SearchQuery = parse_query("")
        """The query whose results are shown."""
        self._wanted: SearchQuery = self._query
        """The query typed last (its results may be on their way)."""
        self._results: SearchResults | None = None
        self._hits: dict[str, SearchHit] = {}
        self._timer: Timer | None = None

    def compose_body(self) -> ComposeResult:
        yield Input(
            placeholder="Search leads, companies, contacts, notes, activities…", id="search-query"
        )
        yield SectionList(("", Column("Found", min_width=16), Column("Match"), "Detail"), id="search-results")
        yield Static(id="search-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.reload()

    @property
    def table(self) -> SectionList:
        return self.query_one("#search-results", SectionList)

    @property
    def results(self) -> SearchResults | None:
        """What the shown query found (None while there is nothing to look for)."""
        return self._results

    @property
    def query_text(self) -> str:
        """The text of the query shown (the box may be ahead of it by a keystroke)."""
        return self._query.text

    # -- the query ----------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, lambda: self._search(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()  # enter is `open_hit` (a priority key); a submit comes from nowhere else

    def _search(self, text: str) -> None:
        self._timer = None
        self._wanted = parse_query(text)
        self.reload()

    def reload(self) -> None:
        """Run the query again (typed, or the cache changed under the screen)."""
        query = self._wanted
        if query.empty:
            self._found(query, None)
            return
        self.run_worker(
            partial(self._find, query), thread=True, exclusive=True, group="search", name="search"
        )

    def _find(self, query: SearchQuery) -> None:
        """In a thread: what `query` finds, handed to the UI thread."""
        cockpit = self.cockpit
        results = search_everything(cockpit.reader(), cockpit.followups, query)
        cockpit.call_from_thread(self._found, query, results)

    def _found(self, query: SearchQuery, results: SearchResults | None) -> None:
        if query is not self._wanted or not self.is_attached:
            return  # a newer query was typed meanwhile, or the screen is gone
        self._query = query
        self._results = results
        self._show()

    def _show(self) -> None:
        results = self._results
        groups = results.groups if results is not None else ()
        self._hits = {_key(hit): hit for group in groups for hit in group.hits}
        table = self.table
        empty = self.query_one("#search-empty", Static)
        table.display = bool(groups)
        empty.display = not groups
        if not groups:
            empty.update(self._empty_text())
        table.fill(_rows(results, self.cockpit.clock(), self.cockpit.zone) if results is not None else [])
        self._show_title()
        self.refresh_bindings()

    def _empty_text(self) -> Text:
        query = self._query
        if not query.text.strip():
            return Text(EMPTY_QUERY)
        text = Text()
        for unknown in query.unknown_kinds:
            text.append(f"No kind “{unknown}”: kinds are {', '.join(KINDS)}.\n\n")
        asked = " ".join(" ".join(term.words) for term in query.terms) or query.text.strip()
        text.append("Nothing found for “")
        text.append_text(plain(asked[:80]))
        text.append("”.")
        if self._results is not None and self._results.problem:
            text.append_text(plain(f"\n\n{self._results.problem}"))
        return text

    def _show_title(self) -> None:
        title = Text(no_wrap=True)
        title.append("Search", style="bold")
        results = self._results
        if results is not None:
            more = any(group.more for group in results.groups)
            title.append(f" · {results.found}{'+' if more else ''} found")
            if results.groups:
                title.append(" · " + ", ".join(KIND_TITLES[g.kind].lower() for g in results.groups))
        else:
            title.append(" · everything in the cache, offline")
        self.set_title_text(title)

    # -- moving and opening ---------------------------------------------------------------

    def _hit(self) -> SearchHit | None:
        key = self.table.current_key if self.table.display else None
        return self._hits.get(key) if key is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Open and the moves leave the key bar when nothing is found."""
        if action in ("open_hit", "move"):
            return bool(self._hits)
        return True

    def action_move(self, step: int) -> None:
        table = self.table
        if step > 0:
            table.action_cursor_down()
        else:
            table.action_cursor_up()

    def action_focus_query(self) -> None:
        self.query_one("#search-query", Input).focus()

    def on_virtual_list_selected(self, event: VirtualList.Selected) -> None:
        event.stop()
        self.action_open_hit()

    def action_open_hit(self) -> None:
        """The page of the result under the cursor: its lead's, company's or contact's."""
        hit = self._hit()
        if hit is None:
            return
        if hit.opens == "company":
            self.cockpit.open_company(hit.open_id)
        elif hit.opens == "contact":
            self.cockpit.open_contact(hit.open_id)
        else:
            open_lead(self.cockpit, hit.open_id)


def _key(hit: SearchHit) -> str:
    return f"{hit.kind}:{hit.ref}"


def _when(hit: SearchHit, now: datetime, zone: tzinfo) -> Text:
    """A hit's date in the rep's words: a note's or activity's day as the lead's page
    shows it, an open follow-up's as Today does; else the hit's detail (a status)."""
    if hit.when:
        return plain(relative(hit.when, now, zone))
    if hit.due is not None:
        return due_text(*hit.due, now.astimezone(zone).date(), due="due ")
    return plain(hit.detail)


def _rows(results: SearchResults, now: datetime, zone: tzinfo) -> Rows:
    """Each kind's heading with its count, then its hits, best first; a note's or
    activity's date as the rep's day ("3 d ago", "02 Nov"), as the lead's page shows it."""
    rows: Rows = []
    for group in results.groups:
        count = f"{len(group.hits)}{'+' if group.more else ''}"
        heading = [
            Text(""),
            Text(f"{KIND_TITLES[group.kind]} ({count})", style="bold underline"),
            Text(""),
            Text(""),
        ]
        rows.append((HEADING + group.kind, heading))
        for hit in group.hits:
            cells = [
                Text("•", style="bold"),
                styled(hit.title, "bold"),
                styled(hit.snippet),
                _when(hit, now, zone),
            ]
            rows.append((_key(hit), cells))
    return rows
