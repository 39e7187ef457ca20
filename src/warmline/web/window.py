"""`warmline web --open`: the link opened in the system's browser, as an app window (no tabs,
no address bar) where the browser has one.

The link is never put on a command line, where any user of the machine can read it (`ps`)
while the browser starts: the browser is given a file of ours, readable by us alone, that
moves on to the link (the way Jupyter opens its own).
"""

from __future__ import annotations

import shutil
import subprocess
import webbrowser
from html import escape
from pathlib import Path

APP_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge", "brave-browser")
"""Browsers that open a page as an app window (`--app=`), looked for on PATH in this order."""


def write_launcher(directory: Path, link: str) -> Path:
    """A page in `directory` (private to us) that moves the browser on to `link`."""
    launcher = directory / "open-warmline.html"
    launcher.touch(mode=0o600)
    launcher.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={escape(link)}"><title>Warmline</title></head>'
        "<body>Opening Warmline…</body></html>",
        encoding="utf-8",
    )
    return launcher


def open_window(launcher: Path) -> str:
    """Open `launcher` as an app window, else in the default browser; says which."""
    url = launcher.as_uri()
    for name in APP_BROWSERS:
        found = shutil.which(name)
        if found:
            subprocess.Popen(  # a fixed browser found on PATH, no shell; the page is ours
                [found, f"--app={url}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True,
            )
            return f"an app window of {name}"
    if webbrowser.open_new(url):
        return "the default browser"
    return ""
