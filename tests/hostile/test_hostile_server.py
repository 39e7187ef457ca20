"""The hostile server itself: each behaviour does what the hardening tests rely on."""

from __future__ import annotations

import httpx
import pytest

from support.hostile_server import (
    CloseMidBody,
    Drip,
    HostileServer,
    Huge,
    Silent,
    endless_pages,
    error_reply,
    json_reply,
    nested_json,
)


def test_script_per_route_last_reply_repeats_and_requests_are_recorded(hostile: HostileServer) -> None:
    hostile.on("/v1/health", json_reply({"status": "ok"}, headers={"X-RateLimit-Reset": "1e400"}),
               error_reply(503, "down"))
    with httpx.Client(base_url=hostile.url) as http:
        first = http.get("/v1/health", headers={"Authorization": "Bearer k"})
        statuses = [http.get("/v1/health").status_code for _ in range(3)]
        other = http.post("/v1/other", json={"a": 1})
    assert first.json() == {"status": "ok"} and first.headers["x-ratelimit-reset"] == "1e400"
    assert statuses == [503, 503, 503]
    assert other.status_code == 404
    assert [r.path for r in hostile.requests] == ["/v1/health"] * 4 + ["/v1/other"]
    assert hostile.requests[0].headers["authorization"] == "Bearer k"
    assert hostile.requests[-1].json() == {"a": 1}
    assert hostile.url.startswith("http://127.0.0.1:")


def test_drip_defeats_a_per_read_timeout(hostile: HostileServer) -> None:
    hostile.on("*", Drip(every=0.05, length=40))
    with httpx.Client(base_url=hostile.url, timeout=5) as http:
        response = http.get("/slow")
    assert response.content == b" " * 40


def test_silent_and_close_mid_body(hostile: HostileServer) -> None:
    hostile.on("/silent", Silent())
    hostile.on("/cut", CloseMidBody())
    with httpx.Client(base_url=hostile.url, timeout=0.3) as http:
        with pytest.raises(httpx.ReadTimeout):
            http.get("/silent")
        with pytest.raises(httpx.RemoteProtocolError):
            http.get("/cut")


@pytest.mark.parametrize("chunked", [False, True])
def test_huge_is_valid_json_of_about_the_size_asked(hostile: HostileServer, chunked: bool) -> None:
    hostile.on("*", Huge(size=300_000, chunked=chunked))
    with httpx.Client(base_url=hostile.url) as http:
        response = http.get("/big")
    assert 290_000 < len(response.content) <= 300_000
    assert len(response.json()["data"]) > 10_000


def test_nested_and_endless_pages(hostile: HostileServer) -> None:
    hostile.on("/deep", nested_json(5))
    hostile.on("/leads", endless_pages(lambda n: {"id": n + 1}))
    with httpx.Client(base_url=hostile.url) as http:
        assert http.get("/deep").json() == [[[[[]]]]]
        page = http.get("/leads", params={"page": 777, "per_page": 2}).json()
    assert page == {"data": [{"id": 1553}, {"id": 1554}],
                    "pagination": {"page": 777, "per_page": 2, "total": 2_000_000, "total_pages": 1_000_000}}


def test_stops_by_itself_after_its_lifetime() -> None:
    server = HostileServer(lifetime=0.2).start()
    server.on("*", Silent())
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http, pytest.raises(httpx.TransportError):
            http.get("/x")  # the stalled answer ends when the lifetime does
    finally:
        server.stop()
    assert server._thread is not None and not server._thread.is_alive()
