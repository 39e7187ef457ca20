"""`warmline sync --once` against a service that answers the lead list with a 503, garbage,
the wrong shape or an empty 200 (issue #11, item 8): one line saying the refresh of the
lead list failed, exit 1 (docs/cli.md), and the status the cockpit reads says failing.
Before, it printed its usual summary and exited 0."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.hostile_server import Canned, HostileServer, Reply, error_reply, json_reply
from warmline.cli import main
from warmline.store import Store

LEADS = "/v1/outreach/leads"
HEALTH = {"success": True, "status": "ok", "version": "1.0", "time": "2026-11-22T09:00:00.000Z", "authenticated": True}

BAD_ANSWERS: dict[str, Reply] = {
    "503": error_reply(503, "Service temporarily unavailable"),
    "garbage": Canned(200, b"\x00\xffnot json at all", {"Content-Type": "application/json"}),
    "wrong-shape": json_reply({"success": True, "data": {"leads": 42}}),
    "empty-200": Canned(200, b""),
}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hostile: HostileServer) -> Iterator[Path]:
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WARMLINE_BASE_URL", hostile.url)
    monkeypatch.setenv("WARMLINE_API_KEY", "hostile-key")
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "absent.toml"))
    yield tmp_path / "data"


@pytest.mark.parametrize("answer", list(BAD_ANSWERS), ids=list(BAD_ANSWERS))
def test_sync_once_says_the_lead_list_refresh_failed_and_exits_1(
    env: Path, hostile: HostileServer, answer: str
) -> None:
    hostile.on("/v1/health", json_reply(HEALTH))
    hostile.on(LEADS, BAD_ANSWERS[answer])
    result = CliRunner().invoke(main, ["sync", "--once"])
    assert result.exit_code == 1, result.output
    failures = [line for line in result.stderr.splitlines() if line.startswith("Refresh of the lead list failed: ")]
    assert len(failures) == 1, result.stderr
    assert "Refreshed" not in result.stdout
    assert hostile.requests_to(LEADS)
    store = Store(next(env.rglob("*.sqlite3")))
    try:
        assert store.get_state("service_failing", "").startswith("lead list (")
    finally:
        store.close()


def test_sync_once_after_the_service_recovers_exits_0_and_clears_failing(env: Path, hostile: HostileServer) -> None:
    hostile.on("/v1/health", json_reply(HEALTH))
    hostile.on(LEADS, BAD_ANSWERS["503"])
    assert CliRunner().invoke(main, ["sync", "--once"]).exit_code == 1
    empty = json_reply({"success": True, "data": [], "pagination": {"page": 1, "total": 0, "total_pages": 0}})
    hostile.on(LEADS, empty)
    hostile.on("*", empty)  # companies, contacts, field schemas, research templates: none
    result = CliRunner().invoke(main, ["sync", "--once"])
    assert result.exit_code == 0, result.output
    assert "Refresh of" not in result.output and "Refreshed 0 lead(s)." in result.stdout
    store = Store(next(env.rglob("*.sqlite3")))
    try:
        assert store.get_state("service_failing") is None
    finally:
        store.close()
