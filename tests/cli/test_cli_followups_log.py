"""`warmline log` and `warmline note` keep the follow-up their text promises (the same
action as the cockpit's forms) and say so on stderr; their `--json` carries it."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from support.cli_sandbox import open_store, run
from warmline.exporting import FOLLOWUP_COLUMNS

NOW = datetime(2026, 11, 24, 9, 0, tzinfo=timezone(timedelta(hours=1)))  # a Tuesday morning


@pytest.fixture
def desk(offline: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache with one lead, no service, and the rep's clock at `NOW`."""
    monkeypatch.setattr("warmline.actions.followups.rep_now", lambda: NOW)
    with open_store(offline) as store:
        store.upsert_leads([{"id": 1, "company_name": "Nordlys Freight"}])
    return offline


def listed(*args: str) -> list[dict[str, object]]:
    result = run("followups", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_log_keeps_the_follow_up_its_text_promises_and_says_so(desk: Path) -> None:
    result = run("log", "1", "Called Dana, she wants pricing by Friday")
    assert result.exit_code == 0, result.output
    assert "Follow-up: Fri 27 Nov (by Friday)" in result.stderr
    with open_store(desk) as store:
        [op] = store.outbox_rows()
    [item] = listed()
    assert item == {
        "id": 1, "lead_id": 1, "company": "Nordlys Freight", "text": "Called Dana, she wants pricing by Friday",
        "source": "activity", "source_op_id": op.op_id, "due": "2026-11-27", "at": None, "state": "upcoming",
        "promised": "2026-11-27", "snoozed_until": None, "phrase": "by Friday",
        "created_at": item["created_at"], "done_at": None,
    }  # fmt: skip
    assert list(item) == list(FOLLOWUP_COLUMNS)


def test_note_keeps_one_too_and_its_json_carries_it(desk: Path) -> None:
    result = run("note", "1", "Demo tomorrow at 10", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    kept = answer["follow_up"]
    assert (kept["source"], kept["due"], kept["at"], kept["source_op_id"]) == (
        "note",
        "2026-11-25",
        "10:00",
        answer["op_id"],
    )
    assert "Follow-up: Wed 25 Nov 10:00 (tomorrow at 10)" in result.stderr


def test_text_naming_no_time_makes_none_and_says_nothing(desk: Path) -> None:
    result = run("log", "1", "Called, no answer", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["follow_up"] is None
    assert "Follow-up" not in result.stderr
    assert listed("--due", "all") == []


def test_a_follow_ups_file_that_cannot_be_used_does_not_fail_the_log(desk: Path) -> None:
    (desk / "followups.db").mkdir()  # a directory where the file should be
    result = run("log", "1", "Pricing by Friday")
    assert result.exit_code == 0, result.output
    assert "warning: no follow-up was kept" in result.stderr
    with open_store(desk) as store:
        assert len(store.outbox_rows()) == 1  # the activity is queued all the same


def test_an_activity_refused_keeps_no_follow_up(desk: Path) -> None:
    result = run("log", "1", "x" * 5001 + " by Friday")
    assert result.exit_code == 2, result.output
    assert "Follow-up" not in result.stderr
    assert listed("--due", "all") == []
