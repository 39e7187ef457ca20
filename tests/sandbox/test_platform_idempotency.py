"""`Idempotency-Key`: replay of a repeat, 422 for another body, and switched off."""

from __future__ import annotations

import asyncio

import httpx

IDEM = {"Idempotency-Key": "op-1"}


async def count_named(client: httpx.AsyncClient, name: str) -> int:
    return (await client.get("/v1/companies", params={"search": name})).json()["pagination"]["total"]


async def test_a_repeat_replays_the_first_answer_without_a_second_effect(client: httpx.AsyncClient) -> None:
    first = await client.post("/v1/companies", json={"name": "Once Ltd"}, headers=IDEM)
    again = await client.post("/v1/companies", json={"name": "Once Ltd"}, headers=IDEM)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert "x-ratelimit-remaining" in again.headers
    assert await count_named(client, "Once Ltd") == 1


async def test_the_same_key_with_another_body_is_422(client: httpx.AsyncClient) -> None:
    await client.post("/v1/companies", json={"name": "First"}, headers=IDEM)
    other = await client.post("/v1/companies", json={"name": "Second"}, headers=IDEM)
    assert other.status_code == 422
    assert other.json()["message"] == "Idempotency-Key was already used with a different request"
    assert await count_named(client, "Second") == 0


async def test_keys_are_per_api_key_and_errors_are_replayed_too(client: httpx.AsyncClient) -> None:
    missing = await client.put("/v1/companies/987654321", json={"name": "x"}, headers={"Idempotency-Key": "k"})
    replay = await client.put("/v1/companies/987654321", json={"name": "x"}, headers={"Idempotency-Key": "k"})
    assert missing.status_code == replay.status_code == 404
    assert replay.headers["idempotent-replayed"] == "true"


async def test_unauthorized_answers_are_not_stored(client: httpx.AsyncClient, anon_client: httpx.AsyncClient) -> None:
    headers = {"Authorization": "Bearer wrong", "Idempotency-Key": "op-x"}
    assert (await anon_client.post("/v1/companies", json={"name": "Later"}, headers=headers)).status_code == 401
    assert (await client.post("/v1/companies", json={"name": "Later"}, headers={"Idempotency-Key": "op-x"})).status_code == 201


async def test_reads_and_overlong_keys(client: httpx.AsyncClient) -> None:
    read = await client.get("/v1/companies", headers=IDEM)
    assert "idempotent-replayed" not in read.headers
    long_key = await client.post("/v1/companies", json={"name": "A"}, headers={"Idempotency-Key": "k" * 256})
    assert long_key.status_code == 400


async def test_switched_off_every_request_takes_effect(app_factory, client_factory) -> None:
    app = app_factory(idempotency=False)
    async with client_factory(app) as client:
        for _ in range(2):
            response = await client.post("/v1/companies", json={"name": "Twice Ltd"}, headers=IDEM)
            assert response.status_code == 201 and "idempotent-replayed" not in response.headers
        assert await count_named(client, "Twice Ltd") == 2


async def test_concurrent_repeats_take_effect_once(client: httpx.AsyncClient) -> None:
    headers = {"Idempotency-Key": "race"}
    responses = await asyncio.gather(*(client.post("/v1/companies", json={"name": "Race Ltd"}, headers=headers)
                                       for _ in range(5)))
    assert {r.json()["data"]["id"] for r in responses} == {responses[0].json()["data"]["id"]}
    assert sum(r.headers.get("idempotent-replayed") == "true" for r in responses) == 4
    assert await count_named(client, "Race Ltd") == 1
