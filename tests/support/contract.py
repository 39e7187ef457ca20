"""Plumbing of the contract tests: the real client wired to the real sandbox, in-process.

The contract suite proves that `warmline.api.ServiceClient` and `warmline_sandbox`, written
separately from the spec and docs/wire.md, agree on every operation. Two recorders make the
suite check itself: `RecordingTransport` keeps every request and answer (which path family
was used, which headers went out and came back) and `record_calls` notes every public
client method a test called, so `test_contract_coverage.py` can fail when an operation is
no longer exercised.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import FastAPI

from warmline.api import RateLimiter, ServiceClient
from warmline.api.models import LeadListItem
from warmline_sandbox.app import create_app
from warmline_sandbox.clock import ManualClock
from warmline_sandbox.settings import DEFAULT_QUOTAS, SandboxSettings

API_KEY = "wl-contract-3f9a61c2d8e4"
OTHER_KEY = "wl-contract-second-7b21e0"
BASE_URL = "http://127.0.0.1"  # the client accepts plain http only for loopback hosts

EXERCISED: set[str] = set()
"""Names of the public client methods called by contract tests in this session."""

_inside_call: contextvars.ContextVar[bool] = contextvars.ContextVar("inside_call", default=False)


def client_methods() -> list[str]:
    """The public coroutine methods of `ServiceClient`: what the suite must exercise."""
    return sorted(
        name
        for name, member in inspect.getmembers(ServiceClient, inspect.iscoroutinefunction)
        if not name.startswith("_")
    )


def record_calls(client: ServiceClient) -> ServiceClient:
    """Make `client` note each public method a test calls in `EXERCISED`.

    Only the outermost call counts, so a method reached only through another one would
    not pass for exercised.
    """
    for name in client_methods():
        original = getattr(client, name)

        async def recorded(
            *args: Any, _name: str = name, _original: Callable[..., Awaitable[Any]] = original, **kwargs: Any
        ) -> Any:
            if _inside_call.get():
                return await _original(*args, **kwargs)
            EXERCISED.add(_name)
            token = _inside_call.set(True)
            try:
                return await _original(*args, **kwargs)
            finally:
                _inside_call.reset(token)

        setattr(client, name, functools.wraps(original)(recorded))
    return client


@dataclass
class Exchange:
    """One request the client sent and the answer it got."""

    method: str
    path: str
    request_headers: httpx.Headers
    status: int
    response_headers: httpx.Headers


class RecordingTransport(httpx.AsyncBaseTransport):
    """`httpx.ASGITransport` over the sandbox app that keeps every exchange."""

    def __init__(self, app: Any) -> None:
        self._inner = httpx.ASGITransport(app=app)
        self.exchanges: list[Exchange] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        self.exchanges.append(
            Exchange(request.method, request.url.path, request.headers, response.status_code, response.headers)
        )
        return response

    def paths(self, method: str | None = None) -> list[str]:
        return [x.path for x in self.exchanges if method is None or x.method == method]

    def statuses(self) -> list[int]:
        return [x.status for x in self.exchanges]

    async def aclose(self) -> None:
        await self._inner.aclose()


class HiddenFamily:
    """ASGI wrapper that makes the sandbox look as if it lacked one research path family.

    Requests under the hidden prefix are sent on to a path no route serves, so the answer
    is the sandbox's own "no such route" 404, exactly what a server without that family
    would give.
    """

    PREFIXES = {"detailed": "/v1/research/", "overview": "/v1/research-templates"}

    def __init__(self, app: FastAPI, family: str) -> None:
        self.app = app
        self.prefix = self.PREFIXES[family]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(self.prefix):
            hidden = "/hidden-family" + scope["path"]
            scope = {**scope, "path": hidden, "raw_path": hidden.encode()}
        await self.app(scope, receive, send)


@dataclass
class Sandbox:
    """One seeded sandbox app on a manual clock, and the clients made against it."""

    app: FastAPI
    clock: ManualClock
    settings: SandboxSettings
    transport: RecordingTransport
    clients: list[ServiceClient] = field(default_factory=list)
    siblings: list[Sandbox] = field(default_factory=list)

    def epoch(self) -> float:
        """The sandbox's time as Unix seconds: the client's clock, so both agree on windows."""
        return self.clock.now().timestamp()

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def client(
        self,
        key: str | None = API_KEY,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        **options: Any,
    ) -> ServiceClient:
        """A recorded client of this sandbox; closed when the test ends."""
        options.setdefault("clock", self.epoch)
        if "limiter" not in options:
            options["limiter"] = RateLimiter(clock=options["clock"])
        client = ServiceClient(BASE_URL, key, transport=transport or self.transport, **options)
        self.clients.append(record_calls(client))
        return client

    def sibling(self, **overrides: Any) -> Sandbox:
        """A second server over the same database and clock with other settings (e.g. faults).

        Lets a test misbehave on one server and look at the outcome through a healthy one.
        """
        settings = dataclasses.replace(self.settings, **overrides)
        app = create_app(settings, clock=self.clock)
        self.siblings.append(Sandbox(app, self.clock, settings, RecordingTransport(app)))
        return self.siblings[-1]

    async def close(self) -> None:
        for sibling in self.siblings:
            await sibling.close()
        for client in self.clients:
            await client.aclose()
        self.app.state.db.close()


def plan(**limits: int) -> dict[str, int]:
    """The sandbox's default plan quotas with some made small (e.g. `plan(deep_searches=1)`)."""
    unknown = set(limits) - set(DEFAULT_QUOTAS)
    assert not unknown, f"unknown quotas {unknown}"
    return {**DEFAULT_QUOTAS, **limits}


async def new_company(client: ServiceClient, name: str, **fields: Any) -> int:
    """A saved company of our own (tests never rely on the seed's ids)."""
    domain = name.lower().replace(" ", "-") + ".example"
    company = await client.create_company({"name": name, "domain": domain, **fields})
    return company.id


async def new_lead(client: ServiceClient, name: str, status: str = "cold") -> LeadListItem:
    company_id = await new_company(client, name)
    result = await client.add_leads([company_id], status)
    assert result.added == 1, result
    return result.leads[0]
