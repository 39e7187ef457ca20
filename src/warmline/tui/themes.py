"""Themes as TOML files (`themes/*.toml`), loaded into Textual `Theme` objects.

Shipping themes as files lets a rep copy one, change a few colours and drop it in a
themes directory without touching code (as posting does): the cockpit also loads every
`*.toml` in `themes/` next to the config file (`user_theme_dir`).
"""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

from textual.color import ColorParseError
from textual.theme import Theme

_THEME_FIELDS = {f.name for f in fields(Theme)}


class ThemeFileError(ValueError):
    """A theme file that cannot be used, with the file named in the message."""


def bundled_theme_dirs() -> list[Path]:
    """Where the shipped themes live: inside the wheel, or at the repository root."""
    package = Path(__file__).resolve().parent.parent
    return [path for path in (package / "themes", package.parent.parent / "themes") if path.is_dir()]


def load_theme_file(path: Path) -> Theme:
    """Read one theme file; unknown keys are refused so a typo does not pass silently."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from exc
    unknown = sorted(set(data) - _THEME_FIELDS)
    if unknown:
        raise ThemeFileError(f"{path}: unknown keys {', '.join(unknown)}")
    if "name" not in data or "primary" not in data:
        raise ThemeFileError(f"{path}: a theme needs at least `name` and `primary`")
    if not isinstance(data["name"], str) or not all(
        isinstance(value, str) for value in data.get("variables", {}).values()
    ):
        raise ThemeFileError(f"{path}: `name` and each of [variables] must be text")
    try:
        theme = Theme(**data)
        theme.to_color_system().generate()  # a bad colour fails here, not when picked
    except (TypeError, ValueError, AttributeError, ColorParseError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from exc
    return theme


def load_themes(directories: list[Path] | None = None) -> dict[str, Theme]:
    """All themes found in `directories` (default: the bundled ones), by name; later wins."""
    themes: dict[str, Theme] = {}
    for directory in directories if directories is not None else bundled_theme_dirs():
        for path in sorted(directory.glob("*.toml")):
            theme = load_theme_file(path)
            themes[theme.name] = theme
    return themes


def user_theme_dir(config_file: Path) -> Path:
    """The rep's own themes: `themes/` beside the config file (which may not exist yet)."""
    return config_file.parent / "themes"


def load_user_themes(directory: Path) -> tuple[dict[str, Theme], list[str]]:
    """The usable themes in `directory`, by name, and one line for each file that is not.

    A rep's file is not ours to trust: a broken one is reported and skipped, so one typo
    neither stops the cockpit nor hides the rep's other themes."""
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    if not directory.is_dir():
        return themes, problems
    for path in sorted(directory.glob("*.toml")):
        try:
            theme = load_theme_file(path)
        except ThemeFileError as exc:
            problems.append(str(exc))
            continue
        themes[theme.name] = theme
    return themes, problems
