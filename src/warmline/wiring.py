"""Building the service client and the sync engine from a `Config`: the one way the
command line and the cockpit both wire them.

A configuration they cannot be built from (no API key, a base URL the client refuses) is
a `WiringError` carrying its documented exit code. The command line turns it into its
`CommandError` in one place (`warmline.commands.line.CommandLine.invoke`; a quick send
reports it instead, `warmline.commands.delivery`); the cockpit shows it as "Sync is off".
The HTTP stack is imported only when a client is built (`warmline.startup`, items 2 and 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warmline.config import ENV_API_KEY, KEY_FIX, Config
from warmline.exit_codes import EXIT_AUTH, EXIT_BAD_INPUT
from warmline.textsafe import redact_url

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.store import Store
    from warmline.sync import SyncEngine


class WiringError(Exception):
    """The client cannot be built from the configuration; `exit_code` is the command
    line's (docs/cli.md). The message never shows a base URL's user:password@."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(redact_url(message))
        self.exit_code = exit_code


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


def make_engine(store: Store, config: Config, client: ServiceClient | None = None) -> SyncEngine:
    """The sync engine for `store`, over `client` or a new one made from `config`."""
    from warmline.sync import SyncEngine  # deferred: first frame (the engine loads the HTTP stack)

    client = make_client(config) if client is None else client
    return SyncEngine(
        store, client, concurrency=config.flush_concurrency,
        annotate_late_activities=config.annotate_late_activities,
    )
