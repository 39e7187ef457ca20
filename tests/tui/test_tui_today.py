"""Today, the cockpit's start screen: each section from a seeded cache, each row opening
its screen with enter, the follow-up keys (done, snooze), live counts, the empty day, and
snapshots at 120x40 and 80x24 (full and empty)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

import support.tui_wire_data as W
from support.cockpit import cockpit, settings, text_of
from support.waiting import until
from warmline.store import Store
from warmline.store.followups import FollowUps
from warmline.tui.app import WarmlineApp
from warmline.tui.palette import ScreenActions
from warmline.tui.screens.follow_up_dialogs import AddFollowUpDialog, SnoozeDialog
from warmline.tui.screens.help import HelpScreen
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.outbox import OutboxScreen
from warmline.tui.screens.prospecting.searches import FoundCompaniesScreen
from warmline.tui.screens.recommendations import RecommendationsScreen
from warmline.tui.screens.today import TodayScreen
from warmline.tui.widgets.section_list import SectionList

SIZES = [pytest.param((120, 40), id="120x40"), pytest.param((80, 24), id="80x24")]
TODAY = W.NOW.date()
KESTREL, NORTHWIND, DENTAL, HARBOR, FJORD = 103, 100, 102, 109, 101
COLD_AFTER_DAYS = 1  # so the seed's warm leads quiet since before the 21st are going cold


@pytest.fixture
def followups(tmp_path: Path) -> Iterator[FollowUps]:
    kept = FollowUps(tmp_path / "followups")
    yield kept
    kept.close()


def record_finished_search(store: Store, job_id: int = 11, hours: int = 2) -> None:
    """A deep search that completed `hours` before W.NOW, with the companies it found."""
    store.record_job(
        "deep_search",
        job_id,
        {
            "job_id": job_id,
            "status": "completed",
            "query": "logistics SaaS in the Nordics",
            "target_count": 5,
            "progress": 100,
            "found_count": 1,
            "created_at": W.ts(timedelta(hours=hours + 1)),
            "completed_at": W.ts(timedelta(hours=hours)),
            "companies": [
                {
                    "id": 900 + job_id,
                    "name": "Tundra Routing AS",
                    "domain": "tundra.example",
                    "industry": "Logistics",
                    "country": "Norway",
                    "ai_tag": "logistics-saas",
                }
            ],
        },
    )


def seed_day(store: Store, followups: FollowUps) -> str:
    """A morning: a finished deep search, a ready lead (Dental Bavaria, from the seed data),
    a lead going cold, follow-ups due today and overdue (and one not yet due), the seed's
    recommendations, and one op the service refused. Returns the failed op's id."""
    record_finished_search(store)
    failed = store.enqueue(
        "change_lead_status", {"lead_id": FJORD, "lead_status": "warm"}, lead_id=FJORD
    )
    store.mark_failed(failed, "Outreach lead not found")
    followups.add(
        KESTREL,
        "Kestrel Analytics",
        "Spoke with Dana, wants pricing by Friday",
        TODAY,
        phrase="by Friday",
    )
    followups.add(
        NORTHWIND, "Northwind Logistics", "Send the case study", TODAY - timedelta(days=2)
    )
    followups.add(
        NORTHWIND,
        "Northwind Logistics",
        "Check in after the board meeting",
        TODAY + timedelta(days=5),
    )
    return failed


def today_cockpit(store: Store, followups: FollowUps | None, **options: Any) -> WarmlineApp:
    return cockpit(
        store,
        config=settings(start_screen="today", cold_after_days=COLD_AFTER_DAYS),
        followups=followups,
        **options,
    )


def table(app: WarmlineApp) -> SectionList:
    return app.screen.query_one("#today-table", SectionList)


def rows(app: WarmlineApp) -> list[str]:
    """Today's rows as text, headings included."""
    shown = table(app)
    return [
        " ".join(cell.plain for cell in shown.cells_at(index)).strip()
        for index in range(shown.row_count)
    ]


def heading(app: WarmlineApp, title: str) -> str:
    return next(row for row in rows(app) if row.startswith(title + " ("))


async def highlight(app: WarmlineApp, pilot: Any, key: str) -> None:
    shown = table(app)
    shown.move_to(shown.index_of_key(key))
    await pilot.pause()
    assert shown.current_key == key


