"""A cache belongs to the service its data came from.

Pointing Warmline at another service (staging after production, another vendor's host)
kept the old cache: its leads, and its queued actions, which the new service would have
received for whichever of its own leads had the same ids. The cache now records the
service's address at its first sync; an engine or a lookup for another address is refused
before anything is sent or read, with one line naming both and the ways out. A service
that moved is adopted with `warmline cache adopt`. The address leaves out user:password@
and the difference between `https://h/v1` and `https://H:443/v1/`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI

from support.cli_sandbox import BASE_URL, open_store, run, serve
from warmline.config import load_config
from warmline.exit_codes import EXIT_CACHE
from warmline.wiring import WiringError, make_engine, service_address

OTHER = "https://staging.salesintelligence.example/"


def test_the_address_is_the_service_not_how_it_is_written() -> None:
    assert service_address("https://API.example.com/v1/") == "https://api.example.com/v1"
    assert service_address("https://api.example.com:443/v1") == "https://api.example.com/v1"
    assert service_address("https://rep:s3cret@api.example.com/v1") == "https://api.example.com/v1"
    assert service_address("http://127.0.0.1:8080/") == "http://127.0.0.1:8080"
    assert service_address("https://api.example.com/v1") != service_address("https://api.example.com/v2")


def test_the_first_sync_binds_the_cache_and_another_service_is_refused(
    online: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(online)
    op_id = store.enqueue("add_note", {"lead_id": 1, "content": "For the first service"}, 1)
    store.close()
    assert run("sync", "--once").exit_code == 0
    with open_store(online) as store:
        assert store.service_address() == service_address(BASE_URL)
        assert store.get_op(op_id).state == "done"
        queued = store.enqueue("add_note", {"lead_id": 1, "content": "Still for the first"}, 1)
    monkeypatch.setenv("WARMLINE_BASE_URL", OTHER)
    result = run("sync", "--once")
    assert result.exit_code == EXIT_CACHE
    message = result.stderr
    assert service_address(BASE_URL) in message and service_address(OTHER) in message
    assert "nothing was sent" in message and "warmline cache adopt" in message
    with open_store(online) as store:
        assert store.get_op(queued).state == "pending"  # not sent to the other service
        assert store.service_address() == service_address(BASE_URL)


def test_log_says_at_once_that_it_will_not_be_sent(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The queue path hands its send to a background sender, which would fail unseen: the
    command says so itself, and the action stays queued for the cache's own service."""
    assert run("sync", "--once").exit_code == 0
    monkeypatch.setenv("WARMLINE_BASE_URL", OTHER)
    logged = run("log", "1", "Called from the wrong config")
    assert logged.exit_code == 0
    assert "Queued; not sent: this cache holds the data of" in logged.stderr + logged.stdout
    with open_store(online) as store:
        assert [op.state for op in store.outbox_rows()] == ["pending"]


def test_a_lookup_for_another_service_is_refused_before_it_is_spent(
    online: Path, sandbox: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("sync", "--once").exit_code == 0
    monkeypatch.setenv("WARMLINE_BASE_URL", OTHER)
    result = run("lookup", "--industry", "Logistics")
    assert result.exit_code == EXIT_CACHE and "warmline cache adopt" in result.stderr


def test_a_service_that_moved_is_adopted(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("sync", "--once").exit_code == 0
    with open_store(online) as store:
        queued = store.enqueue("add_note", {"lead_id": 1, "content": "Goes to the new address"}, 1)
    monkeypatch.setenv("WARMLINE_BASE_URL", OTHER)
    adopted = run("cache", "adopt")
    assert adopted.exit_code == 0, adopted.output
    assert f"now belongs to {service_address(OTHER)}" in adopted.stdout
    assert f"(was {service_address(BASE_URL)})" in adopted.stdout
    assert run("sync", "--once").exit_code == 0  # the in-process service answers at any address
    with open_store(online) as store:
        assert store.get_op(queued).state == "done"
        assert store.service_address() == service_address(OTHER)
    again = run("cache", "adopt")
    assert again.exit_code == 0 and "already belongs to" in again.stdout


def test_a_password_in_the_address_is_never_stored(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARMLINE_BASE_URL", "http://rep:s3cret@127.0.0.1:9/")  # loopback http
    serve(monkeypatch, None)
    run("sync", "--once")  # offline: bound all the same, before the first request
    raw = (online / "cache.sqlite3").read_bytes() + b"".join(
        path.read_bytes() for path in online.glob("cache.sqlite3-*")
    )
    assert b"s3cret" not in raw
    with open_store(online) as store:
        assert store.service_address() == "http://127.0.0.1:9"


def test_an_address_that_never_answered_is_corrected_freely(
    offline: Path, sandbox: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first start with a mistyped address: nothing came from it, so the corrected one
    is taken without a word."""
    assert run("sync", "--once").exit_code == 4  # offline: bound to it, holding nothing
    with open_store(offline) as store:
        assert store.service_address() == service_address(BASE_URL)
    monkeypatch.setenv("WARMLINE_BASE_URL", OTHER)
    serve(monkeypatch, sandbox)
    assert run("sync", "--once").exit_code == 0
    with open_store(offline) as store:
        assert store.service_address() == service_address(OTHER)


def test_the_cockpit_s_engine_is_refused_the_same_way(online: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("sync", "--once").exit_code == 0
    monkeypatch.setenv("WARMLINE_BASE_URL", OTHER)
    with open_store(online) as store, pytest.raises(WiringError) as refused:
        make_engine(store, load_config())
    assert refused.value.exit_code == EXIT_CACHE
