"""The company page's deep research as a rep reads it (`research_text`): the summary, the
facts, and the sources under their own heading, each title apart from its link."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from warmline.store.company_page import findings_of
from warmline.store.rows import Job
from warmline.tui.screens.prospecting.company import research_text

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


def research(results: dict[str, Any]) -> Job:
    return Job(
        key=1, kind="company_research", remote_id="7", lead_id=None, company_id=5, status="completed",
        active=False, progress=100, params={}, result_summary=None, error=None, created_at=None,
        updated_at=None, completed_at="2026-11-28T08:59:00.000Z", next_poll_at=None, queued_offline=False,
        results_applied=True, op_id=None, raw={"results": results},
    )


def test_sources_have_a_heading_and_each_title_is_apart_from_its_link() -> None:
    job = research({
        "summary": "Abbott & Turner builds lab automation.",
        "key_facts": ["Opened a new office in 2026."],
        "sources": [
            {"title": "Abbott & Turner careers", "url": "https://abbottturner.ch/careers"},
            {"title": "", "url": "https://abbottturner.ch/news"},
        ],
    })
    lines = research_text(job, findings_of(job), NOW, UTC, "R").plain.splitlines()
    assert lines == [
        "Deep research · 1 min ago",
        "  Abbott & Turner builds lab automation.",
        "  • Opened a new office in 2026.",
        "  Sources",
        "    Abbott & Turner careers · https://abbottturner.ch/careers",
        "    https://abbottturner.ch/news",
    ]


def test_no_sources_no_heading() -> None:
    job = research({"summary": "Growing", "key_facts": [], "sources": []})
    assert "Sources" not in research_text(job, findings_of(job), NOW, UTC, "R").plain
