"""Text left in a form outlives the cockpit: quitting with a half-written activity, or
after setting one aside, loses nothing; a bad drafts file costs one line, not the file."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import pytest
from textual.widgets import TextArea

from support.cockpit import cockpit, text_of
from support.tui_wire_data import KESTREL
from warmline.store import Store
from warmline.tui.drafts import FILE_NAME, LIMIT, Drafts
from warmline.tui.screens.dialogs import TextDialog


def drafts_file(store: Store) -> Path:
    assert store.path is not None
    return store.path.parent / FILE_NAME


async def _open_activity_form(app, pilot) -> TextArea:  # type: ignore[no-untyped-def]
    app.open_lead(KESTREL)
    await pilot.pause()
    await pilot.press("a")
    await pilot.pause()
    assert isinstance(app.screen, TextDialog)
    return app.screen.query_one("#dialog-text", TextArea)


async def test_quitting_with_a_half_written_activity_keeps_it_for_the_next_start(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_activity_form(app, pilot)
        await pilot.press(*"Called Dana, she wants")
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert store.outbox_rows() == []  # nothing sent: it is not an action yet
    assert stat.S_IMODE(drafts_file(store).stat().st_mode) == 0o600

    again = cockpit(store)
    async with again.run_test(size=(120, 40)) as pilot:
        text = await _open_activity_form(again, pilot)
        assert text.text == "Called Dana, she wants"
        assert "your text from before" in text_of(again, ".dialog-title")
        await pilot.press(*" a demo", "ctrl+s")
        await pilot.pause()
    assert [op.payload["description"] for op in store.outbox_rows()] == ["Called Dana, she wants a demo"]
    assert json.loads(drafts_file(store).read_text()) == []  # sent: dropped from the file too


async def test_a_set_aside_note_survives_a_restart(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("n", *"Budget owner is the CFO", "escape")
        await pilot.pause()
    again = cockpit(store)
    async with again.run_test(size=(120, 40)) as pilot:
        again.open_lead(KESTREL)
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert again.screen.query_one("#dialog-text", TextArea).text == "Budget owner is the CFO"


async def test_an_unreadable_drafts_file_is_kept_aside_and_said_once(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    bad = drafts_file(store)
    bad.write_bytes(b"\xff\xfe{not json")
    app = cockpit(store)
    with caplog.at_level(logging.WARNING):
        async with app.run_test(size=(120, 40)) as pilot:
            text = await _open_activity_form(app, pilot)
            assert text.text == ""
            await pilot.press(*"Fresh text", "escape")
            await pilot.pause()
    kept = list(bad.parent.glob(f"{FILE_NAME}.unreadable*"))
    assert [path.read_bytes() for path in kept] == [b"\xff\xfe{not json"]  # nothing lost
    assert json.loads(bad.read_text()) == [["activity", KESTREL, "Fresh text"]]
    said = [record.getMessage() for record in caplog.records if FILE_NAME in record.getMessage()]
    assert len(said) == 1 and "\n" not in said[0]


def test_text_from_the_file_is_made_safe_for_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text(json.dumps([["note", 7, "ok \x1b]52;c;aGk=\x07then\x1b[2J end\r\nline two"]]))
    assert Drafts(path).text(("note", 7)) == "ok then end\nline two"


def test_entries_of_the_wrong_shape_are_skipped_and_the_limit_holds(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    rows: list[object] = [["note", "x", "id not a number"], {"a": 1}, ["note", 1], ["note", True, "bool id"]]
    rows += [["activity", lead, f"text {lead}"] for lead in range(LIMIT + 5)]
    path.write_text(json.dumps(rows))
    drafts = Drafts(path)
    assert drafts.text(("note", 1)) == "" and drafts.text(("activity", 0)) == ""  # the oldest went
    assert drafts.text(("activity", LIMIT + 4)) == f"text {LIMIT + 4}"
    drafts.keep(("activity", LIMIT + 4), "")
    assert len(json.loads(path.read_text())) == LIMIT - 1


def test_without_a_data_dir_drafts_live_in_memory() -> None:
    drafts = Drafts(None)
    drafts.keep(("note", 1), "kept")
    assert drafts.text(("note", 1)) == "kept"


def test_two_cockpits_keep_each_others_texts(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    first, second = Drafts(path), Drafts(path)
    first.keep(("note", 1), "from the terminal")
    second.keep(("note", 2), "from the browser")
    assert Drafts(path).text(("note", 1)) == "from the terminal"
    assert second.text(("note", 1)) == "from the terminal"  # the form opens with it there too
    second.keep(("note", 1), "")  # sent in the second: gone for both
    assert Drafts(path).text(("note", 1)) == "" and Drafts(path).text(("note", 2)) == "from the browser"


def test_a_full_disk_keeps_the_texts_in_memory_and_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("warmline.tui.drafts.write_private", full)
    drafts = Drafts(tmp_path / FILE_NAME)
    with caplog.at_level(logging.WARNING):
        drafts.keep(("note", 1), "one")
        drafts.keep(("note", 2), "two")
    assert drafts.text(("note", 1)) == "one" and drafts.text(("note", 2)) == "two"
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 1 and "No space left on device" in said[0]


async def test_the_lead_page_says_which_of_its_forms_holds_unsent_text(store: Store) -> None:
    app = cockpit(store)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_lead(KESTREL)
        await pilot.pause()
        assert "unsent" not in text_of(app, "#heading-activity") + text_of(app, "#detail-notes")
        await pilot.press("a", *"Called Dana", "escape", "n", *"CFO signs", "escape")
        await pilot.pause()
        assert "unsent text kept: a opens it" in text_of(app, "#heading-activity")
        assert "unsent text kept: n opens it" in text_of(app, "#detail-notes")
        await pilot.press("a", "ctrl+s")
        await pilot.pause()
        assert "unsent" not in text_of(app, "#heading-activity")  # sent: nothing kept
        assert "unsent text kept" in text_of(app, "#detail-notes")
