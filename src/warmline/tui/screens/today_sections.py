"""Today's sections: one function per section, each returning its heading and its rows.

A row is a small named tuple holding what it stands for and the cells it shows; it opens
its own screen (`open`), so the Today screen only lays sections out and hands enter to
the row under the cursor. `key` is the row's identity in the table (its cursor survives a
reload); nothing reads it back apart. Named tuples, not dataclasses, and annotations
evaluated, not strings: this module is on the first frame's path (`warmline.startup`, item
4). As dataclasses its rows cost 6 ms; as named tuples of string annotations 4 ms, each
annotation compiled; as they are, under 1 ms. Every type named here is loaded already.
"""


from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Protocol

from rich.text import Text

from warmline.named_tuple import NamedTuple
from warmline.store import Store
from warmline.store.followups import FollowUp
from warmline.store.rows import Job, Op
from warmline.store.today import TodayLead, TodayPage, lead_names
from warmline.tui.job_cells import outcome_words, subject
from warmline.tui.safe import plain
from warmline.tui.screens.follow_up_words import LOCAL_ONLY, due_cell, lead_cell
from warmline.tui.timefmt import relative
from warmline.vocabulary import kind_label
from warmline.work_days import DEFAULT_WORK_DAYS, first_work_day

if TYPE_CHECKING:
    from warmline.tui.context import Cockpit

UNREADABLE = "cannot read the follow-ups file"
COLD_SHOWN = 5
"""Going-cold leads listed on Today (the quietest); a last row says how many more and
opens them all in the lead list. Past this, the sections under it would be off screen."""


class TodayView(NamedTuple):
    """What every section reads: the page, the cache (for names), and the moment shown."""

    page: TodayPage
    store: Store
    now: datetime
    zone: tzinfo
    cold_after_days: int
    follow_ups_unreadable: bool
    key: Callable[[str], str]
    """The key of a binding id as the rep has it (`warmline.tui.bindings.key_for`)."""
    work_days: tuple[int, ...] = DEFAULT_WORK_DAYS

    def ago(self, moment: datetime | str | None) -> str:
        return relative(moment, self.now, self.zone)


class TodayRow(Protocol):
    """A row of Today under a heading: enter opens it."""

    @property
    def cells(self) -> list[Text]:
        """What the row shows, a cell a column."""

    @property
    def key(self) -> str:
        """The row's key in the table, unique on the page."""

    @property
    def lead(self) -> tuple[int, str] | None:
        """The lead (id, company name) the row is about, for `f` (add a follow-up)."""

    @property
    def follow_up(self) -> FollowUp | None:
        """The follow-up the row is, for the follow-up keys."""

    def open(self, cockpit: "Cockpit") -> None:
        """Go to the screen this row stands for."""


class Section(NamedTuple):
    """A heading with its count and note, and the rows under it."""

    name: str
    title: str
    total: int
    note: str
    rows: tuple[TodayRow, ...]


# -- the rows -----------------------------------------------------------------------------


class JobRow(NamedTuple):
    cells: list[Text]
    job: Job
    lead: tuple[int, str] | None = None
    follow_up: FollowUp | None = None

    @property
    def key(self) -> str:
        return f"job:{self.job.key}"

    def open(self, cockpit: "Cockpit") -> None:
        """The job's results, as the cache has them now."""
        # deferred: first frame (the job monitor's screens; Today only names jobs)
        from warmline.tui.screens.jobs import results_screen

        job = cockpit.store.get_job(self.job.key)
        if job is not None:
            cockpit.push_screen(results_screen(job))


def open_lead(cockpit: "Cockpit", lead_id: int) -> None:
    """The lead's page, unless the service removed it since Today was read."""
    if cockpit.store.get_lead(lead_id) is None:
        cockpit.notify_plain(
            "That lead is no longer in the cache (removed on the service).",
            severity="warning",
        )
        return
    cockpit.open_lead(lead_id)


class LeadRow(NamedTuple):
    """A lead ready for outreach or going cold."""

    cells: list[Text]
    today_lead: TodayLead
    section: str
    follow_up: FollowUp | None = None

    @property
    def key(self) -> str:
        return f"{self.section}:{self.today_lead.lead.id}"

    @property
    def lead(self) -> tuple[int, str]:
        return self.today_lead.lead.id, self.today_lead.lead.company_name

    def open(self, cockpit: "Cockpit") -> None:
        open_lead(cockpit, self.today_lead.lead.id)


class MoreColdRow(NamedTuple):
    """The going-cold leads past `COLD_SHOWN`: all of them, in the lead list."""

    cells: list[Text]
    lead: tuple[int, str] | None = None
    follow_up: FollowUp | None = None

    @property
    def key(self) -> str:
        return "cold:more"

    def open(self, cockpit: "Cockpit") -> None:
        cockpit.action_open("leads")
        cockpit.call_after_refresh(_show_quiet_leads, cockpit)


