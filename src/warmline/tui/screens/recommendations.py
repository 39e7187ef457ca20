"""Recommendation triage: one card at a time, highest priority first, single keys.

The queue never waits on the network: completing or dismissing paints the next card
first, then queues the action (a local write). Skipped cards go to the back of the line.
A decision is held for the undo window (`Cockpit.decide`), so `u` takes it back.
The card on screen never changes without a key press: a refresh that finds it handled
elsewhere marks it so and leaves it there until the rep moves on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import ProgressBar, Static

from warmline import actions
from warmline.named_tuple import NamedTuple
from warmline.tui.bindings import class_key
from warmline.tui.charts import score_bar
from warmline.tui.clipboard import OSC52_NOTE, web_link
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.vocabulary import recommendation_action

if TYPE_CHECKING:
    from warmline.store.rows import Recommendation
    from warmline.tui.context import Decision

PRIORITY_STYLES = {"high": "bold red", "medium": "yellow", "low": "dim"}
ALREADY_HANDLED = "This card was handled elsewhere meanwhile (the service no longer lists it as active)."


@dataclass(frozen=True)
class Done:
    """A decision taken in this session: its op says how it ended (sent, undone, or
    resolved as already dismissed by the service)."""

    op_id: str
    rec: Recommendation
    verb: str


class SessionCounts(NamedTuple):
    completed: int
    dismissed: int
    already_dismissed: int  # decisions the service had already made (resolved, not failed)


def same_post(one: Recommendation, other: Recommendation) -> bool:
    """Two cards of one lead on the same post: completing one dismisses the other."""
    return bool(one.target_url) and one.lead_id == other.lead_id and one.target_url == other.target_url


def siblings_notice(others: int) -> str:
    """Completing a card dismisses its siblings on the same post (the spec's rule); the rep
    is told, so the counts moving by more than one are no mystery. Said as what the
    completion will do, not as done: it is shown at once, within the undo window and
    offline too, before the service has dismissed anything."""
    if others == 1:
        return "1 other card on the same post goes with it: the service dismisses it with this completion."
    return f"{others} other cards on the same post go with it: the service dismisses them with this completion."


class RecommendationsScreen(CockpitScreen):
    """The morning habit: thirty recommendations in ten minutes."""

    CSS_PATH = STYLES / "recommendations.tcss"  # loaded when the screen is first shown, not at start-up

    SCREEN_TITLE = "Recommendations"

    BINDINGS = [
        Binding("c", "complete", "Complete", id="recommendations.complete"),
        Binding("x", "dismiss_rec", "Dismiss", id="recommendations.dismiss"),
        Binding("o", "open_target", "Open post", id="recommendations.open"),
        Binding("y", "copy_comment", "Copy comment", id="recommendations.copy"),
        Binding("space,n", "skip", "Skip", id="recommendations.skip"),
        Binding("u", "undo", "Undo", id="recommendations.undo"),
        Binding("enter", "open_lead", "Open lead", id="recommendations.lead"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._queue: list[Recommendation] = []
        self._skipped: list[int] = []
        self._card: Recommendation | None = None  # the card on screen: kept in front by every reload
        self._card_gone: Recommendation | None = None  # the card on screen, handled elsewhere since it was shown
        self._done: list[Done] = []
        self._taking: set[int] = set()  # decided on screen, not yet written (one frame)

    def compose_body(self) -> ComposeResult:
        yield Static(id="recs-progress-text")
        yield ProgressBar(total=1, show_eta=False, show_percentage=True, id="recs-progress")
        with VerticalScroll(id="recs-card"):
            yield Static(id="recs-body")

    def on_mount(self) -> None:
        self.reload()

    @property
    def current(self) -> Recommendation | None:
        if self._card_gone is not None:
            return self._card_gone
        return self._queue[0] if self._queue else None

    # -- reading --------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read the active queue; skipped cards stay at the back. The card on screen
        stays in front: if it was handled elsewhere meanwhile, it stays, marked so."""
        active = [rec for rec in self.cockpit.store.active_recommendations() if rec.id not in self._taking]
        by_id = {rec.id: rec for rec in active}
        self._skipped = [rec_id for rec_id in self._skipped if rec_id in by_id]
        skipped = set(self._skipped)
        queue = [rec for rec in active if rec.id not in skipped] + [by_id[i] for i in self._skipped]
        shown = self._card
        self._card_gone = None
        if shown is not None and shown.id in by_id:
            queue.remove(by_id[shown.id])
            queue.insert(0, by_id[shown.id])
        elif shown is not None and shown.id not in self._taking:
            self._card_gone = shown
        self._queue = queue
        self._paint()

    def _paint(self) -> None:
        self._paint_progress()
        self._paint_card()

    def session_counts(self) -> SessionCounts:
        """This session's decisions as they ended: an undone one does not count, and one
        the service had already dismissed counts as that, not as the rep's."""
        completed = dismissed = already = 0
        kept = []
        for done in self._done:
            op = self.cockpit.store.get_op(done.op_id)
            if op is None:  # undone (or purged long after delivery: it counted then)
                continue
            kept.append(done)
            if (op.result or {}).get("resolved"):
                already += 1
            elif done.verb == "complete":
                completed += 1
            else:
                dismissed += 1
        self._done = kept
        return SessionCounts(completed, dismissed, already)

    def _paint_progress(self) -> None:
        progress = self.cockpit.store.recommendation_progress()
        handled = progress.completed + progress.dismissed
        line = Text()
        line.append(f"{len(self._queue)} to go", style="bold")
        session = self.session_counts()
        line.append(f" · session {session.completed} done, {session.dismissed} dismissed")
        if session.already_dismissed:
            line.append(f", {session.already_dismissed} already dismissed by the service")
        all_time = f"all time {progress.completed} done, {progress.dismissed} dismissed of {progress.total}"
        width = (self.size.width or self.app.size.width) - 2  # the line's padding
        # Too narrow for one line (80 columns): the all-time figures go whole to a second one.
        line.append(("\n" if len(line) + 3 + len(all_time) > width else " · ") + all_time, style="dim")
        self.query_one("#recs-progress-text", Static).update(line)
        self.query_one(ProgressBar).update(total=max(1, progress.total), progress=handled)

    def _paint_card(self) -> None:
        rec = self.current
        self._card = rec
        body = self.query_one("#recs-body", Static)
        self.set_title_text(Text("Recommendations", style="bold"))
        if rec is None:
            generate = class_key(self.app, LeadDetailScreen, "detail.generate")
            body.update(Text(
                "Nothing to triage: every active recommendation is handled.\n"
                f"Generate new ones on a lead ({generate} on its page), or press {self.key('screen.back')} to go back.",
                style="italic",
            ))
            return
        card = Text()
        if self._card_gone is not None:
            moves_on = (self.key(f"recommendations.{name}") for name in ("complete", "dismiss", "skip"))
            card.append(ALREADY_HANDLED + " {}, {} or {} moves on.\n\n".format(*moves_on), style="bold yellow")
        card.append_text(plain(rec.company_name or f"lead {rec.lead_id}", "bold"))
        lead = self.cockpit.store.get_lead(rec.lead_id)
        if lead is not None:
            card.append("   ")
            card.append_text(score_bar(lead.warming_score, lead.target_score, 12))
        card.append("\n\n")
        card.append_text(plain((rec.priority or "-").upper(), PRIORITY_STYLES.get(rec.priority or "", "")))
        card.append("  ")
        card.append_text(plain(recommendation_action(rec.action_type), "bold"))
        card.append("  on  ")
        card.append_text(plain(rec.source_page_label or "a monitored source", "italic"))
        card.append("\n\nWhy now: ", style="bold")
        card.append_text(plain(rec.engagement_reason or "-", multiline=True))
        if rec.suggested_comment and rec.suggested_comment.strip():  # a follow or a like has none to make
            card.append("\n\nSuggested comment:\n", style="bold")
            card.append_text(plain(rec.suggested_comment, multiline=True))
        card.append("\n\n")
        card.append_text(plain(rec.target_url or "(no link)", "underline" if web_link(rec.target_url) else "dim"))
        key = self.key
        copy = f" · {key('recommendations.copy')} copy" if rec.suggested_comment and rec.suggested_comment.strip() else ""
        card.append(f"\n\n{key('recommendations.complete')} complete · {key('recommendations.dismiss')} dismiss"
                    f" · {key('recommendations.open')} open{copy} · {key('recommendations.skip')} skip"
                    f" · {key('recommendations.undo')} undo", style="dim")
        body.update(card)

    # -- triage ---------------------------------------------------------------------------

    def _take(self, verb: str, action: Decision[int]) -> None:
        rec = self.current
        if rec is None:
            return
        if self._card_gone is not None:
            self._move_on()
            self.cockpit.notify_plain(f"Nothing to {verb}: {ALREADY_HANDLED[0].lower()}{ALREADY_HANDLED[1:]}")
            return
        taken = {rec.id}
        if verb == "complete":  # its siblings on the same post go with it (the spec's rule)
            taken |= {other.id for other in self._queue if same_post(other, rec)}
        self._queue = [other for other in self._queue if other.id not in taken]
        self._taking |= taken
        self._skipped = [i for i in self._skipped if i not in taken]
        self._paint_card()
        self.call_after_refresh(self._commit, rec, verb, action, taken)

    def _move_on(self) -> None:
        """Leave the card that was handled elsewhere; the next one shows."""
        self._card_gone = None
        self._paint_card()

    def _commit(self, rec: Recommendation, verb: str, action: Decision[int], taken: set[int]) -> None:
        label = f"{verb} of {safe_text(rec.company_name or f'lead {rec.lead_id}')}"
        try:
            (op_id,) = self.cockpit.decide(label, action, rec.id)
        except ActionRefused as refused:
            self._taking -= taken
            self.cockpit.notify_plain(f"Could not {verb}: {refused}", severity="warning")
            self.reload()
            return
        self._taking -= taken
        self._done.append(Done(op_id, rec, verb))
        self.reload()  # a completed card takes its siblings on the same post with it
        if len(taken) > 1:  # the counts changed by more than one: say why
            self.cockpit.notify_plain(siblings_notice(len(taken) - 1))

    def action_complete(self) -> None:
        self._take("complete", actions.complete_recommendation)

    def action_dismiss_rec(self) -> None:
        self._take("dismiss", actions.dismiss_recommendation)

    def action_skip(self) -> None:
        if self._card_gone is not None:
            self._move_on()
            return
        rec = self.current
        if rec is None or len(self._queue) < 2:
            return
        self._queue.append(self._queue.pop(0))
        self._skipped = [i for i in self._skipped if i != rec.id] + [rec.id]
        self._paint_card()

    def action_undo(self) -> None:
        """`u`: the app takes back its newest decision; if it was one of this queue's, its
        card comes back in front."""
        newest = self.cockpit.last_decision()
        taken = next((done for done in self._done if newest and done.op_id in newest.op_ids), None)
        if self.cockpit.undo_last() is None:
            return
        if taken is not None:
            self._card_gone = None
            self._card = taken.rec
        self.reload()

    def action_open_target(self) -> None:
        rec = self.current
        if rec is None:
            return
        url = web_link(rec.target_url)
        if url is None:
            self.cockpit.notify_plain("This recommendation has no web link to open.", severity="warning")
            return
        self.cockpit.open_url(url)

    def action_copy_comment(self) -> None:
        rec = self.current
        if rec is None or not rec.suggested_comment:
            return
        self.cockpit.copy_text(
            rec.suggested_comment,
            copied="Suggested comment copied (system clipboard).",
            sent=f"Suggested comment {OSC52_NOTE}.",
            browser_copied="Suggested comment copied.",
            multiline=True,
        )

    def action_open_lead(self) -> None:
        if self.current is not None:
            self.cockpit.open_lead(self.current.lead_id)
