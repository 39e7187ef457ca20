"""Today: the cockpit's start screen, the rep's morning on one page (REP-DAY.md, 08:55).

Sections in the order a rep works: the jobs that finished since the cockpit was last
closed, the leads that reached their target score since yesterday, warm leads going cold,
the follow-ups due today or overdue, the recommendations waiting (by priority) and the
failed ops. Each heading carries its count; every row opens its screen with enter; the
counts follow the cache as sync brings news (the app calls `reload` when the cache
changes, `WarmlineApp.poll_status`). It reads one model, `warmline.store.today`, which
`warmline today` prints too.

Start-up: this screen paints first, so it loads nothing more than the lead list does;
the screens its rows open, the follow-up actions and the date dialog load when used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from warmline.store import CacheUnusable
from warmline.store.today import TodayLead, TodayPage, today_page
from warmline.tui.columns import Column
from warmline.tui.safe import plain
from warmline.tui.screens.base import CockpitScreen
from warmline.tui.screens.follow_up_dialogs import (
    FOLLOW_UP_BINDINGS,
    LOCAL_ONLY,
    FollowUpActions,
    day_text,
    due_cell,
)
from warmline.tui.screens.jobs import outcome_words, results_screen, subject
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.timefmt import relative
from warmline.tui.widgets.tables import HeadingTable
from warmline.vocabulary import kind_label

if TYPE_CHECKING:
    from warmline.store.followups import FollowUp
    from warmline.store.rows import Job, Op

HEADING = HeadingTable.HEADING_PREFIX

EMPTY_DAY = (
    "Nothing for today: no follow-ups due, no finished jobs, no lead ready for outreach or "
    "going cold, no recommendations waiting, no failed ops.\n\n"
    "L opens the lead list, P prospecting (find new companies), J the job monitor, O the outbox."
)
UNREADABLE = "cannot read the follow-ups file"
COLD_SHOWN = 5
"""Going-cold leads listed on Today (the quietest); a last row says how many more and
opens them all in the lead list. Past this, the sections under it would be off screen."""
MORE_COLD = "cold:more"
LEAD_ROWS = ("ready:", "cold:", "followup:")
"""The rows that stand for a lead (f adds a follow-up on it; enter opens it)."""


def _on_today(binding: Binding) -> Binding:
    """A follow-up key as Today's key bar shows it: x and Z (as "Snooze follow-up": its
    dialog offers a day too), the others in help and the palette only."""
    if binding.action == "follow_up_snooze_menu":
        return replace(binding, description="Snooze follow-up")
    return binding if binding.action == "follow_up_done" else replace(binding, show=False)


class TodayScreen(FollowUpActions, CockpitScreen):
    """What happened since the rep last looked and what to do now; enter opens a row."""

    DEFAULT_CSS = """
    TodayScreen #today-table { height: 1fr; }
    """

    SCREEN_TITLE = "Today"
    AUTO_FOCUS = "#today-table"

    BINDINGS = [
        Binding("L", "app.open('leads')", "Leads", id="today.leads"),
        # A priority key, so the key bar shows it (the table's own enter is hidden there).
        Binding("enter", "open_row", "Open", priority=True, id="today.open"),
        # The shared follow-up keys (x done, z a day, Z a day / a week / a date, f add by
        # hand); the key bar keeps room for the app's keys with x and Z only (? lists all).
        *(_on_today(binding) for binding in FOLLOW_UP_BINDINGS),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.page: TodayPage | None = None
        self.follow_ups_problem: str | None = None
        self._rows: dict[str, Job | TodayLead | FollowUp | Op | str] = {}
        self._follow_ups: dict[str, FollowUp] = {}

    def compose_body(self) -> ComposeResult:
        table = HeadingTable(
            ("", Column("What", min_width=16), Column("Detail"), "When"), id="today-table"
        )
        table.show_header = False
        yield table
        yield Static(id="today-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.reload()

    @property
    def table(self) -> HeadingTable:
        return self.query_one("#today-table", HeadingTable)

    # -- reading ------------------------------------------------------------------------

    def _read(self) -> TodayPage:
        """Today's page; a follow-ups file that cannot be read leaves that section out and
        says why, instead of taking the whole screen down."""
        cockpit = self.cockpit
        now = cockpit.clock().astimezone(cockpit.zone)
        try:
            page = today_page(cockpit.store, now, cockpit.config.cold_after_days, cockpit.followups)
            self.follow_ups_problem = None
        except CacheUnusable as problem:
            if cockpit.followups is None or problem.path != cockpit.followups.path:
                raise
            if self.follow_ups_problem != str(problem):  # said once, not at every reload
                cockpit.notify_plain(
                    f"Follow-ups not shown: {problem}", severity="error", timeout=30
                )
            self.follow_ups_problem = str(problem)
            page = today_page(cockpit.store, now, cockpit.config.cold_after_days, None)
        return page

    def reload(self) -> None:
        page = self.page = self._read()
        cockpit = self.cockpit
        now = cockpit.clock()
        today = page.today.date()
        rows: list[tuple[str, list[Text]]] = []
        self._rows = {}
        self._follow_ups = {}

        def heading(name: str, title: str, count: int, note: str = "") -> None:
            style = "bold underline" if count else "dim"
            rows.append(
                (
                    HEADING + name,
                    [
                        Text(""),
                        Text(f"{title} ({count})", style=style),
                        Text(note, style="dim"),
                        Text(""),
                    ],
                )
            )

        def row(key: str, item: Job | TodayLead | FollowUp | Op | str, cells: list[Text]) -> None:
            self._rows[key] = item
            rows.append((key, cells))

        since = (
            f"since you left, {relative(page.since, now, cockpit.zone)}"
            if page.since
            else "since yesterday"
        )
        heading("jobs", "Finished jobs", len(page.finished_jobs), since)
        for job in page.finished_jobs:
            done = job.status == "completed"
            what = Text(kind_label(job.kind) + " · ").append_text(subject(job, cockpit.store))
            detail = (
                plain(job.error, "red")
                if job.error
                else plain(job.result_summary)
                if job.result_summary
                else outcome_words(job)
            )
            row(
                f"job:{job.key}",
                job,
                [
                    Text("✓", style="green") if done else Text("✗", style="bold red"),
                    what,
                    detail,
                    Text(
                        relative(job.completed_at or job.updated_at, now, cockpit.zone), style="dim"
                    ),
                ],
            )

        heading(
            "ready",
            "Ready for outreach",
            len(page.ready_leads),
            "since yesterday",
        )
        for lead in page.ready_leads:
            row(
                f"ready:{lead.lead.id}",
                lead,
                [
                    Text("★", style="bold green"),
                    plain(lead.lead.company_name, "bold"),
                    Text(f"score {lead.lead.warming_score} / {lead.lead.target_score or 100}"),
                    Text(f"reached {relative(lead.reached_at, now, cockpit.zone)}", style="dim"),
                ],
            )

        cold_note = f"warm, quiet {cockpit.config.cold_after_days}+ days"
        heading("cold", "Going cold", page.going_cold_total, cold_note)
        for lead in page.going_cold[:COLD_SHOWN]:
            days = lead.quiet_days(now)
            row(
                f"cold:{lead.lead.id}",
                lead,
                [
                    Text("·", style="blue"),
                    plain(lead.lead.company_name),
                    Text(f"score {lead.lead.warming_score} / {lead.lead.target_score or 100}"),
                    Text(
                        "no activity yet"
                        if days is None
                        else f"quiet {days} day{'' if days == 1 else 's'}",
                        style="dim",
                    ),
                ],
            )

        more = page.going_cold_total - min(COLD_SHOWN, len(page.going_cold))
        if more > 0:
            row(
                MORE_COLD,
                "more",
                [
                    Text("…", style="blue"),
                    Text(f"{more:,} more going cold", style="italic"),
                    Text("enter: the warm leads by last activity", style="dim"),
                    Text(""),
                ],
            )

        heading(
            "followups",
            "Follow-ups due",
            len(page.follow_ups),
            UNREADABLE if self.follow_ups_problem else LOCAL_ONLY,
        )
        for follow_up in page.follow_ups:
            overdue = follow_up.due_on < today
            self._follow_ups[f"followup:{follow_up.id}"] = follow_up
            row(
                f"followup:{follow_up.id}",
                follow_up,
                [
                    Text("!", style="bold red") if overdue else Text("•", style="bold"),
                    plain(follow_up.company or f"lead {follow_up.lead_id}"),
                    plain(follow_up.text),
                    due_cell(follow_up, today),
                ],
            )

        recs = page.recommendations
        heading("recs", "Recommendations", recs.total, "r starts triage" if recs.total else "")
        if recs.total:
            counts = [
                f"{count} {name}"
                for name, count in (
                    ("high", recs.high),
                    ("medium", recs.medium),
                    ("low", recs.low),
                    ("other", recs.other),
                )
                if count
            ]
            row(
                "recs:all",
                "recommendations",
                [
                    Text("»", style="bold"),
                    Text(" · ".join(counts)),
                    Text("enter or r: triage", style="dim"),
                    Text(""),
                ],
            )

        heading(
            "failed",
            "Failed ops",
            len(page.failed_ops),
            "retry, edit or discard",
        )
        for op in page.failed_ops:
            owner = cockpit.store.get_lead(op.lead_id) if op.lead_id is not None else None
            what = Text(op.kind.replace("_", " "))
            if owner is not None:
                what.append(" · ").append_text(plain(owner.company_name))
            row(
                f"op:{op.op_id}",
                op,
                [
                    Text("✗", style="bold red"),
                    what,
                    plain(op.last_error or "refused", "red"),
                    Text(relative(op.created_at, now, cockpit.zone), style="dim"),
                ],
            )

        self._show_title(page)
        table = self.table
        empty = self.query_one("#today-empty", Static)
        table.display = not page.is_empty
        empty.display = page.is_empty
        if page.is_empty:
            empty.update(Text(EMPTY_DAY))
            rows = []
        table.fill(rows)
        self.refresh_bindings()

    def _show_title(self, page: TodayPage) -> None:
        title = Text(no_wrap=True)
        title.append("Today", style="bold")
        title.append(f" · {day_text(page.today.date())}")
        if page.is_empty:
            title.append(" · nothing to see")
        else:
            title.append(
                f" · {len(page.follow_ups)} follow-up{'' if len(page.follow_ups) == 1 else 's'} due"
            )
            if page.failed_ops:
                title.append(f" · {len(page.failed_ops)} failed", style="bold red")
        self.set_title_text(title)

    # -- the row under the cursor -------------------------------------------------------

    def current(self) -> Job | TodayLead | FollowUp | Op | str | None:
        """What the highlighted row stands for (None on an empty day)."""
        key = self.table.current_key if self.table.display else None
        return self._rows.get(key) if key is not None else None

    def _follow_up(self) -> FollowUp | None:
        """The highlighted follow-up, if a follow-up is highlighted."""
        key = self.table.current_key if self.table.display else None
        return self._follow_ups.get(key) if key is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys with nothing to act on leave the key bar: Open on an empty day, the
        follow-up keys when none is due (dimmed while another row is highlighted; adding
        one, while the row is not a lead's); escape shows only when Today was opened over
        another screen."""
        if action == "back":  # the start screen has nothing under it to go back to
            return len(self.app.screen_stack) > 1
        if action == "open_row":
            return bool(self._rows)
        if action in ("follow_up_done", "follow_up_snooze", "follow_up_snooze_menu"):
            if not self._follow_ups:
                return False
            return True if self._follow_up() is not None else None
        if action == "add_follow_up":
            if not any(key.startswith(LEAD_ROWS) for key in self._rows):
                return False
            return True if self._lead() is not None else None
        return True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.refresh_bindings()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_row()

    # -- keys ---------------------------------------------------------------------------

    def action_open_row(self) -> None:
        """Open the row's screen: a job's results, a lead's page (ready, going cold, or the
        lead a follow-up is about), the triage queue, or the outbox on the failed op."""
        key = self.table.current_key if self.table.display else None
        item = self.current()
        if key is None or item is None:
            return
        cockpit = self.cockpit
        kind = key.split(":", 1)[0]
        if kind == "job":
            job = cockpit.store.get_job(int(key.split(":", 1)[1]))
            if job is not None:
                cockpit.push_screen(results_screen(job))
        elif isinstance(item, TodayLead) or kind == "followup":
            lead_id = item.lead.id if isinstance(item, TodayLead) else self._follow_ups[key].lead_id
            if cockpit.store.get_lead(lead_id) is None:
                cockpit.notify_plain(
                    "That lead is no longer in the cache (removed on the service).",
                    severity="warning",
                )
                return
            cockpit.open_lead(lead_id)
        elif key == MORE_COLD:
            cockpit.action_open("leads")
            cockpit.call_after_refresh(self._show_quiet_leads)
        elif kind == "recs":
            cockpit.action_open("recommendations")
        elif kind == "op":
            cockpit.action_open("outbox")
            cockpit.call_after_refresh(self._highlight_op, key.split(":", 1)[1])

    def _show_quiet_leads(self) -> None:
        """The lead list on its warm tab, sorted by last activity (the quietest at the end:
        `G`)."""
        screen = self.app.screen
        if isinstance(screen, LeadListScreen):
            screen.show_view("warm", "activity")

    def _highlight_op(self, op_id: str) -> None:
        """Put the outbox's cursor on the op the rep came for."""
        # deferred: first frame (the outbox loads the actions)
        from warmline.tui.screens.outbox import OutboxScreen

        screen = self.app.screen
        if not isinstance(screen, OutboxScreen):
            return
        table = screen.query_one("#outbox-table", DataTable)
        try:
            table.move_cursor(row=table.get_row_index(op_id), animate=False)
        except Exception:  # noqa: BLE001 - delivered or discarded meanwhile: the cursor stays
            return

    def _lead(self) -> tuple[int, str] | None:
        """The lead of the highlighted row (a ready or quiet lead, or a follow-up's) and
        its company's name."""
        item = self.current()
        if isinstance(item, TodayLead):
            return item.lead.id, item.lead.company_name
        follow_up = self._follow_up()
        if follow_up is not None:
            return follow_up.lead_id, follow_up.company
        return None

    def _follow_up_lead(self) -> tuple[int, str] | None:
        return self._lead()
