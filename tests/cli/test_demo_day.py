"""`warmline demo`'s morning: a new demo data set gives a Today with every section a rep
works through at 08:55 (REP-DAY.md) filled from the seeded data, made once per data dir.

In-process: the sandbox app behind `httpx.ASGITransport` (`support.cli_sandbox`), seeded
on the system clock as `warmline demo` seeds it, the demo's first sync and first-start
additions, then Today's read model at the real now."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from support.cli_sandbox import KEY, configure, serve
from warmline.commands.common import open_config
from warmline.commands.demo import _first_sync
from warmline.commands.demo_day import (
    first_start,
    make_morning,
)
from warmline.store import Store
from warmline.store.followups import FollowUps
from warmline.store.today import today_page
from warmline_sandbox.app import create_app
from warmline_sandbox.demo_meta import read_demo_deep_search_job
from warmline_sandbox.outreach.seed import PROMISE, READY_LEADS
from warmline_sandbox.settings import SandboxSettings


def test_a_fresh_demo_gives_a_today_with_each_section(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = tmp_path / "demo"
    root.mkdir()
    settings = SandboxSettings(
        db_path=root / "sandbox.sqlite3",
        api_keys=[KEY],
        seed=42,
        companies=300,
        leads=60,
        job_seconds=0.2,
    )
    app = create_app(settings)  # the system clock, as `warmline sandbox` runs
    try:
        serve(monkeypatch, app)
        configure(monkeypatch, root / "cache")
        config = dataclasses.replace(open_config(), data_dir=root / "cache")
        asyncio.run(_first_sync(config))
        assert first_start(root)
        job_id = read_demo_deep_search_job(settings.db_path)
        assert job_id is not None
        now = datetime.now().astimezone()
        made = asyncio.run(make_morning(config, settings.db_path, root, now))
        assert made >= 1 and not first_start(root)
        store = Store(config.db_path)
        try:
            with FollowUps(config.data_dir) as followups:
                page = today_page(store, now, follow_ups=followups)
        finally:
            store.close()
    finally:
        app.state.db.close()
    assert page.since is None  # a first start: "since yesterday"
    assert [(job.kind, job.remote_id, job.status) for job in page.finished_jobs] == [
        ("deep_search", str(job_id), "completed")
    ]
    assert len(page.ready_leads) == READY_LEADS
    yesterday = page.today - timedelta(days=1)
    assert all(
        lead.reached_at is not None and lead.reached_at >= yesterday for lead in page.ready_leads
    )
    assert page.going_cold_total > 0
    promised = [f for f in page.follow_ups if "promised to send" in f.text]
    assert len(promised) == 1 and promised[0].source == "activity"
    assert promised[0].text.endswith(PROMISE.split("}")[-1])
    assert promised[0].due <= now.date()
    assert page.recommendations.total > 0
    assert not page.failed_ops  # the demo fakes no failure
