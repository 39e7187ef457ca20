"""The cockpit in a browser (issue 25): links, copies, exports and keys where the rep is.

Served by `warmline web`, the cockpit runs on one machine and is drawn in the rep's
browser, maybe on another. `warmline.tui.browser.in_browser` is the one place that tells
(Textual's web driver); these tests make the app believe it (monkeypatching that helper)
and check that a link goes to Textual's `open_url` (a new tab) instead of `webbrowser`, an
export is offered as a download (`deliver_text`) besides being written, a copy says
"copied" without running the machine's copy command, and help names the browser's keys.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding

from support.cockpit import Clipboard, Opened, cockpit, settings, text_of
from support.waiting import until
from warmline.store import Store
from warmline.tui import browser
from warmline.tui.keys import _sections
from warmline.tui.screens.help import HelpScreen


@pytest.fixture
def in_a_browser(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """The app believes it is drawn in a browser; Textual's browser hooks are recorded
    (the pilot's headless driver would write a delivered file to the Downloads folder)."""
    calls: dict[str, list[Any]] = {"open_url": [], "deliver_text": []}
    monkeypatch.setattr(browser, "in_browser", lambda app: True)
    monkeypatch.setattr(App, "open_url", lambda app, url, *, new_tab=True: calls["open_url"].append((url, new_tab)))

    def deliver_text(app: App[Any], path_or_file: Any, **options: Any) -> str:
        calls["deliver_text"].append((path_or_file, options))
        return "key"

    monkeypatch.setattr(App, "deliver_text", deliver_text)
    return calls


def notices(app: Any) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


async def test_a_link_opens_in_a_new_tab_of_the_browser(store: Store, in_a_browser: dict[str, list[Any]]) -> None:
    opened = Opened()
    app = cockpit(store, opener=opened)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r", "o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        url = app.screen.current.target_url
    assert in_a_browser["open_url"] == [(url, True)]
    assert opened.urls == []  # not the machine's browser
    assert not app._notifications


async def test_in_a_terminal_the_link_goes_to_the_system_browser(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    drivers: list[str] = []
    monkeypatch.setattr(App, "open_url", lambda app, url, *, new_tab=True: drivers.append(url))
    opened = Opened()
    app = cockpit(store, opener=opened)
    async with app.run_test(size=(120, 40)) as pilot:
        assert not browser.in_browser(app)  # the pilot's headless driver is no browser
        await pilot.press("r", "o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert opened.urls == [app.screen.current.target_url]
    assert drivers == []


async def test_a_copy_in_the_browser_says_copied(store: Store, in_a_browser: dict[str, list[Any]]) -> None:
    clipboard = Clipboard(works=True)
    app = cockpit(store, clipboard=clipboard)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        expected = app.screen.current.suggested_comment
        await pilot.press("y")
        await until(lambda: app._notifications, pilot=pilot, what="the copy's notice")
        assert notices(app) == ["Suggested comment copied."]
        assert app.clipboard == expected  # OSC 52: the browser's terminal puts it on the clipboard
    assert clipboard.copied == []  # never the machine's copy command


async def test_an_export_in_the_browser_is_offered_as_a_download_and_written(
    store: Store, tmp_path: Path, in_a_browser: dict[str, list[Any]]
) -> None:
    target = tmp_path / "leads.json"
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("X")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#export-kind").focus()
        await pilot.press("tab", "right", "enter")  # json
        dialog.query_one("#export-path").value = str(target)
        await pilot.press("ctrl+s")
        await until(lambda: in_a_browser["deliver_text"], pilot=pilot, what="the download")
        await until(lambda: app._notifications, pilot=pilot, what="the notice")
        (notice,) = notices(app)
    assert in_a_browser["deliver_text"] == [(target, {"save_filename": "leads.json"})]
    assert notice.startswith("Exported ") and notice.endswith(f"leads to {target}. Your browser downloads it too.")
    assert json.loads(target.read_text())  # written as well


async def test_an_export_in_a_terminal_is_only_written(store: Store, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    delivered: list[Any] = []
    monkeypatch.setattr(App, "deliver_text", lambda app, *args, **options: delivered.append(args))
    target = tmp_path / "leads.csv"
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("X")
        await pilot.pause()
        app.screen.query_one("#export-path").value = str(target)
        await pilot.press("ctrl+s")
        await until(lambda: app._notifications, pilot=pilot, what="the notice")
        (notice,) = notices(app)
    assert notice.endswith(f"leads to {target}.")
    assert delivered == [] and target.exists()


async def test_help_in_the_browser_names_the_keys_the_browser_keeps(
    store: Store, in_a_browser: dict[str, list[Any]]
) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert text_of(app, "#help-note") == browser.BROWSER_KEYS_NOTE
        assert "ctrl+w" in browser.BROWSER_KEYS_NOTE and "ctrl+u" in browser.BROWSER_KEYS_NOTE


async def test_help_in_a_terminal_has_no_browser_note(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert not app.screen.query("#help-note")


def test_no_key_of_the_cockpit_is_one_the_browser_keeps_alone() -> None:
    """Every binding can be pressed in a browser: a key the browser keeps for itself
    (ctrl+w, ctrl+t, ctrl+n, ...) never reaches the page, so it needs another beside it."""
    lost = [
        f"{title}: {binding.key} ({binding.id})"
        for title, bindings in _sections()
        for binding in bindings
        if isinstance(binding, Binding)
        and len(browser.kept_by_browser(binding.key)) == len([key for key in binding.key.split(",") if key.strip()])
    ]
    assert lost == []


def test_the_keys_a_browser_keeps_are_told_apart() -> None:
    assert browser.kept_by_browser("ctrl+s,ctrl+enter") == []
    assert browser.kept_by_browser("ctrl+w, alt+backspace") == ["ctrl+w"]
    assert {"ctrl+w", "ctrl+t", "ctrl+n"} <= browser.BROWSER_KEEPS


async def test_the_first_screen_gets_the_focus_back_when_the_browser_gives_the_app_focus(store: Store) -> None:
    """Textual's web driver says "the app lost focus" as it starts, before Today focuses
    its table: the screen's own auto-focus then does nothing, and Textual's return of the
    focus only restores a widget that had it. So `j`/`k` did nothing on Today in a browser
    until the rep left it once. Now the app's return of focus focuses what the screen
    would have."""
    from textual import events

    from warmline.tui.screens.today import TodayScreen

    app = cockpit(store, config=settings(start_screen="today"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: isinstance(app.screen, TodayScreen), pilot=pilot, cap=10)
        app.post_message(events.AppBlur())
        await until(lambda: app.screen.focused is None, pilot=pilot)
        app.push_screen(TodayScreen())  # a screen that resumes while the app has no focus
        await until(lambda: isinstance(app.screen, TodayScreen) and app.screen.is_current, pilot=pilot)
        await pilot.pause()
        assert app.screen.focused is None
        app.post_message(events.AppFocus())
        await until(lambda: app.screen.focused is not None, pilot=pilot)
        assert app.screen.focused is app.screen.query_one("#today-table")
