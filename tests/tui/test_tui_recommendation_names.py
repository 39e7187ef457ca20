"""A recommendation's action in words on the lead page (issue 13: `share_content` was shown
as the service spells it), from the one table the command line uses too."""

from __future__ import annotations

from support.cockpit import cockpit, text_of
from support.store_data import detail_item
from support.waiting import until
from warmline.recommendation_names import recommendation_action
from warmline.store import Store
from warmline.tui.screens.lead_detail import LeadDetailScreen


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
