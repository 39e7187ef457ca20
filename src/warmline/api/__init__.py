"""The wire: one async client for every operation of the Sales Intelligence Service.

`ServiceClient` (client.py) sends; `models` holds what comes back; `errors` what can go
wrong; `limits` the spec's input rules, shared with `warmline.actions`; `RateLimiter` the
limiter several clients can share. Never imports Textual or Rich (enforced by
tests/test_layering.py).

The names are loaded when first used (PEP 562 `__getattr__`), not when the package is:
queueing an action (`warmline log`) needs `errors` and `limits` but not the HTTP client
(httpx) and the pydantic models, about 400 ms of CPU together; tests/test_layering.py
pins that path (`QUEUE_PATH_LATER`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warmline.api import errors, limits, models
    from warmline.api.auth import Secret
    from warmline.api.client import ServiceClient
    from warmline.api.ratelimit import RateLimiter, RateLimitState

__all__ = [
    "RateLimitState",
    "RateLimiter",
    "Secret",
    "ServiceClient",
    "errors",
    "limits",
    "models",
]

_HOMES = {
    "RateLimitState": "warmline.api.ratelimit",
    "RateLimiter": "warmline.api.ratelimit",
    "Secret": "warmline.api.auth",
    "ServiceClient": "warmline.api.client",
}


def __getattr__(name: str) -> Any:
    """`warmline.api.ServiceClient` and the other exports, imported at first use."""
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
    elif name in ("errors", "limits", "models"):
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
