"""The wire: one async client for every operation of the Sales Intelligence Service.

`ServiceClient` (client.py) sends; `models` holds what comes back; `errors` what can go
wrong; `limits` the spec's input rules, shared with `warmline.actions`; `RateLimiter` the
limiter several clients can share. Never imports Textual or Rich (enforced by
tests/test_layering.py).
"""

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
