"""The one line that is always on screen: online/offline, queue, failures, freshness.

Offline is a state, not an error, so it is a word on this line and never a dialog.
"""

from __future__ import annotations

from datetime import tzinfo

from rich.text import Text
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
    }
    StatusLine > .status--good { color: $success; }
    StatusLine > .status--warn { color: $warning; }
    StatusLine > .status--bad { color: $error; text-style: bold; }
    StatusLine > .status--muted { color: $foreground-muted; }
    """

    COMPONENT_CLASSES = {"status--good", "status--warn", "status--bad", "status--muted"}

    status: reactive[CockpitStatus] = reactive(CockpitStatus, always_update=True)

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
        if status is not None:
            self.set_reactive(StatusLine.status, status)

    def render(self) -> Text:
        line = Text(no_wrap=True, overflow="ellipsis")
        for index, part in enumerate(describe(self.status, self._clock(), self._zone)):
            if index:
                line.append(SEPARATOR, self.get_component_rich_style("status--muted"))
            style = (
                self.get_component_rich_style(f"status--{part.role}") if part.role != "normal" else ""
            )
            line.append(part.text, style)
        return line
