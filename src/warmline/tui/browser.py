"""Where the cockpit is drawn: a terminal, or a browser tab (`warmline web`, textual-serve's
web driver). The one place that decides it (`in_browser`); what differs there:

- a link opens in a new tab of the rep's browser, through the driver (Textual's
  `App.open_url`), not with `webbrowser` on the machine the cockpit runs on;
- a copy goes to the browser's clipboard (its terminal takes OSC 52), never to a copy
  command of that machine, and the notice says "copied";
- an export is offered as a download as well as written (`App.deliver_text`);
- the browser keeps some keys for itself (`BROWSER_KEEPS`): no binding of the cockpit
  relies on one of them alone (tests/tui/test_tui_browser.py), and help names the way
  round the ones Textual's text fields use (`BROWSER_KEYS_NOTE`).
"""

from __future__ import annotations

from typing import Any

from textual.app import App

BROWSER_KEEPS = frozenset({
    "ctrl+w", "ctrl+t", "ctrl+n", "ctrl+shift+w", "ctrl+shift+t", "ctrl+shift+n",
    "ctrl+tab", "ctrl+shift+tab", "ctrl+pageup", "ctrl+pagedown", "ctrl+q", "ctrl+shift+q",
})
"""Keys a browser acts on itself, which the page never sees: close, open and restore tabs
and windows, switch tabs, quit (Firefox's ctrl+q on Linux and Windows)."""

BROWSER_KEYS_NOTE = (
    "In a browser, the browser keeps ctrl+w (it closes the tab), ctrl+t, ctrl+n and Firefox's ctrl+q: "
    "in a text field, ctrl+u deletes to the start of the line (for ctrl+w's word); escape, then q, quits."
)
"""What help says in a browser (and the user guide), for the keys of `BROWSER_KEEPS` that
Textual binds: ctrl+w in its text fields, ctrl+q to quit."""


def in_browser(app: App[Any]) -> bool:
    """Whether `app` is drawn in a browser (Textual's web driver) rather than a terminal.
    Callers look it up on this module (`browser.in_browser`), so a test can make the
    cockpit believe it is in a browser."""
    return app.is_web


def kept_by_browser(keys: str) -> list[str]:
    """Which of a binding's keys (`"ctrl+s,ctrl+enter"`) a browser keeps for itself."""
    return [key.strip() for key in keys.split(",") if key.strip() in BROWSER_KEEPS]
