"""Recommendation triage: one card at a time, highest priority first, single keys.

The queue never waits on the network: completing or dismissing paints the next card
first, then queues the action (a local write). Skipped cards go to the back of the line.
The last actions can be undone while their ops are still queued, not yet sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import ProgressBar, Static

from warmline.tui.charts import score_bar
from warmline.tui.refusals import ActionRefused
from warmline.tui.safe import plain, safe_text
from warmline.tui.screens.base import STYLES, CockpitScreen

PRIORITY_STYLES = {"high": "bold red", "medium": "yellow", "low": "dim"}
UNDO_WINDOW = 5.0
"""Seconds a triage decision waits before it is sent, so that `u` can still take it back."""


@dataclass(frozen=True)
class Done:
    """An action taken in this session, kept so `u` can undo it."""

    op_id: str
    rec: Any
    verb: str


def is_web_link(url: str | None) -> bool:
    """Only http(s) targets are opened: a `file:` or `javascript:` URL from the service is not."""
    if not url:
        return False
    parsed = urlparse(url.strip())
    return parsed.scheme in ("http", "https") and bool(parsed.netloc)


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
        self._queue: list[Any] = []
        self._skipped: list[int] = []
        self._front: int | None = None
        self._done: list[Done] = []
        self._taking: set[int] = set()  # decided on screen, not yet written (one frame)
        self._session = {"completed": 0, "dismissed": 0}

    def compose_body(self) -> ComposeResult:
        yield Static(id="recs-progress-text")
        yield ProgressBar(total=1, show_eta=False, show_percentage=True, id="recs-progress")
        with VerticalScroll(id="recs-card"):
            yield Static(id="recs-body")

    def on_mount(self) -> None:
        self.reload()

    @property
    def current(self) -> Any:
        return self._queue[0] if self._queue else None

    # -- reading --------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read the active queue; skipped cards stay at the back, an undone one in front."""
        active = [rec for rec in self.cockpit.store.active_recommendations() if rec.id not in self._taking]
        by_id = {rec.id: rec for rec in active}
        self._skipped = [rec_id for rec_id in self._skipped if rec_id in by_id]
        skipped = set(self._skipped)
        queue = [rec for rec in active if rec.id not in skipped] + [by_id[i] for i in self._skipped]
        if self._front is not None and self._front in by_id:
            queue.remove(by_id[self._front])
            queue.insert(0, by_id[self._front])
        self._queue = queue
        self._paint()

    def _paint(self) -> None:
        self._paint_progress()
        self._paint_card()

    def _paint_progress(self) -> None:
        progress = self.cockpit.store.recommendation_progress()
        handled = progress.completed + progress.dismissed
        line = Text(no_wrap=True)
        line.append(f"{len(self._queue)} to go", style="bold")
        line.append(f" · completed {progress.completed} · dismissed {progress.dismissed} · total {progress.total}")
        if self._done:
            line.append(f" · this session: {self._session['completed']} done, {self._session['dismissed']} dismissed", style="dim")
        self.query_one("#recs-progress-text", Static).update(line)
        self.query_one(ProgressBar).update(total=max(1, progress.total), progress=handled)

    def _paint_card(self) -> None:
        rec = self.current
        body = self.query_one("#recs-body", Static)
        self.set_title_text(Text("Recommendations", style="bold"))
        if rec is None:
            body.update(Text(
                "Nothing to triage: every active recommendation is handled.\n"
                "Generate new ones on a lead (R on its page), or press escape to go back.",
                style="italic",
            ))
            return
        card = Text()
        card.append_text(plain(rec.company_name or f"lead {rec.lead_id}", "bold"))
        lead = self.cockpit.store.get_lead(rec.lead_id)
        if lead is not None:
            card.append("   ")
            card.append_text(score_bar(lead.warming_score, lead.target_score, 12))
        card.append("\n\n")
        card.append_text(plain((rec.priority or "-").upper(), PRIORITY_STYLES.get(rec.priority or "", "")))
        card.append("  ")
        card.append_text(plain((rec.action_type or "").replace("_", " "), "bold"))
        card.append("  on  ")
        card.append_text(plain(rec.source_page_label or "a monitored source", "italic"))
        card.append("\n\nWhy now: ", style="bold")
        card.append_text(plain(rec.engagement_reason or "-", multiline=True))
        card.append("\n\nSuggested comment:\n", style="bold")
        card.append_text(plain(rec.suggested_comment or "(none)", multiline=True))
        card.append("\n\n")
        card.append_text(plain(rec.target_url or "(no link)", "underline" if is_web_link(rec.target_url) else "dim"))
        card.append("\n\nc complete · x dismiss · o open · y copy · space skip · u undo", style="dim")
        body.update(card)

    # -- triage ---------------------------------------------------------------------------

    def _take(self, verb: str, action: str) -> None:
        rec = self.current
        if rec is None:
            return
        self._queue.pop(0)
        self._taking.add(rec.id)
        self._front = None
        self._skipped = [i for i in self._skipped if i != rec.id]
        self._paint_card()
        self.call_after_refresh(self._commit, rec, verb, action)

    def _commit(self, rec: Any, verb: str, action: str) -> None:
        try:
            op_id = self.cockpit.perform(action, rec.id, undo_window=UNDO_WINDOW)
        except ActionRefused as refused:
            self._taking.discard(rec.id)
            self.cockpit.notify_plain(f"Could not {verb}: {refused}", severity="warning")
            self.reload()
            return
        self._taking.discard(rec.id)
        self._done.append(Done(op_id, rec, verb))
        self._session["completed" if verb == "complete" else "dismissed"] += 1
        self._paint_progress()

    def action_complete(self) -> None:
        self._take("complete", "complete_recommendation")

    def action_dismiss_rec(self) -> None:
        self._take("dismiss", "dismiss_recommendation")

    def action_skip(self) -> None:
        rec = self.current
        if rec is None or len(self._queue) < 2:
            return
        self._queue.append(self._queue.pop(0))
        self._skipped = [i for i in self._skipped if i != rec.id] + [rec.id]
        self._front = None
        self._paint_card()

    def action_undo(self) -> None:
        if not self._done:
            self.cockpit.notify_plain("Nothing to undo.")
            return
        last = self._done[-1]
        try:
            undone = self.cockpit.perform("undo", last.op_id)
        except ActionRefused as refused:
            undone, reason = False, str(refused)
        else:
            reason = "it was already sent to the service"
        if not undone:
            self.cockpit.notify_plain(f"Cannot undo the last {last.verb}: {reason}.", severity="warning")
            return
        self._done.pop()
        self._session["completed" if last.verb == "complete" else "dismissed"] -= 1
        self._front = last.rec.id
        self.reload()
        self.cockpit.notify_plain(f"Undid {last.verb} of “{safe_text(last.rec.company_name)}”.")

    def action_open_target(self) -> None:
        rec = self.current
        if rec is None:
            return
        if not is_web_link(rec.target_url):
            self.cockpit.notify_plain("This recommendation has no web link to open.", severity="warning")
            return
        self.cockpit.open_url(rec.target_url.strip())

    def action_copy_comment(self) -> None:
        rec = self.current
        if rec is None or not rec.suggested_comment:
            return
        self.app.copy_to_clipboard(safe_text(rec.suggested_comment, multiline=True))
        self.cockpit.notify_plain("Suggested comment copied.")

    def action_open_lead(self) -> None:
        if self.current is not None:
            self.cockpit.open_lead(self.current.lead_id)
