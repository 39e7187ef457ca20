"""One lead: what it is, how warm it is, what happened, who matters, and what to do next.

Everything is read from the cache (`store.lead_detail`) and every change goes through an
action, which shows its local effect at once; the screen re-reads after each action and
whenever the cache changes under it (sync delivered an op or refreshed the lead).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar, TypeVarTuple

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from warmline import actions
from warmline.actions.activity_type import activity_name
from warmline.amounts import AMOUNT_EXAMPLES, amount, typed_amount
from warmline.numbers import whole_number
from warmline.store.database import CacheUnusable
from warmline.store.sync_vocabulary import SyncState
from warmline.tui.charts import is_ready, score_bar
from warmline.tui.columns import Column
from warmline.tui.hanging import hanging_lines, hanging_rows
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen
from warmline.tui.screens.contact_pick import add_key_contact
from warmline.tui.screens.dialogs import (
    ActivityDialog,
    ActivityValues,
    ConfirmDialog,
    DealDialog,
    DealValues,
    LineDialog,
    TextDialog,
    TextValues,
    confirm_lead_removal,
)
from warmline.tui.screens.follow_up_actions import (
    FOLLOW_UP_BINDINGS,
    FollowUpActions,
    keep_follow_up,
    rep_now,
)
from warmline.tui.screens.follow_up_words import LOCAL_ONLY, due_cell
from warmline.tui.timefmt import local_datetime, logged_delivered, parse_ts, relative
from warmline.tui.widgets.score_chart import ScoreChart
from warmline.tui.widgets.tables import RowTable
from warmline.tui.widgets.text_line import TextLine
from warmline.vocabulary import recommendation_action, source_name

if TYPE_CHECKING:
    from warmline.store import Job, Store
    from warmline.store.followups import FollowUp, Source
    from warmline.store.lead_page import Competitor, KeyContact, LeadDetail
    from warmline.store.tombstones import Tombstone
    from warmline.tui.context import Decision
    from warmline.tui.widgets.follow_up_field import FollowUpChoice

P = ParamSpec("P")
Ts = TypeVarTuple("Ts")
Row = TypeVar("Row")

PENDING_STATES = ("pending", "in_flight", "ambiguous")
NARROW = 100


def op_marker(op_state: str | None, pending: bool) -> Text:
    """How a row made by a queued action says so: pending, or failed (see the outbox)."""
    if op_state == "failed":
        return Text(" (failed: see outbox)", style="bold red")
    if pending or op_state in PENDING_STATES:
        return Text(" (pending)", style="yellow")
    return Text("")


def job_state(status: str | None, job: Job | None) -> Text:
    """A lead's scan or generation status, with the progress of its running job."""
    text = plain(status or "none")
    if job is not None and job.progress is not None and status not in (None, "queued", "completed"):
        text.append(f" {int(job.progress)}%")
    return text


NOT_SENDING = frozenset({SyncState.OFFLINE, SyncState.AUTH_FAILED, SyncState.SYNC_OFF})
"""Connection states in which a queued change cannot be delivered now: a notice then says
"queued", never "saved"."""


def deal_saved(changes: Mapping[str, object], lead_currency: str, *, queued: bool = False) -> str:
    """The notice after a deal change names the currency saved, so a pre-filled default
    the rep did not look at is no surprise; `queued` when it cannot be delivered now."""
    currency = changes.get("deal_currency", lead_currency)
    value = changes.get("deal_value")
    verb, later = ("queued", "; sent when back online.") if queued else ("saved", ".")
    if not currency:
        return f"Deal {verb} with no currency{later}"
    if isinstance(value, float):
        return f"Deal {verb}: {amount(value)} {currency}{later}"
    return f"Deal {verb}, currency {currency}{later}"


def contact_label(contact: KeyContact) -> Text:
    """A key contact as the log form offers it: `★ Dana Berg · VP Operations` (★ pinned)."""
    label = Text("★ " if contact.is_selected else "  ", style="bold yellow")
    label.append_text(plain(contact.name or f"contact {contact.contact_id}"))
    if contact.title:
        label.append(" · ", style="dim")
        label.append_text(plain(contact.title, "dim"))
    return label


class SectionTable(RowTable):
    """A small table of one section of the lead (sources, contacts, competitors)."""

    DEFAULT_CSS = """
    SectionTable { height: auto; max-height: 12; margin-bottom: 1; }
    """


class SourcesTable(SectionTable):
    """The lead's monitoring sources; `space` (a key of the page) turns the highlighted one on/off."""


class ContactsTable(SectionTable):
    """The lead's key contacts; `p` (a key of the page) pins the highlighted one."""


