"""Building the service client and the sync engine from a `Config`: the one way the
command line and the cockpit both wire them.

A configuration they cannot be built from (no API key, a base URL the client refuses, a
cache that holds another service's data) is a `WiringError` carrying its documented exit
code. The command line turns it into its
`CommandError` in one place (`warmline.commands.line.CommandLine.invoke`; a quick send
reports it instead, `warmline.commands.delivery`); the cockpit shows it as "Sync is off".
The HTTP stack is imported only when a client is built (`warmline.startup`, items 2 and 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from warmline.config import ENV_API_KEY, ENV_DATA_DIR, KEY_FIX, Config
from warmline.exit_codes import EXIT_AUTH, EXIT_BAD_INPUT, EXIT_CACHE
from warmline.textsafe import redact_url

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.store import Store
    from warmline.sync import SyncEngine


DEFAULT_PORTS = {"http": 80, "https": 443}


class WiringError(Exception):
    """The client cannot be built from the configuration; `exit_code` is the command
    line's (docs/cli.md). The message never shows a base URL's user:password@."""

    def __init__(self, message: str, exit_code: int, brief: str | None = None) -> None:
        super().__init__(redact_url(message))
        self.exit_code = exit_code
        self.brief = brief
        """The cause in a few words, for the cockpit's status line once the notice is gone."""


def make_client(config: Config, timeout: float | None = None) -> ServiceClient:
    """The service's client for `config`; with `timeout`, a quick one whose every request is
    bounded whole (twice `timeout`), not only per read."""
    # deferred: first frame (the HTTP stack, and the log: `log`/`note` queue without either)
    from warmline import logfile
    from warmline.api import ServiceClient
    from warmline.api.request_fields import RequestFields

    logfile.hide(config.api_key)  # whatever quotes it, the key never reaches the log
    if not config.api_key:
        raise WiringError(f"No API key is configured: set {ENV_API_KEY}, or {KEY_FIX}", EXIT_AUTH)
    fields = RequestFields(config.service_fields)
    try:
        if timeout is None:
            return ServiceClient(config.base_url, config.api_key, request_fields=fields)
        return ServiceClient(
            config.base_url, config.api_key, timeout=timeout, deadline=2 * timeout, request_fields=fields
        )
    except ValueError as exc:  # a base URL we refuse (plain http to a remote host...)
        raise WiringError(str(exc), EXIT_BAD_INPUT) from None


def service_address(base_url: str) -> str:
    """The service a base URL names, as the cache records it: scheme, host and port as
    written (the port left out when it is the scheme's own), lowercase, and the path
    without a trailing slash; never user:password@ (a secret kept out of the cache, and a
    changed password is the same service). Not a check of the URL: the client's is."""
    parts = urlsplit(base_url.strip())
    scheme = parts.scheme.lower()
    where = parts.netloc.rpartition("@")[2].lower()
    default = DEFAULT_PORTS.get(scheme)
    if default is not None:
        where = where.removesuffix(f":{default}")
    return f"{scheme}://{where}{parts.path.rstrip('/')}"


def check_cache_service(store: Store, config: Config) -> None:
    """Refuse `store` to a service other than the one its data came from, before anything
    is sent or read: its queued actions name that service's leads, and another service's
    lead with the same id would get them. A cache with none recorded (new, or from before
    Warmline recorded it), or with nothing from its service yet (a mistyped address never
    reached), is bound to the configured service here."""
    configured = service_address(config.base_url)
    bound = store.service_address()
    if bound == configured:
        return
    if bound is None or not store.holds_service_data():
        store.bind_service(configured)
    else:
        raise WiringError(
            f"this cache holds the data of {bound}, not of the configured service {configured}: "
            f"nothing was sent or read. Point Warmline back at {bound}, give this service a data dir "
            f"of its own ({ENV_DATA_DIR}), start a new cache for it with `warmline cache reset` (the old "
            "one is kept, with its queued actions), or, if the service itself moved, `warmline cache adopt`",
            EXIT_CACHE,
            brief="this cache is another service's (warmline cache adopt, or reset)",
        )


def make_engine(store: Store, config: Config, client: ServiceClient | None = None) -> SyncEngine:
    """The sync engine for `store`, over `client` or a new one made from `config`; refused
    for a cache of another service (`check_cache_service`)."""
    from warmline.sync import SyncEngine  # deferred: first frame (the engine loads the HTTP stack)

    client = make_client(config) if client is None else client
    check_cache_service(store, config)
    return SyncEngine(
        store, client, concurrency=config.flush_concurrency,
        annotate_late_activities=config.annotate_late_activities,
    )
