"""Follow-ups in the cockpit: the one set of keys, and the calls behind them.

Shared by every screen that lists follow-ups (the lead page, Today), so done, snooze and
add by hand are the same keys and the same words wherever the rep meets a follow-up:
`FOLLOW_UP_BINDINGS` (x done, z snooze a day, Z snooze: a day, a week or a day picked,
f add by hand). A screen spreads them into its `BINDINGS` (with `dataclasses.replace` to
hide them from its key bar if it likes: the ids stay, so a remap in the config's [keys]
moves the key on every screen) and implements the actions named there.

Follow-ups are kept on this computer only (`warmline.store.followups`): nothing is
queued for the service, so these calls change the follow-ups file at once and say so.

Light at import: Today is the first screen, so the actions (which load the HTTP stack
through `warmline.actions`) load inside the functions that change a follow-up, and the
dialogs (`warmline.tui.screens.follow_up_dialogs`) when one opens.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date, datetime, time
from typing import TYPE_CHECKING

from textual.binding import Binding

from warmline.store.database import CacheUnusable
from warmline.tui.screens.follow_up_words import LOCAL_ONLY, SNOOZE_DAY, day_text, one_line
from warmline.work_days import snoozed_to

if TYPE_CHECKING:
    from warmline.store.followups import FollowUp, FollowUps, Source
    from warmline.tui.context import Cockpit

FOLLOW_UP_BINDINGS: list[Binding] = [
    Binding("x", "follow_up_done", "Follow-up done", id="followups.done"),
    Binding(
        "z", f"follow_up_snooze({SNOOZE_DAY})", "Snooze follow-up a day", id="followups.snooze_day"
    ),
    Binding(
        "Z",
        "follow_up_snooze_menu",
        "Snooze follow-up (a day, a week, a date)",
        id="followups.snooze",
    ),
    Binding("f", "add_follow_up", "Add a follow-up", id="followups.add"),
]
"""The follow-up keys of every screen that lists follow-ups. A screen implements
`action_follow_up_done`, `action_follow_up_snooze(days)`, `action_follow_up_snooze_menu`
and `action_add_follow_up` (usually with `mark_done`, `snooze`, `ask_snooze` and
`ask_new_follow_up` below)."""

def rep_now(cockpit: Cockpit) -> datetime:
    """Now in the rep's zone, from the cockpit's clock (fixed in tests): what "tomorrow" is
    read against and what "today" is."""
    return cockpit.clock().astimezone(cockpit.zone)


def _follow_ups(cockpit: Cockpit) -> FollowUps:
    if cockpit.followups is None:
        raise ValueError("follow-ups need a cache file on disk; this cockpit has none")
    return cockpit.followups


def _change(cockpit: Cockpit, change: Callable[[FollowUps], FollowUp]) -> FollowUp | None:
    """Run one change of the follow-ups file; a refusal or an unusable file is a warning."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import FollowUpNotFound
    from warmline.api.errors import InputError  # deferred: first frame

    try:
        return change(_follow_ups(cockpit))
    except (InputError, FollowUpNotFound, CacheUnusable, sqlite3.Error, ValueError) as problem:
        cockpit.notify_plain(f"Follow-up not changed: {problem}", severity="warning")
        return None


def mark_done(cockpit: Cockpit, follow_up: FollowUp) -> bool:
    """Mark `follow_up` done and say so; False when it could not be."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import done_follow_up

    changed = _change(cockpit, lambda followups: done_follow_up(followups, follow_up.id))
    if changed is not None:
        cockpit.notify_plain(f"Follow-up done: {one_line(follow_up.text)}")
    return changed is not None


def snooze(cockpit: Cockpit, follow_up: FollowUp, until: date, at: time | None = None) -> bool:
    """Make `follow_up` due on `until` (at `at`, when the rep typed a time; else at the time
    it had) and say so; False when it could not be."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import snooze_follow_up

    today = rep_now(cockpit).date()
    changed = _change(
        cockpit,
        lambda followups: snooze_follow_up(
            followups, follow_up.id, until=until, at=at, today=today
        ),
    )
    if changed is not None:
        cockpit.notify_plain(
            f"Follow-up snoozed to {day_text(until, changed.at, today)}: {one_line(follow_up.text)}"
        )
    return changed is not None


def snooze_days(cockpit: Cockpit, follow_up: FollowUp, days: int) -> bool:
    """Snooze `follow_up` by `days` (the `z` key: a day, which is the next of the rep's
    `[ui] work_days`: on a Friday, Monday), from its day when that is still ahead."""
    today = rep_now(cockpit).date()
    return snooze(cockpit, follow_up, snoozed_to(follow_up.due_on, today, days, cockpit.config.work_days))


