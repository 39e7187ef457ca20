"""The cockpit shell: first-run screen, themes, keymap, help screen, command palette."""

from pathlib import Path

import pytest
from rich.console import Console
from textual.color import Color
from textual.command import CommandList

from support.cockpit import cockpit, fill, keys_missing_from_key_bar, settings
from support.waiting import until
from warmline.cockpit import startup_notices
from warmline.config import load_config
from warmline.tui.app import WarmlineApp
from warmline.tui.keys import keyboard_reference
from warmline.tui.screens.dialogs import ConfirmDialog, DealDialog
from warmline.tui.screens.help import HelpScreen, help_sections
from warmline.tui.screens.lead_list import LeadListScreen
from warmline.tui.screens.prospecting.lookup import EarlierLookups
from warmline.tui.themes import ThemeFileError, bundled_theme_dirs, load_theme_file, load_themes
from warmline.tui.widgets.key_bar import KeyBar
from warmline.tui.widgets.status_line import StatusLine


async def test_first_run_screen_explains_how_to_set_a_key() -> None:
    app = WarmlineApp(None, config_path=Path("/home/rep/.config/warmline/config.toml"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        text = app.screen.query_one("#first-run-text").render().plain
        assert "WARMLINE_API_KEY" in text
        assert "The config file: /home/rep/.config/warmline/config.toml" in text
        assert "warmline demo" in text
        lines = text.splitlines()
        for command in ("warmline key set", "warmline config init", "warmline config edit"):
            assert any(line.strip().startswith(command) for line in lines), command
        await pilot.press("q")
    assert app.return_code == 0


def test_bundled_themes_load_as_dark_and_light() -> None:
    themes = load_themes()
    assert themes["warmline-dark"].dark is True
    assert themes["warmline-light"].dark is False


def test_bundled_themes_pass_every_check_a_reps_file_gets() -> None:
    """The cockpit trusts its own themes at start-up (`load_themes` skips the CSS check):
    this is where they are checked."""
    paths = [path for directory in bundled_theme_dirs() for path in directory.glob("*.toml")]
    assert len(paths) >= 2
    for path in paths:
        load_theme_file(path)


def test_theme_file_with_unknown_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nprimary = "#ffffff"\nprimry = "#000000"\n')
    with pytest.raises(ThemeFileError, match="primry"):
        load_theme_file(path)


async def test_theme_is_selected_from_options_and_unknown_falls_back(store) -> None:
    app = cockpit(store, config=settings(theme="warmline-light"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme == "warmline-light"
        # Set before the app ran, with no second parse of the CSS: it is applied all the same.
        assert {"-theme-warmline-light", "-light-mode"} <= app.classes and "-dark-mode" not in app.classes
        light = app.get_theme("warmline-light")
        assert light is not None and light.background is not None
        assert app.screen.styles.background == Color.parse(light.background)
    app = cockpit(store, config=settings(theme="no-such-theme"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.theme == "warmline-dark"
        assert any("no-such-theme" in str(n.message) for n in app._notifications)


async def test_keymap_from_config_rebinds_by_id(store) -> None:
    app = cockpit(store, config=settings(keymap={"leads.sort": "o", "leads.warm": "w"}))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LeadListScreen)
        await pilot.press("o")
        assert app.screen._sort == "score"
        await pilot.press("s")
        assert app.screen._sort == "score"
        await pilot.press("w")
        assert app.screen._status == "warm"


async def test_unknown_keymap_ids_are_reported(store) -> None:
    app = cockpit(store, config=settings(keymap={"leads.sortt": "o", "leads.warm": "w"}))
    async with app.run_test() as pilot:
        await pilot.pause()
        messages = [str(n.message) for n in app._notifications]
        assert any("leads.sortt" in m and "leads.warm" not in m for m in messages)


async def test_what_was_said_before_the_screen_is_said_on_it(store) -> None:
    """Lines written on stderr before the cockpit's screen (a config setting it does not
    read, a key file others can read, a log directory it cannot write) are drawn over by
    it: a rep with `base_url` at the top of the file saw only "offline"."""
    said = ("The config file has settings Warmline does not read: base_url (under [service]?).",
            "Warning: /home/rep/.config/warmline/config.toml holds the API key and other users can read it")
    app = cockpit(store, notices=said)
    async with app.run_test() as pilot:
        await pilot.pause()
        messages = [str(n.message) for n in app._notifications]
    assert all(line in messages for line in said), messages


def test_the_startup_notices_name_unread_settings_and_a_readable_key_file(tmp_path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('base_url = "x"\n[service]\napi_key = "k-123"\n')
    path.chmod(0o644)
    config = load_config(path, env={})
    notices = startup_notices(config, ["the log directory cannot be written"])
    assert notices[0] == "The config file has settings Warmline does not read: base_url (under [service]?)."
    assert notices[1].startswith(f"Warning: {path} holds the API key and other users can read it")
    assert notices[2] == "Warning: the log directory cannot be written"
    path.chmod(0o600)
    path.write_text('[service]\napi_key = "k-123"\n')
    assert startup_notices(load_config(path, env={}), []) == []


def test_keyboard_reference_lists_every_screen_with_ids() -> None:
    reference = keyboard_reference({"recommendations.complete": "C"})
    for title in ("Lead list", "Lead detail", "Recommendations queue", "Job monitor", "Outbox"):
        assert f"### {title}" in reference
    assert "| `C` | Complete | `recommendations.complete` |" in reference
    assert "| `?` / `f1` | Help | `app.help` |" in reference


async def test_help_lists_every_binding_of_the_screen_with_remapped_keys(store) -> None:
    app = cockpit(store, config=settings(keymap={"leads.sort": "o"}))
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        ids = {entry.binding_id: entry for entry in app.screen._entries}
        for binding in LeadListScreen.BINDINGS:
            assert binding.id in ids
        for binding_id in ("list.down", "list.open", "app.help", "app.recommendations", "app.quit"):
            assert binding_id in ids
        assert ids["leads.sort"].keys == ("o",)
        await pilot.press("escape")
        assert isinstance(app.screen, LeadListScreen)


async def test_help_lists_the_cockpit_keys_first_and_textuals_last_under_a_heading(store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        sections = dict(help_sections(app.screen._entries))
        assert list(sections) == ["This screen", "Everywhere", "Textual (scrolling, focus, copy)"]
        ids = {heading: {entry.binding_id for entry in entries} for heading, entries in sections.items()}
        assert {"list.down", "list.open", "leads.sort"} <= ids["This screen"]
        assert {"app.help", "app.recommendations", "app.quit"} <= ids["Everywhere"]
        builtin = {entry.description for entry in sections["Textual (scrolling, focus, copy)"]}
        assert {"Scroll Left", "Focus Next", "Copy selected text"} <= builtin
        assert ids["Textual (scrolling, focus, copy)"] == {None}
        console = Console(width=100, color_system=None)
        with console.capture() as drawn:
            console.print(app.screen._body())
        lines = [line.strip() for line in drawn.get().splitlines()]
        assert lines[0] == "This screen"
        assert lines[1].startswith("↑ / k") and lines[1].endswith("list.up")
        textuals = lines.index("Textual (scrolling, focus, copy)")
        assert lines.index("Everywhere") < textuals
        assert min(n for n, line in enumerate(lines) if "Scroll Left" in line) > textuals


async def test_help_says_how_many_leads_read_offline(store) -> None:
    store.upsert_leads([{"id": 9_001, "company_name": "Never Opened Ltd", "lead_status": "cold"}])
    cached, total = store.detail_coverage()
    assert (cached, total - cached) == (total - 1, 1)  # one lead whose detail never came
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        line = app.screen.query_one("#help-offline").render().plain
        assert line == f"Details cached offline: {cached} of {total} leads."


async def wait_for_hits(app, pilot, first: str) -> None:
    """The palette searches in the background: wait until its first hit is `first`."""

    def offered() -> bool:
        hits = app.screen.query(CommandList)
        return bool(hits and hits.first().option_count and first in str(hits.first().get_option_at_index(0).prompt))

    await until(offered, pilot=pilot, step=0.05, what=f"the palette offering {first!r}")


async def test_palette_runs_an_action_of_the_current_screen(store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.press(*"Warm")
        await wait_for_hits(app, pilot, "Warm")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen._status == "warm"


async def test_palette_switches_theme(store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.press(*"warmline-light")
        await wait_for_hits(app, pilot, "warmline-light")
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "warmline-light"


async def test_a_theme_picked_in_the_palette_is_kept_on_restart_over_the_configs(store) -> None:
    app = cockpit(store, config=settings(theme="warmline-dark"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p", *"warmline-light")
        await wait_for_hits(app, pilot, "warmline-light")
        await pilot.press("enter")
        await until(lambda: app.theme == "warmline-light", pilot=pilot, what="the light theme")
    restarted = cockpit(store, config=settings(theme="warmline-dark"))  # the same cache, the config unchanged
    async with restarted.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert restarted.theme == "warmline-light"
        assert not restarted._notifications


async def test_user_themes_beside_the_config_are_offered_and_a_bad_one_is_one_line(store, tmp_path: Path) -> None:
    themes = tmp_path / "themes"
    themes.mkdir()
    (themes / "ocean.toml").write_text('name = "ocean"\nprimary = "#0077be"\ndark = true\n')
    (themes / "broken.toml").write_text('name = "broken"\nprimary = \n')
    (themes / "pinkish.toml").write_text('name = "pinkish"\nprimary = "notacolour"\n')
    app = cockpit(store, config_path=tmp_path / "config.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        messages = [str(n.message) for n in app._notifications]
        assert len(messages) == 2 and not any("\n" in m for m in messages), messages
        assert "broken.toml" in messages[0] and "pinkish.toml: failed to parse 'notacolour'" in messages[1]
        assert "broken" not in app.available_themes and "pinkish" not in app.available_themes
        await pilot.press("ctrl+p", *"ocean")
        await wait_for_hits(app, pilot, "ocean")
        await pilot.press("enter")
        await until(lambda: app.theme == "ocean", pilot=pilot, what="the user's theme")


SCREEN_NAMES = ["leads", "recommendations", "jobs", "outbox", "prospecting", "companies", "contacts", "research"]


@pytest.mark.parametrize("filled", [False, True], ids=["empty", "filled"])
async def test_status_line_and_key_bar_sit_at_the_bottom_of_every_screen(empty_store, filled: bool) -> None:
    """Even when a screen's body is a short empty-state text, not right under it."""
    if filled:
        fill(empty_store)
    app = cockpit(empty_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for name in SCREEN_NAMES:
            app.action_open(name)
            await pilot.pause()
            status, keys = app.screen.query_one(StatusLine), app.screen.query_one(KeyBar)
            assert (status.region.y, keys.region.y) == (22, 23), name
        app.open_lead(101)
        await pilot.pause()
        assert app.screen.query_one(KeyBar).region.y == 23


async def test_a_dialog_shows_its_own_keys_over_the_key_bar_of_the_screen_under_it(store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(103)
        await pilot.pause()
        lead_keys = app.screen.query_one(KeyBar).render().plain
        assert "Log activity" in lead_keys
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DealDialog)
        bar = app.screen.query_one(KeyBar)
        assert bar.region.y == 39
        shown = bar.render().plain
        assert "^s Send" in shown and "esc Cancel" in shown
        assert "Log activity" not in shown and "Recs" not in shown
        assert app.get_widget_at(5, 39)[0] is bar  # on top of the lead page's bar
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        shown = app.screen.query_one(KeyBar).render().plain
        assert "y Yes" in shown and "n No" in shown and "Log activity" not in shown
        await pilot.press("n", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one(KeyBar).render().plain.startswith(" esc Close help ")


async def test_the_earlier_lookups_dialog_shows_its_own_keys(store) -> None:
    store.save_lookup({"query": "dental clinics", "industries": [], "countries": [], "regions": [], "broaden_search": False},
                      {"companies": [], "total": 0, "saved_count": 0, "quota_limited": 0})
    app = cockpit(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("I", "ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, EarlierLookups)
        bar = app.screen.query_one(KeyBar)
        assert bar.region.y == 23 and app.get_widget_at(5, 23)[0] is bar
        assert bar.render().plain.startswith(" esc Cancel ")


@pytest.mark.parametrize("width", [80, 120])
async def test_a_key_bar_too_long_for_the_line_ends_saying_there_are_more(store, width: int) -> None:
    app = cockpit(store, config=settings(keymap={"app.help": "h"}))
    async with app.run_test(size=(width, 30)) as pilot:
        app.open_lead(103)
        await pilot.pause()
        shown = app.screen.query_one(KeyBar).render().plain
        assert shown.startswith(" esc Back  a Log activity  n Note  p Pin/unpin contact ")
        assert shown.endswith(" …  h more  ^p palette")
        assert len(shown) <= width
        assert " h Help " not in shown  # the marker names the help key once


async def test_a_key_bar_that_fits_has_no_more_marker(store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(260, 30)) as pilot:
        app.open_lead(103)
        await pilot.pause()
        shown = app.screen.query_one(KeyBar).render().plain
        assert "…" not in shown and " ? Help " in shown and " d Deal " in shown
        assert shown.endswith(" ^p palette")


@pytest.mark.parametrize("name", SCREEN_NAMES)
async def test_every_key_a_screen_shows_is_in_its_key_bar(store, name: str) -> None:
    """A screen's own keys marked to show are in its key bar, whatever is focused. The
    focused table's hidden enter ("select the row") hid the templates' "Run over companies"
    and the job lists' "Results", so the main key of those screens was nowhere on them.
    (The prospecting results screens: test_tui_prospecting.)"""
    app = cockpit(store)
    async with app.run_test(size=(260, 30)) as pilot:
        app.action_open(name)
        await pilot.pause()
        assert keys_missing_from_key_bar(app) == []