def _show_quiet_leads(cockpit: "Cockpit") -> None:
    """The lead list on its warm tab, sorted by last activity (the quietest at the end:
    `G`)."""
    # deferred: first frame (the lead list opens on a key)
    from warmline.tui.screens.lead_list import LeadListScreen

    screen = cockpit.screen
    if isinstance(screen, LeadListScreen):
        screen.show_view("warm", "activity")


class FollowUpRow(NamedTuple):
    cells: list[Text]
    follow_up_due: FollowUp

    @property
    def key(self) -> str:
        return f"followup:{self.follow_up_due.id}"

    @property
    def lead(self) -> tuple[int, str]:
        return self.follow_up_due.lead_id, self.follow_up_due.company

    @property
    def follow_up(self) -> FollowUp:
        return self.follow_up_due

    def open(self, cockpit: "Cockpit") -> None:
        """The page of the lead the follow-up is about."""
        open_lead(cockpit, self.follow_up_due.lead_id)


class AgendaRow(NamedTuple):
    """The follow-ups of the next 7 days, counted by day: the agenda, which lists them."""

    cells: list[Text]
    lead: tuple[int, str] | None = None
    follow_up: FollowUp | None = None

    @property
    def key(self) -> str:
        return "agenda:week"

    def open(self, cockpit: "Cockpit") -> None:
        """The agenda (the app loads it on first use: it is not on the first frame's path)."""
        cockpit.action_open("agenda")


class RecommendationsRow(NamedTuple):
    cells: list[Text]
    lead: tuple[int, str] | None = None
    follow_up: FollowUp | None = None

    @property
    def key(self) -> str:
        return "recs:all"

    def open(self, cockpit: "Cockpit") -> None:
        """The triage queue."""
        cockpit.action_open("recommendations")


class FailedOpRow(NamedTuple):
    cells: list[Text]
    op: Op
    lead: tuple[int, str] | None = None
    follow_up: FollowUp | None = None

    @property
    def key(self) -> str:
        return f"op:{self.op.op_id}"

    def open(self, cockpit: "Cockpit") -> None:
        """The outbox, on this op (retry, edit or discard it there)."""
        cockpit.action_open("outbox")
        cockpit.call_after_refresh(_highlight_op, cockpit, self.op.op_id)


def _highlight_op(cockpit: "Cockpit", op_id: str) -> None:
    """Put the outbox's cursor on the op the rep came for."""
    # deferred: first frame (the outbox loads the actions)
    from warmline.tui.screens.outbox import OutboxScreen
    from warmline.tui.widgets.tables import RowTable

    screen = cockpit.screen
    if not isinstance(screen, OutboxScreen):
        return
    table = screen.query_one("#outbox-table", RowTable)
    try:
        table.move_cursor(row=table.get_row_index(op_id), animate=False)
    except Exception:  # noqa: BLE001 - delivered or discarded meanwhile: the cursor stays
        return


class ReviewRow(NamedTuple):
    """Last week in review, on the first work day of the rep's week."""

    cells: list[Text]
    lead: tuple[int, str] | None = None
    follow_up: FollowUp | None = None

    @property
    def key(self) -> str:
        return "review:last-week"

    def open(self, cockpit: "Cockpit") -> None:
        """The review screen (the app loads it on first use), on the week before this one."""
        cockpit.action_open("review")
        cockpit.call_after_refresh(_show_last_week, cockpit)


def _show_last_week(cockpit: "Cockpit") -> None:
    # deferred: first frame (the review screen loads the review's modules)
    from warmline.tui.screens.review import ReviewScreen

    screen = cockpit.screen
    if isinstance(screen, ReviewScreen):
        screen.show_week(1)


# -- the sections, in the order a rep works -----------------------------------------------


def last_week_in_review(view: TodayView) -> Section | None:
    """On the first work day of the rep's week only: a row that opens last week's review
    (V from anywhere). A weekday test, no read: Today's first frame pays nothing for it."""
    if view.page.today.weekday() != first_work_day(view.work_days):
        return None
    row = ReviewRow(
        [Text("»", style="bold"), Text("Last week in review"), Text("enter: what you did last week", style="dim"), Text("")]
    )
    return Section("review", "Week in review", 1, f"{view.key('app.review')}: any week", (row,))


def finished_jobs(view: TodayView) -> Section:
    page = view.page
    since = f"since you left, {view.ago(page.since)}" if page.since else "since yesterday"
    rows = tuple(_job_row(view, job) for job in page.finished_jobs)
    return Section("jobs", "Finished jobs", len(rows), since, rows)


def _job_row(view: TodayView, job: Job) -> JobRow:
    done = job.status == "completed"
    what = Text(kind_label(job.kind) + " · ").append_text(subject(job, view.store))
    if job.error:
        detail = plain(job.error, "red")
    elif job.result_summary:
        detail = plain(job.result_summary)
    else:
        detail = outcome_words(job)
    mark = Text("✓", style="green") if done else Text("✗", style="bold red")
    when = Text(view.ago(job.completed_at or job.updated_at), style="dim")
    return JobRow([mark, what, detail, when], job)