def ask_snooze(cockpit: Cockpit, follow_up: FollowUp, snoozed: Callable[[], None]) -> None:
    """The snooze dialog (a day, a week, a day picked); `snoozed` runs once it is moved."""

    def picked(until: tuple[date, time | None] | None) -> None:
        if until is not None and snooze(cockpit, follow_up, *until):
            snoozed()

    # deferred: first frame (the dialogs open on a key)
    from warmline.tui.screens.follow_up_dialogs import SnoozeDialog

    dialog = SnoozeDialog(follow_up.text, rep_now(cockpit), cockpit.config.work_days, due=follow_up.due_on)
    cockpit.push_screen(dialog, picked)


class FollowUpActions:
    """The actions behind `FOLLOW_UP_BINDINGS`, for a screen that lists follow-ups (the lead
    page, Today). The screen says which follow-up is under the cursor and which lead `f`
    adds one to; done and snooze change the follow-ups file at once (nothing is queued)
    and the screen reads its page again, as the cache's version it watches does not move."""

    if TYPE_CHECKING:

        @property
        def cockpit(self) -> Cockpit: ...

        def reload(self) -> None: ...

    def _follow_up(self) -> FollowUp | None:
        """The follow-up under the cursor, if any."""
        raise NotImplementedError

    def _follow_up_lead(self) -> tuple[int, str] | None:
        """The lead (id, company name) a follow-up added by hand is for, if any."""
        raise NotImplementedError

    def _follow_up_to_act_on(self, binding_id: str, does: str) -> FollowUp | None:
        """The follow-up a key acts on: the one under the cursor. A screen may instead
        move the cursor to one and say so (`does`: what the key does, "marks it done"),
        acting on nothing, so that no key changes a row the rep did not see highlighted."""
        return self._follow_up()

    def action_follow_up_done(self) -> None:
        follow_up = self._follow_up_to_act_on("followups.done", "marks it done")
        if follow_up is not None and mark_done(self.cockpit, follow_up):
            self.reload()

    def action_follow_up_snooze(self, days: int) -> None:
        follow_up = self._follow_up_to_act_on("followups.snooze_day", "snoozes it a day")
        if follow_up is not None and snooze_days(self.cockpit, follow_up, days):
            self.reload()

    def action_follow_up_snooze_menu(self) -> None:
        follow_up = self._follow_up_to_act_on("followups.snooze", "snoozes it")
        if follow_up is not None:
            ask_snooze(self.cockpit, follow_up, self.reload)

    def action_add_follow_up(self) -> None:
        lead = self._follow_up_lead()
        if lead is not None:
            ask_new_follow_up(self.cockpit, lead[0], lead[1], self.reload)


def ask_new_follow_up(
    cockpit: Cockpit, lead_id: int, company: str, added: Callable[[], None]
) -> None:
    """The dialog that adds a follow-up by hand on a lead; `added` runs once it is kept."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import add_follow_up

    def submit(due: date, at: time | None, text: str) -> str | None:
        today = rep_now(cockpit).date()
        try:
            kept = add_follow_up(
                _follow_ups(cockpit), lead_id, company, text, due, at, source="manual", today=today
            )
        except (CacheUnusable, sqlite3.Error) as problem:
            return f"not kept: {problem}"
        except ValueError as refused:  # InputError is a ValueError
            return str(refused)
        cockpit.notify_plain(
            f"Follow-up added for {day_text(kept.due, kept.at, today)} ({LOCAL_ONLY})."
        )
        added()
        return None

    # deferred: first frame (the dialogs open on a key)
    from warmline.tui.screens.follow_up_dialogs import AddFollowUpDialog

    cockpit.push_screen(AddFollowUpDialog(company, rep_now(cockpit), submit))


def keep_follow_up(
    cockpit: Cockpit,
    lead_id: int,
    company: str,
    text: str,
    kept: tuple[date, time | None, str | None],
    source: Source,
    op_id: str | None,
) -> FollowUp | None:
    """Store the follow-up a form kept (`kept`: its day, time and the words read) for the
    activity or note just queued as `op_id`, and say so. The activity is queued already:
    a follow-up that cannot be kept is a warning, never a lost activity. A note longer
    than a follow-up's text may be (up to 10,000 characters against 5,000) is kept cut."""
    # deferred: first frame (Today is the first screen; the actions load the HTTP stack)
    from warmline.actions.followups import MAX_TEXT, add_follow_up

    due, at, phrase = kept
    today = rep_now(cockpit).date()
    try:
        made = add_follow_up(
            _follow_ups(cockpit), lead_id, company, text[:MAX_TEXT], due, at,
            source=source, op_id=op_id, phrase=phrase, today=today,
        )  # fmt: skip
    except (CacheUnusable, sqlite3.Error, ValueError) as problem:  # InputError is a ValueError
        cockpit.notify_plain(
            f"Saved, but the follow-up was not kept: {problem}", severity="warning"
        )
        return None
    cockpit.notify_plain(f"Follow-up kept for {day_text(made.due, made.at, today)} ({LOCAL_ONLY}).")
    return made
