"""Follow-ups in the cockpit: the log and note forms show the follow-up their text promises
(live, in the rep's zone) and keep it on send, linked to the queued op; the lead page lists
the lead's open follow-ups with done, snooze and add by hand, from anywhere on the page.

The clock is fixed (support.tui_wire_data.NOW: Sunday 22 Nov 2026, 09:00 UTC), so "by
Friday" is Friday 27 Nov."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from textual.widgets import Input, Static, TextArea

import support.tui_wire_data as W
from support.cockpit import Clipboard, Opened, cockpit, settings, text_of
from support.tui_wire_data import KESTREL
from support.waiting import until
from warmline.store import Store
from warmline.store.followups import FollowUps
from warmline.tui.app import WarmlineApp
from warmline.tui.screens.dialogs import ActivityDialog, TextDialog
from warmline.tui.screens.follow_up_dialogs import AddFollowUpDialog, SnoozeDialog
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.widgets.follow_up_field import FollowUpField

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]
FRIDAY = date(2026, 11, 27)
TODAY = date(2026, 11, 22)


def follow_ups_of(store: Store) -> FollowUps:
    return FollowUps(Path(store.path).parent)


def open_ones(store: Store, lead_id: int = KESTREL) -> list:
    with follow_ups_of(store) as followups:
        return followups.list("open", lead_id, today=TODAY)


def seed_follow_ups(store: Store) -> None:
    """One overdue, one due today, one on Friday, one done (not listed), one of another lead."""
    with follow_ups_of(store) as followups:
        followups.add(
            KESTREL,
            "Kestrel",
            "Send the security questionnaire",
            date(2026, 11, 19),
            source="manual",
        )
        followups.add(
            KESTREL,
            "Kestrel",
            "Call Dana back",
            TODAY,
            time(15, 0),
            source="note",
            phrase="today at 3pm",
        )
        followups.add(
            KESTREL,
            "Kestrel",
            "Spoke with Dana, wants pricing by Friday",
            FRIDAY,
            source="activity",
            source_op_id="op-1",
            phrase="by Friday",
        )
        done = followups.add(KESTREL, "Kestrel", "Already done", TODAY, source="manual")
        followups.done(done.id)
        followups.add(100, "Other", "Not this lead's", TODAY, source="manual")


def table_rows(screen: LeadDetailScreen) -> list[list[str]]:
    table = screen.query_one("#detail-follow-ups")
    return [[cell.plain.strip() for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def open_detail(app, pilot, lead_id: int = KESTREL) -> LeadDetailScreen:
    await pilot.pause()
    app.open_lead(lead_id)
    await until(
        lambda: isinstance(app.screen, LeadDetailScreen) and app.screen.detail is not None,
        pilot=pilot,
    )
    return app.screen


async def type_text(pilot, dialog: TextDialog, text: str) -> None:
    dialog.query_one("#dialog-text", TextArea).text = text
    await until(lambda: dialog.query_one(FollowUpField).read_from == text, pilot=pilot)


# -- the log and note forms -------------------------------------------------------------


async def test_log_form_shows_the_follow_up_as_typed_and_send_keeps_it_linked_to_the_op(
    store: Store,
) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("a")
        await until(lambda: isinstance(app.screen, ActivityDialog), pilot=pilot)
        dialog = app.screen
        assert "No follow-up" in text_of(dialog, "#follow-up-line")
        await pilot.press(*"wants pricing by Friday")
        await until(lambda: "Fri 27 Nov" in text_of(dialog, "#follow-up-line"), pilot=pilot)
        assert "Follow-up: Fri 27 Nov (by Friday) · ctrl+f drops it" in text_of(
            dialog, "#follow-up-line"
        )
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        (op,) = store.outbox_rows()
        assert op.kind == "log_activity"
        (kept,) = open_ones(store)
        assert (kept.due, kept.at, kept.phrase, kept.source) == (
            FRIDAY,
            None,
            "by Friday",
            "activity",
        )
        assert kept.source_op_id == op.op_id
        assert kept.text == "wants pricing by Friday"
        # the lead page lists it at once
        assert "Follow-ups (local, 1)" in text_of(app.screen, "#heading-follow-ups")


async def test_the_follow_up_is_read_in_the_reps_zone(store: Store) -> None:
    """At 09:00 UTC on Sunday it is still Saturday 23:00 in Honolulu: "tomorrow" is Sunday."""
    app = cockpit(store)
    app.zone = ZoneInfo("Pacific/Honolulu")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("n")
        await until(lambda: isinstance(app.screen, TextDialog), pilot=pilot)
        await type_text(pilot, app.screen, "call her tomorrow at 10")
        assert "Follow-up: Sun 22 Nov 10:00 (tomorrow at 10)" in text_of(
            app.screen, "#follow-up-line"
        )


async def test_dropping_it_with_ctrl_f_keeps_the_activity_and_makes_no_follow_up(
    store: Store,
) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("a")
        await until(lambda: isinstance(app.screen, ActivityDialog), pilot=pilot)
        dialog = app.screen
        await type_text(pilot, dialog, "wants pricing by Friday")
        await pilot.press("ctrl+f")
        await until(lambda: "Follow-up off" in text_of(dialog, "#follow-up-line"), pilot=pilot)
        assert "Follow-up off: Fri 27 Nov (by Friday) · ctrl+f keeps it" in text_of(
            dialog, "#follow-up-line"
        )
        assert (
            dialog.query_one("#dialog-text", TextArea).text == "wants pricing by Friday"
        )  # ctrl+f ate no word
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        assert [op.kind for op in store.outbox_rows()] == ["log_activity"]
        assert open_ones(store) == []
        assert not app.screen.query_one("#heading-follow-ups").display


async def test_a_day_typed_in_the_note_form_replaces_the_texts_and_a_bad_one_sends_nothing(
    store: Store,
) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("n")
        await until(lambda: isinstance(app.screen, TextDialog), pilot=pilot)
        dialog = app.screen
        await type_text(pilot, dialog, "Budget approved, send the contract by Friday")
        day = dialog.query_one("#follow-up-day", Input)
        day.value = "someday"
        await until(
            lambda: "cannot read 'someday'" in text_of(dialog, "#follow-up-line"), pilot=pilot
        )
        await pilot.press("ctrl+s")
        await until(lambda: "Cannot read" in text_of(dialog, "#dialog-error"), pilot=pilot)
        assert app.screen is dialog and store.outbox_rows() == []
        day.value = "2026-12-03"
        await until(
            lambda: "Follow-up: Thu 3 Dec" in text_of(dialog, "#follow-up-line"), pilot=pilot
        )
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        (op,) = store.outbox_rows()
        (kept,) = open_ones(store)
        assert (op.kind, kept.source, kept.due, kept.phrase, kept.source_op_id) == (
            "add_note",
            "note",
            date(2026, 12, 3),
            None,
            op.op_id,
        )


async def test_text_without_a_time_offers_no_follow_up_and_makes_none(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("a")
        await until(lambda: isinstance(app.screen, ActivityDialog), pilot=pilot)
        await type_text(pilot, app.screen, "Friday's meeting went well, wants a Q1 start")
        assert "No follow-up" in text_of(app.screen, "#follow-up-line")
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        assert len(store.outbox_rows()) == 1 and open_ones(store) == []


# -- the lead page ----------------------------------------------------------------------


async def test_lead_page_lists_open_follow_ups_overdue_in_the_error_colour(store: Store) -> None:
    seed_follow_ups(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot)
        heading = text_of(screen, "#heading-follow-ups")
        assert "[4] Follow-ups (local, 3)" in heading and "x done · z/Z snooze · f add" in heading
        assert (
            text_of(screen, "#detail-follow-ups-note")
            == "Kept on this computer only (the service has none)."
        )
        assert table_rows(screen) == [
            ["overdue · Thu 19 Nov", "Send the security questionnaire"],
            ["today 15:00", "Call Dana back"],
            ["Fri 27 Nov", "Spoke with Dana, wants pricing …"],  # cut to the column's width
        ]
        overdue = screen.query_one("#detail-follow-ups").get_row_at(0)[0]
        assert "red" in str(overdue.style)


async def test_done_and_snooze_from_anywhere_on_the_lead_page(store: Store) -> None:
    seed_follow_ups(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot)
        await pilot.press("2")  # focus in the contacts table: the follow-up keys still work
        await until(
            lambda: screen.focused is not None and screen.focused.id == "detail-contacts",
            pilot=pilot,
        )
        await pilot.press("x")  # the highlighted follow-up (the first: overdue) is done
        await until(lambda: len(open_ones(store)) == 2, pilot=pilot)
        assert [f.text for f in open_ones(store)] == [
            "Call Dana back",
            "Spoke with Dana, wants pricing by Friday",
        ]
        assert "Follow-ups (local, 2)" in text_of(screen, "#heading-follow-ups")

        await pilot.press("z")  # the cursor is on "Call Dana back" (today) now: a day later
        await until(lambda: open_ones(store)[0].due_on == date(2026, 11, 23), pilot=pilot)
        snoozed = open_ones(store)[0]
        assert (snoozed.text, snoozed.due) == ("Call Dana back", TODAY)
        assert [row[0] for row in table_rows(screen)] == ["Mon 23 Nov 15:00", "Fri 27 Nov"]

        await pilot.press("4", "j")  # into the follow-ups table, down to "... by Friday"
        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot)
        await pilot.press("2")  # a week
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        moved = {f.text: f.due_on for f in open_ones(store)}
        assert moved == {
            "Call Dana back": date(2026, 11, 23),
            "Spoke with Dana, wants pricing by Friday": date(2026, 12, 4),  # a week after its Friday
        }

        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot)
        await pilot.press("3", *"3 Dec", "enter")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        moved = {f.text: f.due_on for f in open_ones(store)}
        assert moved["Spoke with Dana, wants pricing by Friday"] == date(2026, 12, 3)


async def test_add_a_follow_up_by_hand_on_the_lead_page(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot)
        assert not screen.query_one("#heading-follow-ups").display  # none yet: no section
        await pilot.press("f")
        await until(lambda: isinstance(app.screen, AddFollowUpDialog), pilot=pilot)
        dialog = app.screen
        await pilot.press(*"yesterday")
        await pilot.press("enter", *"Send the deck", "enter")
        await until(lambda: text_of(dialog, "#follow-up-error") != "", pilot=pilot)
        assert app.screen is dialog and open_ones(store) == []
        dialog.query_one("#follow-up-due", Input).value = "next Tuesday"
        await until(lambda: "due Tue 24 Nov" in text_of(dialog, "#follow-up-read"), pilot=pilot)
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        (kept,) = open_ones(store)
        assert (kept.due, kept.text, kept.source, kept.source_op_id) == (
            date(2026, 11, 24),
            "Send the deck",
            "manual",
            None,
        )
        assert store.outbox_rows() == []  # local only: nothing queued for the service
        assert screen.query_one("#heading-follow-ups").display
        assert table_rows(screen) == [["Tue 24 Nov", "Send the deck"]]


async def test_follow_up_keys_dim_without_follow_ups_and_help_lists_them(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot)
        assert screen.check_action("follow_up_done", ()) is None
        assert screen.check_action("add_follow_up", ()) is True
        await pilot.press("x")  # nothing to do, nothing breaks
        await pilot.pause()
        assert app.screen is screen


# -- snapshots (the log form with a follow-up: test_tui_snapshots.py, test_log_activity_form_shows_the_guess)


@pytest.mark.parametrize("size", SIZES)
def test_lead_page_follow_ups(snap_compare, store: Store, size) -> None:
    seed_follow_ups(store)
    app = cockpit(store)

    async def run_before(pilot) -> None:
        await open_detail(app, pilot)
        await until(lambda: app.screen.query_one("#detail-follow-ups").row_count == 3, pilot=pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def test_follow_up_text_with_markup_and_escapes_is_shown_literally(store: Store) -> None:
    """A follow-up's text is the rep's (or a pasted email's): never markup, never a
    terminal escape."""
    with follow_ups_of(store) as followups:
        followups.add(KESTREL, "Kestrel", W.HOSTILE_MARKUP, TODAY, source="manual")
        followups.add(KESTREL, "Kestrel", W.HOSTILE_ESCAPE, TODAY, source="manual")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot)
        texts = [row[1] for row in table_rows(screen)]
        assert texts[0] == "[bold red]Markup[/] Industries"
        assert "\x1b" not in texts[1] and "\x07" not in texts[1] and texts[1].startswith("Escape")


async def test_a_note_longer_than_a_follow_ups_text_keeps_its_follow_up_cut(store: Store) -> None:
    note = "Send the contract by Friday. " + "x" * 6000
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("n")
        await until(lambda: isinstance(app.screen, TextDialog), pilot=pilot)
        await type_text(pilot, app.screen, note)
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        (kept,) = open_ones(store)
        assert kept.due == FRIDAY and kept.text == note[:5000]
        assert store.outbox_rows()[0].payload["content"] == note


# -- issue 23: snoozing on a Friday, the snooze dialog's live reading, a time kept

FRIDAY_MORNING = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)


def friday_cockpit(store: Store, **fields: Any) -> WarmlineApp:
    """The cockpit on Friday 27 Nov, with one follow-up due that day (on Kestrel)."""
    with follow_ups_of(store) as followups:
        followups.add(KESTREL, "Kestrel", "Call Dana back", FRIDAY, source="manual")
    return WarmlineApp(
        store, clock=lambda: FRIDAY_MORNING, zone=UTC, config=settings(**fields),
        opener=Opened(), clipboard=Clipboard(),
    )  # fmt: skip


def open_on(store: Store, today: date) -> list:
    with follow_ups_of(store) as followups:
        return followups.list("open", KESTREL, today=today)


@pytest.mark.parametrize(
    ("work_days", "monday"),
    [((0, 1, 2, 3, 4), date(2026, 11, 30)), ((0, 1, 2, 3, 4, 5), date(2026, 11, 28))],
)
async def test_z_on_a_friday_snoozes_to_the_next_working_day(
    store: Store, work_days: tuple[int, ...], monday: date
) -> None:
    app = friday_cockpit(store, work_days=work_days)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("z")
        await until(lambda: open_on(store, FRIDAY)[0].due_on == monday, pilot=pilot)


async def test_the_snooze_dialog_reads_live_and_keeps_the_time(store: Store) -> None:
    app = friday_cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_detail(app, pilot)
        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot)
        dialog = app.screen
        assert "a day (Mon 30 Nov)" in " ".join(  # not Saturday
            str(s.render()) for s in dialog.query(Static)
        )
        assert text_of(dialog, "#snooze-read") == "-"
        await pilot.press("3", *"tomorrow at 1")
        await until(lambda: "due Sat 28 Nov 13:00" in text_of(dialog, "#snooze-read"), pilot=pilot)
        await pilot.press("0")
        await until(lambda: "due Sat 28 Nov 10:00" in text_of(dialog, "#snooze-read"), pilot=pilot)
        await pilot.press("x")
        await until(lambda: text_of(dialog, "#snooze-read") == "not a day yet", pilot=pilot)
        await pilot.press("backspace", "enter")
        await until(lambda: app.screen is screen, pilot=pilot)
        (moved,) = open_on(store, FRIDAY)
        assert (moved.due_on, moved.at) == (date(2026, 11, 28), time(10, 0))


@pytest.mark.parametrize("size", SIZES)
def test_snooze_dialog_with_preview(snap_compare, store: Store, size) -> None:
    """At 80 columns the placeholder shows whole (issue 23 item 10), and the live line."""
    app = friday_cockpit(store)

    async def run_before(pilot) -> None:
        await open_detail(app, pilot)
        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_snooze_dialog_reading_a_day(snap_compare, store: Store, size) -> None:
    app = friday_cockpit(store)

    async def run_before(pilot) -> None:
        await open_detail(app, pilot)
        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot)
        await pilot.press("3", *"next monday 9am")
        await until(lambda: "Mon 30 Nov 09:00" in text_of(app, "#snooze-read"), pilot=pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def test_the_log_form_reads_a_rep_on_friday_and_keeps_the_time(store: Store) -> None:
    """ "call back Friday 10am" written on a Friday: next Friday at 10, kept on send; a day
    typed in the field below with a time keeps it too."""
    app = friday_cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_detail(app, pilot)
        await pilot.press("a")
        await until(lambda: isinstance(app.screen, ActivityDialog), pilot=pilot)
        dialog = app.screen
        await type_text(pilot, dialog, "Good chat, call back Friday 10am")
        assert "Follow-up: Fri 4 Dec 10:00 (call back Friday 10am)" in text_of(
            dialog, "#follow-up-line"
        )
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        kept = [f for f in open_on(store, FRIDAY) if f.source == "activity"]
        assert [(f.due_on, f.at) for f in kept] == [(date(2026, 12, 4), time(10, 0))]
        await pilot.press("n")
        await until(lambda: isinstance(app.screen, TextDialog), pilot=pilot)
        note = app.screen
        await type_text(pilot, note, "Sent the deck")
        note.query_one("#follow-up-day", Input).value = "next monday 9am"
        await until(lambda: "Mon 30 Nov 09:00" in text_of(note, "#follow-up-line"), pilot=pilot)
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LeadDetailScreen), pilot=pilot)
        kept = [f for f in open_on(store, FRIDAY) if f.source == "note"]
        assert [(f.due_on, f.at) for f in kept] == [(date(2026, 11, 30), time(9, 0))]