@pytest.fixture
def day(store: Store, followups: FollowUps) -> str:
    return seed_day(store, followups)


async def test_each_section_is_shown_with_its_count(
    store: Store, followups: FollowUps, day: str
) -> None:
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TodayScreen)
        shown = rows(app)
        titles = [row.split(" (")[0] for row in shown if table(app).is_heading(shown.index(row))]
        assert titles == [
            "Finished jobs",
            "Ready for outreach",
            "Going cold",
            "Follow-ups due",
            "Next 7 days",
            "Recommendations",
            "Failed ops",
        ]
        assert heading(app, "Next 7 days") == "Next 7 days (1) W: the agenda"
        assert heading(app, "Finished jobs").startswith("Finished jobs (1) since yesterday")
        assert heading(app, "Ready for outreach").startswith("Ready for outreach (1)")
        cold = [key for key in table(app).keys if key.startswith("cold:")]
        assert cold and heading(app, "Going cold").startswith(
            f"Going cold ({len(cold)}) warm, quiet 1+ days"
        )
        assert heading(app, "Follow-ups due") == "Follow-ups due (2) kept on this computer only"
        assert heading(app, "Failed ops").startswith("Failed ops (1)")
        assert heading(app, "Recommendations").startswith("Recommendations (10)")
        text = "\n".join(shown)
        assert "Company deep search · logistics SaaS in the Nordics" in text
        assert "Dental Bavaria GmbH score 85 / 80" in text
        assert "Harbor Foods score 41 / 70 quiet 1 day" in text
        assert "Northwind Logistics Send the case study overdue · Fri 20 Nov" in text
        assert "Kestrel Analytics Spoke with Dana, wants pricing by Friday today" in text
        assert "Check in after the board meeting" not in text  # due in five days: counted
        assert "Fri: 1 enter or W: the agenda" in text
        assert "3 high · 4 medium · 3 low" in text
        assert "change lead status · Fjord Freight AB Outreach lead not found" in text
        assert "Today · Sun 22 Nov · 2 follow-ups due · 1 failed" in text_of(app, "#screen-title")


async def test_the_keys_today_names_are_the_reps_own(store: Store, followups: FollowUps) -> None:
    keymap = {"app.agenda": "a", "app.recommendations": "t"}
    app = cockpit(store, config=settings(start_screen="today", cold_after_days=COLD_AFTER_DAYS, keymap=keymap),
                  followups=followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert heading(app, "Next 7 days").endswith(") a: the agenda")
        assert heading(app, "Recommendations") == "Recommendations (10) t starts triage"
        assert "enter or t: triage" in "\n".join(rows(app))


async def test_the_snooze_dialog_names_the_reps_keys(store: Store, followups: FollowUps, day: str) -> None:
    keymap = {"snooze.week": "w", "snooze.cancel": "ctrl+x"}
    app = cockpit(store, config=settings(start_screen="today", cold_after_days=COLD_AFTER_DAYS, keymap=keymap),
                  followups=followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await highlight(app, pilot, "followup:1")
        await pilot.press("Z")
        await until(lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot, what="the snooze dialog")
        said = [str(static.render()) for static in app.screen.query("Static")]
        assert any(line.startswith("w  a week (") for text in said for line in text.splitlines())
        assert "1 · w · 3 then enter · ctrl+x leaves it as it is" in said
        await pilot.press("w")
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, what="back on Today")
        assert followups.get(1).snoozed_until == TODAY + timedelta(days=8)  # a week on a Sunday: Monday


async def test_the_cursor_steps_over_the_headings(
    store: Store, followups: FollowUps, day: str
) -> None:
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        shown = table(app)
        assert shown.current_key == "job:1"  # the first row under the first heading
        await pilot.press("k")
        assert shown.current_key == "job:1"
        await pilot.press("j")  # over "Ready for outreach (1)"
        assert shown.current_key == f"ready:{DENTAL}"
        cold = [key for key in shown.keys if key.startswith("cold:")]
        await pilot.press("j")  # over "Going cold (n)"
        assert shown.current_key == cold[0]
        await pilot.press(*["j"] * len(cold))  # the last cold lead, then over "Follow-ups due"
        assert shown.current_key == "followup:2"  # the overdue one first
        await pilot.press("G")
        assert shown.current_key == f"op:{day}"
        await pilot.press("k")  # over "Failed ops (1)"
        assert shown.current_key == "recs:all"


@pytest.mark.parametrize(
    ("key", "opens"),
    [
        ("job:1", FoundCompaniesScreen),
        (f"ready:{DENTAL}", LeadDetailScreen),
        (f"cold:{HARBOR}", LeadDetailScreen),
        ("followup:1", LeadDetailScreen),
        ("recs:all", RecommendationsScreen),
        ("op", OutboxScreen),
    ],
)
async def test_enter_opens_the_row_s_screen(
    store: Store, followups: FollowUps, day: str, key: str, opens: type
) -> None:
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await highlight(app, pilot, f"op:{day}" if key == "op" else key)
        await pilot.press("enter")
        await until(
            lambda: isinstance(app.screen, opens), pilot=pilot, what=f"{opens.__name__} open"
        )
        screen: Any = app.screen
        if key == "job:1":
            assert screen.job_key == 1
        elif key.startswith(("ready:", "cold:")):
            assert screen.lead_id == int(key.split(":")[1])
        elif key == "followup:1":
            assert screen.lead_id == KESTREL  # the lead the follow-up is about
        elif key == "op":
            outbox = screen.query_one("#outbox-table")
            await until(
                lambda: outbox.current_key == day, pilot=pilot, what="the failed op highlighted"
            )
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, what="back on Today")


