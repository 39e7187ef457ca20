"""A rep's broken theme file is reported in one line and skipped (issue 21, item 10).

Before: a file with a wrong type (`variables = ["x"]`) raised AttributeError while the
cockpit was built, even with another theme selected; a CSS value Textual refuses
(`block-cursor-background = "}"`) was offered, and picking it, or naming it in the
config, stopped the cockpit (unstarted, exit 0). docs/user-guide.md promises such a file
is "reported and skipped".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cockpit import cockpit, settings
from warmline.store import Store
from warmline.tui.themes import MAX_PROBLEM, load_user_themes

GOOD = 'name = "ocean"\nprimary = "#0077be"\ndark = true\n'
BAD = {
    "variables-list": ('name = "v"\nprimary = "#112233"\nvariables = ["a"]\n', "[variables] must be a table"),
    "variables-text": ('name = "v2"\nprimary = "#112233"\nvariables = "x"\n', "[variables] must be a table"),
    "variable-table": ('name = "v3"\nprimary = "#112233"\n[variables.x]\ny = "z"\n', "[variables] must be a table"),
    "primary-number": ('name = "p"\nprimary = 5\n', "`primary` must be text"),
    "name-number": ("name = 5\nprimary = \"#112233\"\n", "`name` must be text"),
    "name-empty": ('name = " "\nprimary = "#112233"\n', "`name` must not be empty"),
    "dark-text": ('name = "d"\nprimary = "#112233"\ndark = "yes"\n', "`dark` must be true or false"),
    "spread-text": ('name = "l"\nprimary = "#112233"\nluminosity_spread = "x"\n', "`luminosity_spread` must be a number"),
    "alpha-inf": ('name = "i"\nprimary = "#112233"\ntext_alpha = inf\n', "`text_alpha` must be a number"),
    "foreground-list": ('name = "f"\nprimary = "#112233"\nforeground = ["x"]\n', "`foreground` must be text"),
    "css-brace": ('name = "c"\nprimary = "#112233"\n[variables]\nfooter-key-foreground = "}"\n', "cannot be read as CSS"),
    "css-colour": (
        'name = "c2"\nprimary = "#112233"\n[variables]\nblock-cursor-background = "nope nope"\n',
        "block-cursor-background = 'nope nope'",
    ),
    "css-style": (
        'name = "c3"\nprimary = "#112233"\n[variables]\nblock-cursor-text-style = "boldest"\n',
        "block-cursor-text-style",
    ),
    "css-long": ('name = "c4"\nprimary = "#112233"\n[variables]\nx = "' + "(" * 5000 + '"\n', "cannot be read as CSS"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_each_bad_file_is_one_short_line_naming_it(name: str, tmp_path: Path) -> None:
    text, said = BAD[name]
    (tmp_path / f"{name}.toml").write_text(text)
    (tmp_path / "ocean.toml").write_text(GOOD)
    themes, problems = load_user_themes(tmp_path)
    assert list(themes) == ["ocean"]
    (problem,) = problems
    assert f"{name}.toml: " in problem and said in problem, problem
    assert "\n" not in problem and len(problem) <= MAX_PROBLEM


def test_a_good_theme_with_good_variables_loads(tmp_path: Path) -> None:
    (tmp_path / "fine.toml").write_text(
        'name = "fine"\nprimary = "#112233"\nluminosity_spread = 0.2\ntext_alpha = 1\n'
        '[variables]\nblock-cursor-background = "#D9713A 50%"\nblock-cursor-text-style = "bold underline"\n'
        'my-own = "1 2"\n'
    )
    themes, problems = load_user_themes(tmp_path)
    assert list(themes) == ["fine"] and problems == []


def bad_theme_dir(tmp_path: Path) -> Path:
    themes = tmp_path / "themes"
    themes.mkdir()
    (themes / "ocean.toml").write_text(GOOD)
    for name in ("variables-list", "css-brace", "css-colour"):
        (themes / f"{name}.toml").write_text(BAD[name][0])
    return tmp_path / "config.toml"


async def test_bad_files_beside_another_theme_are_reported_and_skipped(store: Store, tmp_path: Path) -> None:
    app = cockpit(store, config_path=bad_theme_dir(tmp_path), config=settings(theme="warmline-light"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.theme == "warmline-light"
        messages = [str(n.message) for n in app._notifications]
        assert len(messages) == 3 and all(m.startswith("Theme file skipped: ") for m in messages), messages
        assert not {"v", "c", "c2"} & set(app.available_themes)
        app.theme = "ocean"  # the good one still works
        await pilot.pause()
        assert app.theme == "ocean"
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("configured", ["c", "c2"])
async def test_a_configured_theme_textual_cannot_read_falls_back(store: Store, tmp_path: Path, configured: str) -> None:
    """Named in the config, the bad theme stopped the cockpit before its first frame."""
    app = cockpit(store, config_path=bad_theme_dir(tmp_path), config=settings(theme=configured))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.theme == "warmline-dark"
        messages = [str(n.message) for n in app._notifications]
        assert any(f"Unknown theme {configured!r}" in m for m in messages), messages
        assert app.screen.query("StatusLine")
