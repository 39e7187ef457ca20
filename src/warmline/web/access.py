"""Who may use `warmline web`: the one-time link, the session cookie, the Host and Origin
checks, and the headers every answer carries.

Served as textual-serve ships it, any page in the same browser could open a session and read
the rep's screen (its WebSocket had no authentication and no Origin check). Here:
- the server prints a link with a random token; its first GET trades the token for an
  HttpOnly, SameSite=Strict cookie and the token is spent (a second use gets 403);
- every request without that cookie gets 403, and every request naming another host than
  the link's gets 403 (a DNS-rebinding page names its own);
- the WebSocket upgrade also needs an Origin header equal to the link's origin, exactly;
- every answer forbids framing, sniffing, referrers and any script, font or connection
  from elsewhere (`security_headers`).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from html import escape
from urllib.parse import urlsplit

from aiohttp import web

TOKEN_PARAMETER = "token"
COOKIE_PREFIX = "warmline_"
"""The cookie's name ends with the port: cookies are per host, not per port, and two
servers on one machine must not overwrite each other's."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Gate:
    """The one-time token and the cookie it buys, for the server at `origin`
    (`http://127.0.0.1:8123`: exactly what the browser sends as Origin)."""

    def __init__(self, origin: str) -> None:
        parts = urlsplit(origin)
        self.origin = origin
        self.host = parts.netloc
        self.secure = parts.scheme == "https"
        self.cookie_name = f"{COOKIE_PREFIX}{parts.port or (443 if self.secure else 80)}"
        self.token = secrets.token_urlsafe(32)
        self._token_spent = False
        self._cookie = secrets.token_urlsafe(32)

    @property
    def link(self) -> str:
        """What the server prints: it opens the cockpit once."""
        return f"{self.origin}/?{TOKEN_PARAMETER}={self.token}"

    @property
    def websocket_url(self) -> str:
        return ("wss" if self.secure else "ws") + self.origin[self.origin.index(":"):] + "/ws"

    def spend_token(self, offered: str) -> bool:
        """True the first time the right token is offered, never again."""
        if self._token_spent or not hmac.compare_digest(offered.encode(), self.token.encode()):
            return False
        self._token_spent = True
        return True

    def has_cookie(self, request: web.Request) -> bool:
        return hmac.compare_digest(request.cookies.get(self.cookie_name, "").encode(), self._cookie.encode())

    def same_origin(self, request: web.Request) -> bool:
        """The WebSocket's check: the page that opens it is ours (a missing Origin fails)."""
        return request.headers.get("Origin") == self.origin

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The Host check, the token exchange, then the cookie: before any route."""
        if request.headers.get("Host") != self.host:
            return page(403, "Wrong address", f"Open Warmline at {self.origin}/ (the address `warmline web` printed).")
        if request.path == "/" and TOKEN_PARAMETER in request.query:
            return self._exchange(request)
        if not self.has_cookie(request):
            return page(403, "Not signed in", "Open the link `warmline web` printed (it works once), "
                                              "or restart `warmline web` for a new one.")
        return await handler(request)

    def _exchange(self, request: web.Request) -> web.StreamResponse:
        """The token for the cookie, then on to the clean URL. The redirect is a page that
        moves itself on (a meta refresh), not a 303: a SameSite=Strict cookie set during
        a navigation that began on another site (the link clicked in a mail or a chat) is
        not sent on that navigation's redirects, and the rep would meet a 403."""
        if not self.has_cookie(request) and not self.spend_token(request.query[TOKEN_PARAMETER]):
            return page(403, "Link already used", "This link opens Warmline once and has been used. "
                                                  "Restart `warmline web` for a new one.")
        response = page(200, "Opening Warmline", "Opening Warmline…", refresh="/")
        response.set_cookie(self.cookie_name, self._cookie, path="/", httponly=True, samesite="Strict",
                            secure=self.secure)
        return response

    async def security_headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """On every answer (errors and the WebSocket's upgrade included): the page may run
        only our own scripts, load only our own fonts and styles (and the styles xterm.js
        writes into the page), connect only to our WebSocket, never be framed, and send no
        referrer (the first link holds the token)."""
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; font-src 'self'; "
            f"img-src 'self'; connect-src 'self' {self.websocket_url.removesuffix('/ws')}; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        # A link the cockpit opens (a company's site) gets no handle on this window.
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
        if not request.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-store"


PAGE_STYLE = "body { background: #0c181f; color: #eee; font: 16px monospace; margin: 3em; }"


def page(status: int, title: str, message: str, *, refresh: str | None = None) -> web.Response:
    """A small page of our own words: what went wrong and what to do."""
    head = f'<meta http-equiv="refresh" content="0; url={escape(refresh)}">' if refresh else ""
    body = (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>{head}'
        f"<style>{PAGE_STYLE}</style></head><body><p>{escape(message)}</p></body></html>"
    )
    return web.Response(status=status, text=body, content_type="text/html")