async def test_going_cold_lists_the_quietest_and_the_rest_are_one_key_away(
    store: Store, followups: FollowUps, day: str
) -> None:
    store.upsert_leads([
        {"id": 900 + n, "company_id": 1900 + n, "company_name": f"Quiet Co {n}", "lead_status": "warm",
         "warming_score": 20, "target_score": 80, "activity_count": 1, "recommendation_count": 0,
         "monitoring_active": False, "last_activity_at": W.ts(timedelta(days=30 + n)),
         "created_at": W.ts(timedelta(days=90))}
        for n in range(8)
    ])  # fmt: skip
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        total = int(heading(app, "Going cold").split("(")[1].split(")")[0])
        assert total == 8 + 2  # and the seed's two
        cold = [row for row in rows(app) if row.startswith("· ")]
        assert [row.split(" score")[0] for row in cold] == [
            f"· Quiet Co {n}" for n in (7, 6, 5, 4, 3)
        ]
        assert f"… {total - 5} more going cold" in "\n".join(rows(app))
        await highlight(app, pilot, "cold:more")
        await pilot.press("enter")
        await until(
            lambda: isinstance(app.screen, LeadListScreen), pilot=pilot, what="the lead list"
        )
        await until(
            lambda: "sorted by last activity" in text_of(app, "#screen-title"),
            pilot=pilot,
            what="the warm leads by last activity",
        )
        shown = app.screen.lead_list.source
        assert (shown.status, shown.sort) == ("warm", "activity")


async def test_done_and_snooze_change_the_follow_up_locally(
    store: Store, followups: FollowUps, day: str
) -> None:
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        queued = len(store.outbox_rows())
        await highlight(app, pilot, "followup:2")  # Northwind, overdue
        await pilot.press("x")
        await pilot.pause()
        assert followups.get(2).done
        assert heading(app, "Follow-ups due").startswith("Follow-ups due (1)")
        assert "Send the case study" not in "\n".join(rows(app))

        await highlight(app, pilot, "followup:1")  # Kestrel, due today
        await pilot.press("z")
        await pilot.pause()
        assert followups.get(1).snoozed_until == TODAY + timedelta(days=1)
        assert followups.get(1).due == TODAY  # the promised day is kept
        assert heading(app, "Follow-ups due").startswith("Follow-ups due (0)")
        assert len(store.outbox_rows()) == queued  # nothing is queued for the service


