"""Themes as TOML files (`themes/*.toml`), loaded into Textual `Theme` objects.

Shipping themes as files lets a rep copy one, change a few colours and drop it in a
themes directory without touching code (as posting does): the cockpit also loads every
`*.toml` in `themes/` next to the config file (`user_theme_dir`).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

from textual.color import ColorParseError
from textual.css.stylesheet import Stylesheet, StylesheetParseError
from textual.theme import Theme

from warmline.textsafe import terminal_line

_THEME_FIELDS = {f.name for f in fields(Theme)}


class ThemeFileError(ValueError):
    """A theme file that cannot be used, with the file named in the message."""


def bundled_theme_dirs() -> list[Path]:
    """Where the shipped themes live: inside the wheel, or at the repository root."""
    package = Path(__file__).resolve().parent.parent
    return [path for path in (package / "themes", package.parent.parent / "themes") if path.is_dir()]


MAX_PROBLEM = 200
"""A skipped file's line at most: a parser's message may quote a whole hostile value."""


def _short(text: object, limit: int = MAX_PROBLEM) -> str:
    """`text` as one safe line of at most `limit` characters."""
    line = terminal_line(text)
    return line if len(line) <= limit else line[: limit - 1] + "…"


_FIELD_KINDS: dict[str, tuple[type, ...]] = {"str": (str,), "str | None": (str,), "bool": (bool,), "float": (int, float)}
"""What a theme file may give each field of `Theme`, by the field's declared type."""
_KIND_NAMES = {str: "text", bool: "true or false", int: "a number", float: "a number"}


def _check_types(data: dict[str, Any], path: Path) -> None:
    """Each key the type `Theme` declares: a wrong one (`primary = 5`, `variables = [..]`)
    would fail far from the file, when the theme is built or picked."""
    for item in fields(Theme):
        if item.name not in data or item.name == "variables":
            continue
        value, kinds = data[item.name], _FIELD_KINDS.get(str(item.type))
        wrong = kinds is not None and (not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)))
        if wrong or (isinstance(value, float) and not math.isfinite(value)):
            expected = _KIND_NAMES[kinds[0]] if kinds is not None else "a finite number"
            raise ThemeFileError(f"{path}: `{item.name}` must be {expected}")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(value, str) for value in variables.values()):
        raise ThemeFileError(f"{path}: [variables] must be a table of text values")


def _css_problem(variables: dict[str, str], css: str) -> str | None:
    """What Textual's stylesheet parser says about `css` with `variables`, None when it
    reads it: the very parse a theme change runs, so a value it refuses is caught here."""
    stylesheet = Stylesheet(variables=variables)
    stylesheet.add_source(css, read_from=("theme", ""))
    try:
        stylesheet.parse()
    except StylesheetParseError:
        return "not a value Textual's CSS accepts"
    except Exception as exc:  # noqa: BLE001 - the tokenizer raises its own kinds (UnexpectedEnd, ...)
        return _short(exc) or type(exc).__name__
    return None


def _check_css(theme: Theme, path: Path) -> None:
    """Every variable the theme sets as Textual will use it: all of them tokenized at once
    (a stray `}` in any one breaks every theme change), and each one Textual knows in the
    property it feeds (a colour, or a text style for the `*-style` ones)."""
    generated = theme.to_color_system().generate()
    variables = {**generated, **theme.variables}
    problem = _css_problem(variables, "Screen { color: $primary; }")
    if problem is not None:
        raise ThemeFileError(f"{path}: [variables] cannot be read as CSS ({problem})")
    for name in theme.variables:
        if name not in generated:
            continue  # not one Textual's or Warmline's styles read
        rule = "text-style" if name.endswith("-style") else "background"
        problem = _css_problem(variables, f"Screen {{ {rule}: ${name}; }}")
        if problem is not None:
            raise ThemeFileError(f"{path}: [variables] {name} = {_short(theme.variables[name], 40)!r}: {problem}")


def load_theme_file(path: Path) -> Theme:
    """Read one theme file; unknown keys are refused so a typo does not pass silently, and
    a value of the wrong type or one Textual's CSS would refuse is refused here, with the
    file named, rather than when the theme is applied (which stopped the cockpit)."""
    theme = _read_theme_file(path)
    try:
        theme.to_color_system().generate()  # a bad colour fails here, not when picked
    except (TypeError, ValueError, AttributeError, ColorParseError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from exc
    _check_css(theme, path)
    return theme


def _read_theme_file(path: Path) -> Theme:
    """The theme a file describes, its keys and their types checked, its colours and CSS not."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from exc
    unknown = sorted(set(data) - _THEME_FIELDS)
    if unknown:
        raise ThemeFileError(f"{path}: unknown keys {', '.join(unknown)}")
    if "name" not in data or "primary" not in data:
        raise ThemeFileError(f"{path}: a theme needs at least `name` and `primary`")
    _check_types(data, path)
    if not data["name"].strip():
        raise ThemeFileError(f"{path}: `name` must not be empty")
    try:
        return Theme(**data)
    except (TypeError, ValueError, AttributeError, ColorParseError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from exc


def load_themes(directories: list[Path] | None = None) -> dict[str, Theme]:
    """Our own themes (the bundled ones unless `directories` says), by name; later wins.

    Not checked against Textual's CSS as a rep's file is (`load_theme_file`): they are
    ours, checked by the suite (tests/tui/test_tui_shell.py), and the check parses a
    stylesheet a variable, about 6 ms of CPU on the way to the first frame."""
    themes: dict[str, Theme] = {}
    for directory in directories if directories is not None else bundled_theme_dirs():
        for path in sorted(directory.glob("*.toml")):
            theme = _read_theme_file(path)
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
            problems.append(_short(exc))
            continue
        except Exception as exc:  # noqa: BLE001 - whatever else a hostile file provokes, it is one line
            problems.append(_short(f"{path}: {type(exc).__name__}: {exc}"))
            continue
        themes[theme.name] = theme
    return themes, problems
