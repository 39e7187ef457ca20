"""`warmline sync --once` caches every lead's detail: with the server stopped afterwards,
every `warmline lead ID --json` still has its detail (the demo's 60 leads, under the
demo server's default rate limit of 600 requests a minute)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from warmline.cli import main
from warmline_sandbox.server import start_in_thread
from warmline_sandbox.settings import SandboxSettings

KEY = "prefetch-cli-key"
LEADS = 60


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_after_sync_once_every_lead_reads_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = SandboxSettings(
        db_path=tmp_path / "sandbox.sqlite3", api_keys=[KEY], seed=42, companies=300, leads=LEADS,
        job_seconds=20.0, rate_limit=(600, 60.0), port=0,
    )
    server = start_in_thread(settings)
    monkeypatch.setenv("WARMLINE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WARMLINE_BASE_URL", server.url)
    monkeypatch.setenv("WARMLINE_API_KEY", KEY)
    monkeypatch.setenv("WARMLINE_CONFIG", str(tmp_path / "absent.toml"))
    try:
        synced = run("sync", "--once")
        assert synced.exit_code == 0, synced.output
        assert f"Details cached offline: {LEADS} of {LEADS} leads." in synced.output
    finally:
        server.stop()

    leads = json.loads(run("leads", "--json").output)
    assert len(leads) == LEADS
    for line in leads:
        shown = run("lead", str(line["id"]), "--json")
        assert shown.exit_code == 0, shown.output
        detail = json.loads(shown.stdout)
        assert detail["detail_fetched_at"] is not None, line["id"]
        assert len(detail["touchpoints"]) == min(line["activity_count"], 50), line["id"]
        assert detail["company"], line["id"]
