"""A pasted link must not run a command (issue 21, item 7).

A URL from the service holding `ESC[201~` (the end of a bracketed paste), a CR and a
command ran that command when the cockpit copied it raw (`o` with no browser) and the rep
pasted it into bash. Every copy now goes through `clipboard_text`, and a link is opened or
copied only when it is still an http(s) link after cleaning (`web_link`). These drive the
real app with no browser, so each `o` falls back to the clipboard.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

import support.tui_wire_data as W
from support.cockpit import Clipboard, cockpit
from support.prospecting import PEOPLE, fill_prospecting
from support.tui_wire_data import KESTREL_COMPANY
from warmline.store import Store
from warmline.tui.clipboard import clipboard_text, web_link
from warmline.tui.screens.prospecting.company import CompanyScreen, ContactScreen
from warmline.tui.screens.prospecting.people import FoundContactsScreen

PASTE_END = "\x1b[201~"
HOSTILE_URL = f"https://evil.example/x{PASTE_END}\rtouch /tmp/pwned\r"
"""Pasted into bash with bracketed paste on, the old raw copy ran `touch /tmp/pwned`."""
SNEAKY_URL = f"https://evil.example/x{PASTE_END}"
"""Only an escape to strip: still a link once cleaned, and copied clean."""
UNSAFE = ("\x1b", "\r", "\n", "\x9b", "[201~")


def no_browser(url: str) -> bool:
    """What `webbrowser.open` answers over SSH: so `o` copies the link instead."""
    return False


def assert_clean(copied: str) -> None:
    for bad in UNSAFE:
        assert bad not in copied, (bad, copied)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (HOSTILE_URL, None),
        (SNEAKY_URL, "https://evil.example/x"),
        ("  https://ok.example/path?q=1  ", "https://ok.example/path?q=1"),
        ("HTTPS://ok.example", "HTTPS://ok.example"),
        ("https://ok.example/\nrm -rf ~", None),
        ("java\x1b[0mscript:alert(1)", None),
        ("\x1b]52;c;ZXZpbA==\x07https://ok.example", "https://ok.example"),
        ("https://[::1", None),
        ("file:///etc/passwd", None),
        ("https://", None),
        (None, None),
        (42, None),
    ],
)
def test_a_link_is_judged_as_it_would_be_pasted(url: object, expected: str | None) -> None:
    assert web_link(url) == expected


def test_clipboard_text_strips_what_a_shell_would_act_on() -> None:
    assert clipboard_text(f"a{PASTE_END}\rb\nc\x9b201~d") == "a b cd"
    assert clipboard_text(f"line one{PASTE_END}\r\nline two\rthree", multiline=True) == "line one\nline two\nthree"


async def test_o_without_a_browser_copies_only_a_clean_link(store: Store) -> None:
    rec = store.active_recommendations()[0]
    cards = []
    for url in (HOSTILE_URL, SNEAKY_URL):
        cards.append({
            "id": rec.id if url == HOSTILE_URL else rec.id + 100_000, "lead_id": rec.lead_id, "action_type": "comment",
            "priority": "high", "target_url": url, "suggested_comment": f"Nice{PASTE_END}\rpost",
            "engagement_reason": "r", "source_page_label": "Blog", "status": "active",
            "created_at": W.ts(timedelta(days=9)),
        })
    store.upsert_recommendations(rec.lead_id, {"recommendations": cards})
    clipboard = Clipboard(works=True)
    app = cockpit(store, opener=no_browser, clipboard=clipboard)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.current.target_url == HOSTILE_URL
        await pilot.press("o", "y")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert clipboard.copied == ["Nice\npost"]  # the link was refused; the comment copied clean
        assert any("no web link" in str(n.message) for n in app._notifications)
        await pilot.press("space")
        await pilot.pause()
        assert app.screen.current.target_url == SNEAKY_URL
        await pilot.press("o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert clipboard.copied[-1] == "https://evil.example/x" == app.clipboard


async def test_people_found_and_saved_contacts_copy_only_clean_links(store: Store) -> None:
    fill_prospecting(store)
    hostile = [{**PEOPLE[0], "social_url": SNEAKY_URL}, {**PEOPLE[1], "social_url": HOSTILE_URL}]
    store.record_job("contact_search", 42, {
        "job_id": 42, "status": "completed", "company_id": KESTREL_COMPANY, "progress": 100,
        "created_at": W.ts(timedelta(minutes=2)), "completed_at": W.ts(timedelta(minutes=1)), "contacts": hostile,
    }, company_id=KESTREL_COMPANY)
    store.upsert_contacts([{**PEOPLE[0], "social_url": SNEAKY_URL}])
    clipboard = Clipboard(works=True)
    app = cockpit(store, opener=no_browser, clipboard=clipboard)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(FoundContactsScreen(next(job.key for job in store.jobs() if str(job.remote_id) == "42")))
        await pilot.pause()
        assert isinstance(app.screen, FoundContactsScreen)
        await pilot.press("o", "j", "o")  # Dana's link is cleaned; Ilkka's is refused
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert clipboard.copied == ["https://evil.example/x"]
        assert any("no profile link" in str(n.message) for n in app._notifications)
        app.push_screen(ContactScreen(PEOPLE[0]["id"]))
        await pilot.pause()
        await pilot.press("o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert clipboard.copied == ["https://evil.example/x"] * 2
    for copied in clipboard.copied:
        assert_clean(copied)


async def test_a_company_site_with_a_command_in_its_domain_is_not_copied(store: Store) -> None:
    fill_prospecting(store)
    store.upsert_companies([{"id": 500, "name": "Evil", "domain": f"evil.example{PASTE_END}\rtouch /tmp/pwned\r"}])
    clipboard = Clipboard(works=True)
    app = cockpit(store, opener=no_browser, clipboard=clipboard)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(CompanyScreen(500))
        await pilot.pause()
        await pilot.press("o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert clipboard.copied == []
        assert any("no website" in str(n.message) for n in app._notifications)


async def test_the_app_cleans_whatever_it_is_asked_to_copy(store: Store) -> None:
    """The one path every copy takes: a future caller that forgets to clean is still safe."""
    clipboard = Clipboard(works=True)
    app = cockpit(store, clipboard=clipboard)
    async with app.run_test(size=(120, 40)) as pilot:
        app.copy_text(HOSTILE_URL)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert clipboard.copied == ["https://evil.example/x touch /tmp/pwned "] == [app.clipboard]