def ready_leads(view: TodayView) -> Section:
    rows = tuple(
        LeadRow(
            [
                Text("★", style="bold green"),
                plain(lead.lead.company_name, "bold"),
                _score(lead),
                Text(f"reached {view.ago(lead.reached_at)}", style="dim"),
            ],
            lead,
            "ready",
        )
        for lead in view.page.ready_leads
    )
    return Section("ready", "Ready for outreach", len(rows), "since yesterday", rows)


def going_cold(view: TodayView) -> Section:
    page = view.page
    rows: list[TodayRow] = [_cold_row(view, lead) for lead in page.going_cold[:COLD_SHOWN]]
    more = page.going_cold_total - min(COLD_SHOWN, len(page.going_cold))
    if more > 0:
        rows.append(
            MoreColdRow(
                [
                    Text("…", style="blue"),
                    Text(f"{more:,} more going cold", style="italic"),
                    Text("enter: the warm leads by last activity", style="dim"),
                    Text(""),
                ]
            )
        )
    note = f"warm, quiet {view.cold_after_days}+ days"
    return Section("cold", "Going cold", page.going_cold_total, note, tuple(rows))


def _cold_row(view: TodayView, lead: TodayLead) -> LeadRow:
    days = lead.quiet_days(view.now)
    quiet = "no activity yet" if days is None else f"quiet {days} day{'' if days == 1 else 's'}"
    cells = [Text("·", style="blue"), plain(lead.lead.company_name), _score(lead), Text(quiet, style="dim")]
    return LeadRow(cells, lead, "cold")


def _score(lead: TodayLead) -> Text:
    return Text(f"score {lead.lead.warming_score} / {lead.lead.target_score or 100}")


def follow_ups_due(view: TodayView) -> Section:
    today = view.page.today.date()
    rows = tuple(
        FollowUpRow(
            [
                Text("!", style="bold red") if follow_up.due_on < today else Text("•", style="bold"),
                lead_cell(follow_up, view.page.unlisted),
                plain(follow_up.text),
                due_cell(follow_up, today),
            ],
            follow_up,
        )
        for follow_up in view.page.follow_ups
    )
    note = UNREADABLE if view.follow_ups_unreadable else LOCAL_ONLY
    return Section("followups", "Follow-ups due", len(rows), note, rows)


def next_7_days(view: TodayView) -> Section:
    """How many follow-ups the next 7 days after today hold, by weekday ("Mon: 2 · Thu: 1";
    "Mon 2" read as a date): one row, which opens the agenda (W from anywhere). Today's own
    are in the section above, so none is counted twice."""
    page = view.page
    agenda = view.key("app.agenda")
    note = UNREADABLE if view.follow_ups_unreadable else f"{agenda}: the agenda"
    if not page.coming:
        return Section("week", "Next 7 days", 0, note, ())
    days = " · ".join(f"{day:%a}: {count}" for day, count in page.coming)
    row = AgendaRow(
        [Text("»", style="bold"), Text(days), Text(f"enter or {agenda}: the agenda", style="dim"), Text("")]
    )
    return Section("week", "Next 7 days", page.coming_total, note, (row,))


def recommendations(view: TodayView) -> Section:
    recs = view.page.recommendations
    triage = view.key("app.recommendations")
    note = f"{triage} starts triage" if recs.total else ""
    if not recs.total:
        return Section("recs", "Recommendations", 0, note, ())
    by_priority = (("high", recs.high), ("medium", recs.medium), ("low", recs.low), ("other", recs.other))
    counts = " · ".join(f"{count} {name}" for name, count in by_priority if count)
    row = RecommendationsRow(
        [Text("»", style="bold"), Text(counts), Text(f"enter or {triage}: triage", style="dim"), Text("")]
    )
    return Section("recs", "Recommendations", recs.total, note, (row,))


def failed_ops(view: TodayView) -> Section:
    ops = view.page.failed_ops
    names = lead_names(view.store, (op.lead_id for op in ops if op.lead_id is not None))
    rows = tuple(_failed_op_row(view, op, names) for op in ops)
    return Section("failed", "Failed ops", len(rows), "retry, edit or discard", rows)


def _failed_op_row(view: TodayView, op: Op, names: dict[int, str]) -> FailedOpRow:
    what = Text(op.kind.replace("_", " "))
    owner = names.get(op.lead_id) if op.lead_id is not None else None
    if owner is not None:
        what.append(" · ").append_text(plain(owner))
    cells = [
        Text("✗", style="bold red"),
        what,
        plain(op.last_error or "refused", "red"),
        Text(view.ago(op.created_at), style="dim"),
    ]
    return FailedOpRow(cells, op)


SECTIONS: tuple[Callable[[TodayView], Section | None], ...] = (
    last_week_in_review,
    finished_jobs,
    ready_leads,
    going_cold,
    follow_ups_due,
    next_7_days,
    recommendations,
    failed_ops,
)
"""Today's sections, top to bottom; one that answers None is not shown today."""
