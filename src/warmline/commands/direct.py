"""Direct requests from a command: the operations that are not queued, since their answer
is the point (instant lookup, a research template, company and contact records, their
field schemas and tags). A failed request becomes the command's error with its documented
exit code (docs/cli.md), so `lookup`, `research show` and the record commands fail alike.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from warmline.commands.common import CommandError, plain
from warmline.config import key_fix
from warmline.exit_codes import EXIT_AUTH, EXIT_BAD_INPUT, EXIT_ERROR, EXIT_OFFLINE
from warmline.wiring import check_cache_service, make_client

if TYPE_CHECKING:
    from warmline.api import ServiceClient
    from warmline.config import Config
    from warmline.store import Store

T = TypeVar("T")


def api_failure(exc: Exception, key_source: str | None = None) -> CommandError:
    """A failed request as the command's error, with its documented exit code; a refused key
    says how to fix it (`key_source`: where the key came from, `Config.key_source`)."""
    from warmline.api.errors import (  # deferred: command line
        AuthError,
        InputError,
        NotFoundError,
        OfflineError,
        ValidationFailed,
    )

    if isinstance(exc, OfflineError):
        return CommandError(f"Offline: this needs the service ({exc})", EXIT_OFFLINE)
    if isinstance(exc, AuthError):
        return CommandError(
            f"The service refused the API key ({plain(exc)}): {key_fix(key_source)}", EXIT_AUTH
        )
    if isinstance(exc, InputError | ValidationFailed | NotFoundError):
        return CommandError(plain(exc), EXIT_BAD_INPUT)
    return CommandError(plain(exc), EXIT_ERROR)


def direct_request(config: Config, store: Store, work: Callable[[ServiceClient], Awaitable[T]]) -> T:
    """Run `await work(client)` against the service now (not queued: it answers at once);
    its answer goes to `store`, which must be a cache of that service (`check_cache_service`)."""
    from warmline.api.errors import ApiError  # deferred: command line

    client = make_client(config)
    check_cache_service(store, config)

    async def go() -> T:
        async with client:
            return await work(client)

    try:
        return asyncio.run(go())
    except ApiError as exc:
        raise api_failure(exc, config.key_source) from None
