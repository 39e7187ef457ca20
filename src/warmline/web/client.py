"""The page's client: textual-serve's `textual.js`, drawing with xterm.js's DOM renderer.

textual-serve's client loads xterm.js's WebGL addon and then its Canvas addon, whatever the
browser; the Canvas renderer is the one that draws. Both build a texture atlas, one glyph
(with its colours) at a time, the first time it is shown: with no GPU (a headless browser,
a remote desktop, many laptops' software paths) the first frame of Today took about 300 ms
in Chromium, and each screen's first new colours more (a lead's first opening, about 190
ms). The DOM renderer leaves glyphs to the browser's own text drawing, which caches them
for every page: the first frame draws in about 20 ms, and the page starts about 100 ms
sooner (no WebGL context to create). bench/README.md (issue 25) has the figures.

textual.js cannot be told which renderer to use, and it is one minified bundle of xterm.js
and the client; so the two statements that load the addons are taken out of it as it is
served (`without_renderer_addons`). If a release of textual-serve no longer has them in
that form, the client is served as it is, and a warning says so: the cockpit still works,
drawing as textual-serve does.

What the DOM renderer draws less well: block and box characters the page's font lacks
(charts, scroll bars, the score bar) come from a fallback font, whose glyphs do not fill
the cell's height (thin gaps between rows) and may not have its width (a star shifts its
row by a fraction of a cell). The Canvas renderer draws those characters itself, cell-exact:
the page at `/?renderer=canvas` is served textual-serve's client as it ships.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path

from aiohttp import web

ADDON_LOADS = re.compile(
    r"this\.(?P<name>webglAddon|canvasAddon)=new [\w$]+\.(?:WebglAddon|CanvasAddon),"
    r"this\.terminal\.loadAddon\(this\.(?P=name)\),"
)
"""`this.webglAddon=new p.WebglAddon,this.terminal.loadAddon(this.webglAddon),` and the
same for the Canvas addon, in textual-serve 1.1's bundle (the minifier names the module)."""

log = logging.getLogger("warmline.web")


def without_renderer_addons(script: str) -> str | None:
    """`script` without the loading of the WebGL and Canvas addons; None unless both were
    found once each."""
    kept, count = ADDON_LOADS.subn("", script)
    found = {match["name"] for match in ADDON_LOADS.finditer(script)}
    return kept if count == 2 and found == {"webglAddon", "canvasAddon"} else None


@dataclass(frozen=True)
class Client:
    """The client script as served, with what a browser needs to keep it in its cache."""

    body: bytes
    etag: str
    last_modified: str

    @classmethod
    def from_bundle(cls, path: Path, *, as_shipped: bool = False) -> Client:
        """The client in `path` for the DOM renderer, or `as_shipped` (its Canvas renderer)."""
        script = path.read_text(encoding="utf-8")
        served = script if as_shipped else without_renderer_addons(script)
        if served is None:
            log.warning("textual-serve's client (%s) is not the one Warmline knows: served as it is, "
                        "drawing with its WebGL or Canvas renderer", path)
            served = script
        body = served.encode("utf-8")
        return cls(body=body, etag=f'"{hashlib.sha256(body).hexdigest()[:32]}"',
                   last_modified=formatdate(path.stat().st_mtime, usegmt=True))

    def response(self, request: web.Request) -> web.Response:
        """The script, or 304 when the browser's copy is this one (as a static file is)."""
        headers = {"ETag": self.etag, "Last-Modified": self.last_modified}
        if request.headers.get("If-None-Match") == self.etag:
            return web.Response(status=304, headers=headers)
        return web.Response(body=self.body, content_type="text/javascript", charset="utf-8", headers=headers)
