"""What a route needs from the running app, in one dependency.

`ctx: RequestContext = Depends(request_context)` both authenticates the caller and hands
the route the database, the clock and the settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from warmline_sandbox.auth import require_key
from warmline_sandbox.clock import Clock
from warmline_sandbox.db import Database
from warmline_sandbox.settings import SandboxSettings


@dataclass(frozen=True)
class RequestContext:
    db: Database
    clock: Clock
    settings: SandboxSettings
    api_key: str


def request_context(request: Request, api_key: Annotated[str, Depends(require_key)]) -> RequestContext:
    state = request.app.state
    return RequestContext(db=state.db, clock=state.clock, settings=state.settings, api_key=api_key)


Ctx = Annotated[RequestContext, Depends(request_context)]
"""Route parameter type: `ctx: Ctx` authenticates and gives the route the app's parts."""
