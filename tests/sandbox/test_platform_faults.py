"""Fault injection: seeded; `error` answers 503 before any effect; `drop` commits then drops."""

from __future__ import annotations

import time

import httpx
import pytest

from warmline_sandbox.faults import FaultInjector
from warmline_sandbox.settings import FaultSpec


def test_parse_the_fault_spec() -> None:
    spec = FaultSpec.parse("latency=200ms, error=0.2,drop=0.1,burst429=0.05,burst_length=3")
    assert spec == FaultSpec(latency_ms=200.0, error=0.2, drop=0.1, burst429=0.05, burst_length=3)
    assert FaultSpec.parse("latency=0.5s").latency_ms == 500.0
    assert FaultSpec.parse(None) == FaultSpec() and not FaultSpec().active
    for bad in ("error=2", "oops=1", "latency=fast", "drop"):
        with pytest.raises(ValueError):
            FaultSpec.parse(bad)


def test_the_same_seed_gives_the_same_faults() -> None:
    spec = FaultSpec(error=0.3, drop=0.3, burst429=0.1)

    def draw(seed: int) -> list:
        injector = FaultInjector(spec, seed=seed)
        return [injector.plan("key:a") for _ in range(200)]

    plans = [draw(5), draw(5)]
    assert plans[0] == plans[1]
    assert draw(6) != plans[0]
    assert {p.error for p in plans[0]} == {True, False} and {p.drop for p in plans[0]} == {True, False}


async def total(client: httpx.AsyncClient) -> int:
    return (await client.get("/v1/companies", params={"per_page": 1})).json()["pagination"]["total"]


async def test_error_answers_503_and_does_nothing(app_factory, client_factory, client: httpx.AsyncClient) -> None:
    before = await total(client)
    faulty = app_factory(faults=FaultSpec(error=1.0))
    async with client_factory(faulty) as flaky:
        response = await flaky.post("/v1/companies", json={"name": "Never Saved"})
        assert response.status_code == 503
        assert response.json() == {"success": False, "message": "Service temporarily unavailable", "errors": None}
        assert "x-ratelimit-remaining" in response.headers
        assert (await flaky.get("/v1/health")).status_code == 200, "health is never faulted"
    assert await total(client) == before


async def test_drop_commits_then_gives_no_answer(app_factory, client_factory, client: httpx.AsyncClient) -> None:
    faulty = app_factory(faults=FaultSpec(drop=1.0))
    async with client_factory(faulty) as flaky:
        with pytest.raises(httpx.RemoteProtocolError):
            await flaky.post("/v1/companies", json={"name": "Dropped But Saved"}, headers={"Idempotency-Key": "d1"})
    found = (await client.get("/v1/companies", params={"search": "Dropped But Saved"})).json()
    assert found["pagination"]["total"] == 1
    replay = await client.post("/v1/companies", json={"name": "Dropped But Saved"}, headers={"Idempotency-Key": "d1"})
    assert replay.headers["idempotent-replayed"] == "true", "the retry of a dropped request is replayed"
    assert replay.json()["data"]["id"] == found["data"][0]["id"]


async def test_burst429_answers_a_run_of_429s(app_factory, client_factory) -> None:
    faulty = app_factory(faults=FaultSpec(burst429=1.0, burst_length=3))
    async with client_factory(faulty) as flaky:
        responses = [await flaky.get("/v1/companies") for _ in range(4)]
    assert [r.status_code for r in responses] == [429, 429, 429, 429]
    assert all(r.headers["retry-after"] == "1" and "x-ratelimit-reset" in r.headers for r in responses)


async def test_latency_delays_each_request(app_factory, client_factory) -> None:
    faulty = app_factory(faults=FaultSpec(latency_ms=80))
    async with client_factory(faulty) as slow:
        started = time.perf_counter()
        assert (await slow.get("/v1/companies/fields")).status_code == 200
        assert time.perf_counter() - started >= 0.08
