"""The outbox screen: what each op is about, its keys, and discarding everything at once."""

from __future__ import annotations

from textual.widgets import Static

from support.cockpit import cockpit, settings, text_of
from warmline import actions
from warmline.store import Store
from warmline.tui.screens.dialogs import ConfirmDialog
from warmline.tui.screens.outbox import OutboxScreen, coerce
from warmline.tui.screens.recommendations import RecommendationsScreen


def what_column(app) -> list[str]:
    table = app.screen.query_one("#outbox-table")
    return [table.get_row_at(row)[3].plain for row in range(table.row_count)]


async def test_each_op_says_what_it_is_about_not_its_ids(store: Store) -> None:
    card = store.active_recommendations()[0]
    assert card.action_type
    actions.complete_recommendation(store, card.id)
    actions.add_note(store, 101, "Call back after the board meeting on Thursday; they want the security review and a pilot plan")
    actions.change_lead_status(store, 101, "warm")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, OutboxScreen)
        what = what_column(app)
        assert card.action_type == "share_content" and what[0] == "Share content"  # in words
        # the note's first words, cut by the table to what is left beside Tries and Queued
        assert what[1].startswith("Call back after the board meeting on Thursday") and what[1].endswith("…")
        assert what[2] == "lead status: warm"
        assert not any("_id" in cell or "=" in cell for cell in what)
        lead_cell = app.screen.query_one("#outbox-table").get_row_at(0)[2].plain
        assert lead_cell == card.company_name


async def test_r_opens_the_recommendations_from_the_outbox_and_shift_r_retries(store: Store) -> None:
    op_id = store.enqueue("set_target_score", {"lead_id": 100, "target_score": 75}, lead_id=100)
    store.mark_in_flight(op_id)
    store.mark_failed(op_id, "Service unavailable")
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, OutboxScreen)
        assert "R retry" in text_of(app, "#outbox-error")
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RecommendationsScreen)
        assert store.get_op(op_id).state == "failed"
        await pilot.press("O", "R")
        await pilot.pause()
        assert isinstance(app.screen, OutboxScreen)
        assert store.get_op(op_id).state == "pending"


async def test_keys_with_nothing_to_act_on_leave_the_key_bar(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        bar = text_of(app, "KeyBar")
        assert "Retry" not in bar and "Edit" not in bar and "Discard" not in bar
        assert "Back" in bar

        op_id = store.enqueue("set_target_score", {"lead_id": 100, "target_score": 75}, lead_id=100)
        app.screen.reload()
        await pilot.pause()
        bar = text_of(app, "KeyBar")
        assert "Edit" in bar and "Discard" in bar
        assert "Retry" not in bar  # only a failed op needs one

        store.mark_in_flight(op_id)
        store.mark_failed(op_id, "Service unavailable")
        app.screen.reload()
        await pilot.pause()
        assert "Retry" in text_of(app, "KeyBar")

        await pilot.press("D", "y")
        await pilot.pause()
        assert store.outbox_rows() == []
        bar = text_of(app, "KeyBar")
        assert "Retry" not in bar and "Discard" not in bar


def queue_three(store: Store) -> list[str]:
    failed = store.enqueue("set_target_score", {"lead_id": 100, "target_score": 75}, lead_id=100)
    store.mark_in_flight(failed)
    store.mark_failed(failed, "Service unavailable")
    waiting = actions.add_note(store, 101, "Call back after the board meeting")
    sending = actions.change_lead_status(store, 102, "warm")
    store.mark_in_flight(sending)
    return [failed, waiting, sending]


async def test_discard_all_asks_naming_how_many_then_reverts_them(store: Store) -> None:
    failed, waiting, sending = queue_three(store)
    assert waiting in [note.op_id for note in store.lead_detail(101).notes]
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert "Discard all" in text_of(app, "KeyBar")
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        question = " ".join(app.screen.query(Static).first().render().plain.split())
        assert "Discard 2 actions in the outbox?" in question
        assert "1 being sent now cannot be discarded and stays" in question
        await pilot.press("n")
        await pilot.pause()
        assert len(store.outbox_rows()) == 3

        await pilot.press("ctrl+d", "y")
        await pilot.pause()
        assert isinstance(app.screen, OutboxScreen)
        assert [op.op_id for op in store.outbox_rows()] == [sending]
        assert waiting not in [note.op_id for note in store.lead_detail(101).notes]
        assert "Discard all" not in text_of(app, "KeyBar")


async def test_the_keys_the_outbox_and_triage_name_are_the_reps_own(store: Store) -> None:
    op_id = store.enqueue("set_target_score", {"lead_id": 100, "target_score": 75}, lead_id=100)
    store.mark_in_flight(op_id)
    store.mark_failed(op_id, "Service unavailable")
    keymap = {"outbox.retry": "T", "recommendations.complete": "enter", "recommendations.skip": "j"}
    app = cockpit(store, config=settings(keymap=keymap))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert "T retry · e edit · D discard" in text_of(app, "#outbox-error")
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RecommendationsScreen)
        card = text_of(app, "#recs-body")
        assert "enter complete · x dismiss · o open" in card and "· j skip · u undo" in card


def test_an_edited_number_is_read_in_ascii_digits_only() -> None:
    """`float()` read "٣" as 3.0, "1_000" as 1000.0 and "nan": an edited deal value is read as
    every number the rep types is (`warmline.numbers`); text that is not one stays text, for
    the op's own check to refuse in words."""
    before = {"deal_value": 10.5, "target_score": 50, "closed_reason": "x"}
    assert coerce(before, {"deal_value": "12.5", "target_score": "60", "closed_reason": ""}) == {
        "deal_value": 12.5, "target_score": 60, "closed_reason": ""}
    for typed in ("\u0663", "1_000", "nan", "inf"):
        assert coerce(before, {"deal_value": typed})["deal_value"] == typed
