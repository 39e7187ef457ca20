"""What every dialog shares: a box in the middle with its own key bar."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.screen import ModalScreen, ScreenResultType

if TYPE_CHECKING:
    from warmline.tui.context import Cockpit


class DialogScreen(ModalScreen[ScreenResultType]):
    """A dialog: one `Vertical` box in the middle of the screen, over the screen it was opened
    from, with its own key bar. The box, title, hint and error styles live here once; a
    dialog's own DEFAULT_CSS says only what differs (its width, its widgets)."""

    DEFAULT_CSS = """
    DialogScreen { align: center middle; }
    DialogScreen > Vertical {
        width: 80%;
        max-width: 90;
        height: auto;
        max-height: 90%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    DialogScreen .dialog-title { text-style: bold; color: $primary; }
    DialogScreen .dialog-hint { color: $foreground-muted; }
    DialogScreen .dialog-error { color: $error; text-style: bold; }
    DialogScreen > KeyBar { dock: bottom; }
    """

    @property
    def cockpit(self) -> Cockpit:
        """The app, as dialogs may use it (`warmline.tui.context`)."""
        return cast("Cockpit", self.app)
