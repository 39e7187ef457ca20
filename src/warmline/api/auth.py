"""The API key, kept out of every repr, and the rule about where it may be sent.

The key lives in a `Secret` whose repr is masked, and reaches the wire only inside
`BearerAuth.auth_flow`, which sets the header on the outgoing request. httpx masks the
`Authorization` header in its own reprs, so neither our objects nor a traceback with
locals print the key.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Generator

import httpx

from warmline.textsafe import redact_url

MASK = "********"


class Secret:
    """A string that never shows itself in repr, str or format."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The real value; call only where it goes onto the wire."""
        return self._value

    def __repr__(self) -> str:
        return f"Secret({MASK!r})"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __bool__(self) -> bool:
        return bool(self._value)


class BearerAuth(httpx.Auth):
    """Adds `Authorization: Bearer <key>` to each request when a key is configured."""

    def __init__(self, secret: Secret | None) -> None:
        self._secret = secret

    def __repr__(self) -> str:
        return f"BearerAuth({self._secret!r})"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if self._secret:
            request.headers["Authorization"] = f"Bearer {self._secret.reveal()}"
        yield request


Resolver = Callable[[str], list[str]]
"""A host name's addresses, as text; raises OSError when it has none."""


def resolve_addresses(host: str) -> list[str]:
    """Every address `host` resolves to now (IPv4 and IPv6), by the system's resolver."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)]


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """`text` as an IP address (brackets, a zone id and an IPv4-mapped IPv6 form read as
    what they carry), None when it is a name."""
    try:
        address = ipaddress.ip_address(text.strip("[]").split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_loopback(host: str, resolve: Resolver | None = None) -> bool:
    """True when every address `host` stands for is a loopback one (127.0.0.0/8, ::1).

    An IP literal is judged by itself; a name (`localhost` too) by what it resolves to, never
    by its spelling: `*.localhost` is loopback only by convention, and a resolver or a
    hosts file may send `api.localhost` anywhere, with the key in clear. A name that does
    not resolve is not loopback."""
    literal = _address(host)
    if literal is not None:
        return literal.is_loopback
    try:
        found = (resolve or resolve_addresses)(host.rstrip(".") or host)
    except (OSError, UnicodeError, ValueError):
        return False
    addresses = [_address(text) for text in found]
    return bool(addresses) and all(address is not None and address.is_loopback for address in addresses)


def check_base_url(base_url: str, resolve: Resolver | None = None) -> httpx.URL:
    """The service's base URL, refused unless HTTPS or a loopback host (the key would leak):
    a host name is loopback by the addresses it resolves to (`is_loopback`).

    A trailing `/v1` is removed because every operation path already starts with it.
    """
    try:
        url = httpx.URL(base_url)
    except httpx.InvalidURL as exc:
        raise ValueError(
            f"The service base URL is not a valid URL ({redact_url(exc)}; got {redact_url(base_url)!r})"
        ) from None
    if url.scheme not in {"http", "https"} or not url.host:
        raise ValueError(f"The service base URL must look like https://host/ (got {redact_url(base_url)!r})")
    if url.scheme == "http" and not is_loopback(url.host, resolve):
        raise ValueError(
            f"Refusing plain http:// for {url.host}: the API key would travel unencrypted. "
            "Use https://, or http:// only for a host that resolves to loopback only, such as 127.0.0.1."
        )
    path = url.path.rstrip("/")
    if path.endswith("/v1"):
        path = path[: -len("/v1")]
    return url.copy_with(path=path + "/", query=None, fragment=None)


def display_url(url: httpx.URL) -> str:
    """scheme://host[:port] for messages: never any user-info or query string."""
    port = f":{url.port}" if url.port else ""
    host = f"[{url.host}]" if ":" in url.host else url.host
    return f"{url.scheme}://{host}{port}"