async def test_snooze_a_week_and_to_a_picked_day(
    store: Store, followups: FollowUps, day: str
) -> None:
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await highlight(app, pilot, "followup:1")
        await pilot.press("Z")
        await until(
            lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot, what="the snooze dialog"
        )
        await pilot.press("2")
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, what="back on Today")
        assert followups.get(1).snoozed_until == TODAY + timedelta(days=8)  # a week on a Sunday: Monday

        await highlight(app, pilot, "followup:2")
        await pilot.press("Z")
        await until(
            lambda: isinstance(app.screen, SnoozeDialog), pilot=pilot, what="the snooze dialog"
        )
        await pilot.press("3", *"someday", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SnoozeDialog)  # words it cannot read: asked again, why said
        assert "cannot read 'someday'" in text_of(app, "#snooze-error")
        await pilot.press(*["backspace"] * 7, *"2026-12-03", "enter")
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, what="back on Today")
        assert followups.get(2).snoozed_until == date(2026, 12, 3)
        assert heading(app, "Follow-ups due").startswith("Follow-ups due (0)")


async def test_a_follow_up_added_by_hand_on_a_ready_lead(
    store: Store, followups: FollowUps, day: str
) -> None:
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await highlight(app, pilot, f"ready:{DENTAL}")
        await pilot.press("f")
        await until(
            lambda: isinstance(app.screen, AddFollowUpDialog), pilot=pilot, what="the add dialog"
        )
        await pilot.press(*"today", "enter", *"Send the proposal", "enter")
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, what="back on Today")
        assert heading(app, "Follow-ups due").startswith("Follow-ups due (3)")
        assert "Dental Bavaria GmbH Send the proposal today" in "\n".join(rows(app))


async def test_a_follow_up_key_off_a_follow_up_highlights_the_first_one_due(
    store: Store, followups: FollowUps, day: str
) -> None:
    """Today opens on its first row, a finished job; x (or z, Z) there did nothing, its key
    only dimmed in the key bar. It now highlights the first follow-up due and says so,
    changing nothing: the next press acts on the row the rep sees highlighted."""
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert table(app).current_key == "job:1"
        assert app.screen.check_action("follow_up_done", ()) is True
        first_key = next(key for key in table(app).keys if key.startswith("followup:"))
        first = next(f for f in followups.list("open", today=TODAY) if f"followup:{f.id}" == first_key)
        await pilot.press("x")
        await pilot.pause()
        assert table(app).current_key == first_key
        assert not any(found.done or found.snoozed_until for found in followups.list("all", today=TODAY))
        said = [str(n.message) for n in app._notifications][-1]
        assert said == f"The first follow-up due is highlighted ({first.company}): x again marks it done.", said
        await pilot.press("x")
        await pilot.pause()
    assert next(f for f in followups.list("all", today=TODAY) if f.id == first.id).done


async def test_the_follow_up_keys_leave_the_key_bar_with_no_follow_up_due(
    store: Store, followups: FollowUps
) -> None:
    seed_day(store, followups)
    for found in followups.list("open", today=TODAY):
        followups.done(found.id)
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.check_action("follow_up_done", ()) is False


