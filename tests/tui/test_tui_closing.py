"""Closing the cockpit while a screen is still opening is quiet.

Textual mounts none of a screen's widgets once the screen is being taken down, yet still
sends it Mount; a lead's page then looked for its widgets and the exit ended in a
traceback (`NoMatches`). Seen when the cockpit closed the moment a page opened: a test
leaving `run_test` right after `j j enter`, a rep's `q` or a signal in the same instant.
"""

from __future__ import annotations

from support.cockpit import cockpit
from warmline.store import Store
from warmline.tui.screens.lead_detail import LeadDetailScreen


async def test_closing_while_a_lead_page_opens_raises_nothing(store: Store) -> None:
    app = cockpit(store)
    lead_id = store.lead_page(limit=1)[0].id
    async with app.run_test(size=(120, 40)):
        page = LeadDetailScreen(lead_id)
        app.push_screen(page)
    # Leaving `run_test` closed the app before the page's widgets mounted.
    assert not page.query("#detail-company")