class CompetitorsTable(SectionTable):
    """The lead's competitors. In here `p` pins the highlighted competitor, not a contact."""

    PLACE = "the competitors table"  # how the help and the palette name it

    BINDINGS = [Binding("p", "screen.pin_competitor", "Pin/unpin competitor", id="detail.pin_competitor")]


class FollowUpsTable(SectionTable):
    """The lead's open follow-ups (kept on this computer); `x`, `z`, `Z` (keys of the page)
    act on the highlighted one."""

    DEFAULT_CSS = """
    FollowUpsTable { margin-bottom: 0; }
    """


LEAD_ACTIONS = frozenset({
    "log_activity", "add_note", "set_status", "set_target", "signal_scan",
    "generate_recommendations", "edit_deal", "add_competitor", "remove_lead", "add_contact",
})
"""The screen's own actions on its lead (the `detail.*` bindings)."""

ROW_ACTIONS: dict[str, Callable[[LeadDetail], Sequence[object]]] = {
    "toggle_source": lambda detail: detail.monitoring_pages,
    "pin_contact": lambda detail: detail.contacts,
    "pin_competitor": lambda detail: detail.competitors,
    "scan_competitor": lambda detail: detail.competitors,
}
"""The actions on the highlighted row of a table, and the rows each needs. Their keys are
the page's, so they work wherever the focus is (`p` pins a contact without going to the
contacts table); only in the competitors table does `p` pin the competitor instead."""

FOLLOW_UP_ROW_ACTIONS = frozenset({"follow_up_done", "follow_up_snooze", "follow_up_snooze_menu"})
"""The follow-up keys that act on the highlighted follow-up (`FOLLOW_UP_BINDINGS`)."""

SECTION_KEYS = {"sources": "1", "contacts": "2", "competitors": "3", "follow-ups": "4"}
"""The default keys that move the focus to a table (`detail.go_*`); its heading names the
rep's key (`key_for`)."""


