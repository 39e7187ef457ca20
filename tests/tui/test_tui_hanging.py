"""The lead page's activity lines: hanging indent, words kept whole."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from warmline.actions.activity_type import ACTIVITY_KINDS, activity_name
from warmline.tui.hanging import hanging_lines, hanging_rows

URL = "https://example.com/deals/acme-renewal-2027/pricing"


def _render(width: int, body: str) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(hanging_rows([("2h ago", Text(body))]))
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_continuation_lines_hang_under_the_text_and_urls_stay_whole() -> None:
    lines = _render(72, f"Call +12 Spoke with Dana about the renewal, notes at {URL} and more words after it")
    assert len(lines) > 1
    assert lines[0].startswith("    2h ago Call +12")
    for line in lines[1:]:
        assert line.startswith(" " * 11) and line[11] != " "  # under the text, never column 0
    assert sum(URL in line for line in lines) == 1  # whole on one line, not split mid-word


def test_a_token_longer_than_the_line_is_cut_with_an_ellipsis_not_folded() -> None:
    lines = _render(30, f"Email {URL}")
    assert lines[0].rstrip().endswith("Email")
    assert lines[1].rstrip().endswith("…")
    assert len(lines) == 2  # the rest of the URL does not spill onto a third line


def test_every_activity_kind_has_a_human_name() -> None:
    names = [activity_name(kind) for kind in ACTIVITY_KINDS]
    assert all("_" not in name for name in names)
    assert activity_name("professional_network_message") == "LinkedIn message"
    assert activity_name("site_visit") == "Site visit"
    assert activity_name(None) == "Activity"


def _lines(width: int, text: Text) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(hanging_lines(text))
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_an_indented_line_wraps_under_its_own_start_not_column_0() -> None:
    """Seen on a lead page at 120 columns: a recommendation's reason wrapped to column 1."""
    text = Text("Active recommendations (1)\n  high Check in · Marcus Liu (VP Operations) on LinkedIn")
    text.append("\n    Marcus Liu posted about what makes a good vendor partnership")
    lines = _lines(40, text)
    assert lines[0] == "Active recommendations (1)"
    assert lines[1].startswith("  high Check in")
    reason = lines.index(next(line for line in lines if "Marcus Liu posted" in line))
    for line in lines[2:reason]:
        assert line.startswith("  ") and line[2] != " "  # the heading line's rest, at 2
    for line in lines[reason:]:
        assert line.startswith("    ") and line[4] != " "  # the reason's, at 4
    assert " ".join(line.strip() for line in lines[reason:]) == (
        "Marcus Liu posted about what makes a good vendor partnership")


def test_a_bullet_hangs_its_text_and_blank_lines_and_styles_stay() -> None:
    text = Text("Deep research\n  • a key fact long enough to wrap onto a second line\n\n  ")
    text.append("Custom: ", style="bold")
    lines = _lines(30, text)
    assert lines[1] == "  • a key fact long enough to"
    assert lines[2].startswith("    ") and lines[2][4] != " "
    assert "" in lines[3:]  # the blank line kept
    assert lines[-1] == "  Custom:"
    assert hanging_lines(Text("x", style="bold")).renderables[0].style == "bold"


def test_text_with_no_indent_wraps_as_before() -> None:
    assert _lines(12, Text("one two three four")) == ["one two", "three four"]
