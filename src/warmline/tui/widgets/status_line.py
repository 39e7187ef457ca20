"""The one line that is always on screen: online/offline, queue, failures, freshness.

Offline is a state, not an error, so it is a word on this line and never a dialog.
"""

from __future__ import annotations

from datetime import tzinfo

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from warmline.tui.status import CockpitStatus, describe
from warmline.tui.timefmt import DatetimeClock, local_zone, utc_now

SEPARATOR = " · "


class StatusLine(Widget):
    """Renders a `CockpitStatus`; the app pushes a new one into `status` when it changes."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        width: 1fr;
        padding: 0 1;
        background: $panel;
        color: $foreground;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    ROLE_STYLES = {"good": "$success", "warn": "$warning", "bad": "$error bold", "muted": "$foreground-muted"}
    """The theme's colours by a part's role, as styles of the line's `Content` (Textual reads
    the variables as it draws): not component classes, whose styles Textual builds before
    the first frame (3 M instructions for these four, `warmline.startup`)."""

    status: reactive[CockpitStatus] = reactive(CockpitStatus, always_update=True, repaint=False)
    """Set every second (`WarmlineApp.poll_status`); drawn again only when the line's words
    change (`watch_status`): an idle cockpit sends nothing to its terminal or browser."""

    def __init__(
        self,
        status: CockpitStatus | None = None,
        *,
        clock: DatetimeClock = utc_now,
        zone: tzinfo | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._clock = clock
        self._zone = zone or local_zone()
        self._drawn: list[tuple[str, str]] | None = None
        if status is not None:
            self.set_reactive(StatusLine.status, status)

    def watch_status(self) -> None:
        if self._parts() != self._drawn:
            self.refresh()

    def _parts(self) -> list[tuple[str, str]]:
        """The line's words and their styles, as of now (a part may say how long ago)."""
        parts: list[tuple[str, str]] = []
        for index, part in enumerate(describe(self.status, self._clock(), self._zone)):
            if index:
                parts.append((SEPARATOR, self.ROLE_STYLES["muted"]))
            parts.append((part.text, self.ROLE_STYLES.get(part.role, "")))
        return parts

    def render(self) -> Content:
        self._drawn = self._parts()
        return Content.assemble(*self._drawn)