async def test_help_and_the_palette_list_today_s_keys(
    store: Store, followups: FollowUps, day: str
) -> None:
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await highlight(app, pilot, "followup:1")
        offered = {title: hint for title, hint, _ in ScreenActions(app.screen)._commands()}
        assert offered["Follow-up done"] == "key: x"
        assert offered["Snooze follow-up a day"] == "key: z"
        assert offered["Snooze follow-up"] == "key: Z"
        assert offered["Add a follow-up"] == "key: f"
        assert offered["Open"] == "key: ⏎"
        await pilot.press("question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot=pilot, what="help")
        assert text_of(app, "#help-title") == "Keys: Today"
        shown = text_of(app, "#help-table")
        for words in ("Follow-up done", "Snooze follow-up a day", "Add a follow-up", "Leads"):
            assert words in shown, words


async def test_counts_follow_the_cache_as_sync_brings_news(
    store: Store, followups: FollowUps, day: str
) -> None:
    app = today_cockpit(store, followups, status_interval=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert heading(app, "Finished jobs").startswith("Finished jobs (1)")
        record_finished_search(store, job_id=12, hours=1)  # what the job poller writes
        await until(
            lambda: heading(app, "Finished jobs").startswith("Finished jobs (2)"),
            pilot=pilot,
            what="the new job counted",
        )
        store.mark_failed(
            store.enqueue("add_note", {"lead_id": KESTREL, "content": "x"}, lead_id=KESTREL),
            "Too long",
        )
        await until(
            lambda: heading(app, "Failed ops").startswith("Failed ops (2)"),
            pilot=pilot,
            what="the new failure counted",
        )
        assert "Today · Sun 22 Nov · 2 follow-ups due · 2 failed" in text_of(app, "#screen-title")


async def test_a_follow_up_added_from_another_terminal_shows_up(
    store: Store, followups: FollowUps
) -> None:
    app = today_cockpit(store, followups, status_interval=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        before = heading(app, "Follow-ups due")
        with FollowUps(followups.path.parent) as other:  # another process's connection
            other.add(KESTREL, "Kestrel", "Call back about the pilot", TODAY, source="manual")
        await until(
            lambda: heading(app, "Follow-ups due") != before,
            pilot=pilot,
            what="the other terminal's follow-up counted",
        )
        assert any("Call back about the pilot" in row for row in rows(app))


async def test_an_empty_day_says_so(empty_store: Store, followups: FollowUps) -> None:
    app = today_cockpit(empty_store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not table(app).display
        said = text_of(app, "#today-empty")
        assert said.startswith("Nothing for today: no follow-ups due, no finished jobs")
        assert said.endswith("L opens the lead list, P prospecting (find new companies), J the job monitor, O the outbox.")
        await pilot.press("enter", "x")  # nothing to open or mark: no error
        await pilot.press("L")
        await until(
            lambda: isinstance(app.screen, LeadListScreen), pilot=pilot, what="the lead list"
        )


async def test_today_is_the_start_screen_and_one_key_from_the_others(
    store: Store, followups: FollowUps
) -> None:
    app = WarmlineApp(store, clock=lambda: W.NOW, followups=followups)  # the defaults: Today first
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TodayScreen)
        assert "esc" not in text_of(app, "KeyBar")  # nothing under the start screen
        await pilot.press("L")
        await until(
            lambda: isinstance(app.screen, LeadListScreen), pilot=pilot, what="the lead list"
        )
        await pilot.press("J")
        await pilot.pause()
        await pilot.press("H")  # back to Today from anywhere: the screens above it close
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, what="Today again")
        assert len(app.screen_stack) == 1


async def test_the_config_can_start_on_the_lead_list(store: Store, followups: FollowUps) -> None:
    app = cockpit(store, config=settings(start_screen="leads"), followups=followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LeadListScreen)
        await pilot.press("H")
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, what="Today")
        assert "esc Back" in text_of(app, "KeyBar")
        await pilot.press("escape")
        await until(
            lambda: isinstance(app.screen, LeadListScreen),
            pilot=pilot,
            what="back on the lead list",
        )


async def test_closing_the_cockpit_marks_when_it_was_last_open(
    store: Store, followups: FollowUps
) -> None:
    assert store.cockpit_last_seen() is None
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("q")
    assert store.cockpit_last_seen() == W.NOW.timestamp()  # the store's clock in these tests


async def test_an_unreadable_follow_ups_file_leaves_the_rest_of_today(
    store: Store, tmp_path: Path, day: str
) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "followups.db").write_bytes(b"not a database" * 100)
    app = today_cockpit(store, FollowUps(broken))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert (
            heading(app, "Follow-ups due") == "Follow-ups due (0) cannot read the follow-ups file"
        )
        assert any(
            "followups.db cannot be opened or read" in str(n.message) for n in app._notifications
        )
        assert heading(app, "Finished jobs").startswith("Finished jobs (1)")


# -- snapshots --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_today_full(snap_compare, store: Store, followups: FollowUps, day: str, size) -> None:
    assert snap_compare(today_cockpit(store, followups), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_today_empty(snap_compare, empty_store: Store, followups: FollowUps, size) -> None:
    assert snap_compare(today_cockpit(empty_store, followups), terminal_size=size)


async def test_names_and_texts_are_shown_literally(store: Store, followups: FollowUps) -> None:
    followups.add(104, W.HOSTILE_MARKUP, "[link=https://x.example]click[/link] by Friday", TODAY)
    followups.add(105, W.HOSTILE_ESCAPE, "Call\x1b[2J back\x07", TODAY)
    app = today_cockpit(store, followups)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = "\n".join(rows(app))
        assert (
            "[bold red]Markup[/] Industries [link=https://x.example]click[/link] by Friday" in text
        )
        assert "\x1b" not in text and "\x07" not in text
        assert "Escape" in text and "Call" in text
