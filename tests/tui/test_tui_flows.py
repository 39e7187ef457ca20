"""The rep's flows, driven with keys on the real app over a real store, no network.

Where a flow needs the service's answer, the test plays the sync engine's part through
the store's own outcome API (`mark_in_flight` / `mark_done` / `mark_failed` /
`record_job`), exactly what sync does after a request.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from textual.widgets import TextArea

import support.tui_wire_data as W
from support.cockpit import (
    Clipboard,
    Opened,
    RecordingSync,
    cockpit,
    deliver,
    fill,
    status_text,
    text_of,
)
from support.tui_wire_data import KESTREL
from warmline.store import Store
from warmline.tui.screens.dialogs import ConfirmDialog, TextDialog
from warmline.tui.screens.jobs import JobResultScreen, JobsScreen
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.outbox import OutboxScreen
from warmline.tui.screens.recommendations import RecommendationsScreen
from warmline.tui.widgets.key_bar import KeyBar
from warmline.tui.widgets.virtual_list import VirtualList


async def test_filter_and_open_a_lead(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        leads = app.screen.query_one(VirtualList)
        assert leads.row_count == len(W.COMPANIES)
        await pilot.press("slash", *"kes")
        await pilot.pause()
        assert leads.row_count == 1
        assert leads.current.company_name == "Kestrel Analytics"
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        assert app.screen.lead_id == KESTREL
        assert "Kestrel Analytics" in text_of(app, "#screen-title")
        await pilot.press("escape")
        assert isinstance(app.screen, LeadListScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert leads.row_count == len(W.COMPANIES)
        await pilot.press("slash", *"fjord", "escape")
        await pilot.pause()
        assert leads.row_count == len(W.COMPANIES)
        assert app.screen.focused is leads


async def test_log_an_activity_offline_see_it_pending_then_synced(store: Store) -> None:
    store.set_state("online", False)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, TextDialog)
        await pilot.press(*"Called Dana about pricing")
        await pilot.pause()
        assert "looks like: Call" in text_of(app, "#dialog-live")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen)
        activity = text_of(app, "#detail-activity")
        assert "Called Dana about pricing" in activity
        assert "Call (pending)" in activity
        assert "offline" in status_text(app)
        assert "1 pending" in status_text(app)

        (op,) = store.outbox_rows()
        store.set_state("online", True)
        deliver(store, op.op_id, {
            "success": True, "detected_type": "call", "warming_score": 30,
            "touchpoint": {"id": 5555, "description": "Called Dana about pricing", "detected_type": "call",
                           "contact_id": None, "bonus_points": 9, "created_at": W.ts(timedelta(seconds=30))},
            "bonus_info": {"base_points": 6, "multiplier": 1.5, "total": 9, "reason": "pricing talk"},
        })
        app.poll_status()
        await pilot.pause()
        activity = text_of(app, "#detail-activity")
        assert "Call +9 (pricing talk) Called Dana about pricing" in " ".join(activity.split())  # the service's reason
        assert "(pending)" not in activity
        assert "online" in status_text(app)
        assert "pending" not in status_text(app)


async def test_a_refused_activity_keeps_the_form_open_with_the_reason(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("a", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TextDialog)
        assert text_of(app, "#dialog-error") == "Description must not be empty"
        assert store.outbox_rows() == []


async def test_escape_keeps_a_half_written_activity_for_the_next_opening(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("a", *"Called Dana, she wants")
        await pilot.pause()
        assert "esc sets it aside" in text_of(app, "#dialog-hint")
        keys = app.screen.query_one(KeyBar).render().plain
        assert "esc Set aside" in keys and "Cancel" not in keys  # the key bar says so too
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LeadDetailScreen) and store.outbox_rows() == []
        await pilot.press("n")  # the note form has a text of its own
        await pilot.pause()
        assert app.screen.query_one("#dialog-text", TextArea).text == ""
        await pilot.press("escape", "a")
        await pilot.pause()
        assert app.screen.query_one("#dialog-text", TextArea).text == "Called Dana, she wants"
        assert "your text from before" in text_of(app, ".dialog-title")
        await pilot.press(*" a demo", "ctrl+s")
        await pilot.pause()
        assert [op.payload["description"] for op in store.outbox_rows()] == ["Called Dana, she wants a demo"]
        await pilot.press("a")  # sent: the next activity starts empty
        await pilot.pause()
        assert app.screen.query_one("#dialog-text", TextArea).text == ""
        assert "your text from before" not in text_of(app, ".dialog-title")
        await pilot.press("escape")
        await pilot.pause()
        app.open_lead(KESTREL - 2)  # Fjord Freight (COMPANIES[1]): its form has nothing of Kestrel's
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.query_one("#dialog-text", TextArea).text == ""


async def test_triage_ten_recommendations_with_keys(store: Store) -> None:
    app = cockpit(store)
    active = store.active_recommendations()
    assert len(active) == 10
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RecommendationsScreen)
        assert screen.current.id == active[0].id
        assert active[0].priority == "high"
        await pilot.press("space")
        assert screen.current.id == active[1].id
        for key in "cxcxcxcxc":
            await pilot.press(key)
        await pilot.pause()
        assert screen.current.id == active[0].id
        await pilot.press("x")
        await pilot.pause()
        assert screen.current is None
        assert "Nothing to triage" in text_of(app, "#recs-body")
        kinds = [op.kind for op in store.outbox_rows()]
        assert kinds.count("complete_recommendation") == 5
        assert kinds.count("dismiss_recommendation") == 5
        assert store.active_recommendations() == []
        assert "10 pending" in status_text(app)
        progress = text_of(app, "#recs-progress-text")
        assert "0 to go" in progress


async def test_undo_brings_the_recommendation_back_while_still_queued(store: Store) -> None:
    app = cockpit(store)
    first, second = store.active_recommendations()[:2]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "c")
        await pilot.pause()
        screen = app.screen
        assert screen.current.id == second.id
        assert len(store.outbox_rows()) == 1
        await pilot.press("u")
        await pilot.pause()
        assert screen.current.id == first.id
        assert store.outbox_rows() == []
        await pilot.press("x")
        await pilot.pause()
        (op,) = store.outbox_rows()
        store.mark_in_flight(op.op_id)
        await pilot.press("u")
        await pilot.pause()
        assert store.get_op(op.op_id) is not None
        assert screen.current.id == second.id
        assert any("Cannot undo" in str(n.message) for n in app._notifications)


async def test_open_and_copy_only_what_is_safe(store: Store) -> None:
    rec = store.active_recommendations()[0]
    store.upsert_recommendations(rec.lead_id, {
        "recommendations": [{
            "id": rec.id, "lead_id": rec.lead_id, "action_type": "comment", "priority": "high",
            "target_url": "javascript:alert(1)", "suggested_comment": "Nice post\x1b[2J!",
            "engagement_reason": "r", "source_page_label": "Blog", "status": "active", "created_at": W.ts(timedelta(days=9)),
        }],
    })
    opened = Opened()
    app = cockpit(store, opener=opened)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.current.id == rec.id
        await pilot.press("o", "y")
        await pilot.pause()
        assert opened.urls == []
        assert app.clipboard == "Nice post!"
        await pilot.press("space", "o")
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert opened.urls == [app.screen.current.target_url]
        assert opened.urls[0].startswith("https://")


async def test_open_without_a_browser_copies_the_link_and_says_so(store: Store) -> None:
    asked: list[str] = []

    def no_browser(url: str) -> bool:  # what webbrowser.open answers over SSH or headless
        asked.append(url)
        return False

    def broken_browser(url: str) -> bool:
        raise OSError("could not locate runnable browser")

    cases = (
        (no_browser, "no browser is available here", True, "Copied it (system clipboard) instead: "),
        (broken_browser, "could not locate runnable browser", False,
         "Sent it to the terminal's clipboard (OSC 52; if nothing was copied, your terminal may not allow it) instead: "),
    )
    for opener, reason, works, how in cases:
        clipboard = Clipboard(works=works)
        app = cockpit(store, opener=opener, clipboard=clipboard)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("r")
            await pilot.pause()
            url = app.screen.current.target_url
            assert url.startswith("https://")
            await pilot.press("o")
            await app.workers.wait_for_complete()
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.clipboard == url and clipboard.copied == [url]
            (note,) = [str(n.message) for n in app._notifications]
            assert "Could not open the link" in note and reason in note
            assert note.endswith(how + url), note
    assert len(asked) == 1


async def test_copying_the_comment_says_whether_the_system_clipboard_took_it(store: Store) -> None:
    for works, said in (
        (True, "Suggested comment copied (system clipboard)."),
        (False, "Suggested comment sent to the terminal's clipboard (OSC 52); "
                "if nothing was copied, your terminal may not allow it."),
    ):
        clipboard = Clipboard(works=works)
        app = cockpit(store, clipboard=clipboard)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("r")
            await pilot.pause()
            expected = app.screen.current.suggested_comment
            assert expected, "the first card is a comment card"
            await pilot.press("y")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert clipboard.copied == [expected] and app.clipboard == expected  # OSC 52 is written either way
            assert [str(n.message) for n in app._notifications] == [said]


async def test_open_with_a_browser_says_nothing(store: Store) -> None:
    opened = Opened()
    app = cockpit(store, opener=opened)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert opened.urls == [app.screen.current.target_url]
        assert not app._notifications
        assert app.clipboard == ""


async def test_a_card_without_a_comment_shows_no_comment_heading(store: Store) -> None:
    rec = store.active_recommendations()[0]
    store.upsert_recommendations(rec.lead_id, {
        "recommendations": [{
            "id": rec.id, "lead_id": rec.lead_id, "action_type": "follow", "priority": "high",
            "target_url": "https://example.com/in/someone", "suggested_comment": None,
            "engagement_reason": "New in role", "source_page_label": "Profile", "status": "active",
            "created_at": W.ts(timedelta(days=9)),
        }],
    })
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.current.id == rec.id
        card = text_of(app, "#recs-body")
        assert "Follow" in card and "New in role" in card
        assert "Suggested comment" not in card and "(none)" not in card
        assert "y copy" not in card
        await pilot.press("space")
        await pilot.pause()
        other = text_of(app, "#recs-body")
        assert app.screen.current.suggested_comment
        assert "Suggested comment:" in other and "y copy" in other


async def test_a_failed_op_fixed_from_the_outbox(store: Store) -> None:
    note = store.enqueue("add_note", {"lead_id": 100, "content": "x" * 20}, lead_id=100)
    store.mark_in_flight(note)
    store.mark_failed(note, "content is not allowed")
    status = store.enqueue("change_lead_status", {"lead_id": 101, "lead_status": "warm"}, lead_id=101)
    store.mark_in_flight(status)
    store.mark_failed(status, "Outreach lead not found")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OutboxScreen)
        assert "2 failures need attention" in status_text(app)
        assert screen.current.op_id == note
        assert "content is not allowed" in text_of(app, "#outbox-error")

        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, TextDialog)
        app.screen.query_one("#dialog-text").text = "Prefers calls in the morning"
        await pilot.press("ctrl+s")
        await pilot.pause()
        edited = [op for op in store.outbox_rows() if op.kind == "add_note"]
        assert [(op.state, op.payload["content"]) for op in edited] == [("pending", "Prefers calls in the morning")]

        assert screen.current.op_id == status
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        assert store.get_op(status) is None or store.get_op(status).state not in ("failed", "pending")
        assert [op.kind for op in store.outbox_rows()] == ["add_note"]
        assert store.get_lead(101).lead_status == W.lead_item(1)["lead_status"]
        assert "failure" not in status_text(app)


async def test_retry_puts_a_failed_op_back_in_the_queue(store: Store) -> None:
    op_id = store.enqueue("set_target_score", {"lead_id": 100, "target_score": 75}, lead_id=100)
    store.mark_in_flight(op_id)
    store.mark_failed(op_id, "Service unavailable")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O", "R")
        await pilot.pause()
        assert store.get_op(op_id).state == "pending"
        assert "FAILED" not in app.screen.query_one("#outbox-table").get_row_at(0)[0].plain


async def test_a_job_started_and_finished_in_the_monitor(store: Store) -> None:
    store.set_state("online", False)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("S")
        await pilot.pause()
        assert "Signal scan: queued" in text_of(app, "#detail-score")
        await pilot.press("J")
        await pilot.pause()
        assert isinstance(app.screen, JobsScreen)
        table = app.screen.query_one("#jobs-table")
        row = [cell.plain for cell in table.get_row_at(0)]
        assert row[0] == "Signal scan" and row[2] == "queued (offline)"
        assert row[5] == "queued; starts when online"  # never a blank Result
        assert "1 job queued" in status_text(app) and "running" not in status_text(app)
        assert "pending" not in status_text(app)  # the job's start is that one op: counted once

        (op,) = store.outbox_rows()
        deliver(store, op.op_id, {"success": True, "lead_id": KESTREL, "status": "pending",
                                  "started_at": W.ts(timedelta(seconds=40)), "message": "scan started"})
        store.record_job("signal_scan", KESTREL, {"status": "running", "progress": 50, "pages_found": 3})
        app.poll_status()
        await pilot.pause()
        row = [cell.plain for cell in table.get_row_at(0)]
        assert row[2] == "running" and row[4].endswith("50%")
        assert "1 job running" in status_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "Signal scan: running 50%" in text_of(app, "#detail-score")
        await pilot.press("J")
        await pilot.pause()
        table = app.screen.query_one("#jobs-table")

        store.record_job("signal_scan", KESTREL, {
            "status": "completed", "progress": 100, "pages_found": 7,
            # after the monitor was opened: our clock stands still, so 5 s ahead of it
            "completed_at": W.ts(timedelta(seconds=-5)), "message": "done",
        })
        app.poll_status()
        await pilot.pause()
        row = [cell.plain for cell in table.get_row_at(0)]
        assert row[2] == "completed" and row[5] == "7 sources found"
        # Finished while the rep watched: the monitor shows it, the status line does not
        # announce it as news.
        app.poll_status()
        await pilot.pause()
        assert "done" not in status_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, JobResultScreen)
        assert "Monitoring sources found: 7" in text_of(app, "#job-result-body")


async def test_a_triage_decision_is_held_for_its_undo_window_and_the_status_says_so(store: Store) -> None:
    sync = RecordingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert sync.started
        await pilot.press("r", "c")
        await pilot.pause()
        (op,) = store.outbox_rows()
        assert op.hold_until is not None and 4.0 < op.hold_until - store.clock() <= 5.0
        assert store.due_ops() == []  # no path sends it inside the window
        assert "u undoes complete of Northwind Logistics" in status_text(app)
        app.open_lead(KESTREL)
        await pilot.pause()
        assert sync.refreshed == [KESTREL]  # opening a lead revalidates its detail
        await pilot.press("a")  # not a decision: a form, sent at once
        await pilot.pause()
    assert sync.stopped


async def test_u_undoes_the_last_decision_from_any_screen(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        status_before = store.get_lead(KESTREL).lead_status
        other = "warm" if status_before == "cold" else "cold"
        await pilot.press(other[0])
        await pilot.pause()
        assert store.get_lead(KESTREL).lead_status == other
        await pilot.press("escape", "O")  # the outbox: another screen
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert store.get_lead(KESTREL).lead_status == status_before
        assert store.outbox_rows() == []
        assert any("Undone: Kestrel Analytics" in str(n.message) for n in app._notifications)


async def test_the_status_line_stops_offering_an_undo_as_soon_as_it_is_taken(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "c")
        await pilot.pause()
        first = status_text(app)
        assert "u undoes complete of" in first
        await pilot.press("x")
        await pilot.pause()
        assert "u undoes dismiss of" in status_text(app)
        await pilot.press("u")  # the dismiss is taken back: the complete is the one left
        await pilot.pause()
        assert "u undoes complete of" in status_text(app)
        await pilot.press("u")
        await pilot.pause()
        assert "undoes" not in status_text(app)


async def test_u_after_the_window_says_so_and_changes_nothing(tmp_path) -> None:
    now = [W.NOW.timestamp()]
    store = Store(tmp_path / "cache.sqlite3", clock=lambda: now[0])
    fill(store)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "x")
        await pilot.pause()
        (op,) = store.outbox_rows()
        now[0] += 4.9
        assert store.due_ops() == []
        now[0] += 0.2  # the window has passed
        assert [o.op_id for o in store.due_ops()] == [op.op_id]
        await pilot.press("u")
        await pilot.pause()
        assert [o.op_id for o in store.outbox_rows()] == [op.op_id]
        assert any("Nothing to undo" in str(n.message) for n in app._notifications)
    store.close()


async def test_quitting_sends_the_decisions_still_held(store: Store) -> None:
    sync = RecordingSync()
    app = cockpit(store, sync=sync)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "c", "x")
        await pilot.pause()
        held = {op.op_id for op in store.outbox_rows()}
        assert len(held) == 2
        await pilot.press("q")
        await pilot.pause()
    assert set(sync.sent_held) == held


async def test_ops_left_held_by_a_cockpit_that_closed_are_due_at_once(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "c")
        await pilot.pause()
        app.exit()  # not `q`: no wait for sending, but no hold outlives the cockpit
    (op,) = store.outbox_rows()
    assert op.hold_until is None
    assert [o.op_id for o in store.due_ops()] == [op.op_id]


async def test_the_card_on_screen_stays_when_a_refresh_finds_it_handled_elsewhere(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        shown = screen.current
        index = shown.lead_id - 100
        others = [rec for rec in W.recommendations_response(index)["recommendations"] if rec["id"] != shown.id]
        store.upsert_recommendations(shown.lead_id, {"recommendations": others, "count": len(others)})
        app.poll_status()  # what the status timer does: the cache changed, the screen reloads
        await pilot.pause()
        assert screen.current.id == shown.id  # never changes without a key press
        assert "handled elsewhere meanwhile" in text_of(app, "#recs-body")
        await pilot.press("c")  # nothing to complete: it moves on, queues nothing
        await pilot.pause()
        assert store.outbox_rows() == []
        assert screen.current is not None and screen.current.id != shown.id
        assert "handled elsewhere" not in text_of(app, "#recs-body")


async def test_completing_a_card_never_shows_its_sibling_on_the_same_post_next(store: Store) -> None:
    first, sibling = W.recommendation(0, 0), W.recommendation(0, 1)
    sibling = {**sibling, "priority": "high", "target_url": first["target_url"]}
    store.upsert_recommendations(100, {"recommendations": [first, sibling], "count": 2})
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert [screen.current.id, screen._queue[1].id] == [first["id"], sibling["id"]]
        await pilot.press("c")
        await pilot.pause()
        assert screen.current.id not in (first["id"], sibling["id"])
        assert "handled elsewhere" not in text_of(app, "#recs-body")
        (op,) = store.outbox_rows()
        assert op.payload["recommendation_id"] == first["id"]
        assert sibling["id"] not in [rec.id for rec in store.active_recommendations()]


async def test_a_job_started_offline_is_counted_once_beside_other_pending_ops(store: Store) -> None:
    store.set_state("online", False)
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("S")
        await pilot.pause()
        app.poll_status()
        await pilot.pause()
        assert "1 job queued" in status_text(app) and "pending" not in status_text(app)
        store.enqueue("set_target_score", {"lead_id": 100, "target_score": 75}, lead_id=100)
        app.poll_status()
        await pilot.pause()
        assert "1 pending" in status_text(app) and "1 job queued" in status_text(app)
        (start,) = [op for op in store.outbox_rows() if op.kind != "set_target_score"]
        store.mark_in_flight(start.op_id)
        store.mark_failed(start.op_id, "Service unavailable")
        app.poll_status()
        await pilot.pause()
        status = status_text(app)
        assert "1 pending" in status and "1 failure needs attention" in status, status


def list_line(widget: VirtualList, y: int) -> str:
    return "".join(segment.text for segment in widget.render_line(y)).rstrip()


async def test_a_short_filter_that_matches_nothing_says_it_reads_the_start_of_names(store: Store) -> None:
    """Under three letters the filter reads the start of names (the name index; see
    `warmline.store.paging`): "ic" finds no lead though three names hold it, and the line says
    why instead of "no name matches"; the third letter searches inside them."""
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        leads = app.screen.query_one(VirtualList)
        await pilot.press("slash", *"ic")
        await pilot.pause()
        assert leads.row_count == 0
        assert list_line(leads, 1) == (
            "No lead's company name starts with “ic”; a third letter searches inside names. Escape clears the filter."
        )
        await pilot.press("s")
        await pilot.pause()
        assert sorted(leads.item_at(i).company_name for i in range(leads.row_count)) == [
            "Kestrel Analytics", "Northwind Logistics", "Quartz Robotics"]
        await pilot.press("x")
        await pilot.pause()
        assert list_line(leads, 1) == "No lead's company name matches “icsx”. Escape clears the filter."



async def test_a_screen_left_open_offline_keeps_its_times_true(tmp_path) -> None:
    """On the train nothing in the cache changes, so nothing redraws the lead: its times
    ("just now", "2 min ago") are read again all the same every half minute."""
    now = [W.NOW.timestamp()]
    store = Store(tmp_path / "cache.sqlite3", clock=lambda: now[0])
    fill(store, online=False)
    app = cockpit(store, clock=lambda: datetime.fromtimestamp(now[0], UTC))
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("n", *"Budget frozen until January", "ctrl+s")
        await pilot.pause()
        assert "just now (pending)" in text_of(app, "#detail-notes")
        now[0] += 20
        app.poll_status()
        await pilot.pause()
        assert "just now (pending)" in text_of(app, "#detail-notes")  # still its first minute
        now[0] += 100
        app.poll_status()
        await pilot.pause()
        assert "2 min ago (pending)" in text_of(app, "#detail-notes")