class LeadDetailScreen(FollowUpActions, CockpitScreen):
    """The lead's page. Keys act on the lead; table keys act on the focused row."""

    # loaded when the screen is first shown, not at start-up
    CSS_PATH = [STYLES / "record_page.tcss", STYLES / "lead_detail.tcss"]

    SCREEN_TITLE = "Lead"

    BINDINGS = [
        Binding("a", "log_activity", "Log activity", priority=True, id="detail.log_activity"),  # typeahead.py
        Binding("n", "add_note", "Note", priority=True, id="detail.add_note"),
        Binding("p", "pin_contact", "Pin/unpin contact", id="detail.pin_contact"),
        Binding("w", "set_status('warm')", "Make warm", id="detail.warm"),
        Binding("c", "set_status('cold')", "Make cold", id="detail.cold"),
        Binding("t", "set_target", "Target score", id="detail.target"),
        Binding("S", "signal_scan", "Signal scan", id="detail.signal_scan"),
        Binding("R", "generate_recommendations", "Generate recs", id="detail.generate"),
        Binding("d", "edit_deal", "Deal", id="detail.deal"),
        Binding("plus", "add_competitor", "Add competitor", id="detail.add_competitor"),
        Binding("A", "add_contact", "Add contact", id="detail.add_contact"),
        Binding("D", "remove_lead", "Remove", id="detail.remove"),
        Binding("space", "toggle_source", "Source on/off", show=False, id="detail.toggle_source"),
        Binding("s", "scan_competitor", "Scan competitor", show=False, id="detail.scan_competitor"),
        *(
            Binding(key, f"go('{section}')", f"Go to {section}", show=False, id=f"detail.go_{section}")
            for section, key in SECTION_KEYS.items()
        ),
        *(replace(binding, show=False) for binding in FOLLOW_UP_BINDINGS),  # listed in their heading
    ]

    def __init__(self, lead_id: int) -> None:
        super().__init__()
        self.lead_id = lead_id
        self.detail: LeadDetail | None = None
        self.removed: Tombstone | None = None  # the lead's tombstone: the service removed it
        self.known_name: str | None = None  # the company's name, kept if the lead leaves the cache
        self.follow_ups: list[FollowUp] = []  # open, from the follow-ups file (not the cache)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A lead that is not in the cache, or that the service removed, has nothing to act
        on: only its way back shows."""
        live = self.detail is not None and self.removed is None
        if action in ROW_ACTIONS:  # shown dim while its table has no row to act on
            return live and (bool(self.detail and ROW_ACTIONS[action](self.detail)) or None)
        if action in FOLLOW_UP_ROW_ACTIONS:
            return live and (bool(self.follow_ups) or None)
        if action == "add_follow_up":
            return live and self.cockpit.followups is not None
        if action == "go":
            return self.detail is not None
        return live or action not in LEAD_ACTIONS

    def on_key(self, event: events.Key) -> None:
        """A key of the lead's pressed on a lead that takes no actions says why: the key
        only left the key bar, and a press did nothing at all. Keys bound below the page
        (a focused table's) or above it (the app's) are left to their bindings."""
        reason = self._why_no_actions()
        if reason is None or not self._refused_here(event.key):
            return
        event.stop()
        event.prevent_default()
        self.cockpit.notify_plain(reason, severity="warning")

    def _why_no_actions(self) -> str | None:
        if self.detail is None:
            return f"{self.known_name or 'This lead'} is not in the cache any more: it takes no actions."
        if self.removed is not None:
            return f"{self.removed.message}: it takes no more actions."
        return None

    def _refused_here(self, key: str) -> bool:
        """Whether `key` is bound only by this page, to an action it refuses now."""
        chain = self._modal_binding_chain
        if any(key in bindings.key_to_bindings for namespace, bindings in chain if namespace is not self):
            return False
        own = next((bindings for namespace, bindings in chain if namespace is self), None)
        refused = (
            binding.action.split("(", 1)[0]
            for binding in (own.key_to_bindings.get(key, ()) if own is not None else ())
        )
        return any(self.check_action(action, ()) is False for action in refused)

    def compose_body(self) -> ComposeResult:
        yield Static(id="detail-missing", classes="empty-state")
        with Horizontal(id="detail-columns"):
            with VerticalScroll(id="detail-left"):
                yield Static(id="detail-company", classes="detail-section")
                yield TextLine(id="heading-follow-ups", classes="detail-heading")
                yield FollowUpsTable(("Due", Column("Follow-up")), id="detail-follow-ups")
                yield Static(Text(f"{LOCAL_ONLY.capitalize()} (the service has none).", style="dim"),
                             id="detail-follow-ups-note", classes="detail-section")
                yield Static(id="detail-score", classes="detail-section")
                yield ScoreChart(id="detail-trend", classes="detail-section")
                yield Static(id="detail-deal", classes="detail-section")
                yield Static(id="detail-recs", classes="detail-section")
                yield Static(id="detail-notes", classes="detail-section")
            with VerticalScroll(id="detail-right"):
                yield Static(Text("Recent activity", style="bold"), id="heading-activity", classes="detail-heading")
                yield Static(id="detail-activity", classes="detail-section")
                yield TextLine(id="heading-sources", classes="detail-heading")
                yield SourcesTable(("On", "Score", Column("Source"), Column("Type", min_width=6)), id="detail-sources")
                yield TextLine(id="heading-contacts", classes="detail-heading")
                yield ContactsTable(("Pin", Column("Name"), Column("Title"), Column("Role", min_width=6)), id="detail-contacts")
                yield TextLine(id="heading-competitors", classes="detail-heading")
                yield CompetitorsTable(("Pin", Column("Name"), Column("Domain"), "Last scan"), id="detail-competitors")

    def on_mount(self) -> None:
        self.reload()
        self.cockpit.revalidate_lead(self.lead_id)

    def on_resize(self) -> None:
        self.query_one("#detail-columns").set_class(self.size.width < NARROW, "-narrow")

    # -- reading --------------------------------------------------------------------------

    def reload(self) -> None:
        self.detail = detail = self.cockpit.store.lead_detail(self.lead_id)
        self.removed = self.cockpit.store.lead_tombstone(self.lead_id)
        missing = detail is None
        self.refresh_bindings()
        self.query_one("#detail-columns").display = not missing
        self.query_one("#detail-missing", Static).display = missing
        if detail is None:
            title = Text(f"Lead {self.lead_id}", style="bold")
            if self.known_name is not None:
                title = plain(self.known_name, "bold").append(f" (lead {self.lead_id}, no longer cached)", style="")
            self.set_title_text(title)
            self.query_one("#detail-missing", Static).update(Text(
                "This lead is not in the cache any more: it was removed from outreach, here or by a "
                "colleague. Press escape to go back to the list."
            ))
            return
        lead = detail.lead
        self.known_name = lead.company_name
        title = Text(no_wrap=True)
        title.append_text(plain(lead.company_name, "bold"))
        title.append(f" · {lead.lead_status}")
        if self.removed is not None:
            title.append(" · removed on the service", style="bold red")
        elif is_ready(lead.warming_score, lead.target_score):
            title.append(" · ★ ready for outreach", style="bold green")
        self.set_title_text(title)
        self._show_company(detail)
        self._show_score(detail)
        self._show_deal(detail)
        self._show_recommendations(detail)
        self._show_notes(detail)
        self._show_activity(detail)
        self._fill_tables(detail)
        self._show_follow_ups()

    def _section(self, widget_id: str, text: Text) -> None:
        self.query_one(f"#{widget_id}", Static).update(hanging_lines(text))

    def _show_company(self, detail: LeadDetail) -> None:
        company = detail.company or {}
        text = Text()
        text.append_text(plain(company.get("name") or detail.lead.company_name, "bold"))
        for key, label in (("domain", ""), ("industry", ""), ("country", ""), ("region", ""), ("size", "size ")):
            if company.get(key):
                text.append(" · " if text.plain else "")
                text.append(label)
                text.append_text(plain(company[key]))
        if company.get("description"):
            text.append("\n")
            text.append_text(plain(company["description"], "dim", multiline=True))
        if detail.detail_fetched_at is None:
            # Only the lead list's fields are cached: say so rather than show empty sections
            # as if the lead had no activity, sources or contacts.
            text.append("\nDetails not loaded yet: they arrive when this lead is synced.", style="italic yellow")
        if self.removed is not None:
            text.append("\n")
            text.append_text(plain(f"{self.removed.message}: it takes no more actions, and what was queued on it"
                                   " failed (see the outbox).", "italic red"))
        self._section("detail-company", text)

    def _show_score(self, detail: LeadDetail) -> None:
        lead = detail.lead
        text = Text()
        text.append("Warming score  ")
        text.append_text(score_bar(lead.warming_score, lead.target_score, 20))
        gap = (lead.target_score or 0) - lead.warming_score
        if lead.target_score:
            text.append(f"\n  gap to target {max(0, gap)}" if gap > 0 else "\n  target reached")
        jobs = self._active_jobs()
        text.append("\nSignal scan: ")
        text.append_text(job_state(detail.signal_scan_status, jobs.get("signal_scan")))
        text.append(" · recommendations: ")
        text.append_text(job_state(detail.generation_status, jobs.get("recommendations")))
        self._section("detail-score", text)
        # the whole cached history; before the detail is loaded, its activity is not here yet
        history = [(at, point.score) for point in detail.score_history if (at := parse_ts(point.at))]
        unloaded = detail.detail_fetched_at is None and bool(lead.activity_count)
        self.query_one(ScoreChart).show(history, lead.target_score, self.cockpit.zone,
                                        empty="activity not loaded yet" if unloaded else "no activity yet")

    def _show_deal(self, detail: LeadDetail) -> None:
        text = Text().append("Deal  ", style="bold")
        if detail.deal_value is not None:
            text.append(f"{amount(detail.deal_value)} ")
            text.append_text(plain(detail.deal_currency or ""))
        else:
            text.append("no value yet", style="dim")
        zone = self.cockpit.zone
        if detail.won_at:
            text.append(f" · won {local_datetime(detail.won_at, zone)}", style="green")
        if detail.closed_at:
            text.append(f" · lost {local_datetime(detail.closed_at, zone)}", style="red")
            if detail.closed_reason:
                text.append(": ")
                text.append_text(plain(detail.closed_reason))
        self._section("detail-deal", text)

    def _active_jobs(self) -> dict[str, Job]:
        """The lead's jobs not finished yet (a scan, a generation), by kind."""
        return {job.kind: job for job in self.cockpit.store.jobs(active_only=True) if job.lead_id == self.lead_id}

    def _show_recommendations(self, detail: LeadDetail) -> None:
        recs = detail.recommendations
        # a generation started here and queued offline, or running on the service
        generating = detail.generation_status == "queued" or "recommendations" in self._active_jobs()
        text = Text().append(f"Active recommendations ({len(recs)})", style="bold")
        if generating and recs:
            text.append("  new ones being generated; they show here when done", style="dim")
        elif generating:
            text.append("\n  none yet; new ones are being generated and show here when done", style="dim")
        elif not recs:
            text.append(f"\n  none; {self.key('detail.generate')} generates new ones from enabled sources", style="dim")
        for rec in recs:
            text.append("\n  ")
            text.append_text(plain(rec.priority or "-", "bold"))
            text.append(" ")
            text.append_text(plain(recommendation_action(rec.action_type)))
            text.append(" · ")
            text.append_text(plain(rec.source_page_label or "", "italic"))
            if rec.engagement_reason:
                text.append("\n    ")
                text.append_text(plain(rec.engagement_reason, "dim"))
        self._section("detail-recs", text)

    def _show_notes(self, detail: LeadDetail) -> None:
        notes = detail.notes
        text = Text().append(f"Notes ({len(notes)})", style="bold")
        text.append_text(self._kept_hint("note", "detail.add_note"))
        if not notes:
            unloaded = detail.detail_fetched_at is None
            text.append(f"\n  {'not loaded yet' if unloaded else 'none yet'}; {self.key('detail.add_note')} adds one",
                        style="dim")
        now, zone = self.cockpit.clock(), self.cockpit.zone
        for note in notes:
            # When the rep wrote it; the service's time beside it when it arrived late.
            text.append(f"\n  {relative(note.logged_at or note.created_at, now, zone)}", style="dim")
            late = logged_delivered(note.logged_at, note.created_at, zone)
            if late:
                text.append(f" · {late}", style="dim")
            text.append_text(op_marker(note.op_state, note.pending))
            text.append("\n  ")
            text.append_text(plain(note.content, multiline=True))
        self._section("detail-notes", text)

    def _show_activity(self, detail: LeadDetail) -> None:
        heading = Text("Recent activity", style="bold")
        heading.append_text(self._kept_hint("activity", "detail.log_activity"))
        self.query_one("#heading-activity", Static).update(heading)
        touchpoints = detail.touchpoints
        # Before the detail is fetched, the only touchpoints cached are the rep's queued ones,
        # and the list's count includes them.
        unloaded = 0
        if detail.detail_fetched_at is None:
            unloaded = max(0, (detail.lead.activity_count or 0) - len(touchpoints))
        if not touchpoints and not unloaded:
            self._section("detail-activity", Text(f"No activity logged yet; {self.key('detail.log_activity')} logs one.",
                                                  style="dim"))
            return
        now, zone = self.cockpit.clock(), self.cockpit.zone
        rows: list[tuple[str, Text]] = []
        for touchpoint in touchpoints[:20]:
            when = touchpoint.logged_at or touchpoint.created_at  # when the rep did it
            body = Text()
            body.append(activity_name(touchpoint.detected_type), style="bold")
            if touchpoint.bonus_points:
                body.append(f" +{touchpoint.bonus_points}", style="green")
            if touchpoint.bonus_reason:
                body.append(" (")
                body.append_text(plain(touchpoint.bonus_reason, "dim"))
                body.append(")")
            body.append_text(op_marker(touchpoint.op_state, touchpoint.pending))
            body.append(" ")
            body.append_text(plain(touchpoint.description))
            late = logged_delivered(touchpoint.logged_at, touchpoint.created_at, zone)
            if late:
                body.append(f" · {late}", style="dim")
            rows.append((relative(when, now, zone), body))
        if unloaded:
            rows.append(("", Text(f"{unloaded} more logged on the service, not loaded yet", style="dim")))
        self.query_one("#detail-activity", Static).update(hanging_rows(rows))

    def _kept_hint(self, form: str, binding_id: str) -> Text:
        """Said beside a section when its form holds text the rep left unsent (escape, a
        quit: `warmline.tui.drafts`), so that it is not forgotten there."""
        if not self.cockpit.drafts.text((form, self.lead_id)):
            return Text()
        return Text(f"  unsent text kept: {self.key(binding_id)} opens it", style="yellow")

    def _heading(self, widget_id: str, title: str, count: int, keys: str, empty: str) -> None:
        section = widget_id.removeprefix("heading-")
        heading = Text(f"[{self.key(f'detail.go_{section}')}] ", style="dim") if section in SECTION_KEYS else Text()
        heading.append(f"{title} ({count})" if count else title, style="bold")
        heading.append(f"  {keys if count else empty}", style="dim")
        self.query_one(f"#{widget_id}", TextLine).show(heading)

    def _show_follow_ups(self) -> None:
        """The lead's open follow-ups; the section shows only when there is one (or the file
        cannot be read), so a lead without any keeps its page as it was."""
        today = rep_now(self.cockpit).date()
        problem = None
        self.follow_ups = []
        if self.cockpit.followups is not None:
            try:
                self.follow_ups = self.cockpit.followups.list("open", self.lead_id, today=today)
            except (CacheUnusable, sqlite3.Error) as exc:
                problem = str(exc)
        self.refresh_bindings()
        count = len(self.follow_ups)
        self.query_one("#heading-follow-ups").display = bool(count) or problem is not None
        self.query_one("#detail-follow-ups").display = bool(count)
        self.query_one("#detail-follow-ups-note").display = bool(count)
        heading = Text(f"[{self.key('detail.go_follow-ups')}] ", style="dim")
        heading.append(f"Follow-ups (local, {count})" if count else "Follow-ups (local)", style="bold")
        done, day, snooze, add = (self.key(f"followups.{name}") for name in ("done", "snooze_day", "snooze", "add"))
        heading.append(f"  cannot be read: {problem}" if problem else f"  {done} done · {day}/{snooze} snooze · {add} add",
                       style="dim")
        self.query_one("#heading-follow-ups", TextLine).show(heading)
        self.query_one(FollowUpsTable).fill([
            (str(follow_up.id), [due_cell(follow_up, today), plain(follow_up.text)]) for follow_up in self.follow_ups
        ])

    def _fill_tables(self, detail: LeadDetail) -> None:
        unloaded = "not loaded yet" if detail.detail_fetched_at is None else None
        key = self.key
        add, scan, pin = key("detail.add_competitor"), key("detail.scan_competitor"), \
            key("detail.pin_competitor", self.query_one(CompetitorsTable))
        self._heading("heading-sources", "Monitoring sources", len(detail.monitoring_pages),
                      f"{key('detail.toggle_source')}: on/off",
                      unloaded or f"none yet: {key('detail.signal_scan')} runs a signal scan")
        self._heading("heading-contacts", "Key contacts", len(detail.contacts), f"{key('detail.pin_contact')}: pin/unpin",
                      unloaded or "none known yet")
        self._heading("heading-competitors", "Competitors", len(detail.competitors),
                      f"{add} add · {scan} scan · {pin} pin", unloaded or f"none tracked: {add} adds one")
        self.query_one(SourcesTable).fill([
            (
                str(page.id),
                [
                    Text("on" if page.is_selected else "off", style="green" if page.is_selected else "dim"),
                    Text(f"{page.score}/10" if page.score is not None else "-"),
                    plain(page.label or page.url or "") + op_marker(None, page.pending),
                    plain(source_name(page.page_type)),
                ],
            )
            for page in detail.monitoring_pages
        ])
        self.query_one(ContactsTable).fill([
            (
                str(contact.contact_id),
                [
                    Text("★" if contact.is_selected else " ", style="bold yellow"),
                    plain(contact.name) + op_marker(None, contact.pending),
                    plain(contact.title or ""),
                    plain(contact.role or ""),
                ],
            )
            for contact in detail.contacts
        ])
        now, zone = self.cockpit.clock(), self.cockpit.zone
        self.query_one(CompetitorsTable).fill([
            (
                str(competitor.local_id),
                [
                    Text("★" if competitor.is_pinned else " ", style="bold yellow"),
                    plain(competitor.name) + op_marker(competitor.op_state, False),
                    plain(competitor.domain or ""),
                    Text("scan queued" if competitor.scan_queued else relative(competitor.last_scanned_at, now, zone)),
                ],
            )
            for competitor in detail.competitors
        ])

    # -- acting ---------------------------------------------------------------------------

    def _lead_name(self) -> str:
        return safe_text(self.detail.lead.company_name) if self.detail else f"lead {self.lead_id}"

    def _perform(
        self, action: Callable[Concatenate[Store, P], object], *args: P.args, **kwargs: P.kwargs
    ) -> str | None:
        """Run an action on this lead; the refusal message, or None once it is queued."""
        try:
            self.cockpit.perform(action, *args, **kwargs)
        except ActionRefused as refused:
            return str(refused)
        self.reload()
        return None

    def _act(self, action: Callable[Concatenate[Store, P], object], *args: P.args, **kwargs: P.kwargs) -> None:
        """A one-key action: errors become a notification instead of a form message."""
        error = self._perform(action, *args, **kwargs)
        if error:
            self.cockpit.notify_plain(error, severity="warning")

    def _decide(self, label: str, action: Decision[*Ts], *args: *Ts) -> None:
        """A one-key decision: held for the undo window (`u` takes it back)."""
        try:
            self.cockpit.decide(label, action, *args)
        except ActionRefused as refused:
            self.cockpit.notify_plain(str(refused), severity="warning")
            return
        self.reload()

    def action_log_activity(self) -> None:
        guess = actions.guess_activity_type

        def describe(text: str) -> Text:
            line = Text().append(f"{len(text)}/5000 · ", style="dim")
            line.append("looks like: ")
            line.append(activity_name(guess(text)) if text.strip() else "-", style="bold")
            line.append(" (the service decides the type and the points)", style="dim")
            return line

        def submit(values: ActivityValues) -> str | None:
            return self._queue_with_follow_up(
                "activity", values.text, values.follow_up,
                lambda: self.cockpit.perform(actions.log_activity, self.lead_id, values.text, values.contact_id),
            )

        contacts = [(contact_label(c), c.contact_id) for c in self.detail.contacts] if self.detail else []
        self.app.push_screen(ActivityDialog(
            Text("Log activity on ") + plain(self._lead_name()), submit, contacts, describe=describe,
            follow_up_now=lambda: rep_now(self.cockpit), draft=self.cockpit.drafts.slot("activity", self.lead_id),
        ))

    def _queue_with_follow_up(
        self, source: Source, text: str, follow_up: FollowUpChoice | None, queue: Callable[[], str]
    ) -> str | None:
        """Queue the activity or note (`queue` returns its op id), then keep the follow-up the
        rep kept in the form, linked to that op; the refusal message, or None when queued."""
        try:
            op_id = queue()
        except ActionRefused as refused:
            return str(refused)
        if follow_up is not None:
            keep_follow_up(self.cockpit, self.lead_id, self._lead_name(), text,
                           (follow_up.due, follow_up.at, follow_up.phrase), source, op_id)
        self.reload()
        return None

    def action_add_contact(self) -> None:
        add_key_contact(self.cockpit, self.lead_id, self._lead_name(), self)

    def action_add_note(self) -> None:
        def submit(values: TextValues) -> str | None:
            return self._queue_with_follow_up(
                "note", values.text, values.follow_up,
                lambda: self.cockpit.perform(actions.add_note, self.lead_id, values.text),
            )

        self.app.push_screen(TextDialog(
            Text("Note on ") + plain(self._lead_name()),
            submit,
            describe=lambda text: Text(f"{len(text)}/10000", style="dim"),
            follow_up_now=lambda: rep_now(self.cockpit),
            draft=self.cockpit.drafts.slot("note", self.lead_id),
        ))

    def action_set_status(self, status: str) -> None:
        if self.detail and self.detail.lead.lead_status == status:
            self.cockpit.notify_plain(f"Already {status}.")
            return
        self._decide(f"{self._lead_name()} → {status}", actions.change_lead_status, self.lead_id, status)

    def action_set_target(self) -> None:
        current = str(self.detail.lead.target_score or "") if self.detail else ""

        def submit(values: dict[str, str]) -> str | None:
            target = whole_number(values["target"])
            if target is None:
                return "target score must be a whole number between 1 and 100"
            return self._perform(actions.set_target_score, self.lead_id, target)

        self.app.push_screen(LineDialog("Target score (1-100)", submit, [("target", "Target", current)]))

    def action_signal_scan(self) -> None:
        self._start_once("signal_scan", "A signal scan", actions.start_signal_scan)

    def action_generate_recommendations(self) -> None:
        self._start_once("recommendations", "A recommendation generation", actions.generate_recommendations,
                         doubt=self._nothing_to_generate_from())

    def _nothing_to_generate_from(self) -> Text | None:
        """Why a generation now would have no source to read, if the loaded detail shows
        none turned on: the service generates from the lead's enabled monitoring sources
        only, and a generation that finds nothing looked like a broken `R`."""
        detail = self.detail
        if detail is None or detail.detail_fetched_at is None:
            return None  # not loaded: the service may know sources the cache does not
        if any(page.is_selected for page in detail.monitoring_pages):
            return None
        text = plain(self._lead_name(), "bold")
        if "signal_scan" in self._active_jobs():
            text.append(" has no monitoring sources yet (its signal scan is still under way)")
        elif detail.monitoring_pages:
            text.append(f" has no monitoring source turned on ({self.key('detail.toggle_source')} "
                        f"turns one on in [1] Monitoring sources)")
        else:
            text.append(f" has no monitoring sources yet ({self.key('detail.signal_scan')} runs a signal scan)")
        return text.append(", and recommendations are generated from those turned on.\nGenerate anyway?")

    def _start_once(self, job_kind: str, what: str, start: Callable[[Store, int], str],
                    doubt: Text | None = None) -> None:
        """Start a job on the lead, asking first while one of its kind is still under way
        (queued here or running on the service), or when `doubt` says why it may do
        nothing. A second `S` pressed by habit sent a second scan: the spec does not say
        whether the service counts another site signal slot, restarts the scan or
        refuses it."""
        running = self._active_jobs().get(job_kind)
        if running is not None:
            detail = self.detail
            status = None if detail is None else (
                detail.signal_scan_status if job_kind == "signal_scan" else detail.generation_status)
            question = Text(f"{what} of ").append_text(plain(self._lead_name(), "bold"))
            question.append(" is still under way (").append_text(job_state(status or running.status, running))
            question.append(").\nStart another one anyway?")
        elif doubt is not None:
            question = doubt
        else:
            self._act(start, self.lead_id)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._act(start, self.lead_id)

        self.app.push_screen(ConfirmDialog(question), answered)

    def action_edit_deal(self) -> None:
        detail = self.detail
        current = DealValues(
            value="" if detail is None or detail.deal_value is None else amount(detail.deal_value),
            currency=(detail.deal_currency or "") if detail else "",
            won=bool(detail and detail.won_at),
            lost=bool(detail and detail.closed_at),
            reason=(detail.closed_reason or "") if detail else "",
        )
        # a real default, not a grey placeholder that saves nothing: the lead's own, else
        # the rep's last one
        offered = current.currency or self.cockpit.store.last_deal_currency() or ""

        def submit(values: DealValues) -> str | None:
            changes: dict[str, Any] = {}
            if values.value != current.value:
                value = typed_amount(values.value) if values.value.strip() else None
                if values.value.strip() and value is None:
                    return f"deal value must be an amount such as {AMOUNT_EXAMPLES}"
                changes["deal_value"] = value
            # the offered default goes with a value; alone (won or lost, no value) it is not sent
            if values.currency != current.currency and (values.currency != offered or values.value):
                changes["deal_currency"] = values.currency or None
            if values.won != current.won:
                changes["won"] = values.won
            if values.lost != current.lost or (values.lost and values.reason != current.reason):
                changes["lost"] = values.lost
                if values.lost:
                    changes["closed_reason"] = values.reason
            if not changes:
                return None
            error = self._perform(actions.update_deal, self.lead_id, **changes)
            if error is None:
                queued = self.cockpit.sync_status.state in NOT_SENDING
                self.cockpit.notify_plain(deal_saved(changes, current.currency, queued=queued))
            return error

        shown = replace(current, currency=offered)
        self.app.push_screen(DealDialog(Text("Deal of ") + plain(self._lead_name()), submit, shown))

    def action_add_competitor(self) -> None:
        def submit(values: dict[str, str]) -> str | None:
            return self._perform(actions.add_competitor, self.lead_id, values["name"], values["domain"] or None)

        self.app.push_screen(LineDialog(
            "Add a competitor to monitor", submit, [("name", "Name", ""), ("domain", "Domain (optional)", "")]
        ))

    def action_remove_lead(self) -> None:
        """The lead leaves outreach, so its page closes: back to where the rep came from."""
        confirm_lead_removal(self.cockpit, self.lead_id, self._lead_name(), self.action_back)

    def _selected(
        self, table_type: type[SectionTable], rows_of: Callable[[LeadDetail], Sequence[Row]], key_of: Callable[[Row], object]
    ) -> Row | None:
        """The row of a section of the detail (`rows_of`) under the cursor of its table."""
        if self.detail is None:
            return None
        key = self.query_one(table_type).current_key
        return next((row for row in rows_of(self.detail) if str(key_of(row)) == key), None)

    def action_go(self, section: str) -> None:
        """Focus a table in one key (`2`: the contacts), to move its cursor to the row to act on."""
        self.query_one(f"#detail-{section}", SectionTable).focus()

    def action_toggle_source(self) -> None:
        page = self._selected(SourcesTable, lambda d: d.monitoring_pages, lambda p: p.id)
        if page is not None:
            verb = "source off" if page.is_selected else "source on"
            self._decide(f"{verb}: {safe_text(page.label or page.url or str(page.id))}",
                         actions.toggle_monitoring_page, self.lead_id, page.id, not page.is_selected)

    def action_pin_contact(self) -> None:
        contact = self._selected(ContactsTable, lambda d: d.contacts, lambda c: c.contact_id)
        if contact is not None:
            verb = "unpin" if contact.is_selected else "pin"
            self._decide(f"{verb} {safe_text(contact.name or str(contact.contact_id))}",
                         actions.pin_contact, self.lead_id, contact.contact_id, not contact.is_selected)

    def _known_competitor(self) -> tuple[Competitor, int] | None:
        """The selected competitor and its id, once the service knows it (gave it an id)."""
        competitor = self._selected(CompetitorsTable, lambda d: d.competitors, lambda c: c.local_id)
        if competitor is None:
            return None
        if competitor.id is None:
            self.cockpit.notify_plain("This competitor is still being added; try again once it is synced.")
            return None
        return competitor, competitor.id

    def action_pin_competitor(self) -> None:
        known = self._known_competitor()
        if known is not None:
            competitor, competitor_id = known
            verb = "unpin" if competitor.is_pinned else "pin"
            self._decide(f"{verb} {safe_text(competitor.name)}",
                         actions.pin_competitor, self.lead_id, competitor_id, not competitor.is_pinned)

    def action_scan_competitor(self) -> None:
        known = self._known_competitor()
        if known is not None:
            self._act(actions.scan_competitor, self.lead_id, known[1])

    # -- follow-ups (kept on this computer: `warmline.store.followups`) ---------------------

    def _follow_up(self) -> FollowUp | None:
        """The follow-up under the cursor of the follow-ups table."""
        key = self.query_one(FollowUpsTable).current_key
        return next((follow_up for follow_up in self.follow_ups if str(follow_up.id) == key), None)

    def _follow_up_lead(self) -> tuple[int, str] | None:
        return self.lead_id, self._lead_name()
