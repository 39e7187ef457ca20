"""One line of text that changes often (a title, a tab bar) without a layout pass.

`Static.update` asks for a new layout each time, which on a keystroke-driven screen
costs more than the text itself; a line of fixed height only needs a repaint.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class TextLine(Widget):
    """A fixed one-line widget showing a `Text` (service text in it stays literal)."""

    DEFAULT_CSS = """
    TextLine {
        height: 1;
        width: 1fr;
    }
    """

    def __init__(self, text: Text | None = None, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = text or Text()

    def show(self, text: Text) -> None:
        """Replace the line's text; a repaint, never a re-layout."""
        self._text = text
        self.refresh()

    def render(self) -> Text:
        return self._text
