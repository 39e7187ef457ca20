"""A recommendation's action in words on the lead page, the recommendations queue's card and
the outbox's decisions (issue 13: `share_content` was shown as the service spells it, or as
"share content"), from the one table the command line uses too."""

from __future__ import annotations

from support.cockpit import cockpit, text_of
from support.store_data import detail_item
from support.tables import cell_texts
from support.waiting import until
from warmline.store import Store
from warmline.tui.screens.lead_detail import LeadDetailScreen
from warmline.tui.screens.outbox import OutboxScreen
from warmline.tui.screens.recommendations import RecommendationsScreen
from warmline.tui.widgets.tables import RowTable
from warmline.vocabulary import recommendation_action


def test_actions_are_named_in_words() -> None:
    assert [
        recommendation_action(a)
        for a in ("comment", "follow", "like", "share_content", "check_in", "congratulate")
    ] == ["Comment", "Follow", "Like", "Share content", "Check in", "Congratulate"]
    assert recommendation_action("send_gift") == "Send gift"  # unknown: words, not snake_case
    assert recommendation_action(None) == ""


async def test_the_lead_page_names_a_recommendation_s_action_in_words(store: Store) -> None:
    detail = detail_item(1, company_name="Acme")
    for rec, action in zip(detail["recommendations"], ("share_content", "check_in"), strict=False):
        rec["action_type"] = action
    store.upsert_lead_detail(detail)
    app = cockpit(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_lead(1)
        await until(
            lambda: (
                isinstance(app.screen, LeadDetailScreen)
                and bool(app.screen.query("#detail-recs"))
                and "Share content" in text_of(app, "#detail-recs")
            ),
            pilot=pilot,
        )
        text = text_of(app, "#detail-recs")
        assert "share_content" not in text and "check_in" not in text


async def test_the_recommendations_queue_names_the_card_s_action_in_words(store: Store) -> None:
    first = store.active_recommendations()[0]
    assert first.action_type == "share_content"
    app = cockpit(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(
            lambda: (
                isinstance(app.screen, RecommendationsScreen)
                and bool(app.screen.query("#recs-body"))
            ),
            pilot=pilot,
        )
        await until(lambda: "Share content" in text_of(app, "#recs-body"), pilot=pilot)
        assert "share content" not in text_of(app, "#recs-body")


async def test_the_outbox_names_a_decision_s_action_in_words(store: Store) -> None:
    recs = {rec.action_type: rec for rec in store.active_recommendations()}
    assert {"share_content", "check_in"} <= recs.keys()
    for kind, action in (
        ("complete_recommendation", "share_content"),
        ("dismiss_recommendation", "check_in"),
    ):
        rec = recs[action]
        store.enqueue(
            kind, {"recommendation_id": rec.id, "lead_id": rec.lead_id}, lead_id=rec.lead_id
        )
    app = cockpit(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await until(lambda: isinstance(app.screen, OutboxScreen), pilot=pilot)
        table = app.screen.query_one("#outbox-table", RowTable)
        await until(lambda: table.row_count == 2, pilot=pilot)
        assert sorted(cell_texts(table, 3)) == ["Check in", "Share content"]
