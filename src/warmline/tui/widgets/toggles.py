"""Checkboxes and radio buttons whose state reads without colour.

Textual draws a box that is off with its mark in a dim colour ("▐X▌" either way). In our
themes the dim X still read as ticked: a rep saw "Save results" ticked over "0 saved"
(issue 23). These draw the mark only while the box is on ("▐X▌" or "▐ ▌"), so the state
reads the same on a monochrome terminal, in a screen capture and to a colour-blind rep.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.widgets import Checkbox, RadioButton

if TYPE_CHECKING:
    from textual.widgets._toggle_button import ToggleButton

    _Toggle = ToggleButton
else:
    # A plain class, first among the bases: Textual takes a widget's CSS type names from
    # its first DOMNode base, so `ClearRadioButton` stays a `RadioButton` to CSS and
    # queries (a RadioSet finds its buttons by that name).
    _Toggle = object


class _MarkWhenOn(_Toggle):
    """Shows `MARK` inside the button while on, a space while off."""

    MARK: ClassVar[str] = "X"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._show_mark()

    def watch_value(self) -> None:
        self._show_mark()
        super().watch_value()

    def _show_mark(self) -> None:
        self.BUTTON_INNER = self.MARK if self.value else " "


class ClearCheckbox(_MarkWhenOn, Checkbox):
    """A checkbox: "▐X▌" ticked, "▐ ▌" not."""


class ClearRadioButton(_MarkWhenOn, RadioButton):
    """A radio button: "▐●▌" chosen, "▐ ▌" not."""

    MARK = RadioButton.BUTTON_INNER
