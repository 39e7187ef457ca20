"""Exactly-once behind a gateway (issue 21, item 3): a proxy's 502, 504, 52x or bare 503
may come after the service applied the request, so it is ambiguous and reconciled before
any resend; only a refusal the service gave itself (its JSON 503, a `Retry-After`, a 429)
is "not applied". Against a sandbox that ignores `Idempotency-Key`, every first answer
replaced by a gateway's page after the request was applied: 6 activities stay 6 (they
were 12 when a 504 counted as a refusal)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from support.sandbox_seed import create_app
from support.sync_helpers import KEY, FakeClock, server_rows
from warmline.api import RateLimiter, ServiceClient
from warmline.api.errors import ServerError
from warmline.store import Store
from warmline.sync import SyncEngine
from warmline.sync.backoff import Backoff
from warmline.sync.blocking import run_inline
from warmline_sandbox.faults import GATEWAY_PAGE
from warmline_sandbox.settings import FaultSpec, SandboxSettings

NGINX_502 = b"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
CLOUDFLARE_524 = b"<!DOCTYPE html><html><head><title>A timeout occurred | 524</title></head></html>"
ENVELOPE_503 = json.dumps({"success": False, "message": "Service temporarily unavailable", "errors": None}).encode()
HTML = {"Content-Type": "text/html"}


class Gateway(httpx.AsyncBaseTransport):
    """A proxy in front of the sandbox. `after_applying(status, body)`: the next mutations
    reach the service (applied) and their answers are replaced by the proxy's; `refusing`:
    the next mutations are answered before they reach it; `health`: the health answer."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.plan: list[tuple[bool, httpx.Response]] = []
        self.health: httpx.Response | None = None
        self.mutations = 0  # that reached the service

    def after_applying(self, times: int, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.plan += [(True, httpx.Response(status, headers=headers or HTML, content=body))] * times

    def refusing(self, times: int, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.plan += [(False, httpx.Response(status, headers=headers or HTML, content=body))] * times

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/health" and self.health is not None:
            return self.health
        if request.method == "GET" or not self.plan:
            return await self._through(request)
        applied, answer = self.plan.pop(0)
        if applied:
            await (await self._through(request)).aread()
        return httpx.Response(answer.status_code, headers=answer.headers, content=answer.content)

    async def _through(self, request: httpx.Request) -> httpx.Response:
        self.mutations += request.method != "GET"
        return await self.inner.handle_async_request(request)


@pytest.fixture
def transport(sandbox: FastAPI) -> Gateway:
    """The sync fixtures' client, engine and store, behind this gateway."""
    return Gateway(httpx.ASGITransport(app=sandbox))


def _activities(store: Store, count: int, lead: int = 1) -> list[str]:
    texts = [f"gateway activity {index}" for index in range(count)]
    for text in texts:
        store.enqueue("log_activity", {"lead_id": lead, "description": text, "contact_id": None}, lead)
    return texts


async def _drain(engine: SyncEngine, store: Store, clock: FakeClock) -> dict[str, int]:
    """Flush until nothing is queued (our backoff skipped); the outcomes, summed."""
    totals = {"delivered": 0, "reconciled": 0, "retrying": 0, "ambiguous": 0, "failed": 0}
    for _ in range(60):
        clock.advance(30)
        report = await engine.flush(ignore_backoff=True)
        for name in totals:
            totals[name] += getattr(report, name)
        if store.outbox_counts().queued == 0:
            return totals
    raise AssertionError(f"still queued: {store.outbox_counts()}, {totals}")


async def test_six_activities_behind_a_gateway_that_times_out_after_applying_are_six(
    engine: SyncEngine, store: Store, transport: Gateway, sandbox: FastAPI, clock: FakeClock
) -> None:
    texts = _activities(store, 6)
    transport.after_applying(6, 504, GATEWAY_PAGE)
    totals = await _drain(engine, store, clock)
    assert [t for t in server_rows(sandbox, "outreach_touchpoints", "description", 1) if t in texts] == texts
    assert (totals["ambiguous"], totals["reconciled"], totals["retrying"]) == (6, 6, 0), totals
    assert transport.mutations == 6  # none resent


@pytest.mark.parametrize(
    ("status", "body"),
    [(502, NGINX_502), (504, GATEWAY_PAGE), (503, b""), (503, b"no healthy upstream"), (524, CLOUDFLARE_524),
     (500, b"")],
    ids=["502-nginx", "504-nginx", "503-bare", "503-envoy-text", "524-cloudflare", "500-bare"],
)
async def test_a_gateway_answer_after_applying_is_reconciled_not_resent(
    status: int, body: bytes, engine: SyncEngine, store: Store, transport: Gateway, sandbox: FastAPI, clock: FakeClock
) -> None:
    (text,) = _activities(store, 1, lead=2)
    transport.after_applying(1, status, body, {"Content-Type": "text/plain"} if body[:1] != b"<" else HTML)
    first = await engine.flush()
    assert (first.ambiguous, first.retrying) == (1, 0)
    totals = await _drain(engine, store, clock)
    assert totals["reconciled"] == 1 and transport.mutations == 1
    assert server_rows(sandbox, "outreach_touchpoints", "description", 2).count(text) == 1


@pytest.mark.parametrize(
    ("body", "headers"),
    [(ENVELOPE_503, {"Content-Type": "application/json"}), (b"", {"Retry-After": "5"}),
     (b"<html>down for maintenance</html>", {"Retry-After": "5", "Content-Type": "text/html"})],
    ids=["503-json", "503-retry-after", "503-html-retry-after"],
)
async def test_the_service_s_own_503_is_a_refusal_and_is_sent_again(
    body: bytes, headers: dict[str, str], engine: SyncEngine, store: Store, transport: Gateway, sandbox: FastAPI,
    clock: FakeClock,
) -> None:
    """The other direction: a 503 the service gave before acting (its JSON, a Retry-After)
    applied nothing, so the op goes back to the queue and is sent again, once."""
    (text,) = _activities(store, 1, lead=3)
    transport.refusing(1, 503, body, headers)
    first = await engine.flush()
    assert (first.retrying, first.ambiguous) == (1, 0)
    totals = await _drain(engine, store, clock)
    assert (totals["delivered"], totals["reconciled"]) == (1, 0) and transport.mutations == 1
    assert server_rows(sandbox, "outreach_touchpoints", "description", 3).count(text) == 1


@pytest.mark.parametrize("status", [502, 503, 504])
async def test_a_health_check_answered_by_a_gateway_is_offline(status: int, engine: SyncEngine, transport: Gateway) -> None:
    """A proxy's page says the service did not answer: offline, although the check got an
    HTTP answer (a gateway status is no longer `retryable`, which this used to rely on)."""
    transport.health = httpx.Response(status, headers=HTML, content=NGINX_502)
    assert not await engine.connection.probe()
    assert engine.status.current.online is False


# --- the sandbox's `gateway` fault ------------------------------------------------------------


@pytest.fixture
def faulty_sandbox(tmp_path: Path, clock: FakeClock) -> Iterator[FastAPI]:
    """A sandbox without idempotency whose faults include gateway timeouts after applying."""
    settings = SandboxSettings(
        db_path=tmp_path / "faulty.sqlite3", api_keys=[KEY], seed=3, companies=30, leads=4, job_seconds=10.0,
        rate_limit=(1_000_000, 60.0), idempotency=False,
        faults=FaultSpec.parse("gateway=0.3,drop=0.1,error=0.1"),
    )
    app = create_app(settings, clock=clock)
    yield app
    app.state.db.close()


def test_the_gateway_fault_is_parsed_and_active() -> None:
    spec = FaultSpec.parse("gateway=0.1")
    assert spec == FaultSpec(gateway=0.1) and spec.active
    with pytest.raises(ValueError, match="between 0 and 1"):
        FaultSpec.parse("gateway=2")


async def test_the_gateway_fault_answers_504_html_after_the_request_committed(tmp_path: Path, clock: FakeClock) -> None:
    settings = SandboxSettings(db_path=tmp_path / "gw.sqlite3", api_keys=[KEY], seed=3, companies=30, leads=4,
                               idempotency=False, faults=FaultSpec(gateway=1.0))
    app = create_app(settings, clock=clock)
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://sandbox",
                                     headers={"Authorization": f"Bearer {KEY}"}) as http:
            answer = await http.post("/v1/outreach/leads/1/notes", json={"content": "through the gateway"})
            assert answer.status_code == 504 and answer.headers["content-type"] == "text/html"
            assert answer.content == GATEWAY_PAGE
            error = ServerError("x", status=504)
            assert error.is_ambiguous and not error.retryable
        assert server_rows(app, "outreach_notes", "content", 1).count("through the gateway") == 1
    finally:
        app.state.db.close()


async def test_thirty_activities_through_gateway_drop_and_error_faults_are_thirty(
    faulty_sandbox: FastAPI, store: Store, clock: FakeClock
) -> None:
    """The sandbox's own faults (reads included), no idempotency: each activity once, in order."""
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)
    transport = httpx.ASGITransport(app=faulty_sandbox)
    async with ServiceClient("http://127.0.0.1", KEY, transport=transport, limiter=limiter, clock=clock) as client:
        rng = random.Random(5)
        engine = SyncEngine(store, client, clock=clock, rng=rng, backoff=Backoff(rng=rng), blocking=run_inline)
        for _ in range(20):  # the faults hit the lead list too
            if await engine.refresh_leads():
                break
        expected = {lead: [f"gw {lead}-{n}" for n in range(8 if lead < 3 else 7)] for lead in (1, 2, 3, 4)}
        for n in range(8):
            for lead, texts in expected.items():
                if n < len(texts):
                    store.enqueue("log_activity", {"lead_id": lead, "description": texts[n], "contact_id": None}, lead)
        for _ in range(200):
            clock.advance(30)
            await engine.flush(ignore_backoff=True)
            if store.outbox_counts().queued == 0:
                break
    assert store.outbox_counts().queued == 0 and store.outbox_counts().failed == 0
    for lead, texts in expected.items():
        assert [t for t in server_rows(faulty_sandbox, "outreach_touchpoints", "description", lead)
                if t.startswith("gw ")] == texts
